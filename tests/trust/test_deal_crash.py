"""A referee killed between the writes of the join-then-deal step (the last join file deals turn 0).

That step renames, in order: the last nonce's join file into ``joins/``,
turn 0 (the commit point of the deal), then each player's ``latest.json``
and ``latest.age``. Killed before or after any of those renames, the referee
leaves a game that is either still waiting (no turn file; the next run
takes the join or, if every join is in, deals) or dealt (turn 0 whole,
signed and naming join files that are all there) — never a half-written
turn, and never a turn without its joins. The next run repairs the rest.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from helpers_trust import join, joining_table, temp_files, toy_game_env

from pbem.referee import status, submit, verify
from pbem.referee.errors import AlreadyApplied
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import read_turn

#: files the last join's step renames into place: join, turn 0, then json + age view per player (2 players)
WRITES_OF_THE_DEAL = 6
SEED = bytes(range(32))

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("when", ["before", "after"])
@pytest.mark.parametrize("write", range(1, WRITES_OF_THE_DEAL + 1))
def test_a_referee_killed_while_dealing_leaves_the_game_waiting_or_dealt(tmp_path: Path, write: int,
                                                                          when: str) -> None:
    table = joining_table(tmp_path, seed=SEED)
    for player in ("alice", "bob", "alice"):  # both commitments, then alice's nonce
        submit(table.dir, join(table, player), table.referee)
    last = tmp_path / "join-bob-reveal.json"
    last.write_bytes(join(table, "bob"))
    args = ["submit", str(table.dir), str(last), "--referee-key", str(table.key_files["referee"])]
    crashed = subprocess.run([sys.executable, str(HERE / "crashing_referee.py"), str(write), when, *args],
                             env=toy_game_env(), capture_output=True)
    assert crashed.returncode == 137, crashed.stderr.decode()

    gamedir = GameDir.at(table.dir)
    gamefile = GameFile.read(gamedir.game_toml)
    joined = write > 1 or when == "after"
    dealt = write > 2 or (write == 2 and when == "after")
    now = status(table.dir)
    if dealt:
        # dealt: turn 0 is whole and signed, and every join file it was dealt with is there, byte for byte
        turn = read_turn(gamedir, gamefile, 0)
        assert gamedir.turn_numbers() == [0] and now.awaiting and now.awaiting[0]["kind"] != "join-reveal"
        for player, digests in turn.doc["joins"].items():
            for round_name, digest in digests.items():
                data = gamedir.join(player, round_name).read_bytes()
                assert "sha256:" + hashlib.sha256(data).hexdigest() == digest
    else:
        # still waiting: no turn file at all; bob is awaited, or every join is in and the next run deals
        assert gamedir.turn_numbers() == [] and not now.over
        assert [a["player"] for a in now.awaiting] == ([] if joined else ["bob"])
        assert now.dealing == joined

    # the next referee run (bob's join sent again) deals if need be and repairs the derived files
    if joined:
        with pytest.raises(AlreadyApplied):
            submit(table.dir, last.read_bytes(), table.referee)
    else:
        step = submit(table.dir, last.read_bytes(), table.referee)
        assert step.kind == "join" and step.dealt
    assert not temp_files(table.dir)
    assert gamedir.turn_numbers() == [0] and not status(table.dir).over
    report = verify(table.dir, replay=True)  # views, joins and turn 0 are what the referee would have written
    assert report.turns == 1 and report.replayed
