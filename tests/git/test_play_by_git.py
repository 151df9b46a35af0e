"""A whole game played by git: players who have only their clone, the commands, and the host.

Each player's clone is fed only by what the referee pushed (``git clone``,
``git pull``); each reads the game with ``pbem status`` and ``pbem view``,
answers with ``pbem move`` and sends with ``pbem git send``; the referee's
loop runs as a process of its own between their turns. At the end every
clone holds the whole record, and ``pbem verify --replay`` rebuilds it from
the seed the final turn publishes.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers_git import Person, set_table

from pbem.engine import Rng


def play(person: Person, key: Path, rng: Rng) -> None:
    """The player's turn as a person takes it: their view, a choice among its options, the move, the push."""
    view = json.loads(person.pbem("view", "game", "--as", person.name, "--key", key, "--json").stdout)
    choice = rng.choice(view["options"])["id"]
    person.pbem("move", "game", "--as", person.name, "--key", key, "--choose", choice, "--out", "move.json")
    person.pbem("git", "send", "move.json")


def test_a_whole_game_is_played_through_pushes_and_fetches_only(tmp_path: Path) -> None:
    table = set_table(tmp_path, seed=None)
    rng = Rng.from_seed("play by git")
    rounds = 0
    while True:
        for person in table.players.values():
            person.pull()
        status = json.loads(table.alice.pbem("status", "game", "--json").stdout)
        if status["over"]:
            break
        for name in status["awaiting"]:
            play(table.players[name], table.key_files[name], rng)
        table.referee.serve()
        rounds += 1
        assert rounds < 100, "the game does not end"
    assert status["result"] is not None
    for person in table.players.values():
        verified = person.pbem("verify", "game", "--replay").stdout
        assert "replayed from the revealed seed" in verified, verified
        shown = person.pbem("view", "game", "--as", person.name, "--key", table.key_files[person.name]).stdout
        assert "game over" in shown.lower()
    log = table.alice.git("log", "--format=%s").stdout.splitlines()
    assert log[0].startswith("pbem: ") and "game over" in log[0]
