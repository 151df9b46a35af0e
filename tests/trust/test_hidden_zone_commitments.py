"""Salted commitments in the public part of every turn: after the reveal they prove what was hidden."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import zonegame
from helpers_referee import make_keys
from helpers_trust import Table, finished_table, play

from pbem.crypto.seal import open_sealed
from pbem.engine import register
from pbem.referee import commitments, new_game, sealing, verify

register(zonegame.GAME)


def turn_docs(directory: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((directory / "turns").glob("*.json"))]


def test_every_turn_commits_to_every_sealed_section(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    for turn in turn_docs(table.dir):
        assert set(turn["commitments"]["sections"]) == set(turn["sealed"]) == {"alice", "bob", "referee"}
        assert turn["commitments"]["zones"] == {}  # the toy game names no zones


def test_after_the_reveal_each_commitment_opens_to_its_section(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    docs = turn_docs(table.dir)
    seed = bytes.fromhex(docs[-1]["seed"])
    for turn in docs:
        for name, text in turn["sealed"].items():
            # the referee section opens with the revealed seed; each player's with that player's key
            section = (sealing.open_with_seed(text, seed, compressed=True) if name == "referee"
                       else open_sealed(text, table.keys[name]))
            salt = commitments.salt(seed, turn["turn"], turn["move"], name)
            assert commitments.commit(salt, section) == turn["commitments"]["sections"][name]


def test_a_commitment_binds_its_content(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    turn = turn_docs(table.dir)[1]
    seed = bytes.fromhex(turn_docs(table.dir)[-1]["seed"])
    section = open_sealed(turn["sealed"]["alice"], table.keys["alice"])
    section["private"]["hand"] = list(reversed(section["private"]["hand"])) + [99]
    salt = commitments.salt(seed, turn["turn"], turn["move"], "alice")
    assert commitments.commit(salt, section) != turn["commitments"]["sections"]["alice"]


def test_without_the_seed_a_guess_cannot_be_tested_against_a_commitment(tmp_path: Path) -> None:
    """The salt comes from the secret seed: the right content under a guessed salt does not match."""
    table = finished_table(tmp_path)
    turn = turn_docs(table.dir)[0]
    section = open_sealed(turn["sealed"]["bob"], table.keys["bob"])
    assert commitments.commit(b"\x00" * 32, section) != turn["commitments"]["sections"]["bob"]


def test_a_game_that_names_its_hidden_zones_gets_one_commitment_per_zone(tmp_path: Path) -> None:
    """With the seed revealed, anyone proves the deck order at every step."""
    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    game = tmp_path / "game"
    new_game(game, "highcard-zones", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"])
    table = Table(dir=game, keys=keys, key_files=files)
    play(table)
    docs = turn_docs(game)
    seed = bytes.fromhex(docs[-1]["seed"])
    for turn in docs:
        assert set(turn["commitments"]["zones"]) == {"deck", "picks", "hand:alice", "hand:bob"}
        state = sealing.open_with_seed(turn["sealed"]["referee"], seed, compressed=True)["state"]
        salt = commitments.salt(seed, turn["turn"], turn["move"], commitments.zone_key("deck"))
        assert commitments.commit(salt, state["deck"]) == turn["commitments"]["zones"]["deck"]
    assert verify(game, replay=True).replayed


def test_pbem_prove_opens_the_deck_of_any_turn_after_the_reveal(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli.main import app

    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    game = tmp_path / "game"
    new_game(game, "highcard-zones", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"])
    table = Table(dir=game, keys=keys, key_files=files)
    play(table)
    docs = turn_docs(game)
    seed = bytes.fromhex(docs[-1]["seed"])
    result = CliRunner().invoke(app, ["prove", str(game), "--turn", "2", "--name", "deck"])
    assert result.exit_code == 0, result.output
    opened = json.loads(result.stdout)["zones"]["deck"]
    state = sealing.open_with_seed(docs[2]["sealed"]["referee"], seed, compressed=True)["state"]
    assert opened["value"] == state["deck"] and opened["commitment"] == docs[2]["commitments"]["zones"]["deck"]
    assert commitments.commit(bytes.fromhex(opened["salt"]), opened["value"]) == opened["commitment"]


def test_pbem_prove_refuses_before_the_reveal(tmp_path: Path) -> None:
    from helpers_trust import joined_table
    from typer.testing import CliRunner

    from pbem.cli.main import app

    table = joined_table(tmp_path)
    result = CliRunner().invoke(app, ["prove", str(table.dir), "--turn", "0"])
    assert result.exit_code == 5 and "not revealed" in result.output


def test_a_salt_is_the_hmac_of_the_seed_over_its_turn_move_and_name() -> None:
    """The salts of a turn come from one keyed HMAC; each is still the one the module docstring
    defines, whatever salts were drawn before it."""
    seed = bytes(range(32))
    salt_of = commitments.salter(seed, 7, "sha256:ab")
    for turn, move_hash, name in [(7, "sha256:ab", "alice"), (7, "sha256:ab", "zone:deck"), (0, None, "referee"),
                                  (7, "sha256:ab", "alice")]:
        message = b"\x00".join([b"commit", str(turn).encode(), (move_hash or "").encode(), name.encode()])
        expected = hmac.new(seed, message, hashlib.sha256).digest()
        assert commitments.salt(seed, turn, move_hash, name) == expected
        if turn == 7:
            assert salt_of(name) == expected
