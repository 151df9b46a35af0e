"""Deadlines and missing players: the referee's clock, deadlines, timeouts, reminders.

High Card (tests/toygame.py): turn 0 awaits alice and bob to *play* at once
(no pass option: a timeout is a bot's choice); then alice and bob each
*draw* or *pass* (pass_id "pass": a timeout passes).
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import toygame
from helpers_referee import TEST_SEED, Table, make_table, snapshot, validate_directory

from pbem.crypto.canonical import parse_json_strict
from pbem.engine import register
from pbem.referee import clock, public_log, status, submit, verify
from pbem.referee.deadlines import DeadlineRules
from pbem.referee.errors import ClockWentBack, StaleMove, UsageError, VerificationFailed
from pbem.referee.gamefile import GameFile
from pbem.referee.pipeline import open_game
from pbem.referee.tick import tick, time_out

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def deadline_table(tmp: Path, **setup) -> Table:
    setup = {"deadlines": ["48h"], "remind": ["24h", "4h"], "now": T0, **setup}
    return make_table(tmp, **setup)


def turn_doc(table: Table, number: int) -> dict:
    return json.loads((table.dir / "turns" / f"{number:06d}.json").read_text())


def first_option(table: Table, player: str) -> str:
    return table.view(player).decision.options[0].id


def play_while_bob_is_away(table: Table, now: datetime) -> datetime:
    """alice answers every decision of hers an hour after it opens; bob never answers: the deadlines do."""
    for _ in range(200):
        current = status(table.dir)
        if current.over:
            return now
        if "alice" in [a["player"] for a in current.awaiting]:
            now += HOUR
            submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=now)
        else:
            now += timedelta(hours=49)
            assert tick(table.dir, table.referee, now=now).timeouts
    raise AssertionError("the game did not end")


# --- game.toml and the recorded clock ---------------------------------------------------------


def test_new_records_the_deadlines_in_game_toml_and_the_clock_in_turn_0(tmp_path):
    table = deadline_table(tmp_path, deadlines=["48h", "draw=12h"])
    gamefile = GameFile.read(table.dir / "game.toml")
    assert gamefile.deadlines == {"default": "48h", "kinds": {"draw": "12h"}, "remind": ["24h", "4h"]}
    turn = turn_doc(table, 0)
    assert turn["time"] == "2025-03-01T12:00:00Z"
    assert [a["deadline"] for a in turn["awaiting"]] == ["2025-03-03T12:00:00Z"] * 2
    assert validate_directory(table.dir)


@pytest.mark.parametrize("deadlines, remind, says", [
    (["48x"], [], "a duration is a whole number and a unit"),
    (["48h", "36h"], [], "given twice"),
    (["steal=12h"], [], "no decision kind 'steal'"),
    (["draw=off"], [], "no decision would have a deadline"),
    ([], ["4h"], "--remind needs a deadline"),
])
def test_bad_deadline_options_are_refused_naming_the_problem(tmp_path, deadlines, remind, says):
    with pytest.raises(UsageError, match=says):
        DeadlineRules.from_options(deadlines, remind, toygame.DECISION_KINDS)


def test_a_game_without_deadlines_records_no_time_whatever_the_clock_says(tmp_path, monkeypatch):
    """A game without deadlines stays byte for byte what it always was: the clock is never read."""
    plain = make_table(tmp_path / "a")
    monkeypatch.setenv(clock.NOW_ENV, "2031-01-01T00:00:00Z")
    other = make_table(tmp_path / "b", keys=(plain.keys, plain.key_files), now=T0)
    move = plain.move("alice", first_option(plain, "alice"))
    for table, now in ((plain, None), (other, T0 + HOUR)):
        submit(table.dir, move, table.referee, now=now)
    assert snapshot(plain.dir) == snapshot(other.dir)
    assert "time" not in turn_doc(plain, 1) and "deadline" not in turn_doc(plain, 1)["awaiting"][0]
    assert "deadlines" not in (plain.dir / "game.toml").read_text()


def test_a_decision_carried_over_keeps_its_deadline_and_a_new_one_counts_from_its_turn(tmp_path):
    table = deadline_table(tmp_path, deadlines=["48h", "draw=12h"])
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + 5 * HOUR)
    bob = next(a for a in turn_doc(table, 1)["awaiting"] if a["player"] == "bob")
    assert bob == {"player": "bob", "kind": "play", "since": 0, "deadline": "2025-03-03T12:00:00Z"}
    submit(table.dir, table.move("bob", first_option(table, "bob")), table.referee, now=T0 + 7 * HOUR)
    assert turn_doc(table, 2)["awaiting"] == [
        {"player": "alice", "kind": "draw", "since": 2, "deadline": "2025-03-02T07:00:00Z"}]


def test_status_and_view_show_each_awaited_decisions_deadline(tmp_path):
    table = deadline_table(tmp_path)
    assert [d["deadline"] for d in status(table.dir).to_json()["decisions"]] == ["2025-03-03T12:00:00Z"] * 2
    assert status(table.dir).to_json()["time"] == "2025-03-01T12:00:00Z"
    assert table.view("alice").deadline == "2025-03-03T12:00:00Z"


def test_the_clock_is_taken_from_the_environment_when_not_given(tmp_path, monkeypatch):
    table = deadline_table(tmp_path)
    monkeypatch.setenv(clock.NOW_ENV, "2025-03-01T15:30:00+01:00")
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee)
    assert turn_doc(table, 1)["time"] == "2025-03-01T14:30:00Z"


def test_a_time_without_its_zone_is_refused():
    with pytest.raises(UsageError, match="give the time zone"):
        clock.parse_time("2025-03-01T12:00:00", "--now")


# --- the clock never goes backwards -------------------------------------------------------------


def test_a_referee_clock_earlier_than_the_latest_turn_changes_nothing(tmp_path):
    table = deadline_table(tmp_path)
    before = snapshot(table.dir, skip=())
    with pytest.raises(ClockWentBack, match="recorded times never go backwards"):
        submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 - HOUR)
    with pytest.raises(ClockWentBack):
        tick(table.dir, table.referee, now=T0 - HOUR)
    assert snapshot(table.dir, skip=()) == before


def test_verify_names_a_turn_whose_recorded_time_goes_backwards(tmp_path, monkeypatch):
    """A referee that ran with its clock set back (the check bypassed) is caught without the seed."""
    table = deadline_table(tmp_path)
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + 2 * HOUR)
    monkeypatch.setattr(clock, "check_forward", lambda *args: None)
    submit(table.dir, table.move("bob", first_option(table, "bob")), table.referee, now=T0 + HOUR)
    with pytest.raises(VerificationFailed, match=r"000002.json: its time 2025-03-01T13:00:00Z is earlier .* went "
                                                 "backwards"):
        verify(table.dir)


# --- timeouts -----------------------------------------------------------------------------------


def test_a_whole_game_where_bob_never_answers_is_finished_by_the_deadlines_and_replays_byte_for_byte(tmp_path):
    table = deadline_table(tmp_path)
    play_while_bob_is_away(table, T0)
    current = status(table.dir)
    assert current.over and current.result is not None
    records = sorted(p.name for p in (table.dir / "timeouts").iterdir())
    assert records and all(name.endswith("-bob.json") for name in records)
    assert not any(p.name.endswith("-bob.json") for p in (table.dir / "moves").iterdir())
    report = verify(table.dir, replay=True)
    assert report.replayed and report.turns == len(list((table.dir / "turns").iterdir()))
    validate_directory(table.dir, table.keys)
    heads = [entry.what for entry in public_log(table.dir)]
    assert "bob's draw decision timed out: the referee passed on bob's behalf" in heads
    assert "bob's play decision timed out: the referee chose one of the options at random on bob's behalf" in heads


def test_a_timeout_is_a_referee_signed_record_named_by_the_turn_it_produced(tmp_path):
    table = deadline_table(tmp_path)
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + HOUR)
    report = tick(table.dir, table.referee, now=T0 + 48 * HOUR)
    assert [(t.turn, t.player, t.kind, t.action) for t in report.timeouts] == [(2, "bob", "play", "bot")]
    data = (table.dir / "timeouts" / "000002-bob.json").read_bytes()
    record = parse_json_strict(data)
    assert record["format"] == "pbem-timeout/1"
    assert (record["deadline"], record["time"], record["since"]) == ("2025-03-03T12:00:00Z", "2025-03-03T12:00:00Z", 0)
    turn = turn_doc(table, 2)
    assert turn["mover"] is None
    assert turn["referee_step"] == {"kind": "timeout", "player": "bob", "decision": "play", "action": "bot"}

    assert turn["move_file"] == "sha256:" + hashlib.sha256(data).hexdigest()
    # the public record says the referee chose, never which card
    assert not any("card-" in json.dumps(x) for x in (record, turn["referee_step"]))


def test_nothing_times_out_before_its_deadline_and_a_late_move_before_the_tick_still_counts(tmp_path):
    table = deadline_table(tmp_path)
    assert tick(table.dir, table.referee, now=T0 + 48 * HOUR - timedelta(seconds=1)).timeouts == []
    # past the deadline, but the referee has not acted yet: alice's move is taken
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + 50 * HOUR)
    report = tick(table.dir, table.referee, now=T0 + 50 * HOUR)
    assert [t.player for t in report.timeouts] == ["bob"]


def test_simultaneous_decisions_past_their_deadline_are_both_answered_in_one_tick(tmp_path):
    table = deadline_table(tmp_path)
    report = tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    assert [(t.turn, t.player, t.kind) for t in report.timeouts] == [(1, "alice", "play"), (2, "bob", "play")]
    # the draw decision that opened at turn 2 counts its 48 h from this tick
    assert report.awaiting == [{"player": "alice", "kind": "draw", "since": 2, "deadline": "2025-03-05T13:00:00Z"}]
    assert verify(table.dir, replay=True).replayed


def test_a_timeouts_turn_tells_what_the_timeout_did_and_nothing_of_the_step_before(tmp_path):
    """A timeout is a step of its own: the game begins it (Game.begin_step), so its events are its own."""
    table = deadline_table(tmp_path)
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + HOUR)
    assert turn_doc(table, 1)["public"]["events"] == ["alice has picked"]
    tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    events = turn_doc(table, 2)["public"]["events"]
    assert events[0] == "bob has picked" and events[1].startswith("round 1: ") and len(events) == 2
    assert verify(table.dir, replay=True).replayed


def test_a_move_arriving_after_a_timeout_answered_its_decision_is_stale_and_says_so(tmp_path):
    table = deadline_table(tmp_path)
    late = table.move("bob", first_option(table, "bob"))
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + HOUR)
    tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    before = snapshot(table.dir)
    with pytest.raises(StaleMove, match="bob's play decision of turn 0 timed out at turn 2: the referee answered "
                                        "it with the game's default action") as refused:
        submit(table.dir, late, table.referee, now=T0 + 50 * HOUR)
    assert refused.value.exit_code == 16
    assert snapshot(table.dir) == before


def test_standing_orders_still_answer_before_a_deadline_comes(tmp_path):
    table = deadline_table(tmp_path)
    submit(table.dir, table.move("alice", first_option(table, "alice"), orders={"auto_pass": {"draw": "always"}}),
           table.referee, now=T0 + HOUR)
    submit(table.dir, table.move("bob", first_option(table, "bob")), table.referee, now=T0 + 2 * HOUR)
    # alice's draw was passed by her standing order in the same step; bob's draw opens now
    assert turn_doc(table, 2)["awaiting"] == [
        {"player": "bob", "kind": "draw", "since": 2, "deadline": "2025-03-03T14:00:00Z"}]
    assert tick(table.dir, table.referee, now=T0 + 3 * HOUR).timeouts == []


class PatientHighCard(toygame.HighCard):
    """High Card whose referee draws for an absent player even where a pass is offered."""

    name = "highcard-patient"

    def default_action(self, kind: str) -> str:
        return "bot"


def test_a_game_may_declare_a_bots_choice_where_a_pass_is_offered(tmp_path):
    register(PatientHighCard())
    from helpers_referee import make_keys

    from pbem.referee import new_game

    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    new_game(tmp_path / "game", "highcard-patient", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             seed=TEST_SEED, deadlines=["1h"], now=T0)
    table = Table(tmp_path / "game", keys, files)
    report = tick(table.dir, table.referee, now=T0 + 2 * HOUR)  # both plays, by bot
    report = tick(table.dir, table.referee, now=T0 + 4 * HOUR)  # alice's draw: a bot, though "pass" is offered
    assert [(t.kind, t.action) for t in report.timeouts] == [("draw", "bot")]
    assert verify(table.dir, replay=True).replayed


def test_tick_has_nothing_to_do_in_a_game_without_deadlines(tmp_path):
    table = make_table(tmp_path)
    report = tick(table.dir, table.referee, now=T0 + 1000 * HOUR)
    assert report.idle == "the game has no deadlines (game.toml)" and report.timeouts == []


# --- reminders ---------------------------------------------------------------------------------


def test_reminders_fall_due_before_the_deadline_and_stop_at_it(tmp_path):
    table = deadline_table(tmp_path, deadlines=["48h", "draw=12h"])
    assert tick(table.dir, table.referee, now=T0 + 23 * HOUR).reminders == []
    due = tick(table.dir, table.referee, now=T0 + 44 * HOUR).reminders
    assert [(r.player, r.before, r.due) for r in due] == [
        ("alice", "24h", "2025-03-02T12:00:00Z"), ("alice", "4h", "2025-03-03T08:00:00Z"),
        ("bob", "24h", "2025-03-02T12:00:00Z"), ("bob", "4h", "2025-03-03T08:00:00Z")]


def test_a_reminder_as_long_as_the_decision_itself_is_not_due(tmp_path):
    table = deadline_table(tmp_path, deadlines=["48h", "draw=12h"])
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0)
    submit(table.dir, table.move("bob", first_option(table, "bob")), table.referee, now=T0)
    assert [r.before for r in tick(table.dir, table.referee, now=T0 + 9 * HOUR).reminders] == ["4h"]


# --- a cheating referee is caught --------------------------------------------------------------


def test_verify_names_a_timeout_whose_time_is_before_its_deadline(tmp_path):
    """A referee that acts for a player before the deadline (its own check bypassed) is caught without the seed."""
    table = deadline_table(tmp_path)
    ctx = open_game(table.dir, table.referee)
    entry = next(a for a in ctx.current.doc["awaiting"] if a["player"] == "bob")
    time_out(ctx, entry, T0 + HOUR)
    with pytest.raises(VerificationFailed, match=r"timeouts/000001-bob.json: the referee acted for bob at "
                                                 r"2025-03-01T13:00:00Z, before the deadline 2025-03-03T12:00:00Z"):
        verify(table.dir)


def test_verify_names_a_timeout_record_changed_after_the_fact(tmp_path):
    table = deadline_table(tmp_path)
    tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    path = table.dir / "timeouts" / "000001-alice.json"
    doc = json.loads(path.read_text())
    doc["action"] = "pass"
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    with pytest.raises(VerificationFailed, match=r"000001-alice.json: bad signature"):
        verify(table.dir)


def test_a_timeout_record_left_by_a_step_that_died_before_its_turn_is_removed(tmp_path):
    """A crash leaves at most the next turn's record, which the next step looks up by name and removes;
    a record for a later turn is no crash's (a step does not list timeouts/): verify names it."""
    table = deadline_table(tmp_path)
    tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    orphan = table.dir / "timeouts" / "000003-bob.json"
    orphan.write_bytes((table.dir / "timeouts" / "000002-bob.json").read_bytes())
    with pytest.raises(VerificationFailed, match="a timeout record with no turn 3"):
        verify(table.dir)
    submit(table.dir, table.move("alice", first_option(table, "alice")), table.referee, now=T0 + 50 * HOUR)
    assert not orphan.exists()
    assert verify(table.dir, replay=True).replayed
    planted = table.dir / "timeouts" / "000009-bob.json"
    planted.write_bytes((table.dir / "timeouts" / "000002-bob.json").read_bytes())
    with pytest.raises(VerificationFailed, match="a timeout record with no turn 9"):
        verify(table.dir)


def test_a_tick_that_dies_before_its_turn_is_written_leaves_the_game_as_it_was_and_the_next_tick_does_it(
        tmp_path, monkeypatch):
    import pbem.referee.turns as turns

    table = deadline_table(tmp_path)
    real = turns.write_file

    def dying(gamedir, path, data, *args, **kwargs):
        if path.parent.name == "turns":
            raise KeyboardInterrupt  # the process is killed at the commit point
        real(gamedir, path, data, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(turns, "write_file", dying)
        with pytest.raises(KeyboardInterrupt):
            tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    assert status(table.dir).turn == 0 and (table.dir / "timeouts" / "000001-alice.json").exists()
    report = tick(table.dir, table.referee, now=T0 + 49 * HOUR)
    assert [t.turn for t in report.timeouts] == [1, 2]
    assert verify(table.dir, replay=True).replayed


def test_a_game_that_waits_for_joins_records_the_time_of_its_deal_and_replays(tmp_path):
    from helpers_referee import make_keys

    from pbem.referee import make_join, new_game, reveal

    keys, _files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    game = tmp_path / "game"
    new_game(game, "highcard", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             wait_for_joins=True, deadlines=["48h"], now=T0)
    for hours, player in enumerate(["alice", "bob", "alice", "bob"], start=1):
        submit(game, make_join(game, player, keys[player]), keys["referee"], now=T0 + hours * HOUR)
    turn = json.loads((game / "turns" / "000000.json").read_text())
    assert turn["time"] == "2025-03-01T16:00:00Z"  # the last nonce's
    assert turn["awaiting"][0]["deadline"] == "2025-03-03T16:00:00Z"
    reveal(game, keys["referee"], force=True)
    assert verify(game, replay=True).replayed
