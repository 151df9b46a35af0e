"""Sealed choices are bound to their game, player, turn and base.

Anyone can read a move file's ``sealed_choices`` (opaque) in the archive or
in the mail. alice pasted bob's sealed pick into her own move, signed it,
and it was applied: she replayed a hidden choice she could not read. The
sealed payload (``pbem-choices/2``) now names the game id, the player, the
turn and the base hash of the move it belongs to, and the referee refuses a
payload sealed for another move.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot
from helpers_trust import forge_move, play

from pbem.referee import formats, player, sealing, submit, verify
from pbem.referee.errors import SchemaInvalidMove
from pbem.referee.player import CHOICES_SIZE


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def test_alice_cannot_paste_bobs_sealed_choice_into_her_move(table: Table) -> None:
    """Round one: alice draws, bob passes. Round two: alice, to draw, pastes bob's sealed pass."""
    play(table, steps=2)
    submit(table.dir, table.move("alice", "draw"), table.referee)
    submit(table.dir, table.move("bob", "pass"), table.referee)
    bobs = json.loads((table.dir / "moves" / "000004-bob.json").read_text())["sealed_choices"]
    play(table, steps=2)  # round two's picks: alice is awaited to draw
    assert table.view("alice").decision.kind == "draw"
    before = snapshot(table.dir)
    with pytest.raises(SchemaInvalidMove, match="sealed for another move") as refused:
        submit(table.dir, forge_move(table, "alice", sealed=bobs), table.referee)
    assert "player" in refused.value.message
    assert snapshot(table.dir) == before
    verify(table.dir)


def test_a_player_cannot_replay_their_own_sealed_choice_at_another_turn(table: Table) -> None:
    play(table, steps=2)
    submit(table.dir, table.move("alice", "pass"), table.referee)
    submit(table.dir, table.move("bob", "pass"), table.referee)
    old = json.loads((table.dir / "moves" / "000003-alice.json").read_text())["sealed_choices"]
    play(table, steps=2)
    with pytest.raises(SchemaInvalidMove, match="sealed for another move") as refused:
        submit(table.dir, forge_move(table, "alice", sealed=old), table.referee)
    assert "turn" in refused.value.message


def test_the_sealed_payload_names_its_move(table: Table) -> None:
    data = table.move("alice", f"card-{table.view('alice').private['hand'][0]}")
    doc = json.loads(data)
    gamefile = table.view("alice").gamefile
    payload = sealing.open_with_seed(doc["sealed_choices"], gamefile.test_seed)
    assert payload["format"] == formats.CHOICES == "pbem-choices/2"
    assert {k: payload[k] for k in ("game_id", "player", "turn", "base")} == {
        k: doc[k] for k in ("game_id", "player", "turn", "base")}


def test_the_player_seals_the_members_the_referee_checks() -> None:
    """The referee checks the binding by :data:`pbem.referee.formats.CHOICES_BINDING` (a step does not import
    the player's module); the player's side names the same members (``player.BINDING``)."""
    assert player.BINDING == formats.CHOICES_BINDING == ("game_id", "player", "turn", "base")
    payload = player.choices_payload("0123456789abcdef", "alice", 3, "sha256:" + "0" * 64, ["pass"])
    assert set(formats.CHOICES_BINDING) < set(payload)


def test_an_unbound_payload_of_the_old_version_is_refused_by_name(table: Table) -> None:
    gamefile = table.view("alice").gamefile
    old = sealing.seal_json({"format": "pbem-choices/1", "choices": ["pass"]}, [gamefile.game_recipient], None,
                            CHOICES_SIZE)
    with pytest.raises(SchemaInvalidMove, match="unknown format version"):
        submit(table.dir, forge_move(table, "alice", sealed=old), table.referee)
