"""``pbem replay``: a finished game looked back over as each seat saw it, or as a spectator, from the archive
alone and without keys; golden screens for both games and a spectator, in the manner of
``test_golden_screens.py`` (regenerate with ``PBEM_REGOLD=1``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers_archive import SteppedGame, new_stepped_game
from helpers_screen import PlayedGame, check_golden, play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.cli.pager import Pager

runner = CliRunner()


def _pbem(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def _transcript(*args: str) -> str:
    shown = " ".join("GAME" if a.endswith("/game") else a for a in args)
    return f"$ pbem {shown}\n{_pbem(*args)}\n"


@pytest.fixture(scope="module")
def revealed_nightlancer(tmp_path_factory) -> PlayedGame:
    """Two players, 14 turns into a Nightlancer game, which the referee then revealed (and so abandoned)."""
    game = play(tmp_path_factory.mktemp("revealed"), "nightlancer", 2, 0x4C, 14)
    _pbem("reveal", str(game.dir), "--referee-key", str(game.root / "keys" / "referee.key"), "--force")
    return game


def test_the_last_turns_of_a_finished_nightfall_game_as_each_seat_saw_them_are_unchanged(finished: PlayedGame) -> None:
    last = len(list((finished.dir / "turns").iterdir())) - 1
    check_golden("replay-nightfall", "".join(_transcript("replay", str(finished.dir), "--as", p, "--turn", str(last - 2))
                                       for p in finished.players))


def test_a_finished_game_as_a_spectator_saw_it_is_unchanged(finished: PlayedGame) -> None:
    last = len(list((finished.dir / "turns").iterdir())) - 1
    check_golden("replay-spectator", _transcript("replay", str(finished.dir), "--as", "spectator", "--turn", str(last - 3)))


def test_a_revealed_nightlancer_game_as_each_seat_saw_it_is_unchanged(revealed_nightlancer: PlayedGame) -> None:
    game = revealed_nightlancer
    check_golden("replay-nightlancer", "".join(_transcript("replay", str(game.dir), "--as", p, "--turn", "11")
                                         for p in game.players)
           + _transcript("replay", str(game.dir), "--as", "spectator", "--turn", "13"))


def _view(game: SteppedGame, player: str, state: Path) -> str:
    return _pbem("view", str(game.dir), "--as", player, "--key", str(game.key_file(player)), "--state-dir", str(state))


@pytest.mark.parametrize("name, seed_byte", [("nightfall", 0x61), ("nightlancer", 0x62)])
def test_a_seat_replayed_sees_at_every_turn_what_its_pbem_view_showed_during_the_game(
        tmp_path: Path, name: str, seed_byte: int) -> None:
    game = new_stepped_game(tmp_path, name, 2, seed_byte)
    shown: dict[str, list[str]] = {p: [] for p in game.players}

    def look() -> None:
        for player in game.players:
            shown[player].append(_view(game, player, tmp_path / "state" / player))

    game.play(30, after=look)
    _pbem("reveal", str(game.dir), "--referee-key", str(game.key_file("referee")), "--force")
    for player in game.players:
        assert _pbem("replay", str(game.dir), "--as", player) == "\n".join(shown[player])


def test_a_running_game_is_not_looked_back_over_before_the_reveal(tmp_path: Path) -> None:
    game = new_stepped_game(tmp_path, "nightfall", 2, 0x63)
    game.play(3)
    for seat in ("alice", "spectator"):
        out = _pbem("replay", str(game.dir), "--as", seat, code=28)
        assert "is running and its seed is secret" in out
        assert "Your hand" not in out


def test_a_seat_not_in_the_game_or_a_turn_it_lacks_is_a_usage_error(finished: PlayedGame) -> None:
    assert "'mallory' is not seated" in _pbem("replay", str(finished.dir), "--as", "mallory", code=2)
    assert "not 5000" in _pbem("replay", str(finished.dir), "--as", "alice", "--turn", "5000", code=2)


def test_the_pager_steps_forward_and_back_jumps_to_a_turn_and_quits(capsys: pytest.CaptureFixture[str]) -> None:
    answers = iter(["", "p", "p", "12", "7", "x", "n", "n", "q"])
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    Pager(iter([(10, "screen 10"), (11, "screen 11"), (12, "screen 12")])).run(ask)
    assert capsys.readouterr().out.splitlines() == ["screen 10", "screen 11", "screen 10", "screen 12"]
    assert [p.split("]")[0] for p in asked] == ["[turn 10", "[turn 11", "[turn 10", "that is the first turn shown; [turn 10",
                                                "[turn 12", "no turn 7 to show; [turn 12", "'x'? [turn 12",
                                                "that was the last turn; [turn 12", "that was the last turn; [turn 12"]
