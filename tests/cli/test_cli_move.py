"""`pbem move`: what it refuses to write, and what it says it wrote.

High Card (tests/toygame.py): turn 0 awaits alice and bob to *play* a card
at once; after both picks, alice and then bob each *draw* or *pass*.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import keygen, new_game, pbem


@pytest.fixture
def game(tmp_path: Path) -> Path:
    new_game(tmp_path / "game", keygen(tmp_path / "keys"))
    return tmp_path / "game"


def move(game: Path, player: str, *choices: str, code: int = 0, extra: tuple[str, ...] = ()) -> tuple[Path, str]:
    out = game.parent / f"{player}-{'-'.join(choices)}.json"
    args: list[object] = ["move", game, "--as", player, "--key", game.parent / "keys" / f"{player}.key", "--out", out]
    for choice in choices:
        args += ["--choose", choice]
    return out, pbem(*args, *extra, code=code)


def submit(game: Path, file: Path) -> str:
    return pbem("submit", game, file, "--referee-key", game.parent / "keys" / "referee.key")


def to_draw_phase(game: Path) -> None:
    for player in ("alice", "bob"):
        file, _ = move(game, player, "1")
        submit(game, file)


def test_a_number_for_a_later_choice_is_refused_and_nothing_is_written(game: Path) -> None:
    to_draw_phase(game)
    out, output = move(game, "alice", "draw", "1", code=2)
    assert "the 2nd --choose, '1', is a number" in output and "Give it as an option id instead" in output
    assert not out.exists()


def test_later_choices_after_an_early_simultaneous_answer_are_refused(game: Path) -> None:
    out, output = move(game, "alice", "1", "pass", code=2)
    assert "which bob has still to make" in output and "choice 2 of 2 would be dropped" in output
    assert not out.exists()


def test_move_says_what_was_chosen_and_how_the_referee_applies_it(game: Path) -> None:
    to_draw_phase(game)
    out, output = move(game, "alice", "2")
    assert "  choice 1: pass [pass]" in output
    assert f"pbem submit {game} {out} --referee-key REFEREE-KEYFILE" in output
    submit(game, out)
    # bob, the last to draw, passes and plays his next card in the same move
    card = json.loads(pbem("view", game, "--as", "bob", "--key", game.parent / "keys" / "bob.key", "--json"))
    out, output = move(game, "bob", "2", f"card-{card['private']['hand'][0]}")
    assert "  choice 1: pass [pass]" in output
    assert f"  choice 2: [card-{card['private']['hand'][0]}], for the decision that opens after choice 1" in output
    output = submit(game, out)
    assert "bob's move applied: turn 4" in output and "not applied" not in output
    assert "awaiting: alice (play, since turn 4)" in output  # bob's play is in


def test_move_with_mail_says_how_to_send_the_mail(game: Path) -> None:
    out, output = move(game, "alice", "1", extra=("--mail", "referee@example.org"))
    eml = out.with_suffix(".eml")
    assert eml.exists() and f"pbem mail send {eml} --config FILE" in output
    assert "pbem submit" not in output


def test_join_says_how_the_referee_applies_it(tmp_path: Path) -> None:
    keys = keygen(tmp_path / "keys")
    new_game(tmp_path / "g", keys, "highcard", "--wait-for-joins", seed=False)
    out = tmp_path / "join.json"
    output = pbem("join", tmp_path / "g", "--as", "alice", "--key", keys / "alice.key", "--out", out)
    assert f"pbem submit {tmp_path / 'g'} {out} --referee-key REFEREE-KEYFILE" in output


def test_move_when_not_awaited_says_who_is_and_for_what(game: Path) -> None:
    to_draw_phase(game)
    out, output = move(game, "bob", "pass", code=17)
    assert "no decision of bob is awaited at turn 2 (awaited: alice (draw, since turn 2))" in output
    assert not out.exists()
