"""A player's copy fed by mail alone: every turn mail carries what the copy needs, and a copy with gaps works.

The players here use the command line only, and their copies hold only
what the SMTP server delivered to their own address (tests/helpers_mail_players.py).
"""

from __future__ import annotations

import json
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from helpers_mail import ADDRESSES, REFEREE, Post, attachments, body
from helpers_mail_players import MailPlayer, invoke, new_mails, ok, serve

from pbem.crypto.keys import generate, write_keypair
from pbem.crypto.signing import sign_document
from pbem.mail.compose import message_bytes
from pbem.mail.player import file_mail
from pbem.referee import copies, status
from pbem.referee.layout import GameDir
from pbem.referee.records import read_game_file
from pbem.referee.requests import request_doc
from pbem.referee.storage import dump_json

#: an address no game knows
STRANGER = "mallory@pbem.test"


def players_of(post: Post) -> dict[str, MailPlayer]:
    return {name: MailPlayer(name, ADDRESSES[name], post.table.key_files[name], post.tmp / "home" / name, post.smtp,
                             login=name if name in ("alice", "bob") else "alice")
            for name in post.addresses}


def play(post: Post, players: dict[str, MailPlayer], rounds: int = 60, keep=lambda name, raw: True) -> dict[str, int]:
    """Serve and play until the game is over and every mail is read; each player files each mail ``keep``
    lets through.

    A player answers the decision ``pbem view --json`` shows open, once per
    decision (its turn and ``since``), with its first option. Returns how many
    mails each player received.
    """
    read: dict[str, int] = {}
    answered: set[tuple[str, int, int]] = set()
    for _ in range(rounds):
        serve(post)
        delivered = False
        for player in players.values():
            fresh = [player.save(raw) for raw in new_mails(post, player, read) if keep(player.name, raw)]
            if not fresh:
                continue
            delivered = True
            assert player.unpack(*fresh).exit_code == 0
            seen = player.view()
            if seen["awaited"] and (player.name, seen["turn"], seen["since"]) not in answered:
                answered.add((player.name, seen["turn"], seen["since"]))
                player.send(player.move(seen["options"][0]["id"]))
        if not delivered:
            if status(post.table.dir).over:
                return read
            # nothing came: each player asks the referee for the turns their copy lacks, as people do
            # when a game seems to stand still
            for player in players.values():
                player.send(player.request())
    raise AssertionError(f"the game did not end in {rounds} rounds of mail")


def test_a_turn_mail_carries_every_turn_since_the_last_one_mailed_to_its_player(post):
    players = players_of(post)
    alice, bob = players["alice"], players["bob"]
    serve(post)
    read: dict[str, int] = {}
    for player in (alice, bob):
        [mail] = new_mails(post, player, read)
        player.unpack(player.save(mail))
        seen = player.view()
        player.send(player.move(seen["options"][0]["id"]))
        serve(post)
    # turn 1 (alice's pick) was mailed to nobody: alice's next turn mail carries it with turn 2
    mails = [m for m in post.inbox(ADDRESSES["alice"]) if m["Auto-Submitted"] == "auto-generated"]
    files = attachments(mails[-1])
    assert {"000001.json", "000002.json"} <= set(files)
    assert files["000001.json"] == (post.table.dir / "turns" / "000001.json").read_bytes()


def test_a_copy_fed_by_a_players_mails_alone_serves_view_at_every_turn_to_the_end(post):
    players = players_of(post)
    play(post, players)
    assert status(post.table.dir).over
    for player in players.values():
        seen = player.view()
        assert seen["result"] is not None and seen["history_warning"] is None
        assert ok("status", player.copy, "--json").exit_code == 0
        assert "game over" in ok("log", player.copy).output


def test_verify_on_a_players_copy_checks_what_it_holds_and_names_what_it_could_not(post):
    players = players_of(post)
    play(post, players)
    result = invoke("verify", players["alice"].copy, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["copy"] is not None
    # a copy fed by mail holds the turns and the referee's head, never the moves that produced them
    assert report["copy"]["missing_turns"] == []
    assert any("move" in item for item in report["copy"]["not_checked"])


def test_a_copy_that_lost_a_mail_views_moves_and_verifies_and_names_the_turns_it_lacks(post):
    players = players_of(post)
    alice = players["alice"]
    lost = alice.home / "lost"  # a second copy of alice's, fed by her mails but one
    read = play(post, players)
    mails = list(alice.saved)
    turn_mails = [path for path in mails if b"Auto-Submitted: auto-generated" in path.read_bytes()]
    dropped = turn_mails[2]
    for path in mails:
        if path != dropped:
            assert alice.unpack(path, copy=lost).exit_code == 0
    seen = alice.view(copy=lost)
    assert seen["result"] is not None and seen["copy"]["missing_turns"]
    first, last = seen["copy"]["missing_turns"][0]
    lacking = f"{first}" if first == last else f"{first}-{last}"
    assert f"{lacking}: not in this copy" in invoke("log", lost).output
    status_doc = json.loads(ok("status", lost, "--json").stdout)
    assert status_doc["copy"]["missing_turns"] == seen["copy"]["missing_turns"]
    assert "Your copy lacks turn" in " ".join(ok("status", lost).output.split())
    report = json.loads(invoke("verify", lost, "--json").stdout)
    assert report["ok"] and report["copy"]["missing_turns"] == seen["copy"]["missing_turns"]
    assert any("not in this copy" in item for item in report["copy"]["not_checked"])
    assert read["alice"] == len(mails)


def test_a_copy_that_is_behind_says_so_names_its_latest_turn_and_when_and_the_answer_to_a_stale_move_fills_it(post):
    players = players_of(post)
    alice, bob = players["alice"], players["bob"]
    serve(post)
    read: dict[str, int] = {}
    for player in (alice, bob):
        player.unpack(*[player.save(raw) for raw in new_mails(post, player, read)])
    # bob writes two moves for his play decision: he sends one, and keeps the other for later
    sent, kept = bob.move("card-" + str(bob.view()["private"]["hand"][0])), None
    kept = bob.move("card-" + str(bob.view()["private"]["hand"][1]))
    bob.send(sent)
    alice.send(alice.move(alice.view()["options"][0]["id"]))
    serve(post)  # turn 2: alice's draw
    alice.unpack(*[alice.save(raw) for raw in new_mails(post, alice, read)])
    alice.send(alice.move(alice.view()["options"][0]["id"]))
    serve(post)  # turn 3: bob's draw, mailed to bob; he reads only the answer to his move
    answer = [raw for raw in new_mails(post, bob, read) if b"auto-replied" in raw]
    bob.unpack(*[bob.save(raw) for raw in answer])
    seen = bob.view()
    assert seen["turn"] == 0 and seen["copy"]["behind"] and seen["copy"]["head"]["turn"] >= 1
    text = bob.view_text().output
    assert "Your copy is behind: its latest turn is 0" in " ".join(text.split())
    assert "written by the referee at" in " ".join(text.split())
    # a move written on a copy that is behind says so
    warned = invoke("move", bob.copy, "--as", "bob", "--key", bob.key, "--choose", "1",
                    "--out", bob.home / "another-move.json")
    assert warned.exit_code == 0 and "your copy is behind" in " ".join(warned.stderr.split())
    # the move bob kept answers turn 0, whose decision is long answered: stale, and the answer carries the turns
    bob.send(kept)
    serve(post)
    [stale] = [raw for raw in new_mails(post, bob, read) if b"auto-replied" in raw]
    assert "REFUSED (exit code 16, stale)" in body(message_from_bytes(stale, policy=policy.default))
    assert bob.unpack(bob.save(stale)).exit_code == 0
    caught_up = bob.view()
    assert caught_up["turn"] == 3 and not caught_up["copy"]["behind"] and caught_up["awaited"]
    assert caught_up["kind"] == "draw"


def rounds(post: Post, players: dict[str, MailPlayer], until, limit: int = 30) -> dict[str, int]:
    """Serve and play (as :func:`play`) until ``until(status)`` holds of the referee's game: the test's own
    clock, which no player reads."""
    read: dict[str, int] = {}
    answered: set[tuple[str, int, int]] = set()
    for _ in range(limit):
        serve(post)
        if until(status(post.table.dir)):
            return read
        for player in players.values():
            fresh = [player.save(raw) for raw in new_mails(post, player, read)]
            if fresh:
                player.unpack(*fresh)
                seen = player.view()
                if seen["awaited"] and (player.name, seen["turn"], seen["since"]) not in answered:
                    answered.add((player.name, seen["turn"], seen["since"]))
                    player.send(player.move(seen["options"][0]["id"]))
    raise AssertionError("the game did not get there")


def test_the_new_holder_of_a_seat_views_and_moves_from_their_first_mail_alone(post):

    players = players_of(post)
    read = rounds(post, players, lambda now: now.turn >= 3)
    assert [a["player"] for a in status(post.table.dir).awaiting] == ["bob"]
    key_file, pub_file = write_keypair(generate("bob"), post.tmp / "carol-keys")
    ok("takeover", post.table.dir, "--seat", "bob", "--key", pub_file, "--referee-key",
       post.table.key_files["referee"], "--config", post.write_config(), "--address", ADDRESSES["carol"])
    taken = status(post.table.dir).turn
    anchor = json.loads((post.tmp / "mail-state" / "anchors" / f"{status(post.table.dir).gamefile.game_id}.json")
                        .read_text())
    assert anchor["turn"] == taken  # pbem takeover --config anchors where the mail loop does
    serve(post)
    carol = MailPlayer("bob", ADDRESSES["carol"], key_file, post.tmp / "home" / "carol", post.smtp)
    first = post.smtp.post.inboxes[ADDRESSES["carol"]][0]
    assert carol.unpack(carol.save(first)).exit_code == 0  # the first mail alone
    seen = carol.view()
    assert seen["awaited"] and seen["kind"] == "draw" and seen["since_last_move"]["seat_taken"] == taken
    carol.send(carol.move(seen["options"][0]["id"]))
    serve(post)
    assert status(post.table.dir).turn == taken + 1
    assert (post.table.dir / "moves" / f"{taken + 1:06d}-bob.json").exists()
    assert read["alice"] > 0


def request_from(player: MailPlayer, sender: str, copy: Path | None = None, data: bytes | None = None) -> bytes:
    """A mail from ``sender`` carrying ``player``'s request for the turns ``copy`` lacks (or ``data``): anybody
    can write the mail, only the seat's key the request."""
    if data is None:
        data = player.request(copy).with_suffix(".json").read_bytes()
    return message_bytes(file_mail(data, "request.json", REFEREE, sender))


def turn_mails_to(post: Post, address: str) -> list[EmailMessage]:
    return [m for m in post.inbox(address) if m["Auto-Submitted"] == "auto-generated"]


def test_a_request_is_answered_once_with_the_turns_asked_for_and_only_to_the_seats_address(post):
    players = players_of(post)
    alice = players["alice"]
    rounds(post, players, lambda now: now.turn >= 6)
    sparse = alice.home / "sparse"  # a copy of alice's, from her first mail alone
    assert alice.unpack(alice.saved[0], copy=sparse).exit_code == 0
    before = len(turn_mails_to(post, ADDRESSES["alice"]))
    post.deliver_to_referee(request_from(alice, STRANGER, copy=sparse))
    serve(post)
    assert post.inbox(STRANGER) == []  # the sender of a request gets nothing: the seat does
    [asked] = turn_mails_to(post, ADDRESSES["alice"])[before:]
    assert asked["Subject"].endswith("the turns you asked for") or "your decision" in asked["Subject"]
    assert alice.unpack(alice.save(message_bytes(asked)), copy=sparse).exit_code == 0
    seen = alice.view(copy=sparse)
    assert seen["copy"]["missing_turns"] == [] and seen["turn"] == status(post.table.dir).turn


def test_a_request_replayed_or_signed_by_another_key_has_the_seat_mailed_no_turns(post):
    players = players_of(post)
    alice = players["alice"]
    rounds(post, players, lambda now: now.turn >= 2)
    request = alice.request().with_suffix(".json").read_bytes()
    post.deliver_to_referee(request_from(alice, STRANGER, data=request))
    serve(post)
    count = len(turn_mails_to(post, ADDRESSES["alice"]))
    # the very request again, in a mail of its own (anybody who saw the first can send it): answered once only
    post.deliver_to_referee(request_from(alice, STRANGER, data=request))
    # and a request for alice's seat signed with another key (bob's)
    gamedir = GameDir.at(alice.copy)
    gamefile = read_game_file(gamedir)
    forged = dump_json(sign_document(request_doc(gamefile, "alice", copies.survey(gamedir, gamefile), None, "00" * 16),
                                     post.table.keys["bob"]))
    post.deliver_to_referee(request_from(alice, STRANGER, data=forged))
    lines: list[str] = []
    post.serve(lines)
    assert len(turn_mails_to(post, ADDRESSES["alice"])) == count and post.inbox(STRANGER) == []
    said = " ".join(lines)
    assert "already-applied" in said and "bad-signature" in said


def test_every_mail_to_a_player_carries_the_referees_head(post):
    from pbem.referee.head import parse_head

    players = players_of(post)
    play(post, players)
    gamefile = read_game_file(GameDir.at(post.table.dir))
    for player in players.values():
        mails = post.inbox(player.address)
        assert {m["Auto-Submitted"] for m in mails} == {"auto-generated", "auto-replied"}  # turn mails and answers
        for mail in mails:
            head = parse_head(attachments(mail)["head.json"], gamefile, "head.json")  # signed by the referee
            assert head.turn <= status(post.table.dir).turn


def test_the_mail_loop_anchors_each_game_and_mails_nothing_from_a_directory_that_lost_the_anchored_turn(post):
    players = players_of(post)
    rounds(post, players, lambda now: now.turn >= 2)
    gid = status(post.table.dir).gamefile.game_id
    anchor = json.loads((post.tmp / "mail-state" / "anchors" / f"{gid}.json").read_text())
    assert anchor["turn"] == 2
    # whoever can write the game directory drops the latest turn (and the move that made it)
    (post.table.dir / "turns" / "000002.json").unlink()
    for move in (post.table.dir / "moves").glob("000002-*.json"):
        move.unlink()
    before = {address: len(post.inbox(address)) for address in ADDRESSES.values()}
    lines: list[str] = []
    report = post.serve(lines)
    assert any("the referee wrote turn 2" in line for line in report.held), report.held
    assert {address: len(post.inbox(address)) for address in ADDRESSES.values()} == before


def test_the_new_holder_of_a_seat_plays_on_when_their_first_mail_is_lost(post):
    players = players_of(post)
    rounds(post, players, lambda now: now.turn >= 3)  # bob's draw is awaited: alice's seat changes hands
    key_file, pub_file = write_keypair(generate("alice"), post.tmp / "carol-keys")
    ok("takeover", post.table.dir, "--seat", "alice", "--key", pub_file, "--referee-key",
       post.table.key_files["referee"], "--config", post.write_config(), "--address", ADDRESSES["carol"])
    taken = status(post.table.dir).turn
    carol = MailPlayer("alice", ADDRESSES["carol"], key_file, post.tmp / "home" / "carol", post.smtp)
    seen_by_carol: list[bytes] = []

    def keep(name: str, raw: bytes) -> bool:
        if name == "alice":
            seen_by_carol.append(raw)
            return len(seen_by_carol) > 1  # the mail that told carol she holds the seat never arrived
        return True

    play(post, {"alice": carol, "bob": players["bob"]}, keep=keep)
    seen = carol.view()
    assert seen["result"] is not None and seen["copy"]["missing_turns"]
    new_key_moves = [path for path in (post.table.dir / "moves").glob("*-alice.json") if int(path.name[:6]) > taken]
    assert new_key_moves  # carol's moves, signed with the key that holds the seat now, were applied


def test_the_new_holder_whose_first_mail_is_lost_asks_for_the_game_by_its_id(post):
    players = players_of(post)
    rounds(post, players, lambda now: now.turn >= 3)
    key_file, pub_file = write_keypair(generate("alice"), post.tmp / "carol-keys")
    ok("takeover", post.table.dir, "--seat", "alice", "--key", pub_file, "--referee-key",
       post.table.key_files["referee"], "--config", post.write_config(), "--address", ADDRESSES["carol"])
    serve(post)
    assert len(post.inbox(ADDRESSES["carol"])) == 1  # that mail never reaches carol
    carol = MailPlayer("alice", ADDRESSES["carol"], key_file, post.tmp / "home" / "carol", post.smtp)
    game_id = status(post.table.dir).gamefile.game_id  # the referee tells the new holder which game
    carol.send(carol.request(game=game_id))
    serve(post)
    [_lost, asked] = post.smtp.post.inboxes[ADDRESSES["carol"]]
    assert carol.unpack(carol.save(asked)).exit_code == 0
    seen = carol.view()
    assert seen["turn"] == status(post.table.dir).turn and seen["copy"]["missing_turns"] == []
    # a request signed with the previous holder's key names a key that no longer holds the seat: nobody is mailed
    old = players["alice"]
    old.send(old.request(game=game_id, copy=post.tmp / "empty"))
    serve(post)
    assert len(turn_mails_to(post, ADDRESSES["carol"])) == 2


def test_verify_on_a_copy_that_lost_its_latest_turn_reports_it(post):
    players = players_of(post)
    play(post, players)
    alice = players["alice"]
    latest = max(int(path.name[:6]) for path in (alice.copy / "turns").iterdir())
    (alice.copy / "turns" / f"{latest:06d}.json").unlink()
    report = json.loads(invoke("verify", alice.copy, "--json").stdout)
    assert report["ok"] and report["copy"]["behind"] and report["copy"]["head"]["turn"] == latest
    assert any(f"turn {latest}, the latest the referee had written" in item for item in report["copy"]["not_checked"])
    text = invoke("verify", alice.copy).output
    assert "this copy is behind it" in " ".join(text.split())
