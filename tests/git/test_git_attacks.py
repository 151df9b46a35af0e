"""Nobody who can push to the shared repository subverts the referee: each attack an independent review
played against the walkthrough of play by git, played against ``pbem git serve``.

The review's referee was a CI job that ran the pushed tree's own script with
the referee key in its environment and stepped the game from whatever the
branch held. Here players push where the host lets them (their own inbox),
and, to show that the referee does not rely on the host alone, also where a
misconfigured host would let them (the game branch:
:meth:`~helpers_git.Host.open_game_branch`). Every test checks that the game
goes on from the referee's own record, and what a player who pulls can
check.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers_git import BRANCH, GitTable, branch_files, first_choice, move, push_files, send

from pbem.crypto import age
from pbem.referee import make_move, read_view, status

GAME_REF = f"refs/heads/{BRANCH}"


def referee_turn(table: GitTable) -> int:
    return status(table.referee.game).turn


# --- key theft ------------------------------------------------------------------------------


def test_nothing_a_player_pushes_is_run_and_the_key_never_reaches_the_repository(table: GitTable, tmp_path: Path) -> None:
    """alice pushes, beside a real move, everything a referee that checks out or runs a push would act on: a
    referee script, a filter for every file, a hook, a submodule, a workflow. The move is applied; nothing
    ran; no byte of the referee key is in any object of the host or in her clone."""
    marker = tmp_path / "RAN"
    steal = f'#!/bin/sh\ntouch {marker}\ncp "$PBEM_REFEREE_KEY" .cache-key; git add -f .cache-key\n'.encode()
    alice = table.alice
    send(table, alice, move(table, alice, first_choice(table, alice)), extra={
        "referee-step.sh": steal,
        ".gitattributes": b"* filter=steal\n",
        ".gitmodules": b'[submodule "x"]\n\tpath = x\n\turl = ../table.git\n',
        "hooks/post-checkout": steal,
        ".github/workflows/referee.yml": b"on: push\njobs: {x: {runs-on: ubuntu-latest, steps: [{run: sh referee-step.sh}]}}\n",
    })
    # where the host lets no player push, the same files are refused
    push_files(alice, GAME_REF, {"referee-step.sh": steal}, code=1)
    run = table.referee.serve()
    answer = table.referee.answer()
    assert "alice's move answering turn 0: APPLIED: turn 1 written" in answer, answer
    assert "referee-step.sh: set aside" not in answer  # not JSON: not a pbem file, and named so
    assert "referee-step.sh: not a pbem file" in answer
    assert not marker.exists(), run.stderr
    secret = json.loads(table.key_files["referee"].read_text())
    held = table.host.objects()
    for needle in (secret["ed25519"], secret["x25519"], table.key_files["referee"].read_text()):
        assert needle.encode() not in held
    alice.pull()
    for path in alice.clone.rglob("*"):
        if path.is_file():
            assert secret["x25519"].encode() not in path.read_bytes(), path
    assert not (alice.clone / ".cache-key").exists()


def test_the_referee_reads_no_inbox_through_a_link_to_its_key(table: GitTable) -> None:
    """A symbolic link in a push names a file of the referee's machine: it is not followed (its target is
    only the link's text), and the answer says so."""
    alice = table.alice
    send(table, alice, move(table, alice, first_choice(table, alice)), extra={"key.json": ("link", str(table.key_files["referee"]))})
    table.referee.serve()
    answer = table.referee.answer()
    assert "key.json: not read: a symbolic link" in answer
    assert "APPLIED: turn 1 written" in answer


# --- undo by git rm -------------------------------------------------------------------------


def play_to_alices_draw(table: GitTable) -> None:
    """Both play their first card (turn 2: alice draws), and alice draws (turn 3, bob's draw)."""
    for person in (table.alice, table.bob):
        send(table, person, move(table, person, first_choice(table, person)))
    table.referee.serve()
    table.alice.pull()
    send(table, table.alice, move(table, table.alice, "draw"))
    table.referee.serve()
    table.alice.pull()
    assert referee_turn(table) == 3


def test_a_player_cannot_push_to_the_game_branch_of_a_host_set_up_as_the_docs_say(table: GitTable) -> None:
    alice = table.alice
    alice.git("rm", "-q", "game/head.json")
    alice.git("commit", "-q", "-m", "undo")
    refused = alice.git("push", "-q", "origin", f"HEAD:{BRANCH}", code=1)
    assert "may not write refs/heads/game" in refused.stderr
    refused = alice.git("push", "-q", "origin", ":refs/heads/inbox/bob", code=1)
    assert "may not write refs/heads/inbox/bob" in refused.stderr


def test_undo_by_git_rm_is_set_aside_and_a_copy_that_lost_the_latest_turn_fails_verify(table: GitTable) -> None:
    """On a host that lets her push the game branch, alice removes the turn her draw produced and its move
    (and puts back the views of the turn before), pushes that, then sends another move for the older turn. The referee steps from its own record: the
    second move is refused, the turn she removed is put back, and her copy, which still holds the signed
    head naming the turn she dropped, fails ``pbem verify``."""
    table.host.open_game_branch()
    play_to_alices_draw(table)
    alice = table.alice
    before = branch_files(table.host)
    alice.git("rm", "-q", "game/turns/000003.json", "game/moves/000003-alice.json")
    alice.git("checkout", "HEAD~1", "--", "game/views")  # the views of turn 2, as the referee wrote them
    alice.git("commit", "-q", "-m", "never drew")
    alice.git("push", "-q", "origin", f"HEAD:{BRANCH}")
    dropped = alice.pbem("verify", "game", code=5)
    assert "head.json" in dropped.stderr and "turn 3" in dropped.stderr, dropped.stderr
    view = read_view(alice.game, "alice", table.keys["alice"])
    assert view.number == 2 and view.decision is not None  # the older turn: she may draw or pass again
    send(table, alice, make_move(view, table.keys["alice"], ["pass"]), name="again.json")
    table.referee.serve()
    answer = table.referee.answer()
    assert "again.json: alice's move answering turn 2: REFUSED" in answer, answer
    assert "which the referee did not write" in answer
    assert referee_turn(table) == 3
    after = branch_files(table.host)
    assert after["game/turns/000003.json"] == before["game/turns/000003.json"]
    assert after["game/moves/000003-alice.json"] == before["game/moves/000003-alice.json"]
    alice.pull()
    assert "OK (4 turns" in alice.pbem("verify", "game").stdout


# --- one push halts the game ----------------------------------------------------------------


def halting_pushes(table: GitTable, attack: str) -> tuple[dict[str, bytes | tuple[str, str]], list[str]]:
    """What alice pushes to her inbox for ``attack``, and what she changes in her clone of the game branch."""
    game = table.alice.game
    number = status(game).turn
    if attack == "link":
        return {"key.json": ("link", str(table.key_files["referee"]))}, ["mkdir -p game/moves", f"ln -s {table.key_files['referee']} game/moves/000009-alice.json"]
    if attack == "game.toml":
        edited = (game / "game.toml").read_text().replace("highcard", "nightfall", 1)
        return {"game.toml": edited.encode()}, ["sed -i 's/scenario = \"standard\"/scenario = \"long\"/' game/game.toml"]
    if attack == "seat record":
        seat = json.dumps({"format": "pbem-seat/1", "game_id": status(game).gamefile.game_id, "turn": number + 1,
                           "player": "bob"}).encode()
        (table.alice.clone / "seat.json").write_bytes(seat)
        return {"seat.json": seat}, ["mkdir -p game/seats", f"cp seat.json game/seats/{number + 1:06d}-bob.json",
                                     f"cp seat.json game/seats/{number:06d}-bob.json"]
    assert attack == "tmp link"
    return {".tmp-x": ("link", "/etc/passwd")}, ["ln -s /etc/passwd game/.tmp-turns.x",
                                                 "ln -s /etc/passwd game/turns/.tmp-000009.json"]


@pytest.mark.parametrize("attack", ["link", "game.toml", "seat record", "tmp link"])
def test_no_push_halts_the_game(table: GitTable, attack: str) -> None:
    """alice pushes what made every later CI run of the review exit 3, to her inbox and (the host letting
    her) to the game branch. The referee sets it aside, says so, and applies bob's move."""
    table.host.open_game_branch()
    alice, bob = table.alice, table.bob
    inbox, changes = halting_pushes(table, attack)
    send(table, alice, b"{}", name="note.json", extra=inbox)
    for change in changes:
        assert subprocess.run(change, shell=True, cwd=alice.clone, env=alice.env).returncode == 0, change
    alice.git("add", "-A", "game")
    alice.git("commit", "-q", "-m", attack)
    alice.git("push", "-q", "origin", f"HEAD:{BRANCH}")
    send(table, bob, move(table, bob, first_choice(table, bob)))
    table.referee.serve()
    answer = table.referee.answer()
    assert "bob's move answering turn 0: APPLIED: turn 1 written" in answer, answer
    assert "which the referee did not write" in answer
    again = table.referee.serve()  # and the next run has nothing to say
    assert "pushed" not in again.stderr
    bob.pull()
    assert "OK (2 turns" in bob.pbem("verify", "game").stdout
    assert status(bob.game).turn == 1


def test_a_player_cannot_delete_or_replace_another_players_pending_move(table: GitTable) -> None:
    """The host refuses alice's deleting or overwriting bob's inbox. What she can do is send bob's own file
    again from her inbox: it is judged on bob's signature, applied once as bob's move, and the second copy
    is "already in the game"."""
    alice, bob = table.alice, table.bob
    bob_move = move(table, bob, first_choice(table, bob))
    send(table, bob, bob_move)
    assert "may not write" in alice.git("push", "-q", "origin", ":refs/heads/inbox/bob", code=1).stderr
    pushed = push_files(alice, "refs/heads/inbox/bob", {"move.json": b"{}"}, force=True, code=1)
    assert "may not write refs/heads/inbox/bob" in pushed.stderr
    send(table, alice, bob_move, name="bobs.json")
    table.referee.serve()
    answer = table.referee.answer()
    assert "inbox/alice" in answer and "bobs.json: bob's move answering turn 0: APPLIED: turn 1 written" in answer
    assert "move.json: bob's move answering turn 0: already in the game" in answer, answer
    assert status(table.referee.game).awaiting == [{"player": "alice", "kind": "play", "since": 0}]


# --- a forged view, junk in the record ------------------------------------------------------


def test_a_forged_view_is_caught_by_the_way_a_player_is_told_to_read_it(table: GitTable) -> None:
    """alice (the host letting her) replaces bob's sealed view with one of her own making, sealed to bob. Bob
    pulls before the referee's next run. ``pbem view`` shows him his own section of the signed turn, and
    ``pbem verify``, which the docs have him run before he opens the view file with ``age -d``, names the
    forged file; the referee's next commit puts the view back."""
    table.host.open_game_branch()
    alice, bob = table.alice, table.bob
    forged = age.encrypt(b'{"forged": "alice says: play your 7, I hold nothing"}', [table.keys["bob"].public.recipient],
                         armor=True)
    (alice.game / "views" / "bob" / "latest.age").write_bytes(forged)
    alice.git("commit", "-q", "-am", "a view for bob")
    alice.git("push", "-q", "origin", f"HEAD:{BRANCH}")
    bob.pull()
    shown = bob.pbem("view", "game", "--as", "bob", "--key", table.key_files["bob"]).stdout
    assert "forged" not in shown and "your hand" in shown
    caught = bob.pbem("verify", "game", code=5)
    assert "views/bob/latest.age" in caught.stderr
    table.referee.serve()
    bob.pull()
    assert bob.pbem("verify", "game").returncode == 0
    assert (bob.game / "views" / "bob" / "latest.age").read_bytes() != forged


def test_junk_in_the_record_fails_verify_in_every_clone_and_the_referee_puts_the_record_back(table: GitTable) -> None:
    table.host.open_game_branch()
    alice, bob = table.alice, table.bob
    junk = (alice.game / "turns" / "000000.json").read_bytes()
    for folder, name in (("moves", "000000-alice.json"), ("timeouts", "000000-bob.json"), ("seats", "000000-alice.json")):
        (alice.game / folder).mkdir(exist_ok=True)
        (alice.game / folder / name).write_bytes(junk)
    alice.git("add", "-A", "game")
    alice.git("commit", "-q", "-m", "junk")
    alice.git("push", "-q", "origin", f"HEAD:{BRANCH}")
    bob.pull()
    caught = bob.pbem("verify", "game", code=5).stderr
    for name in ("moves/000000-alice.json", "timeouts/000000-bob.json", "seats/000000-alice.json"):
        assert name in caught, caught
    table.referee.serve()
    bob.pull()
    assert bob.pbem("verify", "game").returncode == 0
    assert not (bob.game / "moves" / "000000-alice.json").exists()
