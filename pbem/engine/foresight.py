"""Foresight: what follows a player's choice, where that depends only on what the player knows.

A player can answer, in one move, every decision of theirs up to the point
where they need information they do not have yet. Applying a choice
**crosses an information boundary** for its player when, between that
choice and the player's next decision, the rules

* draw from the step's generator (:data:`DRAW`: a card drawn, a shuffle, a die);
* read the content of a zone that player may not see (:data:`HIDDEN`: the
  game's declared hidden zones, :class:`pbem.engine.kit.Zone`, each with the
  places in the state where its cards lie; ``len()`` of a hidden pile is a
  public count and reads nothing);
* or await anyone else first (:data:`OTHERS`: an opponent's answer; a
  decision the player makes at the same time as others, a simultaneous
  pick, is not after theirs: :func:`waits_for_others`).

This is decided soundly, not by sampling: the choice is applied to a copy
of the state whose hidden zones, for that player, are watched containers and
whose generator stops at the first draw (:mod:`pbem.engine.watch`), and the
decisions awaited after it are read from the copy, still watched. A false
boundary (a rule that reads a hidden zone it did not need) only stops
foresight early; a missed one would be a leak, so the conformance suite
checks every game's verdicts against redraws of what the player may not know
(``tests/conformance/test_foresight.py``). A game that does not say where
some hidden card lies (a zone without places, or no ``zones`` at all) gets
:data:`HIDDEN` for every choice: nothing is foreseen.

Past no boundary, the player's next decision (or the end of the game,
:data:`OVER`) is a function of what they know, so the referee applies a
move's later choices only so far (``pbem.referee.core``), and it seals
into the player's section the **foresight tree** (:func:`foresee`): for
their open decision, the decision that follows each option, recursively,
within a budget of trials (``nodes``) and a depth.

The API, for the referee and for bots that batch their own decisions:

* :func:`outcome` (``game, state, player, option_id``): the :class:`Outcome`
  of one choice, on a copy: the boundary it crosses, or the state after it
  and the player's next decision;
* :func:`crossing`: the boundary alone (``None``: none);
* :func:`foresee`: the tree (:class:`Node`) of a player's foreseeable
  decisions from their open one; :func:`tree_json` / :func:`tree_from_json`
  its form in a player's section, :func:`trimmed` a prefix of it.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").

from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Union

from pbem.engine.errors import IllegalMoveError, NotAwaitedError
from pbem.engine.plain import copy_plain
from pbem.engine.protocol import Decision, Game, Option, apply_choice
from pbem.engine.watch import DRAW, HIDDEN, Crossing, Place, Watch, WatchedDict, WatchedList, WatchingRng, install

#: another player is awaited before the player's next decision
OTHERS = "others"
#: the game ends, and nothing more is asked of anyone (no boundary: nothing is left to foresee)
OVER = "over"
#: every information boundary, in the order a player reads about them
BOUNDARIES = (DRAW, HIDDEN, OTHERS)
#: what may follow an option in a tree besides a decision
LEAVES = (*BOUNDARIES, OVER)

#: the trials (choices applied to a copy) a tree may take, and how many decisions deep it may go: measured
#: to hold a Nightfall or Nightlancer turn's routine decisions (docs/engine.md, "Foresight")
NODES = 24
DEPTH = 6

__all__ = ["BOUNDARIES", "DEPTH", "DRAW", "HIDDEN", "LEAVES", "NODES", "OTHERS", "OVER", "Node", "Outcome",
           "crossing", "foresee", "outcome", "tree_from_json", "tree_json", "trimmed", "waits_for_others",
           "watched_places"]


class Outcome(NamedTuple):
    """What one choice gives its player, judged on a copy of the state.

    ``boundary`` is the information boundary it crosses (:data:`DRAW`,
    :data:`HIDDEN`, :data:`OTHERS`), or ``None``. Past no boundary,
    ``state`` is the copy after the choice (the caller may go on with it:
    it shares nothing with the state given) and ``decision`` the player's
    next decision, or ``None`` when the game is over.
    """

    boundary: str | None
    state: Any = None
    decision: Decision | None = None


def watched_places(game: Game[Any], state: Any, player: str) -> list[Place] | None:
    """The places in ``state`` of every zone ``player`` may not see, or ``None`` if the game does not say
    where some hidden card lies (it declares no zones, or a zone holding cards names no places)."""
    zones = getattr(game, "zones", None)
    if zones is None:
        return None
    places: list[Place] = []
    for zone in zones(state):
        if player in zone.seen_by:
            continue
        found = getattr(zone, "places", ())
        if not found and zone.cards:
            return None
        places.extend(found)
    return places


def _own_decision(game: Game[Any], state: Any, player: str) -> Decision:
    for decision in game.awaiting(state):
        if decision.player == player:
            return decision
    raise NotAwaitedError(f"no decision of {player!r} is awaited")


def outcome(game: Game[Any], state: Any, player: str, option_id: str, *, decision: Decision | None = None,
            copy: Callable[[Any], Any] = copy_plain) -> Outcome:
    """What choosing ``option_id`` gives ``player``: the boundary it crosses, or the state after and their next
    decision (:class:`Outcome`). ``state`` is left as it is; the choice is applied to ``copy(state)``.

    ``decision`` is the player's open decision, if the caller has it;
    :class:`~pbem.engine.errors.IllegalMoveError` for an option it does not
    offer, :class:`~pbem.engine.errors.NotAwaitedError` for a player not
    awaited. ``copy`` copies a state deeply (the referee's shares its
    read-only static members).
    """
    if decision is None:
        decision = _own_decision(game, state, player)
    elif decision.player != player:
        raise NotAwaitedError(f"the decision given is {decision.player!r}'s, not {player!r}'s")
    if decision.option(option_id) is None:
        raise IllegalMoveError(f"{option_id!r} is not an option of {player!r} in this {decision.kind} decision")
    trial = copy(state)
    places = watched_places(game, trial, player)
    watch = Watch()
    if places is None or not install(trial, places, watch):
        return Outcome(HIDDEN)
    applied = False
    try:
        trial = apply_choice(game, trial, player, option_id, WatchingRng(watch), decision=decision)
        applied = True
        awaited, mine = _after(game, trial, player)
    except Crossing:
        watch.active = False
        if applied:
            awaited, mine = _after(game, trial, player)
            if waits_for_others(awaited, mine):
                return Outcome(OTHERS)  # listing the player's options read a card, but another answers first
        return Outcome(watch.crossed or HIDDEN)
    watch.stop()
    if watch.crossed is not None:  # a rule caught the Crossing: the boundary stands
        return Outcome(watch.crossed)
    if waits_for_others(awaited, mine):
        return Outcome(OTHERS)
    _unwatch_places(trial, places)
    return Outcome(None, trial, mine)


class _Awaited(NamedTuple):
    """Who is awaited, and whether with a simultaneous decision: what :func:`waits_for_others` reads of one."""

    player: str
    simultaneous: bool


def _after(game: Game[Any], state: Any, player: str) -> tuple[list[Any], Decision | None]:
    """Who is awaited in ``state`` (each with ``player`` and ``simultaneous``) and ``player``'s own decision,
    listed under the trial's watch.

    For a game on the turn machine, the others' decisions are read from its
    pending decisions without listing their options: listing them would read
    their hands, and who is awaited, with a decision made at the same time
    or not, is all that is needed of them. Another game's are listed whole
    (:meth:`~pbem.engine.protocol.Game.awaiting`), all of them watched.
    """
    from pbem.engine.machine import MachineGame, TurnMachine  # trials only: a player reading a tree needs no rules

    machine = getattr(game, "machine", None)
    if isinstance(machine, TurnMachine) and type(game).awaiting is MachineGame.awaiting:
        if state["over"]:
            return [], None
        pending = state["pending"]
        awaited = [_Awaited(p["player"], bool(p.get("simultaneous", False))) for p in pending]
        own = next((p for p in pending if p["player"] == player), None)
        return awaited, None if own is None else machine.decision(state, own)
    decisions = game.awaiting(state)
    return decisions, next((d for d in decisions if d.player == player), None)


def waits_for_others(awaiting: Sequence[Any], mine: Decision | None) -> bool:
    """Whether the game awaits another player before ``mine``, the player's decision among ``awaiting`` (each
    with its ``player`` and whether it is ``simultaneous``, as a :class:`~pbem.engine.protocol.Decision` is):
    someone else is awaited and the player either is not, or not at the same time as all of them (a
    simultaneous decision, which each makes without seeing the others' answers, waits for nobody)."""
    if mine is None:
        return bool(awaiting)
    return any(d.player != mine.player for d in awaiting) and not (
        mine.simultaneous and all(d.simultaneous for d in awaiting))


def crossing(game: Game[Any], state: Any, player: str, option_id: str, *, decision: Decision | None = None,
             copy: Callable[[Any], Any] = copy_plain) -> str | None:
    """The information boundary that choosing ``option_id`` crosses for ``player`` (:func:`outcome`), or ``None``."""
    return outcome(game, state, player, option_id, decision=decision, copy=copy).boundary


def _unwatch_places(state: Any, places: list[Place]) -> None:
    """Put plain containers back where the watched ones still lie, so that the state copies fast; one that the
    rules moved elsewhere stays, and reads as the plain one it stands for (:func:`pbem.engine.plain.copy_plain`
    copies it by a walk)."""
    for place in places:
        for depth in (len(place), len(place) - 1):
            parent, key = _parent(state, place[:depth])
            if parent is None:
                continue
            value = parent[key] if isinstance(parent, list) else dict.get(parent, key)
            if isinstance(value, WatchedList):
                parent[key] = list(list.__iter__(value))
            elif isinstance(value, WatchedDict):
                parent[key] = dict(dict.items(value))


def _parent(state: Any, place: Place) -> tuple[Any, Any]:
    """The container holding the end of ``place`` and its key there, or ``(None, None)``."""
    if not place:
        return None, None
    node = state
    for key in place[:-1]:
        if isinstance(node, dict) and dict.__contains__(node, key):
            node = dict.__getitem__(node, key)
        elif isinstance(node, list) and isinstance(key, int) and -len(node) <= key < len(node):
            node = list.__getitem__(node, key)
        else:
            return None, None
    last = place[-1]
    if isinstance(node, dict) and dict.__contains__(node, last):
        return node, last
    if isinstance(node, list) and isinstance(last, int) and -len(node) <= last < len(node):
        return node, last
    return None, None


# --- the tree ------------------------------------------------------------------------------------------


class Node(NamedTuple):
    """One of a player's decisions in a foresight tree, and what follows each option foreseen.

    ``after`` maps an option id to the player's next decision (a
    :class:`Node`), or to what stops foresight there: a boundary
    (:data:`DRAW`, :data:`HIDDEN`, :data:`OTHERS`: what follows depends on
    what the player does not know yet) or :data:`OVER`. An option not in
    ``after`` was not tried (the tree's budget).
    """

    decision: Decision
    after: dict[str, Union["Node", str]]

    def follows(self, option_id: str) -> Union["Node", str, None]:
        """What follows ``option_id`` in the tree: a :class:`Node`, a leaf (a boundary or :data:`OVER`), or
        ``None`` (not foreseen)."""
        return self.after.get(option_id)

    def entries(self) -> Iterator[tuple["Node", str]]:
        """Every entry of the tree, ``(node, option id)``, in the order :func:`foresee` tried them
        (breadth first, options in order)."""
        queue = deque([self])
        while queue:
            node = queue.popleft()
            for option_id, follow in node.after.items():
                yield node, option_id
                if isinstance(follow, Node):
                    queue.append(follow)

    def foresees(self) -> bool:
        """Whether some option leads to a decision of the player or to the end (not only to boundaries)."""
        return any(not (isinstance(follow, str) and follow in BOUNDARIES) for follow in self.after.values())


def foresee(game: Game[Any], state: Any, player: str, *, nodes: int = NODES, depth: int = DEPTH,
            copy: Callable[[Any], Any] = copy_plain) -> Node | None:
    """The foresight tree of ``player`` from their open decision (``None`` if none is open).

    Breadth first: each option of the open decision is tried (:func:`outcome`),
    then each option of each decision found, and so on, until ``nodes``
    trials were made or ``depth`` decisions lie below the open one. While
    the game awaits another player first, every option is :data:`OTHERS`
    without a trial. A function of what ``player`` knows
    (``tests/conformance/test_foresight.py``).
    """
    awaiting = game.awaiting(state)
    decision = next((d for d in awaiting if d.player == player), None)
    if decision is None:
        return None
    root = Node(decision, {})
    if waits_for_others(awaiting, decision):
        root.after.update((option.id, OTHERS) for option in decision.options)
        return root
    queue: deque[tuple[Any, Node, int]] = deque([(state, root, 1)])
    budget = nodes
    while queue and budget > 0:
        at, node, level = queue.popleft()
        for option in node.decision.options:
            if budget <= 0:
                break
            budget -= 1
            found = outcome(game, at, player, option.id, decision=node.decision, copy=copy)
            if found.boundary is not None:
                node.after[option.id] = found.boundary
            elif found.decision is None:
                node.after[option.id] = OVER
            else:
                child = Node(found.decision, {})
                node.after[option.id] = child
                if level < depth:
                    queue.append((found.state, child, level + 1))
    return root


def trimmed(root: Node, entries: int) -> Node:
    """``root`` with its first ``entries`` entries only (:meth:`Node.entries`): a tree that still holds
    every path from the root, the nearest decisions first."""
    kept = {(id(node), option_id) for node, option_id in _first(root.entries(), entries)}

    def copy_node(node: Node) -> Node:
        after: dict[str, Node | str] = {}
        for option_id, follow in node.after.items():
            if (id(node), option_id) in kept:
                after[option_id] = copy_node(follow) if isinstance(follow, Node) else follow
        return Node(node.decision, after)

    return copy_node(root)


def _first(items: Iterator[tuple[Node, str]], count: int) -> Iterator[tuple[Node, str]]:
    for number, item in enumerate(items):
        if number >= count:
            return
        yield item


# --- the tree as a player's section holds it --------------------------------------------------------------


def tree_json(root: Node) -> dict[str, Any]:
    """The tree under ``root`` as a player's section holds it (``schemas/foresight.schema.json``).

    ``options`` and ``decisions`` list each option (``{id, label, free?}``)
    and each decision (``{kind, prompt, pass_id?}``) of the tree once;
    ``after`` maps the position of an option of the open decision (from 0,
    as a string) to what follows it: a leaf (:data:`LEAVES`) or a node
    ``{decision, options, after}`` naming its decision and options by their
    place in those lists, and so on down. Options repeat from one decision
    to the next (the cards of a hand), so each is written once.
    """
    options: list[dict[str, Any]] = []
    option_at: dict[Option, int] = {}
    decisions: list[dict[str, Any]] = []
    decision_at: dict[tuple[str, str, str | None], int] = {}

    def option_number(option: Option) -> int:
        number = option_at.get(option)
        if number is None:
            number = option_at[option] = len(options)
            options.append(option.to_json())
        return number

    def decision_number(decision: Decision) -> int:
        key = (decision.kind, decision.prompt, decision.pass_id)
        number = decision_at.get(key)
        if number is None:
            number = decision_at[key] = len(decisions)
            entry: dict[str, Any] = {"kind": decision.kind, "prompt": decision.prompt}
            if decision.pass_id is not None:
                entry["pass_id"] = decision.pass_id
            decisions.append(entry)
        return number

    def after(node: Node) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for position, option in enumerate(node.decision.options):
            follow = node.after.get(option.id)
            if isinstance(follow, Node):
                found[str(position)] = {"decision": decision_number(follow.decision),
                                        "options": [option_number(o) for o in follow.decision.options],
                                        "after": after(follow)}
            elif follow is not None:
                found[str(position)] = follow
        return found

    tree = after(root)
    return {"options": options, "decisions": decisions, "after": tree}


def tree_from_json(decision: Decision, doc: Any) -> Node:
    """The tree a player's section holds (:func:`tree_json`) under their open ``decision``; ``ValueError``
    naming what is wrong if it is not one (a position or a number out of its list, an unknown leaf)."""
    options = [Option(o["id"], o["label"], o.get("free", False)) for o in doc["options"]]
    decisions = doc["decisions"]

    def node(at: Decision, after: Any, depth: int) -> Node:
        if depth > 64:
            raise ValueError("the foresight tree nests too deep")
        found: dict[str, Node | str] = {}
        for position, follow in after.items():
            if not position.isdigit() or int(position) >= len(at.options):
                raise ValueError(f"the foresight tree names option {position} of a decision of "
                                 f"{len(at.options)} options")
            option_id = at.options[int(position)].id
            if isinstance(follow, str):
                if follow not in LEAVES:
                    raise ValueError(f"the foresight tree ends in {follow!r}, not one of {', '.join(LEAVES)}")
                found[option_id] = follow
                continue
            numbers = [follow["decision"], *follow["options"]]
            if follow["decision"] >= len(decisions) or any(n >= len(options) for n in follow["options"]):
                raise ValueError(f"the foresight tree names a decision or an option it does not list ({numbers})")
            entry = decisions[follow["decision"]]
            child = Decision(player=at.player, kind=entry["kind"], prompt=entry["prompt"],
                             options=tuple(options[n] for n in follow["options"]), pass_id=entry.get("pass_id"))
            found[option_id] = node(child, follow["after"], depth + 1)
        return Node(at, found)

    return node(decision, doc["after"], 0)
