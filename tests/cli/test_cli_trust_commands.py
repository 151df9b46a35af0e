"""``pbem new --wait-for-joins``, ``pbem join``, ``pbem reveal`` and ``pbem verify --replay`` on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import helpers_referee  # noqa: F401  (registers the toy game)
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


def pbem(*args, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def make_game(tmp_path: Path, *extra: str) -> tuple[Path, Path, str]:
    keys = tmp_path / "keys"
    for name in ("referee", "alice", "bob"):
        pbem("keygen", name, "--out", keys)
    game = tmp_path / "game"
    out = pbem("new", game, "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
               "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", *extra)
    return game, keys, out


def test_join_writes_a_file_that_submit_takes_and_the_last_join_deals(tmp_path: Path) -> None:
    game, keys, out = make_game(tmp_path, "--wait-for-joins")
    assert "waits for every player's join files" in out and "alice (join-commit" in out
    for round_name in ("commit", "reveal"):
        files = []
        for name in ("alice", "bob"):
            target = tmp_path / f"join-{name}-{round_name}.json"
            pbem("join", game, "--as", name, "--key", keys / f"{name}.key", "--out", target)
            files.append(target)
        out = pbem("submit", game, files[0], "--referee-key", keys / "referee.key")
        assert f"alice's join file applied; awaiting: bob (join-{round_name}" in out
        result = json.loads(pbem("submit", game, files[1], "--referee-key", keys / "referee.key", "--json"))
    assert result["results"][0]["turn"] == 0 and result["awaiting"] == ["alice", "bob"]
    assert "turn 0" in pbem("status", game)


def test_new_without_joins_says_the_entropy_is_the_referees_alone(tmp_path: Path) -> None:
    _, _, out = make_game(tmp_path)
    assert "entropy: referee-only" in out


def test_reveal_refuses_a_running_game_with_exit_code_22_and_force_abandons_it(tmp_path: Path) -> None:
    game, keys, _ = make_game(tmp_path)
    pbem("reveal", game, "--referee-key", keys / "referee.key", code=22)
    assert not (game / "reveal.json").exists()
    out = pbem("reveal", game, "--referee-key", keys / "referee.key", "--force")
    assert "abandoned at turn 0" in out
    out = pbem("verify", game, "--replay")
    assert "replayed from the revealed seed" in out
    doc = json.loads(pbem("status", game, "--json"))
    assert doc["over"] is True and doc["awaiting"] == []


def test_verify_replay_of_a_running_game_says_what_it_checked(tmp_path: Path) -> None:
    game, _, _ = make_game(tmp_path)
    out = pbem("verify", game, "--replay")
    assert "not replayed" in out and "signatures and the hash chain only" in out
    doc = json.loads(pbem("verify", game, "--replay", "--json"))
    assert doc["replayed"] is False and "hash chain only" in doc["note"]
