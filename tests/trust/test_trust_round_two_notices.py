"""Rejection notices never quote a decrypted choice, and ``rejected/`` is bounded.

Notices are public (they sit in the archive and in the mail); what a move
sealed is its player's secret. Every message a refusal can carry is built
here with a marker hidden in the sealed payload (in a choice, a standing
order's kind, the format, an unknown member, a duplicate key, a number),
and the marker must appear in no notice and no refusal message.

``rejected/`` keeps one notice per sender per turn: a seated player whose
signature checked out has their own slot (``NNNNNN-PLAYER.json``), replaced
by their next refused file at that turn (a stale file of theirs, which anyone
can replay, only fills an empty slot); everyone else shares one slot per
turn (``NNNNNN-_unknown.json``). A flood of distinct bad files, from one key
or from nobody, adds at most one file per turn; a cap on the directory
stops new slots, with a clear message, when it is full.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot
from helpers_trust import forge_move, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.crypto import age
from pbem.referee import pipeline, read_view, status, submit, verify
from pbem.referee.errors import Refusal
from pbem.referee.player import choices_payload
from pbem.referee.storage import dump_json

MARK = "zqxmarkzqx"
EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "30"))


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def sealed_bytes(table: Table, player: str, plaintext: bytes) -> bytes:
    """A signed move of ``player`` whose sealed choices hold exactly ``plaintext``."""
    recipient = read_view(table.dir, player, table.keys[player]).gamefile.game_recipient
    return forge_move(table, player, sealed=age.encrypt(plaintext, [recipient]).decode("ascii"))


def bound(table: Table, player: str, **members) -> dict:
    view = read_view(table.dir, player, table.keys[player])
    payload = choices_payload(view.gamefile.game_id, player, view.number, view.turn.hash, [])
    payload.update(members)
    return payload


def refusal_of(table: Table, data: bytes) -> Refusal | None:
    try:
        submit(table.dir, data, table.referee)
    except Refusal as refusal:
        return refusal
    return None


def refused(table: Table, data: bytes) -> Refusal:
    """The refusal of ``data``, which the referee must refuse."""
    refusal = refusal_of(table, data)
    assert refusal is not None, "the referee applied the file"
    return refusal


def assert_nothing_quoted(table: Table, refusal: Refusal | None) -> None:
    if refusal is not None:
        assert MARK not in refusal.message, refusal.message
    for notice in (table.dir / "rejected").glob("*.json"):
        assert MARK not in notice.read_text(), notice.read_text()


def payloads(table: Table) -> dict[str, bytes]:
    """Sealed plaintexts that each reach one refusal message, with the marker inside."""
    card = f"card-{table.view('alice').private['hand'][0]}"
    as_json = lambda value: json.dumps(value).encode()  # noqa: E731
    return {
        "first choice not an option": as_json(bound(table, "alice", choices=[MARK])),
        "choice too long": as_json(bound(table, "alice", choices=[MARK * 30])),
        "choice of the wrong type": as_json(bound(table, "alice", choices=[{MARK: 1}])),
        "unknown kind": as_json(bound(table, "alice", choices=[card], standing_orders={"auto_pass": {MARK: "always"}})),
        "kind too long": as_json(bound(table, "alice", choices=[card],
                                       standing_orders={"auto_pass": {MARK * 4: "always"}})),
        "bad mode": as_json(bound(table, "alice", choices=[card], standing_orders={"auto_pass": {"draw": MARK}})),
        "unknown member": as_json(bound(table, "alice", choices=[card], **{MARK: True})),
        "unknown version": as_json(bound(table, "alice", choices=[card], format=f"pbem-choices/{MARK}")),
        "another format": as_json(bound(table, "alice", choices=[card], format=MARK)),
        "bound to another base": as_json(bound(table, "alice", choices=[card], base="sha256:" + "0" * 64)),
        "not an object": as_json([MARK]),
        "duplicate member": b'{"' + MARK.encode() + b'": 1, "' + MARK.encode() + b'": 2}',
        "number too large": b'{"' + MARK.encode() + b'": 1e999}',
        "integer too large": b'{"choices": [' + b"9" * 500 + b'], "x": "' + MARK.encode() + b'"}',
        "not json": MARK.encode() + b" is not JSON",
        "lone surrogate": b'["\\ud800' + MARK.encode() + b'"]',
        "deep": b"[" * 100 + MARK.encode() + b"]" * 100,
    }


CASES = ("first choice not an option", "choice too long", "choice of the wrong type", "unknown kind",
         "kind too long", "bad mode", "unknown member", "unknown version", "another format",
         "bound to another base", "not an object", "duplicate member", "number too large", "integer too large",
         "not json", "lone surrogate", "deep")


def test_every_case_is_built(table: Table) -> None:
    assert sorted(payloads(table)) == sorted(CASES)


@pytest.mark.parametrize("case", CASES)
def test_no_refusal_quotes_what_the_move_sealed(table: Table, case: str) -> None:
    refusal = refusal_of(table, sealed_bytes(table, "alice", payloads(table)[case]))
    assert refusal is not None, case
    assert_nothing_quoted(table, refusal)


marked_text = st.text(max_size=8).map(lambda t: t + MARK)
marked_json = st.recursive(
    st.none() | st.booleans() | st.integers() | marked_text | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(marked_text, children, max_size=3),
    max_leaves=8,
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_payload_with_the_marker_anywhere_is_never_quoted(table: Table, data) -> None:
    payload = bound(table, "alice", choices=[f"card-{table.view('alice').private['hand'][0]}"])
    member = data.draw(st.sampled_from(sorted(payload) + ["standing_orders", MARK]))
    payload[member] = data.draw(marked_json)
    assert_nothing_quoted(table, refusal_of(table, sealed_bytes(table, "alice", json.dumps(payload).encode())))


# --- a bounded rejected/ -------------------------------------------------------------


def notices(table: Table) -> list[str]:
    return sorted(p.name for p in (table.dir / "rejected").iterdir())


def test_a_flood_of_bad_files_from_one_key_keeps_one_notice_per_turn(table: Table) -> None:
    for number in range(40):
        refusal = refused(table, forge_move(table, "alice", [f"card-of-nothing-{number}"]))
        assert refusal.reason == "illegal"
    assert notices(table) == ["000000-alice.json"]
    assert json.loads((table.dir / "rejected" / "000000-alice.json").read_text())["move"] == refusal.move_hash
    play(table, steps=1)
    refused(table, forge_move(table, "alice", ["card-of-nothing"]))
    assert notices(table) == ["000000-alice.json", "000001-alice.json"]
    verify(table.dir)


def test_a_flood_from_unknown_senders_shares_one_slot_per_turn(table: Table) -> None:
    for number in range(40):
        assert refused(table, f"not a move {number}".encode()).reason == "unreadable"
        doc = json.loads(table.move("alice", f"card-{table.view('alice').private['hand'][0]}"))
        doc["base"] = f"sha256:{number:064x}"  # altered after signing: nobody's signature
        assert refused(table, dump_json(doc)).reason == "bad-signature"
    assert notices(table) == ["000000-_unknown.json"]
    verify(table.dir)


def test_a_forged_file_in_alices_name_does_not_replace_her_notice(table: Table) -> None:
    refused(table, forge_move(table, "alice", ["card-of-nothing"]))
    kept = (table.dir / "rejected" / "000000-alice.json").read_bytes()
    doc = json.loads(forge_move(table, "alice", ["card-of-nothing-else"]))
    doc["base"] = "sha256:" + "1" * 64  # claims to be alice's, signature broken
    assert refused(table, dump_json(doc)).reason == "bad-signature"
    assert (table.dir / "rejected" / "000000-alice.json").read_bytes() == kept
    assert notices(table) == ["000000-_unknown.json", "000000-alice.json"]


def test_a_full_rejected_directory_takes_no_new_slot_and_says_so(table: Table, monkeypatch) -> None:
    monkeypatch.setattr(pipeline, "MAX_NOTICES", 2)
    refused(table, b"garbage")
    refused(table, forge_move(table, "alice", ["card-of-nothing"]))
    before = snapshot(table.dir, skip=())
    refusal = refused(table, forge_move(table, "bob", ["card-of-nothing"]))
    assert refusal.reason == "illegal" and refusal.rejection is None
    assert "rejected/ is full" in refusal.message
    assert snapshot(table.dir, skip=()) == before
    again = refused(table, forge_move(table, "alice", ["card-of-nothing-again"]))  # her slot is kept: replaced
    assert again.rejection is not None and notices(table) == ["000000-_unknown.json", "000000-alice.json"]


def test_a_notice_does_not_tell_how_many_choices_or_orders_a_refused_move_sealed(tmp_path: Path) -> None:
    """The number of choices, and whether the payload held any, are the sealed payload's: the public
    notice of a move refused at its first choice, or a move of standing orders alone from a player who
    is not awaited, reads the same whatever else the move sealed."""
    from helpers_trust import forge_move

    messages = []
    for n, choices in enumerate((["card-99"], ["card-99", "pass", "card-1"])):
        table = make_table(tmp_path / str(n))
        with pytest.raises(Refusal) as refused:
            submit(table.dir, forge_move(table, "alice", choices), table.referee)
        assert refused.value.rejection is not None
        messages.append(json.loads(Path(refused.value.rejection).read_text())["message"])
    assert messages[0] == messages[1]
    table = make_table(tmp_path / "not-awaited")
    submit(table.dir, table.move("alice", "1"), table.referee)  # alice has played: only bob is awaited
    messages = []
    for choices, orders in ((["card-1"], None), ([], {"auto_pass": {"play": "always"}})):
        with pytest.raises(Refusal) as refused:
            submit(table.dir, forge_move(table, "alice", choices, orders), table.referee)
        assert refused.value.rejection is not None
        messages.append(json.loads(Path(refused.value.rejection).read_text())["message"])
    assert messages[0] == messages[1]


def test_a_replayed_older_move_of_alice_does_not_replace_her_notice_of_this_turn(table: Table) -> None:
    """Anyone can drop a file of alice's in the inbox again: an older move she signed (refused then, or
    never sent) is refused as stale, but its notice must not take the place of the notice of the move she
    had refused at this turn, which tells her why; a stale move of hers only fills an empty slot."""
    older = forge_move(table, "alice", ["card-of-nothing"])
    assert refused(table, older).reason == "illegal"
    while status(table.dir).awaiting[0]["player"] != "alice" or status(table.dir).turn == 0:
        play(table, steps=1)
    refused(table, forge_move(table, "alice", ["card-of-nothing-now"]))
    slot = table.dir / "rejected" / f"{status(table.dir).turn:06d}-alice.json"
    kept, before = slot.read_bytes(), snapshot(table.dir, skip=())
    replayed = refused(table, older)  # dropped again by bob, or by the mail
    assert replayed is not None and replayed.reason == "stale"
    assert slot.read_bytes() == kept and snapshot(table.dir, skip=()) == before  # nothing else changed either
    assert replayed.rejection is None and "kept" in replayed.message
    verify(table.dir)


def test_alices_own_stale_move_fills_an_empty_slot(table: Table) -> None:
    options = table.view("alice").decision.options
    older = table.move("alice", options[0].id)  # written, never sent: she sent another move instead
    submit(table.dir, table.move("alice", options[1].id), table.referee)
    refusal = refused(table, older)
    assert refusal is not None and refusal.reason == "stale"
    assert refusal.rejection is not None
    assert refusal.rejection is not None and Path(refusal.rejection).name == "000001-alice.json"
    verify(table.dir)
