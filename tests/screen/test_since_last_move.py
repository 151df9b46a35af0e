"""The screen: "since your last decision" — every public event since the player last
moved, and their own private events of those steps, read from the turn files since then and from
their own sealed sections; never another player's private events; the work bounded for long gaps."""

from __future__ import annotations

import json
import shutil
from datetime import UTC
from pathlib import Path

import pytest
from helpers_referee import make_table
from helpers_screen import PlayedGame, view_at
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.cli.text import since_lines
from pbem.referee import formats, read_view
from pbem.referee.errors import GameDirError
from pbem.referee.public import public_log
from pbem.referee.since import SinceLastMove, since_last_move

runner = CliRunner()


def _sections(game: PlayedGame) -> list[tuple[str, int, SinceLastMove]]:
    """``(player, turn, section)`` for every player and every turn, as if that turn were the latest."""
    if game not in _SECTIONS:
        _SECTIONS[game] = [(player, number, since_last_move(game.dir, view_at(game, player, number), game.key(player)))
                           for number in range(len(list((game.dir / "turns").iterdir())))
                           for player in game.players]
    return _SECTIONS[game]


_SECTIONS: dict[PlayedGame, list[tuple[str, int, SinceLastMove]]] = {}


@pytest.mark.parametrize("which", ["nightfall", "nightfall3", "nightlancer"])
def test_every_public_event_since_the_players_last_move_is_told(which: str, request) -> None:
    """At every turn, for every player: the turns from the one their last move produced (the deal if
    none) to this one, each with the public events the log (an independent reader) gives it."""
    game: PlayedGame = request.getfixturevalue(which)
    entries = {e.turn: e for e in public_log(game.dir)}
    longest = 0
    for player, number, since in _sections(game):
        moved = [t for t in range(number + 1) if entries[t].mover == player]
        first = moved[-1] if moved else 0
        assert [s.turn for s in since.steps] == list(range(first, number + 1)), (player, number)
        assert since.last_move == (moved[-1] if moved else None) and since.complete
        for step in since.steps:
            assert step.events == entries[step.turn].events and step.mover == entries[step.turn].mover
        longest = max(longest, len(since.steps))
    assert longest > 3, "no gap of several turns: the test would not tell a section from the latest step"


@pytest.mark.parametrize("which", ["nightfall", "nightfall3", "nightlancer"])
def test_the_players_own_private_events_of_those_steps_are_told(which: str, request) -> None:
    """The oracle is the referee's state of each turn (opened with the test seed), not the player's section."""
    game: PlayedGame = request.getfixturevalue(which)
    told = 0
    for player, number, since in _sections(game):
        for step in since.steps:
            assert step.private_events == game.private_events(step.turn, player), (player, step.turn)
            told += len(step.private_events) if step.turn < number else 0
    assert told > 0, "no private event of an earlier turn told: the test would pass if only the latest were read"


@pytest.mark.parametrize("which", ["nightfall", "nightfall3", "nightlancer"])
def test_the_since_section_never_shows_another_players_private_events(which: str, request) -> None:
    game: PlayedGame = request.getfixturevalue(which)
    others_lines = 0
    for player, _number, since in _sections(game):
        shown = json.dumps(since.to_json())
        for step in since.steps:
            own = set(game.private_events(step.turn, player))
            for other in game.players:
                if other == player:
                    continue
                for line in set(game.private_events(step.turn, other)) - own:
                    others_lines += 1
                    assert json.dumps(line) not in shown, (player, other, step.turn)
    assert others_lines > 0, "no other player's private event in range: the test would pass vacuously"


def test_the_view_shows_the_section_it_computes(nightfall: PlayedGame) -> None:
    for player in nightfall.players:
        key = nightfall.key(player)
        since = since_last_move(nightfall.dir, read_view(nightfall.dir, player, key), key)
        result = runner.invoke(app, ["view", str(nightfall.dir), "--as", player, "--key",
                                     str(nightfall.key_file(player)), "--json"])
        assert json.loads(result.output)["since_last_move"] == since.to_json()


def test_the_view_json_carries_the_section_and_its_schema_holds(nightfall: PlayedGame) -> None:
    player = nightfall.players[0]
    result = runner.invoke(app, ["view", str(nightfall.dir), "--as", player, "--key", str(nightfall.key_file(player)),
                                 "--json"])
    doc = json.loads(result.output)
    assert formats.format_problem(doc, formats.CLI_VIEW) is None
    assert doc["since_last_move"]["turns"][-1]["turn"] == doc["turn"]


def test_the_screen_tells_each_turn_since_the_last_move_with_whose_move_it_was(nightfall: PlayedGame) -> None:
    player = nightfall.players[1]
    key = nightfall.key(player)
    since = since_last_move(nightfall.dir, read_view(nightfall.dir, player, key), key)
    text = runner.invoke(app, ["view", str(nightfall.dir), "--as", player, "--key",
                               str(nightfall.key_file(player))]).output
    assert f"Since your last move (turn {since.last_move}):" in text
    flat = " ".join(text.split())
    for step in since.steps:
        if step.events or step.private_events:
            whose = "your move" if step.mover == player else f"{step.mover}'s move"
            assert f"turn {step.turn}, {whose}:" in text
        for line in step.events:
            assert " ".join(line.split()) in flat
        for line in step.private_events:
            assert "(only you) " + " ".join(line.split()) in flat


def test_a_long_gap_reads_no_more_than_the_bound(nightfall3: PlayedGame, tmp_path: Path) -> None:
    """The bound: a gap longer than ``limit`` turns shows the latest ``limit`` and says the rest is in
    the log; the turn files before them are not even read (here: one is missing, and nothing notices)."""
    player, number, gap = max(((p, n, len(s.steps)) for p, n, s in _sections(nightfall3)), key=lambda x: x[2])
    assert gap > 4
    copy = tmp_path / "game"
    shutil.copytree(nightfall3.dir, copy)
    key = nightfall3.key(player)
    view = view_at(nightfall3, player, number)
    (copy / "turns" / f"{number - 3:06d}.json").unlink()
    bounded = since_last_move(copy, view, key, limit=3)
    assert [s.turn for s in bounded.steps] == [number - 2, number - 1, number]
    assert not bounded.complete and bounded.last_move is None
    assert "pbem log has the whole public record" in " ".join(" ".join(since_lines(bounded)).split())
    with pytest.raises(GameDirError):
        since_last_move(copy, view, key, limit=gap)  # reading further needs the missing turn


def test_an_earlier_turn_that_is_not_the_one_its_successor_names_is_refused(tmp_path: Path) -> None:
    """Two copies of one game part after turn 1; copy A with copy B's turn 2 tells no story: the
    section reads the chain that ends in the current turn, or refuses."""
    a = make_table(tmp_path / "a")
    b_root = tmp_path / "b"
    shutil.copytree(tmp_path / "a", b_root)
    from helpers_referee import Table

    from pbem.referee import submit

    b = Table(dir=b_root / "game", keys=a.keys, key_files=a.key_files)
    for table, pick in ((a, 0), (b, -1)):
        view = table.view("alice")
        submit(table.dir, table.move("alice", view.decision.options[pick].id), table.referee)
    for table in (a, b):
        view = table.view("bob")
        submit(table.dir, table.move("bob", view.decision.options[0].id), table.referee)
    assert (a.dir / "turns" / "000001.json").read_bytes() != (b.dir / "turns" / "000001.json").read_bytes()
    shutil.copyfile(b.dir / "turns" / "000001.json", a.dir / "turns" / "000001.json")
    view = a.view("alice")
    assert view.number == 2
    with pytest.raises(GameDirError, match="is not the turn that turn 2 follows"):
        since_last_move(a.dir, view, a.keys["alice"])


# --- steps the referee made in place of a move (deadlines, takeovers) -------------------------------


def test_a_seat_handed_to_a_new_key_reads_back_only_to_the_takeover(tmp_path: Path) -> None:
    """The turns before a takeover hold the seat's sections sealed to the previous key, which the new
    holder's key cannot open: the section stops at the takeover and says so, and the view works."""
    from pbem.crypto.keys import generate
    from pbem.referee import submit
    from pbem.referee.takeover import take_over

    table = make_table(tmp_path)
    new = generate("bob")
    take_over(table.dir, "bob", new.public, table.referee)
    submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee)
    view = read_view(table.dir, "bob", new)
    since = since_last_move(table.dir, view, new)
    assert [s.turn for s in since.steps] == [1, 2] and since.complete and since.last_move is None
    assert since.seat_taken == 1
    assert since.steps[0].referee_step == {"kind": "takeover", "player": "bob", "key": new.public.fingerprint,
                                           "previous": table.keys["bob"].public.fingerprint}
    assert since.steps[1].events == ["alice has picked"]
    assert "Since the seat was handed to you (turn 1):" in "\n".join(since_lines(since))
    doc = _view_doc(table.dir, "bob", new)
    assert formats.format_problem(doc, formats.CLI_VIEW) is None and doc["since_last_move"]["seat_taken"] == 1


def test_a_timeout_is_told_as_the_referees_step_never_as_the_deal(tmp_path: Path) -> None:
    from datetime import datetime, timedelta

    from pbem.referee import submit
    from pbem.referee.tick import tick

    t0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    table = make_table(tmp_path, deadlines=["48h"], now=t0)
    submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee,
           now=t0 + timedelta(hours=1))
    tick(table.dir, table.referee, now=t0 + timedelta(hours=49))
    since = since_last_move(table.dir, table.view("alice"), table.keys["alice"])
    assert [(s.turn, s.mover) for s in since.steps] == [(1, "alice"), (2, None)]
    lines = "\n".join(since_lines(since))
    assert "turn 2, bob's play decision timed out: the referee chose one of the options at random" in lines
    assert "the deal" not in lines


def _view_doc(directory: Path, player: str, key) -> dict:
    """``pbem view --json`` with ``key`` (written to a folder of its own)."""
    from pbem.crypto.keys import write_keypair

    folder = directory.parent / "new-keys"
    folder.mkdir()
    private, _ = write_keypair(key, folder)
    result = runner.invoke(app, ["view", str(directory), "--as", player, "--key", str(private), "--json",
                                 "--state-dir", str(directory.parent / "state")])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)
