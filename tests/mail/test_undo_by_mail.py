"""Undo by consent over mail: each player mails the consent ``pbem undo consent`` wrote, like a move; the
referee's loop keeps them and rolls back once every seat's is in; each player's copy, fed only by the mails
its player received, files the rollback and plays on from the turn returned to."""

from __future__ import annotations

import json

from helpers_mail import ADDRESSES, Post
from helpers_mail_players import MailPlayer, invoke, new_mails, ok, serve

from pbem.referee import status
from pbem.referee.verify import verify


def players_of(post: Post) -> dict[str, MailPlayer]:
    return {name: MailPlayer(name, ADDRESSES[name], post.table.key_files[name], post.tmp / "home" / name, post.smtp,
                             login=name) for name in post.addresses}


def _catch_up(post, players: dict[str, MailPlayer], read: dict[str, int]) -> list[bytes]:
    """Every player unpacks the mails delivered to them; the mails delivered, all players'."""
    delivered = []
    for player in players.values():
        fresh = new_mails(post, player, read)
        delivered += fresh
        if fresh:
            result = player.unpack(*[player.save(raw) for raw in fresh])
            assert result.exit_code == 0, result.output
    return delivered


def _play_to(post, players: dict[str, MailPlayer], read: dict[str, int], turn: int) -> None:
    answered: set[tuple[str, int]] = set()
    for _ in range(40):
        serve(post)
        _catch_up(post, players, read)
        if status(post.table.dir).turn >= turn:
            return
        for player in players.values():
            seen = player.view()
            if seen["awaited"] and (player.name, seen["turn"]) not in answered:
                answered.add((player.name, seen["turn"]))
                player.send(player.move(seen["options"][0]["id"]))
    raise AssertionError(f"the game did not reach turn {turn}")


def _consent(player: MailPlayer, to: int) -> None:
    out = player.home / f"undo-{player.name}.json"
    ok("undo", "consent", player.copy, "--to", to, "--key", player.key, "--out", out)
    player.send(out)


def _answers(post, player: MailPlayer) -> str:
    return "\n".join(m.get_body(("plain",)).get_content() for m in post.inbox(ADDRESSES[player.name])
                     if "rolled back" in m.get_body(("plain",)).get_content()
                     or "consent" in m.get_body(("plain",)).get_content())


def test_a_rollback_by_mail_waits_for_every_seat_and_each_copy_plays_on_from_the_turn_returned_to(post):
    players = players_of(post)
    alice, bob = players["alice"], players["bob"]
    read: dict[str, int] = {}
    _play_to(post, players, read, 4)
    head = status(post.table.dir).turn
    _consent(alice, 2)
    serve(post)
    assert status(post.table.dir).turn == head  # one seat's consent alone changes nothing
    assert "waiting for bob" in _answers(post, alice)
    _catch_up(post, players, read)
    _consent(bob, 2)
    serve(post)
    assert status(post.table.dir).turn == 2
    assert "every seat consented" in _answers(post, bob)
    _catch_up(post, players, read)
    for player in (alice, bob):
        assert (player.copy / "abandoned" / "000001" / "rollback.json").is_file()
        seen = player.view()
        assert seen["turn"] == 2 and seen["history_warning"] is None
        report = json.loads(invoke("verify", player.copy, "--json").stdout)
        assert report["ok"], report
    _play_to(post, players, read, 3)
    turn = json.loads((post.table.dir / "turns" / "000003.json").read_text())
    assert turn["rollback"]["number"] == 1
    awaited = status(post.table.dir).awaiting[0]["player"]
    assert players[awaited].view()["turn"] == 3  # its turn mail carried the turn that names the rollback
    for player in (alice, bob):
        assert json.loads(invoke("verify", player.copy, "--json").stdout)["ok"]
    assert verify(post.table.dir, replay=True).replayed


def test_a_consent_by_mail_for_a_head_the_game_has_left_is_refused(post):
    players = players_of(post)
    alice = players["alice"]
    read: dict[str, int] = {}
    _play_to(post, players, read, 2)
    out = alice.home / "undo-alice.json"
    ok("undo", "consent", alice.copy, "--to", 0, "--key", alice.key, "--out", out)
    _play_to(post, players, read, 3)
    alice.send(out)
    serve(post)
    assert "a consent for another head" in _answers(post, alice)
    assert status(post.table.dir).turn == 3
