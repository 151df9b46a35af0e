"""`pbem move --choose` never writes a file the referee would refuse or drop.

A number counts the options of the decision open now, which the player's
view shows; only the first choice answers it. What the player will be
offered after it depends on what only the referee sees (the next card drawn,
an opponent's hidden hand), so pbem does not guess: a number for a later
choice is refused, naming that ``--choose`` and how to give an id instead.
Likewise, when the first choice answers a simultaneous decision that others
have still to make, nothing more is asked of the player before theirs are
in (a rule of the protocol, checked on every game in
``tests/conformance/test_decision_kinds.py``), so any later choice is refused too.

High Card (tests/toygame.py): turn 0 awaits alice and bob to *play* a card
at once; after both picks, alice and then bob each *draw* or *pass*.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, Table, make_table

from pbem.crypto.canonical import parse_json_strict
from pbem.referee import sealing, submit
from pbem.referee.errors import UsageError


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def play(table: Table, player: str) -> None:
    submit(table.dir, table.move(player, f"card-{table.view(player).private['hand'][0]}"), table.referee)


def sealed_choices(data: bytes) -> list[str]:
    doc = parse_json_strict(data)
    return sealing.open_with_seed(doc["sealed_choices"], TEST_SEED)["choices"]


def to_draw_phase(table: Table) -> None:
    play(table, "alice")
    play(table, "bob")
    assert table.view("alice").decision.kind == "draw"


def test_a_number_resolves_against_the_decision_open_now(table: Table) -> None:
    from pbem.referee.player import sign_move

    to_draw_phase(table)
    signed = sign_move(table.view("alice"), table.keys["alice"], ["2"])
    assert sealed_choices(signed.data) == ["pass"]
    assert [(c.id, c.label) for c in signed.choices] == [("pass", "pass")]


def test_a_number_for_a_later_choice_is_refused_naming_that_choose(table: Table) -> None:
    to_draw_phase(table)
    with pytest.raises(UsageError) as caught:
        table.move("alice", "draw", "1")
    message = str(caught.value)
    assert "the 2nd --choose, '1', is a number" in message
    assert "Give it as an option id instead" in message and "'draw', 'pass'" in message


def test_a_later_choice_given_by_id_is_written_and_applied(table: Table) -> None:
    """alice passes, then bob's draw decision opens; choices for later decisions name ids."""
    from pbem.referee.player import sign_move

    to_draw_phase(table)
    signed = sign_move(table.view("alice"), table.keys["alice"], ["1", "pass"])
    assert sealed_choices(signed.data) == ["draw", "pass"]
    # the first choice's label is known, the later one answers a decision not seen yet
    assert [(c.id, c.label) for c in signed.choices] == [("draw", "draw the top card"), ("pass", None)]


def test_later_choices_after_an_early_simultaneous_answer_are_refused(table: Table) -> None:
    """alice plays while bob has still to: nothing more is asked of her until he has."""
    first = table.view("alice").private["hand"][0]
    with pytest.raises(UsageError) as caught:
        table.move("alice", f"card-{first}", "draw")
    message = str(caught.value)
    assert "bob" in message and "play" in message and "choice 2 of 2 would be dropped" in message


def test_the_last_to_answer_a_simultaneous_decision_may_send_later_choices(table: Table) -> None:
    play(table, "bob")
    first = table.view("alice").private["hand"][0]
    step = submit(table.dir, table.move("alice", f"card-{first}", "pass"), table.referee)
    assert step.choices == 2 and step.unapplied is None


def test_a_free_action_first_leaves_the_simultaneous_decision_open_for_later_choices() -> None:
    """A free action (an option marked ``free``, like Sealed Bids' cashing in of a lot) is no answer
    to the simultaneous decision: the player is asked it again at once, so later choices count."""
    from types import SimpleNamespace
    from typing import cast

    from pbem.engine.protocol import Decision, Option
    from pbem.referee.player import PlayerView, resolve_choices

    decision = Decision(player="alice", kind="bid", simultaneous=True,
                        options=(Option("bid:0", "bid nothing"), Option("cash:lot#1", "cash in lot 1", free=True)))
    # a stand-in with what resolve_choices reads of a view
    view = cast(PlayerView, SimpleNamespace(player="alice", decision=decision, turn=SimpleNamespace(doc={"awaiting": [
        {"player": "alice", "kind": "bid", "since": 3}, {"player": "bob", "kind": "bid", "since": 3}]})))
    assert [c.id for c in resolve_choices(view, ["cash:lot#1", "bid:0"])] == ["cash:lot#1", "bid:0"]
    with pytest.raises(UsageError, match="bob has still to make"):
        resolve_choices(view, ["bid:0", "bid:0"])
