"""``verify --replay``: the archive and the revealed seed rebuild every turn, byte for byte."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pbem.referee.pipeline as pipeline
from pbem.cli.main import app
from pbem.crypto import age
from pbem.referee import sealing, verify
from pbem.referee.errors import VerificationFailed
from pbem.referee.verify import NO_REPLAY_NOTE
from trust_helpers import finished_table, joined_table, make_table, play


def test_a_finished_game_replays_byte_for_byte(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    report = verify(table.dir, replay=True)
    assert report.replayed and report.note is None and report.turns > 5


def test_a_game_without_joins_replays_too(tmp_path: Path) -> None:
    table = finished_table(tmp_path, joins=False)
    assert verify(table.dir, replay=True).replayed


def test_a_test_game_replays_while_running(tmp_path: Path) -> None:
    table = make_table(tmp_path)  # --seed: the seed is in game.toml
    play(table, steps=3)
    assert verify(table.dir, replay=True).replayed


def test_before_the_end_verify_checks_signatures_and_the_chain_only_and_says_so(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    play(table, steps=2)
    report = verify(table.dir, replay=True)
    assert not report.replayed and report.note == NO_REPLAY_NOTE
    result = CliRunner().invoke(app, ["verify", str(table.dir), "--replay"])
    assert result.exit_code == 0 and "signatures and the hash chain only" in result.output


def test_a_referee_that_changes_the_state_is_caught_at_that_step(tmp_path: Path, monkeypatch) -> None:
    """Every file is signed and chained, so plain ``verify`` passes; the replay names the step."""
    table = joined_table(tmp_path)
    play(table, steps=2)
    real = pipeline.advance

    def cheating(*args, **kwargs):
        position, since, step, after = real(*args, **kwargs)
        state = position.state
        hand = state["hands"]["alice"]
        if hand and state["deck"]:
            hand[0], state["deck"][0] = state["deck"][0], hand[0]  # slip alice the top card
        else:
            state["scores"]["alice"] += 1
        return position, since, step, after

    monkeypatch.setattr(pipeline, "advance", cheating)
    play(table, steps=1)
    monkeypatch.undo()
    play(table)
    assert verify(table.dir).turns > 3  # signatures and chain: all fine
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "turns" / "000003.json")
    assert "differs from the replay" in str(caught.value)


def test_a_referee_that_deals_from_another_generator_is_caught_at_the_deal(tmp_path: Path, monkeypatch) -> None:
    import pbem.referee.deal as deal
    from pbem.engine.rng import Rng

    monkeypatch.setattr(deal.keying, "engine_rng", lambda seed, entropy, turn: Rng.from_seed("stacked deck"))
    table = joined_table(tmp_path)
    monkeypatch.undo()
    play(table)
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "turns" / "000000.json")


def _deflate_as_another_zlib(data: bytes) -> bytes:
    """What another zlib build may write for the same input (here: level 1, another header and encoding)."""
    return zlib.compress(data, 1)


def test_a_referee_section_another_zlib_compressed_still_replays(tmp_path: Path, monkeypatch) -> None:
    """zlib's output is not the same on every build (zlib-ng): the replay accepts a section that holds
    exactly the rebuilt state, padded and sealed as the rule says, whatever deflate encoding it has."""
    monkeypatch.setattr(sealing, "compress", _deflate_as_another_zlib)
    table = finished_table(tmp_path)
    monkeypatch.undo()
    turns = [json.loads(p.read_text()) for p in sorted((table.dir / "turns").glob("*.json"))]
    plaintext = age.decrypt(turns[1]["sealed"]["referee"].encode(), [sealing.game_identity(bytes.fromhex(turns[-1]["seed"]))])
    inflater = zlib.decompressobj()
    document = inflater.decompress(plaintext)
    assert plaintext[: len(plaintext) - len(inflater.unused_data)] != sealing.compress(document)
    assert verify(table.dir, replay=True).replayed


def test_verify_replay_json_says_whether_it_replayed(tmp_path: Path) -> None:
    import json

    table = finished_table(tmp_path)
    result = CliRunner().invoke(app, ["verify", str(table.dir), "--replay", "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 0 and doc["replayed"] is True and doc["note"] is None


def test_a_replay_with_other_scenario_data_names_game_toml(tmp_path: Path, monkeypatch) -> None:
    """game.toml pins the scenario data (``setup``): a pbem whose data differs says so instead of
    reporting a mysterious difference at turn 0."""
    import toygame

    table = finished_table(tmp_path)
    monkeypatch.setitem(toygame.SCENARIOS["standard"], "options", {"rounds": 4})
    with pytest.raises(VerificationFailed, match="scenario data") as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "game.toml")
