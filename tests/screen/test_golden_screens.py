"""Golden screens, in the manner of OpenSpiel's playthroughs: what ``pbem view``, ``pbem view
--cards``, ``pbem log`` and ``pbem card`` print for a few games played by bots from fixed seeds,
through the real files, diffed against ``golden/*.txt``. A change to a screen is a visible diff.
Regenerate after an intended change with::

    PBEM_REGOLD=1 python -m pytest tests/screen/test_golden_screens.py

and read the diff before committing it.
"""

from __future__ import annotations

import pytest
from helpers_screen import PlayedGame, check_golden
from typer.testing import CliRunner

from pbem.cli.main import app

runner = CliRunner()


def _run(*args: str) -> str:
    """A command and what it prints, as a transcript: the game directory shows as GAME."""
    result = runner.invoke(app, list(args))
    shown = " ".join("GAME" if a.endswith("/game") else ("KEY" if a.endswith(".key") else a) for a in args)
    return f"$ pbem {shown}\n{result.output}" + (f"[exit {result.exit_code}]\n" if result.exit_code else "") + "\n"


def _views(game: PlayedGame, *extra: str) -> str:
    return "".join(_run("view", str(game.dir), "--as", p, "--key", str(game.key_file(p)), *extra)
                   for p in game.players)


@pytest.mark.parametrize("which", ["nightfall", "nightfall3", "nightlancer"])
def test_the_screens_of_a_game_under_way_are_unchanged(which: str, request) -> None:
    game: PlayedGame = request.getfixturevalue(which)
    awaited = runner.invoke(app, ["status", str(game.dir), "--json"]).output
    import json

    first = json.loads(awaited)["awaiting"][0]
    transcript = _views(game) + _run("view", str(game.dir), "--as", first, "--key", str(game.key_file(first)), "--cards")
    check_golden(f"{which}-under-way", transcript)


def test_the_screens_and_log_of_a_finished_game_are_unchanged(finished: PlayedGame) -> None:
    check_golden("nightfall-finished", _views(finished) + _run("log", str(finished.dir)))


def test_pbem_card_answers_are_unchanged() -> None:
    # a look-up that fails names the games searched: every registered game, the tests' toy games
    # among them when another test module registered them, so those name their game
    queries = [["bad", "smoke"], ["J.J. McTeague"], ["mongrel's", "trap"], ["witness pickup"], ["smoke"],
               ["wound", "--game", "nightfall"], ["headshoot", "--game", "nightfall"],
               ["zzzz", "--game", "nightlancer"], ["bouncer", "--game", "nightlancer"]]
    check_golden("card", "".join(_run("card", *q) for q in queries))
