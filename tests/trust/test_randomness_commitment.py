"""Committed randomness: the seed is committed before the players add entropy; the deal waits for them.

docs/trust.md, "Committed randomness".
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from helpers_referee import snapshot, validate_directory
from helpers_trust import join, join_all, joined_table, joining_table, make_table

from pbem.crypto.canonical import document_hash
from pbem.crypto.signing import sign_document
from pbem.engine.rng import step_rng
from pbem.referee import keying, sealing, status, submit, verify
from pbem.referee.errors import (
    AlreadyApplied,
    BadSignatureMove,
    NotYourDecisionMove,
    OtherGameMove,
    UnexpectedJoin,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.joins import join_document, make_join
from pbem.referee.storage import dump_json

NONCE_A, NONCE_B = b"\x0a" * 32, b"\x0b" * 32


def referee_section(table, number: int = 0) -> dict:
    turn = json.loads((table.dir / "turns" / f"{number:06d}.json").read_text())
    return sealing.open_with_key(turn["sealed"]["referee"], table.referee, "referee section", compressed=True)


def test_without_wait_for_joins_game_toml_says_the_entropy_is_the_referees_alone(tmp_path: Path) -> None:
    table = make_table(tmp_path, seed=None)
    rng = tomllib.loads((table.dir / "game.toml").read_text())["rng"]
    assert rng["entropy"] == "referee-only"
    assert referee_section(table)["entropy"] == []


def test_with_wait_for_joins_game_toml_says_the_players_add_entropy(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    rng = tomllib.loads((table.dir / "game.toml").read_text())["rng"]
    assert rng["entropy"] == "player-joins" and rng["commitment"].startswith("sha256:")
    assert "seed" not in rng


def test_the_deal_waits_until_every_seated_player_has_joined(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    assert not list((table.dir / "turns").iterdir())
    assert [a["player"] for a in status(table.dir).awaiting] == ["alice", "bob"]
    step = submit(table.dir, join(table, "alice"), table.referee)
    assert step.kind == "join" and not step.dealt and step.awaiting == ["bob"]
    assert not list((table.dir / "turns").iterdir())
    assert [(a["player"], a["kind"]) for a in status(table.dir).awaiting] == [("bob", "join-commit")]
    for player in ("bob", "alice"):
        step = submit(table.dir, join(table, player), table.referee)
        assert not step.dealt and not list((table.dir / "turns").iterdir())
    step = submit(table.dir, join(table, "bob"), table.referee)
    assert step.dealt and (table.dir / "turns" / "000000.json").exists()
    assert sorted(p.name for p in (table.dir / "joins").iterdir()) == [
        "alice.commit.json", "alice.reveal.json", "bob.commit.json", "bob.reveal.json"]
    verify(table.dir)
    validate_directory(table.dir, None)


def test_every_step_is_drawn_from_the_seed_and_the_nonces_in_seat_order(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    join_all(table, ("bob", "alice"), {"alice": NONCE_A, "bob": NONCE_B})  # the order of arrival does not matter
    section = referee_section(table)
    assert section["entropy"] == [NONCE_A.hex(), NONCE_B.hex()]
    seed = bytes.fromhex(section["seed"])
    assert keying.engine_rng(seed, [NONCE_A, NONCE_B], 5).token(16) == step_rng(seed, [NONCE_A, NONCE_B], 5).token(16)
    assert step_rng(seed, [NONCE_A, NONCE_B], 0).token(16) != step_rng(seed, [], 0).token(16)


def test_a_players_nonce_changes_the_deal(tmp_path: Path) -> None:
    """Same seed, one nonce different: another deck order (so the referee alone cannot fix the deal)."""
    seed = bytes(range(32))
    decks = []
    for nonce in (NONCE_B, b"\x0c" * 32):
        table = joining_table(tmp_path / nonce.hex()[:4], seed=seed)
        join_all(table, nonces={"alice": NONCE_A, "bob": nonce})
        decks.append(referee_section(table)["state"])
    assert decks[0] != decks[1]


def test_a_join_file_names_the_game_toml_whose_commitment_it_answers(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    doc = json.loads(join(table, "alice"))
    assert doc["format"] == "pbem-join/3" and doc["round"] == "commit"
    toml_doc = tomllib.loads((table.dir / "game.toml").read_text())
    assert doc["game"] == document_hash(toml_doc)


def test_the_same_join_twice_is_a_no_op(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    data = join(table, "alice")
    submit(table.dir, data, table.referee)
    before = snapshot(table.dir, skip=())
    with pytest.raises(AlreadyApplied):
        submit(table.dir, data, table.referee)
    assert snapshot(table.dir, skip=()) == before


def test_a_second_join_with_another_nonce_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    submit(table.dir, join(table, "alice"), table.referee)
    submit(table.dir, join(table, "bob"), table.referee)
    gamefile = GameFile.read(table.dir / "game.toml")
    other = dump_json(sign_document(join_document(gamefile, "alice", "commit", NONCE_A), table.keys["alice"]))
    with pytest.raises(UnexpectedJoin, match="committed already"):
        submit(table.dir, other, table.referee)


def test_a_join_after_the_deal_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    late = join(table, "alice", nonce=NONCE_A)
    join_all(table)
    before = snapshot(table.dir)
    with pytest.raises(UnexpectedJoin, match="dealt"):
        submit(table.dir, late, table.referee)
    assert snapshot(table.dir) == before


def test_a_join_to_a_game_that_does_not_wait_for_joins_is_refused(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    with pytest.raises(UnexpectedJoin, match="referee-only"):
        make_join(table.dir, "alice", table.keys["alice"])


def test_a_join_signed_by_another_player_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    forged = json.loads(join(table, "bob"))
    forged["player"] = "alice"
    del forged["signature"]
    with pytest.raises(BadSignatureMove):
        submit(table.dir, dump_json(sign_document(forged, table.keys["bob"])), table.referee)
    assert not (table.dir / "joins" / "alice.commit.json").exists()


def test_a_join_made_for_another_game_toml_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    other = joining_table(tmp_path / "other")
    with pytest.raises(OtherGameMove):
        submit(table.dir, make_join(other.dir, "alice", other.keys["alice"]), table.referee)


def test_a_move_before_the_deal_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    dealt = joined_table(tmp_path / "dealt")
    with pytest.raises(NotYourDecisionMove, match="waits for every player's join"):
        submit(table.dir, dealt.move("alice", dealt.view("alice").decision.options[0].id), table.referee)


def test_a_step_that_died_after_the_last_join_deals_on_the_next_run(tmp_path: Path, monkeypatch) -> None:
    import pbem.referee.pipeline as pipeline  # the step on a join file writes the deal

    table = joining_table(tmp_path)
    for player in ("alice", "bob", "alice"):
        submit(table.dir, join(table, player), table.referee)
    last = join(table, "bob")

    def crash(*args, **kwargs):
        raise RuntimeError("killed before the deal was written")

    monkeypatch.setattr(pipeline, "write_turn", crash)
    with pytest.raises(RuntimeError):
        submit(table.dir, last, table.referee)
    monkeypatch.undo()
    assert (table.dir / "joins" / "bob.reveal.json").exists() and not (table.dir / "turns" / "000000.json").exists()
    with pytest.raises(AlreadyApplied):
        submit(table.dir, last, table.referee)  # the next run deals first, then sees the join is in
    assert status(table.dir).awaiting and verify(table.dir).turns == 1


def test_a_view_before_the_deal_says_the_game_waits_for_joins(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    with pytest.raises(NotYourDecisionMove, match="not dealt yet"):
        table.view("alice")
