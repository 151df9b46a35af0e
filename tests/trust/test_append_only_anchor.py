"""Append-only: a turn the referee signed is never forgotten.

The referee keeps, in its own state directory, the head of every game it
steps (the latest turn it wrote, with its hash): a game directory that
dropped or rewrote that turn is refused before anything is done (exit 26),
so that a player who removed the turn that drew their card cannot take the
move back. The head (``head.json``) travels with a transport's copies, and
``pbem verify`` reports a copy that lost the turn it names.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers_referee import make_table, snapshot
from helpers_trust import joined_table, play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.keys import generate
from pbem.referee import Refusal, formats, status, submit, take_over, verify
from pbem.referee.errors import GameDirError, HistoryLost, StateFileError, VerificationFailed
from pbem.referee.gamefile import GameFile
from pbem.referee.head import Anchors, Head, head_path, parse_head, read_head, sign_head, write_head
from pbem.referee.layout import GameDir
from pbem.referee.records import current_turn

runner = CliRunner()


def drop_newest(table, keep: int) -> None:
    """A player with write access to the game's files removes every turn after ``keep`` and its move."""
    for path in [*(table.dir / "turns").iterdir(), *(table.dir / "moves").iterdir()]:
        if int(path.name[:6]) > keep:
            path.unlink()


def anchored_head(anchors: Anchors, gamefile: GameFile) -> Head:
    head = anchors.read(gamefile)
    assert head is not None, "the game has no anchor"
    return head


def anchored_step(table, anchors: Anchors, steps: int = 1, now=None) -> None:
    for _ in range(steps):
        player = status(table.dir).awaiting[0]["player"]
        option = table.view(player).decision.options[0].id
        submit(table.dir, table.move(player, option), table.referee, anchors=anchors, now=now)


def test_a_step_anchors_the_turn_it_wrote(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=2)
    gamefile = GameFile.read(GameDir(table.dir).game_toml)
    head = anchors.read(gamefile)
    latest = current_turn(GameDir(table.dir), gamefile)
    assert head is not None and (head.turn, head.turn_hash) == (2, latest.hash)
    assert formats.format_problem(json.loads(head.data), formats.HEAD) is None
    assert (anchors.path(gamefile).stat().st_mode & 0o777) == 0o600


def test_a_step_from_a_history_that_dropped_the_anchored_turn_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=3)
    drop_newest(table, keep=1)  # the player took back the moves that made turns 2 and 3
    before = snapshot(table.dir, skip=())
    player = status(table.dir).awaiting[0]["player"]
    again = table.move(player, table.view(player).decision.options[0].id)
    with pytest.raises(HistoryLost) as refused:
        submit(table.dir, again, table.referee, anchors=anchors)
    assert "turn 3" in str(refused.value) and "dropped" in str(refused.value)
    assert snapshot(table.dir, skip=()) == before  # not even a rejection notice
    assert refused.value.exit_code == 26


def test_a_step_from_a_rewritten_history_is_refused(tmp_path: Path) -> None:
    """Two runs of the same game from turn 1 on: the second directory's turn 2 is not the anchored one."""
    table = make_table(tmp_path)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=1)
    fork = tmp_path / "fork"
    shutil.copytree(table.dir, fork)
    anchored_step(table, anchors, steps=1)  # turn 2 as the referee wrote it
    forked = type(table)(dir=fork, keys=table.keys, key_files=table.key_files)
    player = status(fork).awaiting[0]["player"]
    options = forked.view(player).decision.options
    submit(fork, forked.move(player, options[-1].id), table.referee)  # another turn 2, written without the anchor
    shutil.rmtree(table.dir)
    shutil.copytree(fork, table.dir)
    player = status(table.dir).awaiting[0]["player"]
    with pytest.raises(HistoryLost) as refused:
        submit(table.dir, table.move(player, table.view(player).decision.options[0].id), table.referee,
               anchors=anchors)
    assert "rewritten" in str(refused.value) or "another hash" in str(refused.value)


def test_turns_written_without_the_anchor_are_taken_when_they_chain_to_it(tmp_path: Path) -> None:
    """A referee who ran one step by hand (no --state-dir) and then the transport again is not refused."""
    table = make_table(tmp_path)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=1)
    play(table, steps=2)  # two steps without the anchor
    anchored_step(table, anchors, steps=1)
    gamefile = GameFile.read(GameDir(table.dir).game_toml)
    assert anchored_head(anchors, gamefile).turn == 4


def test_a_tick_and_a_takeover_hold_the_anchor_too(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from pbem.referee import tick

    start = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
    table = make_table(tmp_path, deadlines=["1h"], now=start)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=1, now=start)
    later = datetime(2025, 3, 1, 14, 0, tzinfo=UTC)
    report = tick(table.dir, table.referee, now=later, anchors=anchors)
    gamefile = GameFile.read(GameDir(table.dir).game_toml)
    assert report.timeouts and anchored_head(anchors, gamefile).turn == report.turn
    assert anchored_head(anchors, gamefile).time == "2025-03-01T14:00:00Z"  # a game with deadlines: the turn's own time
    newcomer = generate("bob").public
    done = take_over(table.dir, "bob", newcomer, table.referee, now=later, anchors=anchors)
    assert anchored_head(anchors, gamefile).turn == done.turn
    drop_newest(table, keep=1)
    for path in (table.dir / "timeouts").iterdir():
        path.unlink()
    for path in (table.dir / "seats").iterdir():
        path.unlink()
    with pytest.raises(HistoryLost):
        tick(table.dir, table.referee, now=later, anchors=anchors)


def test_a_game_dealt_by_its_last_join_is_anchored(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    gamefile = GameFile.read(GameDir(table.dir).game_toml)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=1)
    assert anchored_head(anchors, gamefile).turn == 1


def test_an_anchor_that_is_not_the_referees_own_stops_the_step(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    anchors = Anchors(tmp_path / "referee-state")
    anchored_step(table, anchors, steps=1)
    gamefile = GameFile.read(GameDir(table.dir).game_toml)
    path = anchors.path(gamefile)
    forged = json.loads(path.read_bytes())
    forged["turn"] = 0
    path.write_text(json.dumps(forged))
    with pytest.raises(StateFileError):
        anchored_step(table, anchors, steps=1)


def test_the_cli_anchors_with_state_dir_and_exits_26_on_a_lost_turn(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    state = tmp_path / "referee-state"
    for _ in range(2):
        player = status(table.dir).awaiting[0]["player"]
        move = tmp_path / "move.json"
        move.write_bytes(table.move(player, table.view(player).decision.options[0].id))
        done = runner.invoke(app, ["submit", str(table.dir), str(move), "--referee-key",
                                   str(table.key_files["referee"]), "--state-dir", str(state)])
        assert done.exit_code == 0, done.output
    drop_newest(table, keep=1)
    player = status(table.dir).awaiting[0]["player"]
    move.write_bytes(table.move(player, table.view(player).decision.options[0].id))
    refused = runner.invoke(app, ["submit", str(table.dir), str(move), "--referee-key",
                                  str(table.key_files["referee"]), "--state-dir", str(state)])
    assert refused.exit_code == 26 and "no longer holds it" in refused.output
    assert "Traceback" not in refused.output


# --- the head that travels with a copy -------------------------------------------------------------------------


def test_verify_reports_the_dropped_latest_turn_by_the_head_the_copy_holds(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    play(table, steps=3)
    gamedir = GameDir(table.dir)
    gamefile = GameFile.read(gamedir.game_toml)
    write_head(gamedir, sign_head(gamefile, current_turn(gamedir, gamefile), table.referee))
    assert verify(table.dir).files > 0
    drop_newest(table, keep=2)
    with pytest.raises(Refusal):  # the referee's next run rewrites the views from the turn now the latest
        submit(table.dir, b"{}", table.referee)
    head = head_path(gamedir).read_bytes()
    head_path(gamedir).unlink()
    assert verify(table.dir).turns == 3  # without the head, the shorter chain verifies
    head_path(gamedir).write_bytes(head)
    with pytest.raises(VerificationFailed) as failed:
        verify(table.dir)
    assert failed.value.path == str(head_path(gamedir))
    assert "turn 3" in str(failed.value) and "dropped" in str(failed.value)


def test_a_head_not_signed_by_the_referee_or_of_another_game_is_refused(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    play(table, steps=1)
    gamedir = GameDir(table.dir)
    gamefile = GameFile.read(gamedir.game_toml)
    latest = current_turn(gamedir, gamefile)
    forged = sign_head(gamefile, latest, generate("referee"))
    with pytest.raises(GameDirError, match="signature"):
        parse_head(forged.data, gamefile, "head.json")
    other = make_table(tmp_path / "other", seed=bytes(32))
    other_file = GameFile.read(GameDir(other.dir).game_toml)
    theirs = sign_head(other_file, current_turn(GameDir(other.dir), other_file), other.referee)
    head_path(gamedir).write_bytes(theirs.data)
    with pytest.raises(GameDirError):
        read_head(gamedir, gamefile)
    with pytest.raises(VerificationFailed):
        verify(table.dir)
    head_path(gamedir).write_bytes(b"\x00" * 5000)
    with pytest.raises(GameDirError, match="at most"):
        read_head(gamedir, gamefile)
