"""Foresight: what follows a choice, judged soundly, and the tree of a player's foreseeable decisions.

Love Letter (``tests/loveletter``) is the example: a player holding a Guard
and a Handmaid may play the Guard, whose target (the one opponent of a
two-player round) is taken at once and whose guess follows: all of it
decided on what the player knows. The guess is then checked against the
target's hidden hand, and the Handmaid ends the turn, after which the next
player draws from the hidden deck: there what follows depends on what the
player does not know.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pbem.engine import IllegalMoveError, NotAwaitedError, Rng, find_game
from pbem.engine.foresight import (
    DRAW,
    HIDDEN,
    OTHERS,
    OVER,
    Node,
    crossing,
    foresee,
    outcome,
    tree_from_json,
    tree_json,
    trimmed,
    waits_for_others,
)
from pbem.engine.protocol import Decision, Option
from pbem.engine.watch import Place

GUARD, HANDMAID = "play:guard#1", "play:handmaid#2"


@pytest.fixture
def game():
    return find_game("loveletter")


@pytest.fixture
def state(game) -> Any:
    """alice to play, holding the first Guard and the second Handmaid."""
    state = game.new_state(game.load_scenario(game.scenarios()[0]), ["alice", "bob"], Rng.from_seed(13))
    assert [o.id for o in game.awaiting(state)[0].options] == [GUARD, HANDMAID]
    return state


def test_the_guard_is_followed_by_its_guess_which_its_player_foresees(game, state) -> None:
    found = outcome(game, state, "alice", GUARD)
    assert found.boundary is None and found.decision is not None
    assert found.decision.player == "alice" and found.decision.kind == "guess"
    assert all(option.id.startswith("guess:") for option in found.decision.options)
    assert found.decision == game.awaiting(found.state)[0]


def test_the_guess_is_checked_against_a_hidden_hand(game, state) -> None:
    after = outcome(game, state, "alice", GUARD).state
    assert crossing(game, after, "alice", "guess:priest") == HIDDEN


def test_the_handmaid_ends_the_turn_and_the_next_player_draws_from_the_hidden_deck(game, state) -> None:
    assert crossing(game, state, "alice", HANDMAID) == HIDDEN


def test_the_state_judged_is_left_as_it_is(game, state) -> None:
    before = json.dumps(state, sort_keys=True)
    for option in (GUARD, HANDMAID):
        outcome(game, state, "alice", option)
    foresee(game, state, "alice")
    assert json.dumps(state, sort_keys=True) == before


def test_an_option_not_offered_and_a_player_not_awaited_are_refused(game, state) -> None:
    with pytest.raises(IllegalMoveError):
        outcome(game, state, "alice", "play:princess#1")
    with pytest.raises(NotAwaitedError):
        outcome(game, state, "bob", GUARD)


def test_a_game_that_does_not_say_where_its_hidden_cards_lie_foresees_nothing() -> None:
    """High Card (tests/toygame.py) declares no zones: every choice is taken to cross a boundary."""
    highcard = find_game("highcard")
    state = highcard.new_state(highcard.load_scenario("standard"), ["alice", "bob"], Rng.from_seed(1))
    decision = highcard.awaiting(state)[0]
    assert {crossing(highcard, state, decision.player, o.id) for o in decision.options} == {HIDDEN}


class DiceGame:
    """A test game with nothing hidden: ``roll`` rolls a die, then its player keeps a face up to the roll
    (``keep:N``) or stops; ``wait`` hands the turn to the other player."""

    def zones(self, state: dict[str, Any]) -> list[Any]:
        return []

    def awaiting(self, state: dict[str, Any]) -> list[Decision]:
        if state["over"]:
            return []
        options: tuple[Option, ...]
        if state["rolled"] is None:
            options = (Option("roll", "roll the die"), Option("wait", "let the other play"))
        else:
            options = (*(Option(f"keep:{n}", f"keep {n}") for n in range(1, state["rolled"] + 1)),
                       Option("stop", "stop"))
        return [Decision(state["active"], "turn", options)]

    def apply(self, state: dict[str, Any], player: str, option_id: str, rng: Rng) -> dict[str, Any]:
        if option_id == "roll":
            state["rolled"] = 1 + rng.randbelow(6)
        elif option_id == "wait":
            state["active"] = "bob" if player == "alice" else "alice"
        else:
            state["over"] = True
        return state


def test_a_die_rolled_is_a_draw_the_next_decision_depends_on() -> None:
    game, state = DiceGame(), {"active": "alice", "rolled": None, "over": False}
    assert crossing(game, state, "alice", "roll") == DRAW  # type: ignore[arg-type]
    assert crossing(game, state, "alice", "wait") == OTHERS  # type: ignore[arg-type]
    rolled = {**state, "rolled": 3}
    found = outcome(game, rolled, "alice", "stop")  # type: ignore[arg-type]
    assert found.boundary is None and found.decision is None  # the game is over: nothing is left to foresee
    tree = foresee(game, rolled, "alice")  # type: ignore[arg-type]
    assert tree is not None and tree.after == dict.fromkeys(["keep:1", "keep:2", "keep:3", "stop"], OVER)


def test_the_tree_holds_the_decision_that_follows_each_option_breadth_first(game, state) -> None:
    tree = foresee(game, state, "alice")
    assert tree is not None and tree.decision == game.awaiting(state)[0]
    guess = tree.follows(GUARD)
    assert isinstance(guess, Node) and guess.decision.kind == "guess"
    assert tree.follows(HANDMAID) == HIDDEN
    assert set(guess.after.values()) == {HIDDEN}  # each guess is checked against bob's hand
    assert tree.foresees()
    entries = list(tree.entries())
    assert entries[:2] == [(tree, GUARD), (tree, HANDMAID)] and len(entries) == 2 + len(guess.decision.options)


def test_the_budget_bounds_the_trials_and_the_depth_the_levels(game, state) -> None:
    small = foresee(game, state, "alice", nodes=1)
    assert small is not None and list(small.after) == [GUARD]
    shallow = foresee(game, state, "alice", depth=1)
    assert shallow is not None and isinstance(shallow.follows(GUARD), Node)
    assert not shallow.follows(GUARD).after  # type: ignore[union-attr]


def test_the_tree_as_a_section_holds_it_reads_back_the_same(game, state) -> None:
    tree = foresee(game, state, "alice")
    assert tree is not None
    doc = tree_json(tree)
    assert set(doc) == {"options", "decisions", "after"}
    assert doc["after"]["1"] == HIDDEN and doc["after"]["0"]["decision"] == 0
    assert len(doc["options"]) == len({(o["id"], o["label"]) for o in doc["options"]})  # each option once
    again = tree_from_json(tree.decision, json.loads(json.dumps(doc)))
    assert tree_json(again) == doc and again == tree


@pytest.mark.parametrize("broken", [
    lambda doc: doc["after"].update({"7": "draw"}),
    lambda doc: doc["after"].update({"1": "maybe"}),
    lambda doc: doc["after"]["0"].update({"decision": 9}),
    lambda doc: doc["after"]["0"]["options"].append(99),
])
def test_a_tree_that_names_what_it_does_not_list_is_refused(game, state, broken) -> None:
    tree = foresee(game, state, "alice")
    assert tree is not None
    doc = copy.deepcopy(tree_json(tree))
    broken(doc)
    with pytest.raises(ValueError):
        tree_from_json(tree.decision, doc)


def test_a_trimmed_tree_keeps_the_entries_found_first(game, state) -> None:
    tree = foresee(game, state, "alice")
    assert tree is not None
    one = trimmed(tree, 1)
    assert list(one.after) == [GUARD] and not one.follows(GUARD).after  # type: ignore[union-attr]
    assert trimmed(tree, 10**6) == tree and not trimmed(tree, 0).after


def test_a_simultaneous_decision_waits_for_nobody_but_a_decision_after_anothers_does() -> None:
    mine = Decision("alice", "pick", (Option("a", "a"),), simultaneous=True)
    theirs = Decision("bob", "pick", (Option("b", "b"),), simultaneous=True)
    assert not waits_for_others([mine, theirs], mine)
    assert waits_for_others([mine, theirs._replace(simultaneous=False)], mine)
    assert waits_for_others([theirs], None) and not waits_for_others([], None)


def test_a_zone_declares_where_its_cards_lie(game, state) -> None:
    places: list[Place] = [place for zone in game.zones(state) for place in zone.places]
    assert ("deck",) in places and ("hands", "bob") in places
