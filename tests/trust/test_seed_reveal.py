"""Seed publication: automatically in the final turn; ``pbem reveal`` for an abandoned game."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from helpers_referee import snapshot
from helpers_trust import finished_table, join, joined_table, joining_table, play

from pbem.referee import keying, status, submit, verify
from pbem.referee.errors import GameOverMove, RevealRefused
from pbem.referee.reveal import reveal


def turns(table) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((table.dir / "turns").glob("*.json"))]


def test_the_final_turn_publishes_the_seed_and_no_earlier_turn_does(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    *running, final = turns(table)
    assert all(t["seed"] is None for t in running)
    commitment = tomllib.loads((table.dir / "game.toml").read_text())["rng"]["commitment"]
    assert keying.commitment(bytes.fromhex(final["seed"])) == commitment


def test_reveal_refuses_a_running_game(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    before = snapshot(table.dir, skip=())
    with pytest.raises(RevealRefused, match="--force"):
        reveal(table.dir, table.referee)
    assert snapshot(table.dir, skip=()) == before


def test_reveal_with_force_abandons_the_game(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    play(table, steps=2)
    doc = reveal(table.dir, table.referee, force=True)
    assert doc["abandoned"] is True and doc["turn"] == 2
    assert keying.commitment(bytes.fromhex(doc["seed"])) == tomllib.loads((table.dir / "game.toml").read_text())["rng"]["commitment"]
    assert status(table.dir).over


def test_no_move_is_taken_after_an_abandoning_reveal(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    move = table.move("alice", table.view("alice").decision.options[0].id)
    reveal(table.dir, table.referee, force=True)
    with pytest.raises(GameOverMove, match="abandoned"):
        submit(table.dir, move, table.referee)


def test_a_game_abandoned_before_the_deal_can_be_revealed_and_replayed(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    submit(table.dir, join(table, "alice"), table.referee)
    doc = reveal(table.dir, table.referee, force=True)
    assert doc["turn"] is None and doc["abandoned"]
    report = verify(table.dir, replay=True)
    assert report.replayed and report.turns == 0


def test_an_abandoned_game_replays(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    play(table, steps=3)
    reveal(table.dir, table.referee, force=True)
    report = verify(table.dir, replay=True)
    assert report.replayed and report.turns == 4


def test_revealing_a_finished_game_needs_no_force_and_is_not_abandonment(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    doc = reveal(table.dir, table.referee)
    assert doc["abandoned"] is False and doc["seed"] == turns(table)[-1]["seed"]
    assert reveal(table.dir, table.referee) == doc  # revealing again changes nothing
    verify(table.dir, replay=True)


def test_a_reveal_that_does_not_name_the_latest_turn_is_detected(tmp_path: Path) -> None:
    """A referee that revealed and then went on playing is caught."""
    table = joined_table(tmp_path)
    reveal(table.dir, table.referee, force=True)
    saved = (table.dir / "reveal.json").read_bytes()
    (table.dir / "reveal.json").unlink()
    play(table, steps=1)
    (table.dir / "reveal.json").write_bytes(saved)
    from pbem.referee.errors import VerificationFailed

    with pytest.raises(VerificationFailed, match="latest turn") as caught:
        verify(table.dir)
    assert caught.value.path == str(table.dir / "reveal.json")
