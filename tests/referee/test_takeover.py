"""Takeover: the referee hands a seat to a new key, by a signed seat record.

From the turn the record produces, the seat's sections are sealed to the new
key, moves signed by the old key are refused (exit 14, saying the seat was
taken over), the new key's are taken; ``verify`` and ``verify --replay``
check every seat record; ``game.toml`` is never rewritten.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot, validate_directory

from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import PrivateKey, generate
from pbem.crypto.seal import open_sealed
from pbem.crypto.signing import sign_document
from pbem.referee import make_move, public_log, read_view, status, submit, verify
from pbem.referee.errors import (
    BadSignatureMove,
    GameDirError,
    KeyMismatch,
    TakeoverRefused,
    VerificationFailed,
)
from pbem.referee.seats import record_doc
from pbem.referee.storage import dump_json
from pbem.referee.takeover import take_over

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def first_option(table: Table, player: str) -> str:
    return table.view(player).decision.options[0].id


def play_out(table: Table) -> None:
    """Everyone awaited answers with their first option until the game ends."""
    for _ in range(200):
        current = status(table.dir)
        if current.over:
            return
        player = current.awaiting[0]["player"]
        submit(table.dir, table.move(player, first_option(table, player)), table.referee)
    raise AssertionError("the game did not end")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def hand_bob_over(table: Table) -> tuple[Table, PrivateKey]:
    """alice plays; then bob's seat goes to a new key (bob's decision is open). Returns the table with the new key."""
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee)
    old = table.keys["bob"]
    new = generate("bob")
    take_over(table.dir, "bob", new.public, table.referee)
    keys = {**table.keys, "bob": new}
    return Table(table.dir, keys, table.key_files), old


def test_a_takeover_mid_game_refuses_the_old_key_and_the_new_one_finishes_the_game(table):
    bob_old_move = table.move("bob", first_option(table, "bob"))
    handed, _old = hand_bob_over(table)
    before = snapshot(table.dir)
    with pytest.raises(BadSignatureMove, match="held bob's seat until the referee handed it .* at turn 2 "
                                               r"\(pbem takeover\): the seat was taken over") as refused:
        submit(table.dir, bob_old_move, table.referee)
    assert refused.value.exit_code == 14
    assert snapshot(table.dir) == before
    play_out(handed)
    assert status(table.dir).over
    report = verify(table.dir, replay=True)
    assert report.replayed
    validate_directory(table.dir)


def test_the_old_key_reads_no_turn_after_the_takeover(table):
    handed, old = hand_bob_over(table)
    turn = json.loads((table.dir / "turns" / "000002.json").read_text())
    with pytest.raises(CryptoError):
        open_sealed(turn["sealed"]["bob"], old)
    assert open_sealed(turn["sealed"]["bob"], handed.keys["bob"])["player"] == "bob"
    with pytest.raises(KeyMismatch, match=r"handed bob's seat to that key at turn 2 .* this key reads no turn since"):
        read_view(table.dir, "bob", old)
    # a move the old key signs from a turn it could read is refused like any other
    view = read_view(table.dir, "bob", handed.keys["bob"])
    assert view.decision is not None and view.since == 2


def test_game_toml_is_never_rewritten_and_every_turn_names_its_hash(table):
    game_toml = (table.dir / "game.toml").read_bytes()
    hand_bob_over(table)
    assert (table.dir / "game.toml").read_bytes() == game_toml
    assert verify(table.dir).turns == 3


def test_status_and_log_show_the_takeover(table):
    handed, old = hand_bob_over(table)
    new = handed.keys["bob"].public.fingerprint
    assert status(table.dir).to_json()["takeovers"] == [
        {"player": "bob", "turn": 2, "key": new, "previous": old.public.fingerprint}]
    entry = list(public_log(table.dir))[2]
    assert entry.what == f"the referee handed bob's seat to a new key ({new}; it was {old.public.fingerprint})"
    assert entry.events == []  # the game did not move


def test_the_new_holders_decision_opens_at_the_takeover(table):
    hand_bob_over(table)
    turn = json.loads((table.dir / "turns" / "000002.json").read_text())
    assert turn["awaiting"] == [{"player": "bob", "kind": "play", "since": 2}]
    assert turn["referee_step"]["kind"] == "takeover" and turn["mover"] is None and "time" not in turn


def test_the_takeovers_turn_tells_of_no_game_event_and_repeats_none_of_the_step_before(table):
    """Nothing happens in the game at a takeover: its turn is a step whose events are empty
    (the game begins it), and the replay agrees."""
    hand_bob_over(table)
    turns = table.dir / "turns"
    assert json.loads((turns / "000001.json").read_text())["public"]["events"] == ["alice has picked"]
    assert json.loads((turns / "000002.json").read_text())["public"]["events"] == []
    assert verify(table.dir, replay=True).replayed


def test_a_takeover_in_a_game_with_deadlines_gives_the_seat_a_new_deadline(tmp_path):
    table = make_table(tmp_path, deadlines=["48h"], now=T0)
    take_over(table.dir, "bob", generate("bob").public, table.referee, now=T0 + timedelta(hours=40))
    turn = json.loads((table.dir / "turns" / "000001.json").read_text())
    assert turn["time"] == "2025-03-03T04:00:00Z"
    assert {a["player"]: a["deadline"] for a in turn["awaiting"]} == {
        "alice": "2025-03-03T12:00:00Z", "bob": "2025-03-05T04:00:00Z"}
    record = json.loads((table.dir / "seats" / "000001-bob.json").read_text())
    assert record["time"] == turn["time"]
    assert verify(table.dir, replay=True).replayed


@pytest.mark.parametrize("case, says", [
    ("unseated", "'carol' is not seated"),
    ("alice's key", "holds alice's seat already"),
    ("misnamed", "a key for bob's seat is named 'bob'"),
])
def test_a_takeover_that_makes_no_sense_is_refused_and_changes_nothing(table, case, says):
    key = {"unseated": generate("carol").public, "alice's key": table.keys["alice"].public,
           "misnamed": generate("carol").public}[case]
    seat = "carol" if case == "unseated" else "bob"
    before = snapshot(table.dir, skip=())
    with pytest.raises(TakeoverRefused, match=says) as refused:
        take_over(table.dir, seat, key, table.referee)
    assert refused.value.exit_code == 25
    assert snapshot(table.dir, skip=()) == before


def test_a_finished_game_hands_no_seat_over(table):
    play_out(table)
    with pytest.raises(TakeoverRefused, match="is over"):
        take_over(table.dir, "bob", generate("bob").public, table.referee)


def test_a_game_not_dealt_yet_hands_no_seat_over(tmp_path):
    from helpers_referee import make_keys

    from pbem.referee import new_game

    keys, _ = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    new_game(tmp_path / "game", "highcard", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             wait_for_joins=True)
    with pytest.raises(TakeoverRefused, match="not dealt yet"):
        take_over(tmp_path / "game", "bob", generate("bob").public, keys["referee"])


# --- forged seat records -------------------------------------------------------------------------


def forged_seat_record(table: Table, signer, turn: int = 1) -> Path:
    """alice writes a seat record handing bob's seat to her own second key, signed by ``signer``."""
    view = read_view(table.dir, "alice", table.keys["alice"])
    from pbem.referee.gamefile import GameFile

    gamefile = GameFile.read(table.dir / "game.toml")
    doc = record_doc(gamefile, turn - 1, view.turn.hash, "bob", generate("bob").public, table.keys["bob"].public, None)
    path = table.dir / "seats" / f"{turn:06d}-bob.json"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(dump_json(sign_document(doc, signer)))
    return path


def test_a_seat_record_not_signed_by_the_referee_stops_the_referee_and_fails_verify(table):
    """A player who pushes a seat record of their own (the git flow) takes no seat: the game directory is damaged."""
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee)
    path = forged_seat_record(table, table.keys["alice"])
    bob_move = None
    with pytest.raises(GameDirError, match=r"000001-bob.json: bad signature"):
        bob_move = table.move("bob", first_option(table, "bob"))
    assert bob_move is None
    with pytest.raises(GameDirError, match=r"000001-bob.json: bad signature"):
        submit(table.dir, b"{}", table.referee)
    with pytest.raises(VerificationFailed, match=r"000001-bob.json"):
        verify(table.dir)
    path.unlink()
    assert verify(table.dir).turns == 2


def test_a_referee_signed_seat_record_that_no_turn_names_is_refused(table):
    """A seat record slipped in for a turn that a move produced (say, copied from the referee's outbox)."""
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee)
    forged_seat_record(table, table.referee)
    with pytest.raises(GameDirError, match="turn 1 was not produced by this seat record"):
        read_view(table.dir, "alice", table.keys["alice"])
    with pytest.raises(VerificationFailed, match=r"000001-bob.json: a second file that produced turn 1"):
        verify(table.dir)


def test_a_seat_record_left_by_a_takeover_that_died_before_its_turn_is_removed(table):
    orphan = forged_seat_record(table, table.referee, turn=1)
    # the current turn is 0: the record's turn is not written, so it is not in force, and the next step removes it
    assert read_view(table.dir, "bob", table.keys["bob"]).decision is not None
    submit(table.dir, table.move("bob", first_option(table, "bob")), table.referee)
    assert not orphan.exists()
    assert verify(table.dir, replay=True).replayed


def test_a_move_of_the_new_key_is_refused_before_the_takeover(table):
    """The seat record is what makes the new key count: no record, no seat."""
    new = generate("bob")
    view = read_view(table.dir, "bob", table.keys["bob"])
    forged = make_move(view, new, [first_option(table, "bob")])
    with pytest.raises(BadSignatureMove, match="the signature is not bob's"):
        submit(table.dir, forged, table.referee)


def test_a_takeover_that_dies_before_its_turn_is_written_hands_nothing_over(table, monkeypatch):
    import pbem.referee.turns as turns

    real = turns.write_file

    def dying(gamedir, path, data, *args, **kwargs):
        if path.parent.name == "turns":
            raise KeyboardInterrupt  # the process is killed at the commit point
        real(gamedir, path, data, *args, **kwargs)

    new = generate("bob")
    with monkeypatch.context() as patch:
        patch.setattr(turns, "write_file", dying)
        with pytest.raises(KeyboardInterrupt):
            take_over(table.dir, "bob", new.public, table.referee)
    assert (table.dir / "seats" / "000001-bob.json").exists()
    assert read_view(table.dir, "bob", table.keys["bob"]).decision is not None  # the old key still holds the seat
    take_over(table.dir, "bob", new.public, table.referee)
    assert read_view(table.dir, "bob", new).number == 1
    assert verify(table.dir, replay=True).replayed


def test_every_turn_from_a_takeover_on_names_the_seat_records_in_force(table):
    """Readers find the seat records by the names the current turn gives (nothing lists seats/)."""
    handed, _old = hand_bob_over(table)
    turns = table.dir / "turns"
    assert "seats" not in json.loads((turns / "000001.json").read_text())
    assert json.loads((turns / "000002.json").read_text())["seats"] == [{"player": "bob", "turn": 2}]
    submit(table.dir, handed.move("bob", first_option(handed, "bob")), table.referee)
    assert json.loads((turns / "000003.json").read_text())["seats"] == [{"player": "bob", "turn": 2}]
    assert verify(table.dir, replay=True).replayed


def test_verify_names_a_turn_that_leaves_a_seat_record_in_force_out(table):
    """A referee that drops a takeover from a later turn would give the seat back to the old key: caught."""
    handed, _old = hand_bob_over(table)
    submit(table.dir, handed.move("bob", first_option(handed, "bob")), table.referee)
    path = table.dir / "turns" / "000003.json"
    doc = json.loads(path.read_text())
    del doc["seats"]
    path.write_bytes(dump_json(sign_document({k: v for k, v in doc.items() if k != "signature"}, table.referee)))
    with pytest.raises(VerificationFailed, match=r"000003.json: names the seat records"):
        verify(table.dir)
