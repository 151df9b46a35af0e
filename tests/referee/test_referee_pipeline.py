"""The referee pipeline (DESIGN.md, "The referee pipeline"), rule by rule, on the toy game.

High Card (tests/toygame.py): turn 0 awaits alice and bob to *play* a card at
once; after both picks, alice and then bob each *draw* or *pass* (pass_id
"pass"); then the next round's play.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, Table, make_keys, make_table, snapshot, validate_directory
from helpers_trust import forge_move

from pbem.crypto.canonical import document_hash
from pbem.crypto.keys import generate
from pbem.crypto.signing import sign_document
from pbem.referee import formats, read_view, sealing, submit, verify
from pbem.referee.errors import (
    AlreadyApplied,
    BadSignatureMove,
    GameDirError,
    GameOverMove,
    IllegalMove,
    KeyMismatch,
    LockBusy,
    NotYourDecisionMove,
    OtherGameMove,
    Refusal,
    SchemaInvalidMove,
    StaleMove,
    UnknownPlayerMove,
    UnreadableMove,
    UsageError,
)
from pbem.referee.player import CHOICES_SIZE, choices_payload
from pbem.referee.storage import dump_json


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def hand(table: Table, player: str) -> list[int]:
    return table.view(player).private["hand"]


def play_first(table: Table, player: str) -> bytes:
    return table.move(player, f"card-{hand(table, player)[0]}")


def craft(table: Table, player: str, choices: list[str], signer: str | None = None, **fields) -> bytes:
    """A move file built by hand (to forge what ``make_move`` would refuse to write)."""
    view = read_view(table.dir, player, table.keys[player]) if player in table.keys else None
    base = view.turn if view is not None else read_view(table.dir, "alice", table.keys["alice"]).turn
    doc = {"format": formats.MOVE, "game_id": base.doc["game_id"], "player": player, "turn": base.doc["turn"],
           "base": base.hash, **fields}
    if "sealed_choices" not in doc:  # sealed for the move as crafted, so that only the field at stake is off
        payload = choices_payload(doc["game_id"], player, doc["turn"], doc["base"], choices)
        doc["sealed_choices"] = sealing.seal_json(payload, [sealing.game_recipient(TEST_SEED)], None,
                                                  CHOICES_SIZE)
    key = table.keys[signer or player] if (signer or player) in table.keys else generate(signer or player)
    return dump_json(sign_document(doc, key))


def refused(table: Table, data: bytes, kind: type[Refusal], says: str) -> Refusal:
    """Submit ``data``; check the refusal, its notice, and that nothing else changed."""
    before = snapshot(table.dir)
    notices_before = set(table.dir.joinpath("rejected").glob("*.json"))
    with pytest.raises(kind) as caught:
        submit(table.dir, data, table.referee, wait=0)
    assert says in str(caught.value)
    assert snapshot(table.dir) == before
    notices = set(table.dir.joinpath("rejected").glob("*.json")) - notices_before
    if kind is AlreadyApplied:
        assert not notices
    else:
        (notice,) = notices
        doc = json.loads(notice.read_text())
        assert doc["reason"] == kind.reason and doc["exit_code"] == kind.exit_code
        assert doc["turn"] == table.view("alice").number
    verify(table.dir)
    validate_directory(table.dir, table.keys)
    return caught.value


# --- applying a move ------------------------------------------------------------


def test_a_legal_move_writes_the_next_turn_the_move_and_the_views(table: Table) -> None:
    turn0 = read_view(table.dir, "alice", table.keys["alice"]).turn
    data = play_first(table, "alice")
    step = submit(table.dir, data, table.referee)
    assert step.turn == 1 and step.player == "alice" and step.awaiting == ["bob"]
    assert (table.dir / "moves" / "000001-alice.json").read_bytes() == data
    turn1 = json.loads((table.dir / "turns" / "000001.json").read_text())
    assert turn1["previous"] == turn0.hash
    assert turn1["move"] == document_hash(json.loads(data))
    wrapper = json.loads((table.dir / "views" / "bob" / "latest.json").read_text())
    assert wrapper["turn"] == 1 and wrapper["sealed"] == turn1["sealed"]["bob"]
    assert validate_directory(table.dir, table.keys) > 10
    assert verify(table.dir).turns == 2


def test_a_turn_file_carries_no_history(table: Table) -> None:
    """The size of a turn depends on the state, never on how long the game has run."""
    turn = json.loads((table.dir / "turns" / "000000.json").read_text())
    assert set(turn) == {"format", "game_id", "game", "turn", "previous", "move", "move_file", "mover", "joins",
                         "public", "awaiting", "result", "commitments", "seed", "sealed", "signature"}
    assert set(turn["commitments"]) == {"sections", "zones"}  # one fixed-size entry per seat and zone


def test_the_move_choices_are_sealed_in_the_archive(table: Table) -> None:
    """A played card must not be readable in the move file during the game."""
    card = hand(table, "alice")[0]
    data = table.move("alice", f"card-{card}")
    assert f"card-{card}".encode() not in data
    payload = sealing.open_with_seed(json.loads(data)["sealed_choices"], TEST_SEED)
    assert payload["choices"] == [f"card-{card}"]


def test_an_option_number_as_view_shows_it_is_accepted(table: Table) -> None:
    options = table.view("alice").decision.options
    data = table.move("alice", "2")
    payload = sealing.open_with_seed(json.loads(data)["sealed_choices"], TEST_SEED)
    assert payload["choices"] == [options[1].id]


def test_the_referee_section_opens_with_the_referee_key_and_the_game_identity(table: Table) -> None:
    submit(table.dir, play_first(table, "alice"), table.referee)
    turn = json.loads((table.dir / "turns" / "000001.json").read_text())
    section = sealing.open_with_key(turn["sealed"]["referee"], table.referee, "turn 1", compressed=True)
    assert section == sealing.open_with_seed(turn["sealed"]["referee"], TEST_SEED, compressed=True)
    assert section["seed"] == TEST_SEED.hex()
    assert section["step"] == [{"player": "alice", "option": section["step"][0]["option"], "by": "move"}]


# --- simultaneous decisions and staleness ------------------------------------------


def test_a_simultaneous_choice_stays_fresh_after_another_players_move(table: Table) -> None:
    """bob's play answers turn 0; alice's play (turn 1) does not make it stale."""
    bobs = play_first(table, "bob")
    submit(table.dir, play_first(table, "alice"), table.referee)
    status_turn = json.loads((table.dir / "turns" / "000001.json").read_text())
    assert status_turn["awaiting"] == [{"player": "bob", "kind": "play", "since": 0}]
    step = submit(table.dir, bobs, table.referee)
    assert step.turn == 2 and step.awaiting == ["alice"]


def test_a_move_answering_a_turn_before_the_decision_opened_is_stale(table: Table) -> None:
    """The message names the decision the player must answer now and since when."""
    first, second = hand(table, "alice")
    submit(table.dir, table.move("alice", f"card-{first}"), table.referee)
    late = craft(table, "alice", [f"card-{second}"], turn=0,
                 base=read_view(table.dir, "bob", table.keys["bob"]).turn.doc["previous"])
    submit(table.dir, play_first(table, "bob"), table.referee)  # alice now awaited to draw, since turn 2
    refused(table, late, StaleMove, "the move answers turn 0, but the decision alice must answer now is the draw "
                                    "decision opened at turn 2 (the game is at turn 2)")


def test_a_move_whose_base_hash_is_not_in_the_chain_is_stale(table: Table) -> None:
    data = craft(table, "alice", [f"card-{hand(table, 'alice')[0]}"], base="sha256:" + "0" * 64)
    refused(table, data, StaleMove, "base hash")


def test_a_move_answering_a_future_turn_is_stale(table: Table) -> None:
    data = craft(table, "alice", [f"card-{hand(table, 'alice')[0]}"], turn=5)
    refused(table, data, StaleMove, "answers turn 5")


# --- every refusal kind ---------------------------------------------------------


def test_an_unreadable_file_is_refused(table: Table) -> None:
    error = refused(table, b"\xff\xfe not json", UnreadableMove, "unreadable")
    assert error.exit_code == 10


def test_an_oversized_file_is_refused_unread(table: Table) -> None:
    refused(table, b'{"format": "' + b"x" * (1 << 20) + b'"}', UnreadableMove, "exceeds the limit")


def test_a_too_deeply_nested_file_is_refused(table: Table) -> None:
    refused(table, b"[" * 100 + b"]" * 100, UnreadableMove, "depth")


def test_duplicate_keys_are_refused(table: Table) -> None:
    refused(table, b'{"format": "pbem-move/1", "format": "pbem-move/1"}', UnreadableMove, "duplicate")


def test_a_schema_invalid_move_is_refused(table: Table) -> None:
    error = refused(table, b'{"format": "pbem-move/1", "player": "alice"}', SchemaInvalidMove, "schema")
    assert error.exit_code == 11


def test_an_unknown_format_version_is_refused_with_a_clear_message(table: Table) -> None:
    data = craft(table, "alice", ["card-1"], format="pbem-move/2")
    refused(table, data, SchemaInvalidMove, "unknown format version 'pbem-move/2'")


def test_a_move_for_another_game_is_refused(table: Table) -> None:
    error = refused(table, craft(table, "alice", ["card-1"], game_id="0" * 16), OtherGameMove, "for game 0000")
    assert error.exit_code == 12


def test_a_move_by_someone_not_seated_is_refused(table: Table) -> None:
    error = refused(table, craft(table, "mallory", ["card-1"]), UnknownPlayerMove, "'mallory' is not seated")
    assert error.exit_code == 13


def test_a_move_signed_by_the_wrong_key_is_refused(table: Table) -> None:
    data = craft(table, "alice", [f"card-{hand(table, 'alice')[0]}"], signer="bob")
    error = refused(table, data, BadSignatureMove, "not alice's")
    assert error.exit_code == 14


def test_a_move_altered_after_signing_is_refused(table: Table) -> None:
    doc = json.loads(play_first(table, "alice"))
    doc["turn"] = 0 if doc["turn"] else 1
    refused(table, dump_json(doc), BadSignatureMove, "altered")


def test_sealed_choices_the_game_identity_cannot_open_are_unreadable(table: Table) -> None:
    other = sealing.seal_json({"format": formats.CHOICES, "choices": ["card-1"]},
                              [table.keys["alice"].public.recipient], None, CHOICES_SIZE)
    refused(table, craft(table, "alice", [], sealed_choices=other), UnreadableMove, "do not open")


def test_a_move_when_it_is_not_your_decision_is_refused(table: Table) -> None:
    submit(table.dir, play_first(table, "alice"), table.referee)
    submit(table.dir, play_first(table, "bob"), table.referee)  # alice to draw
    error = refused(table, craft(table, "bob", ["pass"]), NotYourDecisionMove, "no decision of bob")
    assert error.exit_code == 17


def test_not_your_decision_says_who_is_awaited_and_for_what(table: Table) -> None:
    """The refusal "no decision of bob is awaited" names who is, with the kind and since when."""
    submit(table.dir, play_first(table, "alice"), table.referee)
    submit(table.dir, play_first(table, "bob"), table.referee)  # alice to draw
    refused(table, craft(table, "bob", ["pass"]), NotYourDecisionMove,
            "no decision of bob is awaited at turn 2 (awaited: alice (draw, since turn 2))")


def test_a_stale_move_of_a_player_with_no_open_decision_says_who_is_awaited(table: Table) -> None:
    late = craft(table, "alice", [f"card-{hand(table, 'alice')[1]}"])
    submit(table.dir, play_first(table, "alice"), table.referee)  # alice has played; bob is awaited
    refused(table, late, StaleMove, "the move answers turn 0, but no decision of alice is open now "
                                    "(awaited: bob (play, since turn 0)); the game is at turn 1")


def test_a_choice_that_is_not_an_option_is_refused_without_naming_it(table: Table) -> None:
    error = refused(table, craft(table, "alice", ["card-999"]), IllegalMove, "the first choice is not an option")
    assert error.exit_code == 18 and error.index == 0
    assert "999" not in error.message  # rejection notices are public; choices are secret


def test_a_later_choice_that_is_not_an_option_ends_the_move_there(table: Table) -> None:
    """alice picks, and is then no longer awaited: her pick stands, her second choice is dropped."""
    first, second = hand(table, "alice")
    step = submit(table.dir, craft(table, "alice", [f"card-{first}", f"card-{second}"]), table.referee)
    assert step.choices == 1 and step.unapplied == {"from": 2, "to": 2}
    assert table.view("alice").private["my_pick"] == first


def test_a_move_after_the_game_is_over_is_refused(table: Table) -> None:
    while (view := table.view("alice")).result is None:
        awaited = next(a["player"] for a in view.turn.doc["awaiting"])
        decision = table.view(awaited).decision
        submit(table.dir, table.move(awaited, decision.options[0].id), table.referee)
    error = refused(table, craft(table, "alice", ["pass"]), GameOverMove, "is over")
    assert error.exit_code == 15
    assert verify(table.dir).turns > 5


def test_resubmitting_an_applied_move_says_so_and_changes_nothing(table: Table) -> None:
    data = play_first(table, "alice")
    submit(table.dir, data, table.referee)
    error = refused(table, data, AlreadyApplied, "already applied: it produced turn 1")
    assert error.exit_code == 19


def test_a_busy_lock_refuses_cleanly_after_the_wait(table: Table) -> None:
    data = play_first(table, "alice")
    before = snapshot(table.dir, skip=())
    fd = os.open(table.dir / ".lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(LockBusy) as caught:
            submit(table.dir, data, table.referee, wait=0)
    finally:
        os.close(fd)
    assert caught.value.exit_code == 20
    assert snapshot(table.dir, skip=()) == before
    assert submit(table.dir, data, table.referee).turn == 1


def test_every_refusal_kind_has_its_own_exit_code() -> None:
    from pbem.referee.errors import REFUSALS

    codes = [cls.exit_code for cls in REFUSALS] + [LockBusy.exit_code]
    assert len(set(codes)) == len(codes)
    assert len({cls.reason for cls in REFUSALS}) == len(REFUSALS)


def test_a_key_that_is_not_the_referees_is_refused(table: Table) -> None:
    with pytest.raises(KeyMismatch):
        submit(table.dir, play_first(table, "alice"), table.keys["alice"])


def test_a_forged_current_turn_is_not_trusted(table: Table) -> None:
    path = table.dir / "turns" / "000000.json"
    doc = json.loads(path.read_text())
    doc["public"]["scores"]["alice"] = 5
    path.write_bytes(dump_json(doc))
    with pytest.raises(GameDirError, match="bad signature"):
        submit(table.dir, b"{}", table.referee)


# --- several choices and standing orders ---------------------------------------------


def round_one(table: Table) -> None:
    submit(table.dir, play_first(table, "alice"), table.referee)
    submit(table.dir, play_first(table, "bob"), table.referee)


def test_several_choices_apply_in_order_while_the_player_stays_awaited(table: Table) -> None:
    """bob passes the draw and, still awaited for the next play, picks his card in the same file."""
    round_one(table)
    submit(table.dir, table.move("alice", "pass"), table.referee)
    card = hand(table, "bob")[0]
    step = submit(table.dir, table.move("bob", "pass", f"card-{card}"), table.referee)
    assert step.choices == 2 and step.awaiting == ["alice"]
    assert table.view("bob").private["my_pick"] == card


def test_without_a_standing_order_nothing_is_skipped(table: Table) -> None:
    round_one(table)
    assert [a["player"] for a in table.view("alice").turn.doc["awaiting"]] == ["alice"]
    assert table.view("alice").decision.kind == "draw"


def test_a_standing_order_to_always_pass_answers_that_decision(table: Table) -> None:
    submit(table.dir, table.move("bob", f"card-{hand(table, 'bob')[0]}",
                                 orders={"auto_pass": {"draw": "always"}}), table.referee)
    step = submit(table.dir, play_first(table, "alice"), table.referee)
    # alice now draws; after her, bob's draw is answered for him
    step = submit(table.dir, table.move("alice", "draw"), table.referee)
    assert step.auto_choices == [{"player": "bob", "option": "pass", "by": "standing-order"}]
    assert sorted(step.awaiting) == ["alice", "bob"]  # the next round's play
    assert table.view("bob").doc["standing_orders"] == {"auto_pass": {"draw": "always"}}


def test_an_order_answers_every_decision_of_its_kind_by_its_rule_or_its_fallback(table: Table) -> None:
    """An order is total (docs/trust.md "No timing channel"): bob's order to play the card named 1, else
    the first, answers his play whatever he holds; the turn names the kind answered, not the option."""
    card = hand(table, "bob")[0]
    submit(table.dir, table.move("bob", f"card-{card}", orders={"orders": {
        "play": {"rules": [{"choose": {"option": "card-1"}}], "fallback": "first"}}}), table.referee)
    submit(table.dir, play_first(table, "alice"), table.referee)
    turn = table.view("alice").turn.doc
    assert turn["orders"] == {"bob": ["play"]} and "by_order" not in turn  # bob had played already
    submit(table.dir, table.move("alice", "pass"), table.referee)
    held = hand(table, "bob")
    step = submit(table.dir, table.move("bob", "pass"), table.referee)  # the next round opens: bob's play by order
    assert step.auto_choices == [{"player": "bob", "option": "card-1" if 1 in held else f"card-{held[0]}",
                                  "by": "order", "kind": "play"}]
    assert step.awaiting == ["alice"]
    assert table.view("alice").turn.doc["by_order"] == [{"player": "bob", "kind": "play"}]


def test_an_order_that_passes_only_when_passing_is_the_only_option_is_refused(table: Table) -> None:
    """It would show the table that its player could not act, by a turn that did not wait for them."""
    with pytest.raises(UsageError, match="when-only-option"):
        table.move("bob", f"card-{hand(table, 'bob')[0]}", orders={"auto_pass": {"draw": "when-only-option"}})
    with pytest.raises(SchemaInvalidMove):
        submit(table.dir, forge_move(table, "bob", [f"card-{hand(table, 'bob')[0]}"],
                                     orders={"auto_pass": {"draw": "when-only-option"}}), table.referee)


def test_a_standing_order_alone_answers_the_open_decision_and_off_cancels_it(table: Table) -> None:
    round_one(table)
    submit(table.dir, table.move("alice", "pass"), table.referee)
    step = submit(table.dir, table.move("bob", orders={"auto_pass": {"draw": "always"}}), table.referee)
    assert step.choices == 0 and step.auto_choices == [{"player": "bob", "option": "pass", "by": "standing-order"}]
    assert table.view("bob").doc["standing_orders"] == {"auto_pass": {"draw": "always"}}
    submit(table.dir, table.move("bob", f"card-{hand(table, 'bob')[0]}", orders={"auto_pass": {"draw": "off"}}),
           table.referee)
    submit(table.dir, play_first(table, "alice"), table.referee)
    step = submit(table.dir, table.move("alice", "pass"), table.referee)
    assert step.awaiting == ["bob"] and table.view("bob").doc["standing_orders"] == {}


# --- determinism -----------------------------------------------------------------------


def test_the_same_inputs_give_byte_identical_files(tmp_path: Path) -> None:
    keys = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    one = make_table(tmp_path / "one", keys=keys)
    two = make_table(tmp_path / "two", keys=keys)
    for _ in range(4):
        awaited = one.view("alice").turn.doc["awaiting"][0]["player"]
        data = one.move(awaited, one.view(awaited).decision.options[0].id)
        submit(one.dir, data, one.referee)
        submit(two.dir, data, two.referee)
    assert snapshot(one.dir, skip=()) == snapshot(two.dir, skip=())
