"""The checks of the conformance suite (``tests/conformance/``), as functions of a game object.

Each returns what it checked and what it found wrong, so that the suite
runs it on every registered game and a test of the suite itself runs it on
a game with a planted bug (``tests/loveletter/test_planted_bugs.py``,
``tests/nightfall/test_planted_bugs.py``) and sees it caught.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from helpers_trust import random_positions

from pbem.bots import RandomBot
from pbem.engine import Game, Rng, ScenarioError, apply_choice, game_names, step_rng
from pbem.engine.gamedata import GameData
from pbem.engine.ordertests import GENERIC, cards_named
from pbem.engine.plain import copy_plain
from pbem.engine.registry import find_game
from pbem.referee import orders

SEATS = [f"p{i}" for i in range(6)]


def kit_games() -> list[str]:
    """The registered games whose data is a folder of the game kit."""
    return [name for name in game_names() if isinstance(getattr(find_game(name), "data", None), GameData)]


def game_data(name: str) -> GameData:
    """The data folder of the game on the kit registered as ``name``."""
    data = getattr(find_game(name), "data", None)
    assert isinstance(data, GameData), f"{name} is not on the game kit"
    return data


def dump(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def set_ups(game: Game[Any]) -> list[tuple[Any, list[str]]]:
    """Every scenario the game lists with every seat count it takes."""
    found = []
    for name in game.scenarios():
        scenario = game.load_scenario(name)
        for count in range(game.min_players, game.max_players + 1):
            try:
                game.new_state(scenario, SEATS[:count], Rng.from_seed("seats"))
            except ScenarioError:
                continue
            found.append((scenario, SEATS[:count]))
    return found


def sampled_positions(game: Game[Any], wanted: int, every: int = 7) -> Iterator[tuple[int, Any, list[str]]]:
    """``(seed, state, players)``: ``wanted`` positions of random games, every set-up in turn."""
    choices = set_ups(game)
    checked = seed = 0
    while checked < wanted:
        scenario, players = choices[seed % len(choices)]
        for state in random_positions(game, players, seed, every=every, scenario=scenario):
            yield seed, state, players
            checked += 1
            if checked >= wanted:
                return
        seed += 1


# --- what a view shows ------------------------------------------------------------------------


def _options(game: Game[Any], state: Any, player: str) -> str:
    return dump([d.to_json() for d in game.awaiting(state) if d.player == player])


def view_leaks(game: Game[Any], wanted: int) -> tuple[int, int, list[str]]:
    """Positions checked, how many a redraw changed, and the leaks found: a redraw of what player P may
    not know (``conceal``) that changes P's private part, the public part, P's options, or who is awaited
    for what."""
    checked = redrawn = 0
    leaks: list[str] = []
    for seed, state, players in sampled_positions(game, wanted):
        before = dump(state)
        for player in players:
            hidden = game.conceal(copy.deepcopy(state), player, Rng.from_seed(f"conceal-{seed}-{checked}"))
            redrawn += dump(hidden) != before
            for part, seen, unseen in (
                    ("private part", game.private(state, player), game.private(hidden, player)),
                    ("public part", game.public(state), game.public(hidden)),
                    ("options", _options(game, state, player), _options(game, hidden, player)),
                    ("awaited decisions", [(d.player, d.kind) for d in game.awaiting(state)],
                     [(d.player, d.kind) for d in game.awaiting(hidden)])):
                if dump(seen) != dump(unseen):
                    leaks.append(f"seed {seed}: the {part} {player} sees changed with what {player} may not know")
        if dump(state) != before:
            leaks.append(f"seed {seed}: conceal changed the state it was given")
        checked += 1
    return checked, redrawn, leaks


# --- the hidden zones -------------------------------------------------------------------------


def zone_family(name: str, players: list[str]) -> str:
    """A zone's name with its players and numbers left out (``hand:p1`` -> ``hand:*``): the zones of one kind."""
    for player in sorted(players, key=len, reverse=True):
        name = re.sub(rf"(?<![a-z0-9]){re.escape(player)}(?![a-z0-9])", "*", name)
    return re.sub(r"\d+", "#", name)


def conceal_problems(game: Game[Any], wanted: int) -> tuple[int, list[str]]:
    """Positions checked, and where ``conceal`` does not keep to the declared hidden zones.

    The referee commits to every zone of ``hidden_zones``; a game declares
    with each who sees it (``zones``: :class:`pbem.engine.kit.Zone`). A
    redraw of what player P may not know must keep every zone P sees and
    every zone's name, and must redraw every kind of zone P does not see:
    over the positions sampled, each such kind (``hand:*``) that held cards
    was changed by some redraw. A game that declares no zones names none.
    """
    declared = getattr(game, "zones", None)
    problems: list[str] = []
    held: dict[str, int] = {}
    changed: dict[str, int] = {}
    checked = 0
    for seed, state, players in sampled_positions(game, wanted):
        checked += 1
        if declared is None:
            if game.hidden_zones(state):
                problems.append(f"{game.name} names hidden zones but does not declare who sees them (zones)")
                break
            continue
        zones = {zone.name: zone for zone in declared(state)}
        if list(zones) != list(game.hidden_zones(state)) or any(
                zone.cards != game.hidden_zones(state)[name] for name, zone in zones.items()):
            problems.append(f"seed {seed}: hidden_zones is not the declared zones")
        for player in players:
            hidden = {zone.name: zone for zone in declared(game.conceal(copy.deepcopy(state), player,
                                                                        Rng.from_seed(f"zones-{seed}-{checked}")))}
            if list(hidden) != list(zones):
                problems.append(f"seed {seed}: a redraw for {player} changed the zones' names")
                continue
            for name, zone in zones.items():
                if player in zone.seen_by:
                    if hidden[name].cards != zone.cards:
                        problems.append(f"seed {seed}: a redraw for {player} changed {name}, which {player} sees")
                elif zone.cards:
                    family = zone_family(name, players)
                    held[family] = held.get(family, 0) + 1
                    changed[family] = changed.get(family, 0) + (hidden[name].cards != zone.cards)
    for family in sorted(held):
        if not changed[family]:
            problems.append(f"conceal never redrew {family} for a player who does not see it "
                            f"({held[family]} times it held cards)")
    return checked, problems


# --- decisions the machine takes without asking --------------------------------------------


@contextmanager
def watching_what_is_taken(game: Game[Any], observer: str, moments: list[tuple[str, Any]]) -> Iterator[None]:
    """Record, while the machine runs, each time it decides whether to take a decision without asking:
    what ``observer`` may know then (the public part, their private part, who is awaited for what) and
    what the machine did (the decision it took and its option, or ``None``: it asks)."""
    machine = getattr(game, "machine", None)
    if machine is None:  # a game off the turn machine takes nothing without asking
        yield
        return
    take, log = machine._take_forced, machine._taken
    taken: list[Any] = []

    def logged(state: Any, pending: Any, option_id: str, label: str) -> None:
        taken.append((pending["player"], pending["kind"], option_id))
        if log is not None:
            log(state, pending, option_id, label)

    def watched(state: Any, rng: Rng) -> bool:
        facts = dump([game.public(state), game.private(state, observer),
                      [(p["player"], p["kind"]) for p in state["pending"]]])
        taken.clear()
        took = take(state, rng)
        moments.append((facts, taken[0] if took and taken else None))
        return took

    machine._take_forced, machine._taken = watched, logged
    try:
        yield
    finally:
        del machine._take_forced
        machine._taken = log


def _moments(game: Game[Any], state: Any, player: str, choice: str, observer: str, key: bytes,
             step: int) -> list[tuple[str, Any]]:
    moments: list[tuple[str, Any]] = []
    state = copy.deepcopy(state)
    game.begin_step(state)
    with watching_what_is_taken(game, observer, moments):
        apply_choice(game, state, player, choice, step_rng(key, [], step))
    return moments


def single_option_problems(game: Game[Any], wanted: int) -> tuple[int, int, list[str]]:
    """Positions checked, moments compared, and the decisions taken without asking on a hidden fact.

    docs/trust.md "Decisions with one option": the machine takes a decision
    with one option without asking only where that reveals nothing. Checked
    where it happens: a step is played from a position and from a redraw of
    what an observer may not know, the same choice made; each time the
    machine decides whether to take a decision, while everything the
    observer may know is the same in both (the public part, their private
    part, who is awaited for what), it must do the same in both: take the
    same decision with the same option, or ask. Once what the observer may
    know differs (a card was revealed), the step has shown them a public
    fact, and the rest of it may follow that fact.
    """
    checked = compared = 0
    problems: list[str] = []
    for seed, state, players in sampled_positions(game, wanted, every=3):
        key = hashlib.sha256(f"one-option-{game.name}-{seed}".encode()).digest()
        step = checked + 1
        decision = game.awaiting(state)[0] if game.awaiting(state) else None
        checked += 1
        if decision is None:
            continue
        for observer in players:
            hidden = game.conceal(copy.deepcopy(state), observer, Rng.from_seed(f"redraw-{seed}-{checked}"))
            for choice in common_choices(game, hidden, decision)[:3]:
                real = _moments(game, state, decision.player, choice, observer, key, step)
                other = _moments(game, hidden, decision.player, choice, observer, key, step)
                count, differ = first_difference(real, other)
                compared += count
                if differ is not None:
                    took, other_took = differ
                    problems.append(f"seed {seed}: after {decision.player} chose {choice}, with what "
                                    f"{observer} may know the same, the machine did {took or 'ask'} "
                                    f"in one and {other_took or 'ask'} in the other")
    return checked, compared, problems


def common_choices(game: Game[Any], hidden: Any, decision: Any) -> list[str]:
    """The options of ``decision`` that its player has in the redraw ``hidden`` too, in their order."""
    redrawn = next((d for d in game.awaiting(hidden) if d.player == decision.player), None)
    return [o.id for o in decision.options if redrawn is not None and redrawn.option(o.id) is not None]


def first_difference(real: list[tuple[str, Any]], other: list[tuple[str, Any]]) -> tuple[int, tuple[Any, Any] | None]:
    """How many moments of two steps were compared while what the observer may know (each moment's facts)
    was the same in both, and the first pair of things done that differed then, or ``None``."""
    compared = 0
    for (facts, done), (other_facts, other_done) in zip(real, other, strict=False):
        if facts != other_facts:
            break
        compared += 1
        if done != other_done:
            return compared, (done, other_done)
    return compared, None


# --- foresight ------------------------------------------------------------------------------------------


def _foreseen_json(game: Game[Any], state: Any, player: str) -> str:
    from pbem.engine.foresight import foresee, tree_json

    tree = foresee(game, state, player)
    return dump(None if tree is None else tree_json(tree))


def foresight_leaks(game: Game[Any], wanted: int, redraws: int = 2) -> tuple[int, int, list[str]]:
    """Choices judged, how many crossed no information boundary, and the leaks found.

    For every decision open at ``wanted`` random positions and every option
    of it, the verdict of :func:`pbem.engine.foresight.outcome` must be the
    same on ``redraws`` redraws of what the decider may not know
    (``conceal``), and where it is "no boundary" so must be what follows: the
    decider's next decision, their private part and the public part after
    the choice. The decider's whole foresight tree must be the same too, since
    the referee seals it into their section.
    """
    from pbem.engine.foresight import outcome

    checked = foreseen = 0
    leaks: list[str] = []
    for seed, state, _players in sampled_positions(game, wanted):
        for decision in game.awaiting(state):
            player = decision.player
            hidden = [game.conceal(copy.deepcopy(state), player, Rng.from_seed(f"foresight-{seed}-{checked}-{i}"))
                      for i in range(redraws)]
            tree = _foreseen_json(game, state, player)
            for number, redrawn in enumerate(hidden):
                try:
                    if _foreseen_json(game, redrawn, player) != tree:
                        leaks.append(f"seed {seed}: {player}'s foresight tree changed with what {player} may not "
                                     f"know (redraw {number})")
                except Exception as error:  # a rule that read what was redrawn, past the watch
                    leaks.append(f"seed {seed}: {player}'s foresight tree failed on a redraw: {error!r}")
            for option in decision.options:
                seen = outcome(game, state, player, option.id, decision=decision)
                checked += 1
                foreseen += seen.boundary is None
                for redrawn in hidden:
                    try:
                        unseen = outcome(game, redrawn, player, option.id)
                    except Exception as error:
                        leaks.append(f"seed {seed}: {option.id} of {player}'s {decision.kind} failed on a redraw: "
                                     f"{error!r}")
                        continue
                    what = f"seed {seed}: after {option.id} of {player}'s {decision.kind}"
                    if unseen.boundary != seen.boundary:
                        leaks.append(f"{what}, the boundary is {seen.boundary} or {unseen.boundary} with what "
                                     f"{player} may not know")
                    elif seen.boundary is None:
                        for part, one, other in (
                                ("next decision", seen.decision and seen.decision.to_json(),
                                 unseen.decision and unseen.decision.to_json()),
                                ("private part", game.private(seen.state, player), game.private(unseen.state, player)),
                                ("public part", game.public(seen.state), game.public(unseen.state))):
                            if dump(one) != dump(other):
                                leaks.append(f"{what}, no boundary was crossed but the {part} changed with what "
                                             f"{player} may not know")
    return checked, foreseen, leaks


def _atoms(value: Any) -> list[Any]:
    """The scalars of a plain value, the names of its members among them."""
    if isinstance(value, dict):
        return [atom for name, item in value.items() for atom in [name, *_atoms(item)]]
    if isinstance(value, list):
        return [atom for item in value for atom in _atoms(item)]
    return [value]


def _holds(container: Any, key: Any) -> bool:
    if isinstance(container, dict):
        return key in container
    return isinstance(container, list) and isinstance(key, int) and -len(container) <= key < len(container)


def zone_place_problems(game: Game[Any], wanted: int) -> tuple[int, list[str]]:
    """Positions checked, and where a zone's declared places do not hold its cards.

    Foresight watches the places (``Zone.places``) of every zone a player
    does not see: a zone holding cards must name places, each place must be
    in the state (a list, a dict, or a member of a dict), and every card of
    the zone must lie at one of them. A game that declares no zones (High
    Card) names none, and foresees nothing.
    """
    from pbem.engine.foresight import watched_places

    declared = getattr(game, "zones", None)
    problems: list[str] = []
    checked = 0
    if declared is None:
        return checked, problems
    for seed, state, players in sampled_positions(game, wanted):
        checked += 1
        for zone in declared(state):
            places = getattr(zone, "places", ())
            if zone.cards and not places:
                problems.append(f"seed {seed}: zone {zone.name} holds cards but names no place in the state")
                continue
            found: list[Any] = []
            for place in places:
                parent: Any = state
                for key in place[:-1]:
                    parent = parent[key] if _holds(parent, key) else None
                if not _holds(parent, place[-1]):
                    if zone.cards:  # an empty zone need not be there (a pick not made yet)
                        problems.append(f"seed {seed}: zone {zone.name}'s place {place!r} is not in the state")
                    continue
                found += _atoms(parent[place[-1]])
            left = list(found)
            for atom in _atoms(zone.cards):
                if atom in left:
                    left.remove(atom)
                else:
                    problems.append(f"seed {seed}: a card of zone {zone.name} lies at none of its places {places!r}")
                    break
        for player in players:
            if watched_places(game, state, player) is None and any(
                    zone.cards and player not in zone.seen_by for zone in declared(state)):
                problems.append(f"seed {seed}: {player} cannot be watched: a zone they do not see names no place")
    return checked, problems


# --- orders -----------------------------------------------------------------------------------


def _declared_tests(game: Game[Any], kind: str) -> dict[str, Any]:
    declared = getattr(game, "order_tests", None)
    return dict(declared(kind)) if callable(declared) else {}


def order_vocabulary(game: Game[Any], games: int = 3) -> dict[str, dict[str, set[Any]]]:
    """What random orders may name, by decision kind, from a few random games: the option ids, the card
    keys they name, words of their labels, and the values each declared test read."""
    found: dict[str, dict[str, set[Any]]] = {}
    choices = set_ups(game)
    for seed in range(games):
        scenario, players = choices[seed % len(choices)]
        for state in random_positions(game, players, 10_000 + seed, every=1, scenario=scenario):
            for decision in game.awaiting(state):
                seen = found.setdefault(decision.kind, {"option": set(), "card": set(), "label": set()})
                for option in decision.options:
                    seen["option"].add(option.id)
                    seen["card"].update(cards_named(option.id))
                    seen["label"].update(f"*{word.casefold()}*" for word in option.label.split()[:2] if word.isalpha())
                for name, test in _declared_tests(game, decision.kind).items():
                    values = seen.setdefault(name, set())
                    for option_id in [o.id for o in decision.options] if test.about == "option" else [None]:
                        value = game.order_value(state, decision.player, name, option_id)  # type: ignore[attr-defined]
                        values.update(value if isinstance(value, list) else [] if value is None else [value])
    return found


def _random_value(test: Any, seen: set[Any], rng: Rng) -> Any:
    values = sorted(seen, key=repr) or list(test.values)
    if not values:
        return None
    value = values[rng.randbelow(len(values), "value")]
    if test.type == "integer" and rng.randbelow(2, "range"):
        return {"min": value} if rng.randbelow(2, "side") else {"max": value}
    return value


def random_orders(game: Game[Any], vocabulary: dict[str, dict[str, set[Any]]], rng: Rng) -> dict[str, Any]:
    """One player's random orders: for about half the game's kinds, up to three rules of the generic and
    the declared tests with values seen in random games, and a random fallback."""
    given: dict[str, Any] = {}
    for kind in sorted(game.decision_kinds()):
        if rng.randbelow(2, "kind"):
            continue
        seen = vocabulary.get(kind, {})
        tests = {**GENERIC, **_declared_tests(game, kind)}
        decision_tests = sorted(n for n, t in tests.items() if t.about == "decision")
        option_tests = sorted(n for n, t in tests.items() if t.about == "option")
        rules = []
        for _ in range(rng.randbelow(4, "rules")):
            rule: dict[str, Any] = {}
            if decision_tests and rng.randbelow(2, "if"):
                name = decision_tests[rng.randbelow(len(decision_tests), "test")]
                value = _random_value(tests[name], seen.get(name, set()), rng)
                if value is not None:
                    rule["if"] = {name: value}
            # mostly option tests, which hold on some hands and not on others: a choice that always
            # holds (pass, first) before them would hide what they do
            pick = rng.randbelow(8, "choose")
            if pick < 2:
                rule["choose"] = ("pass", "first")[pick]
            else:
                name = option_tests[rng.randbelow(len(option_tests), "test")]
                value = _random_value(tests[name], seen.get(name, set()), rng)
                rule["choose"] = {name: value} if value is not None else "first"
            rules.append(rule)
        given[kind] = {"rules": rules, "fallback": ("pass", "first")[rng.randbelow(2, "fallback")]}
    return {"orders": given} if given else {}


def _held_keys(game: Game[Any], state: Any, player: str) -> list[str]:
    """The design keys of the cards in the hidden zones ``player`` sees (their hand): what an order of
    theirs may name, and what a redraw for another player changes."""
    declared = getattr(game, "zones", None)
    keys: set[str] = set()
    for zone in declared(state) if declared is not None else ():
        if player in zone.seen_by:
            keys.update(str(c).partition("#")[0] for c in zone.cards if isinstance(c, str))
    return sorted(keys)


def sensitive_orders(game: Game[Any], state: Any, players: list[str], given: dict[str, Any],
                     rng: Rng) -> dict[str, Any]:
    """``given`` with, for each player, rules that name cards they hold now put first in their orders for
    about half the kinds (not that of a decision of theirs the step's mover leaves open): rules that hold
    on this hand and not on most others,
    where an order that waited when no rule holds would show the hand by the timing."""
    # an open decision of another than the mover stays open in the step, and in a redraw it may be a
    # stand-in (its options hidden): no order of its kind is added for its player
    open_kinds = {d.player: d.kind for d in game.awaiting(state)[1:]}
    found = {}
    for player in players:
        mine = copy_plain(given.get(player, {}))
        held = _held_keys(game, state, player)
        for kind in sorted(game.decision_kinds()):
            if not held or kind == open_kinds.get(player) or rng.randbelow(2, "sensitive"):
                continue
            order = mine.setdefault("orders", {}).setdefault(kind, {"fallback": "pass"})
            named = [{"choose": {"card": held[rng.randbelow(len(held), "held")]}} for _ in range(2)]
            order["rules"] = [*named, *order.get("rules", [])][:4]
        if mine:
            found[player] = mine
    return found


def ordered_positions(game: Game[Any], wanted: int, every: int = 3) -> Iterator[tuple[int, Any, list[str], Any]]:
    """``(seed, state, players, orders)``: ``wanted`` positions of random games in which every player has
    random orders (:func:`random_orders`), carried out at every step as the referee does."""
    vocabulary = order_vocabulary(game)
    choices = set_ups(game)
    checked = seed = 0
    while checked < wanted:
        scenario, players = choices[seed % len(choices)]
        rng = Rng.from_seed(f"orders-{game.name}-{seed}")
        given = {p: o for p in players if (o := random_orders(game, vocabulary, rng))}
        key = hashlib.sha256(f"ordered-{game.name}-{seed}".encode()).digest()
        # orders answer from the deal on (a referee takes them with the first moves): so no decision open
        # at a position is one an order answers, and a redraw's stand-ins for others' open decisions are
        # never answered
        state = orders.carry_out(game, game.new_state(scenario, players, step_rng(key, [], 0)), given,
                                 step_rng(key, [], 0), [])
        bots = {p: RandomBot(Rng.from_seed(f"ordered-{seed}-{p}")) for p in players}
        step = 0
        while decisions := game.awaiting(state):
            if step % every == 0:
                yield seed, state, players, given
                checked += 1
                if checked >= wanted:
                    return
            step += 1
            decision = decisions[0]
            rng_step = step_rng(key, [], step)
            game.begin_step(state)
            state = apply_choice(game, state, decision.player, bots[decision.player].choose(None, decision), rng_step)
            state = orders.carry_out(game, state, given, rng_step, [])
        seed += 1


def order_test_leaks(game: Game[Any], wanted: int) -> tuple[int, int, list[str]]:
    """Positions checked, values compared, and the order tests that read what their player may not know:
    a test's value on a player's open decision (on each of its options, for an option test) that changes
    over a redraw of what that player may not know (``conceal``)."""
    checked = compared = 0
    leaks: list[str] = []
    for seed, state, _players in sampled_positions(game, wanted, every=2):
        checked += 1
        for decision, redraw in ((d, r) for d in game.awaiting(state) for r in range(2)):
            tests = _declared_tests(game, decision.kind)
            if not tests:
                continue
            hidden = game.conceal(copy_plain(state), decision.player,
                                  Rng.from_seed(f"tests-{seed}-{checked}-{redraw}"))
            for name, test in tests.items():
                for option in decision.options if test.about == "option" else [None]:
                    option_id = option.id if option else None
                    seen = game.order_value(state, decision.player, name, option_id)  # type: ignore[attr-defined]
                    unseen = game.order_value(hidden, decision.player, name, option_id)  # type: ignore[attr-defined]
                    compared += 1
                    if dump(seen) != dump(unseen):
                        leaks.append(f"seed {seed}: the {decision.kind} test {name!r}"
                                     f"{' of ' + option_id if option_id else ''} read what {decision.player} "
                                     "may not know")
    return checked, compared, leaks


@contextmanager
def watching_orders(game: Game[Any], observer: str, moments: list[tuple[str, Any]]) -> Iterator[None]:
    """Record, each time the referee asks whether orders answer an awaited decision, what ``observer``
    may know then (the public part, their private part, who is awaited for what) and what came of it:
    whose decision of which kind, and whether orders answered it."""
    looked = orders.answer_of

    def watched(game_: Any, state: Any, decision: Any, player_orders: Any, chosen_from: Any) -> Any:
        facts = dump([game.public(state), game.private(state, observer),
                      [(d.player, d.kind) for d in game.awaiting(state)]])
        answered = looked(game_, state, decision, player_orders, chosen_from)
        moments.append((facts, (decision.player, decision.kind, answered["by"] if answered else "asked")))
        return answered

    orders.answer_of = watched  # type: ignore[assignment]
    try:
        yield
    finally:
        orders.answer_of = looked  # type: ignore[assignment]


def _order_moments(game: Game[Any], state: Any, player: str, choice: str, given: Any, observer: str, key: bytes,
                   step: int) -> list[tuple[str, Any]]:
    moments: list[tuple[str, Any]] = []
    state = copy_plain(state)
    rng = step_rng(key, [], step)
    game.begin_step(state)
    with watching_orders(game, observer, moments):
        state = orders.carry_out(game, apply_choice(game, state, player, choice, rng), given, rng, [])
    moments.append((dump([game.public(state), game.private(state, observer)]),
                    ("end", [(d.player, d.kind) for d in game.awaiting(state)])))
    return moments


def timing_problems(game: Game[Any], wanted: int) -> tuple[int, int, list[str]]:
    """Positions checked, moments compared, and where orders let the timing of the game follow a hidden
    fact (docs/trust.md "No timing channel").

    Over random games with random orders, a step is played from a position
    and from a redraw of what an observer may not know, the same choice
    made; each time the referee asks whether orders answer a decision,
    while what the observer may know is the same in both (the public part,
    their private part, who is awaited for what), the same decision must be
    looked at and be answered by orders in both or asked in both; and at
    the end of the step the same decisions must wait. Once what the observer
    may know differs (an order chose another card, and the table saw it),
    the rest of the step may follow what they saw.
    """
    checked = compared = 0
    problems: list[str] = []
    for seed, state, players, played in ordered_positions(game, wanted):
        key = hashlib.sha256(f"timing-{game.name}-{seed}".encode()).digest()
        checked += 1
        given = sensitive_orders(game, state, players, played, Rng.from_seed(f"sensitive-{seed}-{checked}"))
        decision = game.awaiting(state)[0]
        for observer in players:
            hidden = game.conceal(copy_plain(state), observer, Rng.from_seed(f"timing-{seed}-{checked}"))
            for choice in common_choices(game, hidden, decision)[:1]:
                real = _order_moments(game, state, decision.player, choice, given, observer, key, checked)
                other = _order_moments(game, hidden, decision.player, choice, given, observer, key, checked)
                count, differ = first_difference(real, other)
                compared += count
                if differ is not None:
                    problems.append(f"seed {seed}: after {decision.player} chose {choice}, with what {observer} "
                                    f"may know the same, one step had {differ[0]} and the other {differ[1]}")
    return checked, compared, problems
