"""The turn machine: a stack of frames, pending decisions, and free actions.

The state keeps a stack of frames (round, phase, step, mission, challenge,
attempt, window, ...). :func:`advance` runs the top frame until some
decision is pending or the game is over; a frame either asks decisions
(:func:`ask`), pushes a child frame (:func:`push`) or finishes and hands a
value to its parent (:func:`finish`, read back as ``frame["ret"]``). Every
frame and every pending decision is plain data, so a game can stop after
any decision and resume from its stored state (boardgame.io's stages, as
data; "an effect that needs a choice leaves a pending decision").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pbem.engine.protocol import Decision, Option
from pbem.engine.rng import Rng

State = dict[str, Any]
Frame = dict[str, Any]
Runner = Callable[[State, Rng, Frame], None]
OptionsFn = Callable[[State, Frame, dict[str, Any]], list[tuple[str, str]]]
ApplyFn = Callable[[State, Rng, Frame, dict[str, Any], str], None]


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision: how to list its options and how to apply one."""

    kind: str
    options: OptionsFn
    apply: ApplyFn
    prompt: str
    pass_id: str | None = None


RUNNERS: dict[str, Runner] = {}
KINDS: dict[str, DecisionKind] = {}
#: free actions offered inside every decision (sell an Item "at any time", NL:160; give KC in
#: cooperative play "at any time", NL:520) and, where an entry says ``contacts=True``, Contacts used
#: on oneself; a pending entry may opt out with ``free=False``
FREE: list[tuple[Callable[[State, str, dict[str, Any]], list[tuple[str, str]]], Callable[..., bool]]] = []


def runner(name: str) -> Callable[[Runner], Runner]:
    def register(fn: Runner) -> Runner:
        RUNNERS[name] = fn
        return fn

    return register


def decision(kind: str, prompt: str, pass_id: str | None = None):
    """Register a decision kind: decorate its options function, then its apply
    function with ``@options_fn.apply``. Whether a decision is simultaneous is
    set on each pending entry (a Crew's assist choices, several picks at once)."""

    def register_options(options_fn: OptionsFn) -> OptionsFn:
        def register_apply(apply_fn: ApplyFn) -> ApplyFn:
            KINDS[kind] = DecisionKind(kind, options_fn, apply_fn, prompt, pass_id)
            return apply_fn

        options_fn.apply = register_apply  # type: ignore[attr-defined]
        return options_fn

    return register_options


def push(state: State, frame_type: str, **fields: Any) -> Frame:
    frame = {"type": frame_type, "step": "start", **fields}
    state["stack"].append(frame)
    return frame


def finish(state: State, value: Any = None) -> None:
    state["stack"].pop()
    if state["stack"]:
        state["stack"][-1]["ret"] = value


def ask(state: State, player: str, kind: str, **extra: Any) -> None:
    state["pending"].append({"player": player, "kind": kind, **extra})


def advance(state: State, rng: Rng) -> None:
    """Run frames until a decision is pending or the game is over."""
    while not state["pending"] and not state["over"] and state["stack"]:
        frame = state["stack"][-1]
        RUNNERS[frame["type"]](state, rng, frame)
    if state["over"]:
        state["pending"] = []


def entry_for(state: State, player: str) -> dict[str, Any] | None:
    for entry in state["pending"]:
        if entry["player"] == player:
            return entry
    return None


def options_of(state: State, entry: dict[str, Any]) -> list[tuple[str, str]]:
    kind = KINDS[entry["kind"]]
    options = list(kind.options(state, state["stack"][-1], entry))
    if entry.get("free", True):
        for offer, _ in FREE:
            options.extend(offer(state, entry["player"], entry))
    return options


def decisions(state: State) -> list[Decision]:
    result = []
    for entry in state["pending"]:
        kind = KINDS[entry["kind"]]
        options = tuple(Option(i, label) for i, label in options_of(state, entry))
        result.append(
            Decision(
                player=entry["player"],
                kind=entry["kind"],
                options=options,
                prompt=entry.get("prompt", kind.prompt),
                pass_id=kind.pass_id,
                simultaneous=bool(entry.get("simultaneous")),
            )
        )
    return result


def apply(state: State, player: str, option_id: str, rng: Rng) -> None:
    entry = entry_for(state, player)
    assert entry is not None, f"no decision of {player!r} is pending"
    if entry.get("free", True):
        for _, act in FREE:
            if act(state, rng, player, option_id):
                advance(state, rng)
                return
    state["pending"].remove(entry)
    KINDS[entry["kind"]].apply(state, rng, state["stack"][-1], entry, option_id)
    advance(state, rng)
