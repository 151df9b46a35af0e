"""Orders: a player's answers to the decisions of some kinds, given in advance, sealed, carried out by the referee.

A move's sealed payload may carry ``standing_orders: {"orders": {KIND:
ORDER}}``, where an ORDER is a list of rules and a fallback::

    {"rules": [{"if": {"chain-colour": "red"}, "choose": {"colour": "blue"}},
               {"choose": {"card": "koi-jiang"}}],
     "fallback": "pass"}

and ``"off"`` in its place cancels the order for that kind. Each rule
names facts about the decision (``if``: its decision tests) and the option
to choose (``choose``: ``"pass"``, ``"first"``, or option tests, all of
which the option must pass); the first rule that holds and finds an option
answers; otherwise the fallback does (``pass``: the decision's pass where
it offers one, else its first option; ``first``: its first option). The
tests are the generic ones and those the game declares for the kind
(:mod:`pbem.engine.ordertests`).

**Orders are total.** An order for a kind answers every decision of that
kind for its player, by a rule or by its fallback, in the step that opens
it; it never waits in some hands and not in others. So whether the game
waits for a player's decision of a kind depends only on whether they have
an order for that kind, and that is public: every turn names, for each
player, the kinds they have orders for (``orders``), and the decisions of
its step that orders answered (``by_order``), never the rules nor why an
option was chosen (docs/trust.md, "No timing channel"). An order chooses
what its rules say, and that choice shows in the public events exactly as
the same choice made by hand would.

Orders are few and short: at most 24 kinds a move, 4 rules an order, each
at most :data:`ORDER_MAX_BYTES` as canonical JSON
(``schemas/standing-orders.schema.json`` and :func:`problems`), and every
sealed section that holds them is padded by :data:`ORDER_MAX_BYTES` for
each kind a player has an order for (:func:`allowance`), a public count, so
that a section's length says nothing of what the orders say.

The form before orders, ``auto_pass: {KIND: "always" | "off"}``, is still
read as it was (pass where the decision offers its pass option, recorded as
``"by": "standing-order"``), so that games that set it replay byte for byte;
``pbem move`` writes orders.

Orders are set with a move, by the awaited player: with choices, or alone
when an order answers the player's open decision at once. So every turn a
move writes answers a real decision, and nobody grows the archive for
nothing (docs/referee.md, "Orders").
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from typing import Any

from pbem.crypto.canonical import canonical_json
from pbem.engine.ordertests import GENERIC, PATTERN, OrderTest, label_matches
from pbem.engine.protocol import Decision, Game, GameState, apply_choice
from pbem.engine.rng import Rng

#: what the form before orders (``auto_pass``) may say for one decision kind
MODES = ("always", "off")
#: what an order's fallback, or a rule's ``choose``, may be instead of option tests
CHOICES = ("pass", "first")
#: cancels the order for a kind
OFF = "off"
#: an order is at most this long, as canonical JSON; every sealed section that holds a player's orders is
#: padded by as much for each kind they have an order for
ORDER_MAX_BYTES = 384
#: orders answer at most this many decisions in one step: past it, the decisions open wait for their players.
#: It stops a game that orders alone would play on for ever (every player's orders answering every decision of
#: theirs, in a game that ends only by what they do), and bounds a turn's ``by_order``; the count is public
#: (every answer is in ``by_order``), so where a step stops tells nobody anything hidden
ANSWERS_PER_STEP = 256

#: player -> {"orders": {kind: order}, "auto_pass": {kind: "always"}}
Orders = dict[str, dict[str, Any]]

#: why a move of orders alone is refused when it leaves the open decision open
ANSWER_NOTHING = (
    "orders alone must answer your open {kind} decision, but these answer nothing now: "
    "send them with a choice (--choose), so that the move answers a decision"
)
#: why a move of orders alone is refused from a player who is not awaited
NOT_AWAITED = "orders are set with a move when you are awaited"
#: why the referee refuses orders its game's decision kinds do not take (public: it quotes nothing)
UNFIT = ("an order names a test, or gives a value, that its decision kind does not take, or is over "
         f"{ORDER_MAX_BYTES} bytes (pbem games --orders lists what each kind's orders may test)")


# --- what a game's orders may say -------------------------------------------------------------------


def tests_of(game: Game[Any], kind: str) -> dict[str, OrderTest]:
    """What orders for ``kind`` decisions of ``game`` may test: the generic tests and the game's own."""
    declared = getattr(game, "order_tests", None)
    return {**GENERIC, **(declared(kind) if callable(declared) else {})}


def named_kinds(update: dict[str, Any] | None) -> set[str]:
    """The decision kinds an update of orders names."""
    if not update:
        return set()
    return set(update.get("auto_pass", {})) | set(update.get("orders", {}))


def unknown_kinds(game: Game[Any], update: dict[str, Any] | None) -> list[str]:
    """The kinds ``update`` names that are not decision kinds of ``game`` (sorted)."""
    return sorted(named_kinds(update) - game.decision_kinds())


def kinds_text(game: Game[Any]) -> str:
    """The game's decision kinds, for a message: ``"block, draft-pick, link"``."""
    return ", ".join(sorted(game.decision_kinds()))


def _value_problem(test: OrderTest, want: Any) -> str | None:
    """Why ``want`` is no value a rule may give ``test``, or ``None``."""
    if test.type in ("text", "text-list", PATTERN):
        if not isinstance(want, str):
            return f"takes a text, not {json.dumps(want)}"
        if test.values and want not in test.values:
            return f"is one of {', '.join(test.values)}, not {want!r}"
    elif test.type == "boolean":
        if not isinstance(want, bool):
            return f"takes true or false, not {json.dumps(want)}"
    elif isinstance(want, bool) or not isinstance(want, (int, dict)):
        return f"takes a number or a range {{min, max}}, not {json.dumps(want)}"
    elif isinstance(want, dict) and want.get("min", want.get("max")) is None:
        return "takes a range with min, max or both"
    return None


def order_problems(game: Game[Any], kind: str, order: Any) -> list[str]:
    """Why ``order`` (a member of an update's ``orders``, already of its schema) does not fit ``kind``
    decisions of ``game``, in words a player reads (they quote the order: for ``pbem move`` only)."""
    if order == OFF:
        return []
    found = []
    tests = tests_of(game, kind)
    for number, rule in enumerate(order.get("rules", []), start=1):
        for part, about in (("if", "decision"), ("choose", "option")):
            named = rule.get(part, {})
            for name, want in (named.items() if isinstance(named, dict) else ()):
                test = tests.get(name)
                if test is None or test.about != about:
                    offered = sorted(t.name for t in tests.values() if t.about == about)
                    found.append(f"{kind} rule {number}: {part} {name!r}: {kind} decisions have no {about} test "
                                 f"{name!r} (their {about} tests: {', '.join(offered) or 'none'})")
                    continue
                problem = _value_problem(test, want)
                if problem:
                    found.append(f"{kind} rule {number}: {part} {name!r} {problem}")
    size = len(canonical_json(order))
    if size > ORDER_MAX_BYTES:
        found.append(f"the {kind} order is {size} bytes; an order is at most {ORDER_MAX_BYTES}")
    return found


def problems(game: Game[Any], update: dict[str, Any] | None) -> list[str]:
    """Why an update of orders does not fit ``game``: unknown kinds, tests its kinds do not have, values of
    the wrong type, orders over :data:`ORDER_MAX_BYTES` (for ``pbem move``; they quote the update)."""
    if not update:
        return []
    unknown = unknown_kinds(game, update)
    if unknown:
        return [f"{game.name} has no decision kind {', '.join(map(repr, unknown))}; its kinds: {kinds_text(game)}"]
    found = []
    for kind, order in sorted(update.get("orders", {}).items()):
        found += order_problems(game, kind, order)
    return found


def merge(orders: Orders, player: str, update: dict[str, Any] | None) -> Orders:
    """The orders of every player after ``player``'s ``update``.

    An order for a kind replaces the player's order (or ``auto_pass``) for
    it, ``"off"`` cancels both; an ``auto_pass`` entry likewise replaces the
    kind's order.
    """
    merged = copy.deepcopy(orders)
    if not update:
        return merged
    mine = merged.get(player, {})
    auto_pass = dict(mine.get("auto_pass", {}))
    given = dict(mine.get("orders", {}))
    for kind, mode in update.get("auto_pass", {}).items():
        given.pop(kind, None)
        if mode == OFF:
            auto_pass.pop(kind, None)
        else:
            auto_pass[kind] = mode
    for kind, order in update.get("orders", {}).items():
        auto_pass.pop(kind, None)
        if order == OFF:
            given.pop(kind, None)
        else:
            given[kind] = order
    now: dict[str, Any] = {}
    if auto_pass:
        now["auto_pass"] = auto_pass
    if given:
        now["orders"] = dict(sorted(given.items()))
    if now:
        merged[player] = now
    else:
        merged.pop(player, None)
    return merged


def order_kinds(player_orders: Mapping[str, Any] | None) -> list[str]:
    """The kinds a player has orders for (public: every turn names them), sorted."""
    return sorted((player_orders or {}).get("orders", {}))


def public_orders(orders: Orders) -> dict[str, list[str]]:
    """What every turn says of the players' orders: the kinds each has orders for (players without none)."""
    return {player: kinds for player, player_orders in sorted(orders.items()) if (kinds := order_kinds(player_orders))}


def allowance(player_orders: Mapping[str, Any] | None) -> int:
    """How much a section holding ``player_orders`` is padded beyond its size: :data:`ORDER_MAX_BYTES`
    for each kind with an order, a public count."""
    return ORDER_MAX_BYTES * len((player_orders or {}).get("orders", {}))


# --- what an order chooses -------------------------------------------------------------------------


def _holds(test: OrderTest, value: Any, want: Any) -> bool:
    """Whether a test's ``value`` is what a rule wants."""
    if value is None:
        return False
    if test.type == PATTERN:
        return isinstance(value, str) and label_matches(value, want)
    if test.type == "text-list":
        return want in value
    if test.type == "integer" and isinstance(want, dict):
        return want.get("min", value) <= value <= want.get("max", value)
    return bool(value == want and type(value) is type(want))


def _pass_option(decision: Decision) -> str | None:
    pass_id = decision.pass_id
    return pass_id if pass_id is not None and decision.option(pass_id) is not None else None


def _candidates(decision: Decision, exclude: Iterable[str]) -> list[str]:
    """The options an order may choose: not a free action (which leaves the decision open), not excluded."""
    skipped = set(exclude)
    return [o.id for o in decision.options if not o.free and o.id not in skipped]


def _chosen(game: Game[Any], state: Any, decision: Decision, choose: Any, tests: dict[str, OrderTest],
            candidates: list[str]) -> str | None:
    if choose == "pass":
        option = _pass_option(decision)
        return option if option in candidates else None
    if choose == "first":
        return candidates[0] if candidates else None
    for option_id in candidates:
        label = decision.option(option_id).label  # type: ignore[union-attr]  # a candidate is an option
        for name, want in choose.items():
            test = tests[name]
            value = (test.read(option_id, label) if name in GENERIC
                     else game.order_value(state, decision.player, name, option_id))  # type: ignore[attr-defined]
            if not _holds(test, value, want):
                break
        else:
            return option_id
    return None


def rule_answer(game: Game[Any], state: Any, decision: Decision, order: dict[str, Any],
                candidates: list[str]) -> str | None:
    """The option the first rule of ``order`` that holds and finds one among ``candidates`` chooses, or
    ``None`` (the fallback then answers)."""
    tests = tests_of(game, decision.kind)
    for rule in order.get("rules", []):
        condition = rule.get("if", {})
        if all(_holds(tests[name], game.order_value(state, decision.player, name), want)  # type: ignore[attr-defined]
               for name, want in condition.items()):
            option = _chosen(game, state, decision, rule["choose"], tests, candidates)
            if option is not None:
                return option
    return None


def fallback_answer(decision: Decision, order: dict[str, Any], candidates: list[str]) -> str:
    """The option ``order``'s fallback chooses: the pass where the decision offers one (``pass``), else,
    or for ``first``, the first of ``candidates`` (the first option, if none is left)."""
    if not candidates:  # every option was chosen before from here: the fallback decides again
        candidates = _candidates(decision, ())
    option = _pass_option(decision) if order["fallback"] == "pass" else None
    return option if option in candidates else candidates[0] if candidates else decision.options[0].id


def answer(game: Game[Any], state: Any, decision: Decision, order: dict[str, Any], exclude: Iterable[str] = ()) -> str:
    """The option ``order`` chooses for ``decision``: the first rule that holds and finds one, else the
    fallback; never an option in ``exclude`` (chosen before from the same position, :func:`carry_out`)
    while another is left."""
    candidates = _candidates(decision, exclude)
    option = rule_answer(game, state, decision, order, candidates)
    return option if option is not None else fallback_answer(decision, order, candidates)


def answers(decision: Decision, player_orders: Mapping[str, Any] | None) -> bool:
    """Whether a player's orders answer ``decision`` now: an order for its kind always does; the form
    before orders (``auto_pass``) where the decision offers its pass option."""
    player_orders = player_orders or {}
    if decision.kind in player_orders.get("orders", {}):
        return True
    return player_orders.get("auto_pass", {}).get(decision.kind) == "always" and _pass_option(decision) is not None


def _without_events(part: Any) -> Any:
    return {name: value for name, value in part.items() if name != "events"} if isinstance(part, dict) else part


def _position(game: Game[Any], state: Any, decision: Decision) -> str:
    """The position as ``decision``'s player sees it, without the step's events: the public part, their
    private part and the decision."""
    return json.dumps([_without_events(game.public(state)), _without_events(game.private(state, decision.player)),
                       decision.to_json()], sort_keys=True, separators=(",", ":"))


def answer_of(game: Game[Any], state: Any, decision: Decision, player_orders: Mapping[str, Any],
              chosen_from: dict[str, set[str]]) -> dict[str, str] | None:
    """How the player's orders answer ``decision`` now, as the step records it (``{player, option, by}``,
    and ``kind`` for an order), or ``None`` if they do not (:func:`answers`).

    ``chosen_from`` holds, by position as the player sees it (:func:`_position`),
    the options an order chose there before in this step, which it does not
    choose again.
    """
    order = player_orders.get("orders", {}).get(decision.kind)
    if order is not None:
        seen = chosen_from.setdefault(_position(game, state, decision), set())
        option = answer(game, state, decision, order, seen)
        seen.add(option)
        return {"player": decision.player, "option": option, "by": "order", "kind": decision.kind}
    if answers(decision, player_orders):
        assert decision.pass_id is not None
        return {"player": decision.player, "option": decision.pass_id, "by": "standing-order"}
    return None


def carry_out(game: Game[GameState], state: GameState, orders: Orders, rng: Rng,
              step: list[dict[str, str]]) -> GameState:
    """Answer, in a loop, every awaited decision that a player's orders answer (:func:`answer_of`), with
    ``rng``, the step's generator.

    Each answer is recorded in ``step``: ``"by": "order"`` with the
    decision's kind, or ``"by": "standing-order"`` for ``auto_pass``.
    Without an order nothing is answered for a player, whatever they hold.
    An order never chooses twice the same option from the same position as
    its player sees it (:func:`_position`) within a step: so orders whose
    choices undo each other (Nightlancer's "do not use" and "use after
    all") come to their fallback instead of answering for ever. After
    :data:`ANSWERS_PER_STEP` answers the step ends, and the decisions open
    then wait for their players.
    """
    chosen_from: dict[str, set[str]] = {}
    for _ in range(ANSWERS_PER_STEP):
        for decision in game.awaiting(state):
            answered = answer_of(game, state, decision, orders.get(decision.player) or {}, chosen_from)
            if answered is not None:
                state = apply_choice(game, state, decision.player, answered["option"], rng, decision=decision)
                step.append(answered)
                break
        else:
            break
    return state


def by_order(step: Iterable[Mapping[str, str]]) -> list[dict[str, str]]:
    """The decisions of a step that orders answered, as every turn names them: ``{player, kind}`` each, in
    order (which option, and why, is the referee's)."""
    return [{"player": s["player"], "kind": s["kind"]} for s in step if s.get("by") == "order"]
