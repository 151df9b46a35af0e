"""``pbem git serve``: the referee's loop, run as a process of its own against a host with its permissions.

What the game branch carries (the referee's files alone, each commit with
the signed head of its latest turn and the answer to what was read), what a
run does when there is nothing new, when its own game directory lost the
anchored turn or is gone, when the host refuses its push, and the loop
running round after round until stopped.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from helpers_git import BRANCH, GitTable, Referee, branch_files, first_choice, move, push_files, send, set_table
from helpers_referee import make_keys

from pbem.referee import make_move, new_game, read_view, status, take_over
from pbem.referee.gamefile import GameFile
from pbem.referee.head import Anchors, parse_head


def branch_commits(table: GitTable) -> list[str]:
    done = subprocess.run(["git", "--git-dir", str(table.host.repo), "rev-list", "--first-parent", BRANCH],
                          capture_output=True, text=True, check=True)
    return done.stdout.split()


def show(table: GitTable, commit: str, path: str) -> bytes | None:
    done = subprocess.run(["git", "--git-dir", str(table.host.repo), "show", f"{commit}:{path}"], capture_output=True)
    return done.stdout if done.returncode == 0 else None


def play_first_round(table: GitTable) -> None:
    for person in (table.alice, table.bob):
        send(table, person, move(table, person, first_choice(table, person)))
    table.referee.serve()


def test_every_commit_of_the_game_branch_carries_the_referees_head_of_its_latest_turn(table: GitTable) -> None:
    play_first_round(table)
    table.alice.pull()
    send(table, table.alice, move(table, table.alice, "draw"))
    table.referee.serve()
    gamefile = GameFile.read(table.referee.game / "game.toml")
    commits = branch_commits(table)
    assert len(commits) == 3
    for commit in commits:
        head = parse_head(show(table, commit, "game/head.json") or b"", gamefile, "head.json")
        latest = max(int(name) for name in subprocess.run(
            ["git", "--git-dir", str(table.host.repo), "ls-tree", "--name-only", f"{commit}:game/turns"],
            capture_output=True, text=True, check=True).stdout.replace(".json", "").split())
        assert head.turn == latest
        assert json.loads(show(table, commit, f"game/turns/{latest:06d}.json") or b"")["turn"] == latest


def test_the_game_branch_holds_the_referees_game_directory_and_nothing_else(table: GitTable) -> None:
    play_first_round(table)
    on_branch = set(branch_files(table.host))
    own = {p.relative_to(table.referee.game).as_posix() for p in table.referee.game.rglob("*")
           if p.is_file() and not p.name.startswith(".")}
    assert on_branch == {f"game/{path}" for path in own}
    for path, (mode, data) in branch_files(table.host).items():
        assert mode == "100644"
        assert (table.referee.game / path.removeprefix("game/")).read_bytes() == data


def test_a_run_with_nothing_new_makes_no_commit_and_a_file_read_is_not_read_again(table: GitTable) -> None:
    play_first_round(table)
    tip = table.host.tip()
    again = table.referee.serve(0, "--progress")
    assert table.host.tip() == tip
    assert "committed" not in again.stderr and "APPLIED" not in again.stderr


def test_the_answer_names_every_file_read_and_what_became_of_it(table: GitTable) -> None:
    alice = table.alice
    send(table, alice, move(table, alice, first_choice(table, alice)), extra={
        "notes.txt": b"hello", "turn.json": (alice.game / "turns" / "000000.json").read_bytes(),
        "other.json": json.dumps({"format": "pbem-move/1", "game_id": "0123456789abcdef"}).encode(),
        "bad\nname.json": b"{}"})
    table.referee.serve()
    answer = table.referee.answer()
    inbox = f"inbox/alice {table.host.tip('refs/heads/inbox/alice')[:7]}"  # type: ignore[index]
    assert f"{inbox} move.json: alice's move answering turn 0: APPLIED: turn 1 written" in answer
    assert f"{inbox} notes.txt: not a pbem file" in answer
    assert f"{inbox} turn.json: set aside: a pbem-turn/3 document is not a file a player sends" in answer
    assert f"{inbox} other.json: not submitted: it names game 0123456789abcdef, which is not refereed here" in answer
    assert f"{inbox} bad?name.json: not a pbem file" in answer
    assert answer.splitlines()[0] == f"pbem: {status(table.referee.game).gamefile.game_id} (highcard): turn 1, awaiting bob (play)"


def test_a_refused_move_is_answered_with_its_reason_and_its_signed_notice_is_committed(table: GitTable) -> None:
    alice = table.alice
    send(table, alice, move(table, alice, first_choice(table, alice)))
    table.referee.serve()
    send(table, alice, move(table, alice, first_choice(table, alice)), name="again.json")  # her decision is taken
    table.referee.serve()
    answer = table.referee.answer()
    assert "again.json: alice's move answering turn 0: REFUSED (" in answer
    notice = next(line for line in answer.splitlines() if "REFUSED" in line).rsplit("notice ", 1)[1]
    assert f"game/{notice}" in branch_files(table.host)


def test_a_game_directory_that_lost_the_anchored_turn_is_held_and_the_branch_keeps_the_referees_record(
        table: GitTable, tmp_path: Path) -> None:
    """The referee's own directory put back from an old backup (turn 0) after it wrote turn 1: the anchor in its
    state directory says so, nothing is stepped or published, and the run exits 20."""
    backup = tmp_path / "backup"
    shutil.copytree(table.referee.game, backup)
    send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
    table.referee.serve()
    tip = table.host.tip()
    shutil.rmtree(table.referee.game)
    shutil.copytree(backup, table.referee.game)
    send(table, table.bob, move(table, table.bob, first_choice(table, table.bob)))
    held = table.referee.serve(code=20)
    assert "no longer holds it" in held.stderr and "turn 1" in held.stderr, held.stderr
    assert table.host.tip() == tip


def test_a_referee_without_its_game_directory_takes_it_from_its_own_last_commit(table: GitTable) -> None:
    send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
    table.referee.serve()
    shutil.rmtree(table.referee.game)
    send(table, table.bob, move(table, table.bob, first_choice(table, table.bob)))
    done = table.referee.serve(0, "--progress")
    assert "taken from the referee's own last commit" in done.stderr
    assert status(table.referee.game).turn == 2


def test_a_new_referee_machine_takes_the_game_from_the_branch_as_it_finds_it(table: GitTable, tmp_path: Path) -> None:
    """A runner whose state is gone (a CI cache emptied): a new state directory and no game directory. The game
    is taken from the remote's game branch, trusted on first use, checked by verify, and goes on."""
    send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
    table.referee.serve()
    new = Referee(tmp_path / "new-machine", table.host, table.key_files["referee"])
    new.write_config()
    send(table, table.bob, move(table, table.bob, first_choice(table, table.bob)))
    done = new.serve(0, "--progress")
    assert "trusted as it is found" in done.stderr
    assert "bob's move answering turn 0: APPLIED: turn 2 written" in new.answer()


def test_a_game_branch_that_does_not_verify_is_not_taken(table: GitTable, tmp_path: Path) -> None:
    table.host.open_game_branch()
    alice = table.alice
    (alice.game / "turns" / "000000.json").write_bytes(b"{}")
    alice.git("commit", "-q", "-am", "broken")
    alice.git("push", "-q", "origin", f"HEAD:{BRANCH}")
    new = Referee(tmp_path / "new-machine", table.host, table.key_files["referee"])
    new.write_config()
    refused = new.serve(code=40)
    assert "does not verify" in refused.stderr
    assert not new.game.exists()


def test_a_push_the_host_refuses_is_pushed_by_the_next_run(table: GitTable) -> None:
    send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
    tip = table.host.tip()
    table.referee.env["PBEM_PUSHER"] = "someone"  # the host does not know the referee's account today
    refused = table.referee.serve(code=41)
    assert "stays to be pushed" in refused.stderr and table.host.tip() == tip
    table.referee.env["PBEM_PUSHER"] = "referee"
    table.referee.serve()
    assert table.host.tip() != tip
    assert "APPLIED: turn 1 written" in table.referee.answer()


def test_a_second_run_with_the_same_state_directory_waits(table: GitTable) -> None:
    import fcntl

    with (table.referee.state / "serve.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        busy = table.referee.serve(code=20)
    assert "another `pbem git serve` is running" in busy.stderr


def test_deadlines_are_enforced_every_run(tmp_path: Path) -> None:
    table = set_table(tmp_path, deadlines=["play=1h"], now=None)
    table.referee.env["PBEM_NOW"] = "2090-01-01T00:00:00Z"
    table.referee.serve()
    answer = table.referee.answer()
    assert "alice's play decision passed its deadline" in answer and "bob's play decision passed its deadline" in answer


def test_the_loop_runs_round_after_round_until_stopped(table: GitTable) -> None:
    referee = table.referee
    process = subprocess.Popen([sys.executable, "-m", "pbem", "git", "serve", "--config", str(referee.config),
                                "--poll", "1", "--progress"], env=referee.env, cwd=referee.home,
                               stderr=subprocess.PIPE, text=True)
    try:
        tip = table.host.tip()
        send(table, table.alice, move(table, table.alice, first_choice(table, table.alice)))
        deadline = time.monotonic() + 60
        while table.host.tip() == tip:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.2)
        send(table, table.bob, move(table, table.bob, first_choice(table, table.bob)))
        while status(referee.game).turn < 2:
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.2)
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "APPLIED: turn 2 written" in err


def test_a_player_sends_on_the_inbox_as_it_is(table: GitTable) -> None:
    """``pbem git send`` twice before the referee's run: each commit is read, in order."""
    alice = table.alice
    first = alice.clone / "first.json"
    first.write_bytes(move(table, alice, first_choice(table, alice)))
    alice.pbem("git", "send", first)
    notes = alice.clone / "join.json"
    game_id = status(table.referee.game).gamefile.game_id
    notes.write_bytes(json.dumps({"format": "pbem-join/3", "player": "alice", "game_id": game_id}).encode())
    sent = alice.pbem("git", "send", notes).stdout
    assert "sent join.json to inbox/alice of origin" in sent
    # the inbox shares the game branch's history (a pull request needs that), and a commit changes only its files
    inbox = table.host.tip("refs/heads/inbox/alice")
    assert subprocess.run(["git", "--git-dir", str(table.host.repo), "merge-base", "--is-ancestor", BRANCH,
                           str(inbox)]).returncode == 0
    changed = subprocess.run(["git", "--git-dir", str(table.host.repo), "diff-tree", "--no-commit-id", "--name-only",
                              "-r", str(inbox)], capture_output=True, text=True, check=True).stdout.split()
    assert changed == ["join.json"]
    table.referee.serve()
    answer = table.referee.answer()
    assert answer.index("first.json") < answer.index("join.json")
    assert "join.json: alice's join file: REFUSED" in answer


def test_send_refuses_what_is_not_a_move_or_join_file_and_outside_a_clone(table: GitTable, tmp_path: Path) -> None:
    alice = table.alice
    (alice.clone / "notes.txt").write_text("hello")
    assert "not a move, join or consent file" in alice.pbem("git", "send", "notes.txt", code=2).stderr
    outside = alice.pbem("git", "send", alice.clone / "notes.txt", "--dir", tmp_path, code=40)
    assert "not a git clone" in outside.stderr
    push_files(alice, "refs/heads/inbox/bob", {"x.json": b"{}"}, code=1)  # and the host keeps bob's inbox his


def test_several_games_are_served_from_one_branch_each_file_going_to_the_game_it_names(table: GitTable) -> None:
    referee = table.referee
    second = referee.home / "games" / "second"
    new_game(second, "highcard", [(p, table.keys[p].public) for p in ("alice", "bob")], table.keys["referee"],
             seed=bytes(32))
    referee.write_config()
    with referee.config.open("a") as extra:
        extra.write('[[games]]\ndir = "games/second"\npath = "second"\n')
    referee.serve()
    alice = table.alice
    alice.pull()
    key = table.keys["alice"]
    view = read_view(alice.clone / "second", "alice", key)
    send(table, alice, make_move(view, key, [view.decision.options[0].id]))  # type: ignore[union-attr]
    referee.serve()
    assert status(second).turn == 1 and status(referee.game).turn == 0
    alice.pull()
    assert alice.pbem("verify", "second").returncode == 0 and alice.pbem("verify", "game").returncode == 0
    assert "Game " in referee.answer() and referee.answer().startswith("pbem: 2 games")


def test_a_seat_handed_over_between_two_runs_is_published_by_the_next(table: GitTable, tmp_path: Path) -> None:
    """``pbem takeover`` on the referee's own game directory, with the loop's state directory: the next run
    commits the seat record and the turn sealed to the new key, which every clone then verifies."""
    keys, _files = make_keys(tmp_path / "new-bob", ["bob"])
    take_over(table.referee.game, "bob", keys["bob"].public, table.keys["referee"],
              anchors=Anchors(table.referee.state))
    table.referee.serve()
    assert "game/seats/000001-bob.json" in branch_files(table.host)
    table.alice.pull()
    assert table.alice.pbem("verify", "game").returncode == 0
    assert status(table.alice.game).turn == 1


def test_a_game_whose_clock_is_ahead_of_the_referees_makes_the_loop_exit_24(tmp_path: Path) -> None:
    table = set_table(tmp_path, deadlines=["play=1h"], now=None)
    table.referee.env["PBEM_NOW"] = "2090-01-01T00:00:00Z"
    table.referee.serve()
    table.referee.env["PBEM_NOW"] = "2089-01-01T00:00:00Z"
    behind = table.referee.serve(code=24)
    assert "the referee's clock is behind" in behind.stderr and "earlier than" in behind.stderr
