"""``verify --replay`` replays each turn as soon as its checks pass, and reports what a replay after every check would.

The replay keeps only what the next step needs (docs/trust.md, "Replay"):
a difference it finds is held until every check is done, since a file that
fails a check is named first; and the hashes it keeps for the freshness
rule are those of the turns a move may still answer.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from helpers_trust import flip, joined_table, make_table, play

import pbem.referee.pipeline as pipeline
from pbem.referee import status, submit, verify
from pbem.referee.errors import VerificationFailed

verifying = importlib.import_module("pbem.referee.verify")  # the module: the package's ``verify`` is its function


def cheat_once(table, monkeypatch) -> None:
    """One step by a referee that slips alice the top card: signed and chained, caught by the replay alone."""
    real = pipeline.play_move

    def cheating(*args, **kwargs):
        played = real(*args, **kwargs)
        state = played.position.state
        hand = state["hands"]["alice"]
        if hand and state["deck"]:
            hand[0], state["deck"][0] = state["deck"][0], hand[0]
        else:
            state["scores"]["alice"] += 1
        return played

    monkeypatch.setattr(pipeline, "play_move", cheating)
    play(table, steps=1)
    monkeypatch.undo()


def test_a_file_that_fails_a_check_is_named_before_an_earlier_difference_of_the_replay(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    table = joined_table(tmp_path)
    play(table, steps=2)
    cheat_once(table, monkeypatch)
    play(table)
    with pytest.raises(VerificationFailed) as replayed:
        verify(table.dir, replay=True)
    assert replayed.value.path == str(table.dir / "turns" / "000003.json")
    view = table.dir / "views" / "bob" / "latest.json"
    flip(view, view.read_bytes().index(b'"turn"') + 2)  # the latest view, checked after every turn
    with pytest.raises(VerificationFailed) as plain:
        verify(table.dir)
    with pytest.raises(VerificationFailed) as both:
        verify(table.dir, replay=True)
    assert both.value.path == plain.value.path == str(view)


def test_a_replay_whose_seed_only_the_checks_find_is_done_after_them(tmp_path: Path, monkeypatch) -> None:
    """The seed the replay starts with is read before any check; if it was not the seed the checks find,
    the game is replayed with theirs, and its differences are still found."""
    table = make_table(tmp_path)
    play(table, steps=2)
    cheat_once(table, monkeypatch)
    play(table, steps=2)
    monkeypatch.setattr(verifying, "_peeked_seed", lambda *args: None)
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "turns" / "000003.json")
    monkeypatch.setattr(verifying, "_peeked_seed", lambda *args: bytes(32))  # another seed: its replay fails
    with pytest.raises(VerificationFailed) as again:
        verify(table.dir, replay=True)
    assert again.value.path == caught.value.path


def test_a_move_answering_a_turn_before_its_players_open_decision_is_caught_when_a_referee_applied_it(
        tmp_path: Path, monkeypatch) -> None:
    """The replay holds the referee to the freshness rule with the hashes it keeps (those of the turns from
    the oldest open decision's on): an older move of alice's, applied by a referee that skipped the rule,
    is named."""
    table = make_table(tmp_path)
    while (now := status(table.dir)).awaiting[0]["kind"] != "draw" or now.awaiting[0]["player"] != "alice":
        play(table, steps=1)
    older = table.move("alice", "pass")  # answers this draw decision of alice's, and is never sent
    submit(table.dir, table.move("alice", "pass"), table.referee)
    while (now := status(table.dir)).awaiting[0]["kind"] != "draw" or now.awaiting[0]["player"] != "alice":
        play(table, steps=1)
    monkeypatch.setattr(pipeline, "_check_fresh", lambda *args: None)
    step = submit(table.dir, older, table.referee)  # alice's next draw decision, answered by the older move
    monkeypatch.undo()
    verify(table.dir)  # signed and chained: plain verify cannot tell
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "moves" / f"{step.turn:06d}-alice.json")
    assert "must refuse (stale)" in str(caught.value)
