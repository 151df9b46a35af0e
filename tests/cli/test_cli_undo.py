"""``pbem undo consent`` and ``pbem undo apply`` as a player and a referee type them."""

from __future__ import annotations

from pathlib import Path

from helpers_archive import new_stepped_game
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


def pbem(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def test_each_seat_signs_a_consent_and_the_referee_rolls_back_with_all_of_them(tmp_path: Path, monkeypatch) -> None:
    game = new_stepped_game(tmp_path, "nightlancer", 2, 0x44)
    game.play(6)
    monkeypatch.chdir(tmp_path)
    out = pbem("undo", "consent", game.dir, "--to", 3, "--key", game.key_file("alice"))
    assert "undo-000003-alice.json (alice consents to return the game to turn 3" in out
    pbem("undo", "consent", game.dir, "--to", 3, "--key", game.key_file("bob"), "--as", "bob", "--out", "bob.json")
    referee = ("--referee-key", game.key_file("referee"), "--state-dir", tmp_path / "state")
    refused = pbem("undo", "apply", game.dir, "undo-000003-alice.json", *referee, code=29)
    assert "bob has not given one" in refused
    out = pbem("undo", "apply", game.dir, "undo-000003-alice.json", "bob.json", *referee)
    assert "rolled back to turn 3: turns 4 to 6 are kept in" in out
    assert "turn 3" in pbem("status", game.dir)
    assert "OK (4 turns" in pbem("verify", game.dir)
    assert "a consent for another head" in pbem("undo", "apply", game.dir, "undo-000003-alice.json", "bob.json",
                                                *referee, code=29)


def test_a_key_that_holds_no_seat_signs_no_consent(tmp_path: Path) -> None:
    game = new_stepped_game(tmp_path, "nightfall", 2, 0x45)
    game.play(2)
    assert "holds no seat" in pbem("undo", "consent", game.dir, "--to", 1, "--key", game.key_file("referee"), code=4)
