"""Undo by consent over git: each player pushes the consent ``pbem undo consent`` wrote, like a move; the
referee's loop keeps them in its state directory and rolls back once every seat's is in; each clone, fed only
by pulls, holds the rollback and verifies."""

from __future__ import annotations

import json
from pathlib import Path

from helpers_git import Person, set_table


def _play(person: Person, key: Path) -> None:
    view = json.loads(person.pbem("view", "game", "--as", person.name, "--key", key, "--json").stdout)
    person.pbem("move", "game", "--as", person.name, "--key", key, "--choose", view["options"][0]["id"],
                "--out", "move.json")
    person.pbem("git", "send", "move.json")


def _status(person: Person) -> dict:
    person.pull()
    return json.loads(person.pbem("status", "game", "--json").stdout)


def test_a_rollback_by_git_waits_for_every_seat_and_each_clone_verifies_it(tmp_path: Path) -> None:
    table = set_table(tmp_path)
    for _ in range(20):
        status = _status(table.alice)
        if status["turn"] >= 3:
            break
        for name in status["awaiting"]:
            _play(table.players[name], table.key_files[name])
        table.referee.serve()
    head = _status(table.alice)["turn"]
    for name in ("alice", "bob"):
        person = table.players[name]
        person.pull()
        person.pbem("undo", "consent", "game", "--to", 1, "--key", table.key_files[name], "--out", "consent.json")
    table.alice.pbem("git", "send", "consent.json")
    table.referee.serve()
    assert "waiting for bob" in table.referee.answer()
    assert _status(table.alice)["turn"] == head
    table.bob.pbem("git", "send", "consent.json")
    table.referee.serve()
    assert "every seat consented: rolled back to turn 1" in table.referee.answer()
    for person in table.players.values():
        assert _status(person)["turn"] == 1
        assert (person.game / "abandoned" / "000001" / "rollback.json").is_file()
        assert "OK" in person.pbem("verify", "game", "--replay").stdout
        shown = person.pbem("view", "game", "--as", person.name, "--key", table.key_files[person.name])
        assert "WARNING" not in shown.stderr
