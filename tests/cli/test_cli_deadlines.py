"""``pbem new --deadline``, ``pbem tick`` and ``pbem takeover`` through the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_cli import keygen, new_game, pbem

from pbem.referee import formats


@pytest.fixture
def game(tmp_path: Path) -> Path:
    out = new_game(tmp_path / "game", keygen(tmp_path / "keys"), "highcard", "--deadline", "48h",
                   "--deadline", "draw=12h", "--remind", "24h", "--now", "2025-03-01T12:00:00Z")
    assert "deadlines: 48h per decision (draw 12h); reminders 24h before" in out
    return tmp_path / "game"


def referee_key(game: Path) -> Path:
    return game.parent / "keys" / "referee.key"


def test_status_shows_each_awaited_decisions_deadline(game: Path) -> None:
    out = pbem("status", game)
    assert "alice (play, since turn 0, deadline 2025-03-03T12:00:00Z)" in out
    assert "the referee's clock at this turn: 2025-03-01T12:00:00Z" in out
    doc = json.loads(pbem("status", game, "--json"))
    assert formats.format_problem(doc, formats.CLI_STATUS) is None
    assert doc["decisions"][0]["deadline"] == "2025-03-03T12:00:00Z"


def test_view_shows_the_deadline_of_the_players_decision(game: Path) -> None:
    keys = game.parent / "keys"
    out = pbem("view", game, "--as", "alice", "--key", keys / "alice.key", "--state-dir", game.parent / "state")
    assert "deadline: 2025-03-03T12:00:00Z" in out
    doc = json.loads(pbem("view", game, "--as", "alice", "--key", keys / "alice.key", "--json",
                          "--state-dir", game.parent / "state"))
    assert formats.format_problem(doc, formats.CLI_VIEW) is None and doc["deadline"] == "2025-03-03T12:00:00Z"


def test_tick_answers_the_decisions_past_their_deadline_and_log_says_so(game: Path) -> None:
    out = pbem("tick", game, "--referee-key", referee_key(game), "--now", "2025-03-02T13:00:00Z")
    assert "reminder due: alice's play decision, deadline 2025-03-03T12:00:00Z (24h before it)" in out
    assert "no deadline has passed" in out
    doc = json.loads(pbem("tick", game, "--referee-key", referee_key(game), "--json",
                          env={"PBEM_NOW": "2025-03-03T12:00:00Z"}))
    assert formats.format_problem(doc, formats.CLI_TICK) is None
    assert [(t["turn"], t["player"], t["action"]) for t in doc["timeouts"]] == [(1, "alice", "bot"), (2, "bob", "bot")]
    assert doc["mailed"] is None
    log = " ".join(pbem("log", game).split())  # pbem log wraps its lines at 80 columns
    assert ("turn 1: alice's play decision timed out: the referee chose one of the options at random on alice's "
            "behalf (at 2025-03-03T12:00:00Z)") in log
    assert "game" in pbem("verify", game, "--replay")


def test_a_clock_gone_back_is_exit_24(game: Path) -> None:
    out = pbem("tick", game, "--referee-key", referee_key(game), "--now", "2025-03-01T11:00:00Z", code=24)
    assert "recorded times never go backwards" in out


def test_a_bad_now_is_a_usage_error(game: Path) -> None:
    assert "give the time zone" in pbem("tick", game, "--referee-key", referee_key(game), "--now",
                                        "2025-03-01 12:00", code=2)


def test_a_bad_deadline_is_a_usage_error(tmp_path: Path, game: Path) -> None:
    keys = game.parent / "keys"
    out = pbem("new", tmp_path / "other", "--game", "highcard", "--player", f"alice={keys / 'alice.pub'}",
               "--player", f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key",
               "--deadline", "2 days", code=2)
    assert "a duration is a whole number and a unit" in out


def test_takeover_hands_a_seat_to_a_new_key_visible_in_status_and_log(game: Path) -> None:
    new_keys = game.parent / "new"
    pbem("keygen", "bob", "--out", new_keys)
    out = pbem("takeover", game, "--seat", "bob", "--key", new_keys / "bob.pub", "--referee-key", referee_key(game),
               "--now", "2025-03-01T13:00:00Z")
    assert "bob's seat is held by pbem:" in out and "from turn 1 on" in out
    assert "bob's seat: handed to a new key" in pbem("status", game)
    assert "turn 1: the referee handed bob's seat to a new key" in pbem("log", game)
    old = pbem("view", game, "--as", "bob", "--key", game.parent / "keys" / "bob.key", code=4)
    assert "this key reads no turn since" in old
    assert "your decision: play" in pbem("view", game, "--as", "bob", "--key", new_keys / "bob.key",
                                         "--state-dir", game.parent / "state")
    again = pbem("takeover", game, "--seat", "bob", "--key", new_keys / "bob.pub", "--referee-key",
                 referee_key(game), code=25)
    assert "holds bob's seat already" in again


def test_takeover_address_needs_the_mail_configuration(game: Path) -> None:
    assert "go together" in pbem("takeover", game, "--seat", "bob", "--key", game.parent / "keys" / "bob.pub",
                                 "--referee-key", referee_key(game), "--address", "new@example.org", code=2)


def test_the_example_tick_cron_line_runs_a_valid_tick_command(tmp_path: Path) -> None:
    import shlex

    crontab = (Path(__file__).resolve().parents[2] / "examples" / "mail" / "crontab").read_text()
    line = next(line for line in crontab.splitlines() if line.startswith("# */") and " tick " in line)
    args = shlex.split(line[line.index(" tick ") + 1:line.index(">>")].replace("$HOME", str(tmp_path)))
    # the arguments parse; the run stops at the missing key file (exit 7), not at usage (2)
    assert "key file" in pbem(*args, code=7)


def test_takeover_records_the_new_holders_address_in_the_mail_state(game: Path) -> None:
    config = game.parent / "referee.toml"
    config.write_text('address = "referee@example.org"\nstate = "mail-state"\n')
    new_keys = game.parent / "new"
    pbem("keygen", "bob", "--out", new_keys)
    bad = pbem("takeover", game, "--seat", "bob", "--key", new_keys / "bob.pub", "--referee-key", referee_key(game),
               "--config", config, "--address", "not an address", code=2)
    assert "is not a" in bad and not (game / "seats").exists()
    pbem("takeover", game, "--seat", "bob", "--key", new_keys / "bob.pub", "--referee-key", referee_key(game),
         "--config", config, "--address", "newbob@example.org", "--now", "2025-03-01T13:00:00Z")
    recorded = json.loads((game.parent / "mail-state" / "addresses.json").read_text())
    fingerprint = json.loads((new_keys / "bob.pub").read_text())["fingerprint"]
    assert list(recorded.values()) == [{"bob": {fingerprint: "newbob@example.org"}}]


def _ahead(minutes: int) -> str:
    from datetime import UTC, datetime, timedelta

    return (datetime.now(UTC) + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("command", ["tick", "submit", "takeover"])
def test_a_now_far_ahead_of_the_system_clock_is_refused_unless_forced_exit_27(game: Path, command: str) -> None:
    """A turn recorded at a clock ahead of the real one would make every later run at the real clock
    refuse the game (exit 24) until that time comes: such a ``--now`` is refused, and nothing changes."""
    before = sorted(p.name for p in (game / "turns").iterdir())
    args: dict[str, list[object]] = {
        "tick": ["tick", game],
        "submit": ["submit", game, game.parent / "keys" / "alice.pub"],
        "takeover": ["takeover", game, "--seat", "bob", "--key", game.parent / "keys" / "alice.pub"],
    }
    out = pbem(*args[command], "--referee-key", referee_key(game), "--now", _ahead(60 * 24), code=27)
    assert "ahead of this machine's clock" in out and "--force-now" in out
    assert sorted(p.name for p in (game / "turns").iterdir()) == before


def test_a_now_a_few_minutes_ahead_of_the_system_clock_is_taken(game: Path) -> None:
    """Clocks of two machines differ by seconds or minutes: that is no lock."""
    pbem("tick", game, "--referee-key", referee_key(game), "--now", _ahead(5))


def test_a_forced_now_ahead_is_taken_and_then_a_run_at_the_real_clock_is_exit_24(game: Path) -> None:
    pbem("tick", game, "--referee-key", referee_key(game), "--now", _ahead(60 * 24 * 3), "--force-now")
    out = pbem("tick", game, "--referee-key", referee_key(game), code=24)
    assert "earlier than" in out


def test_new_refuses_a_now_far_ahead(tmp_path: Path) -> None:
    out = new_game(tmp_path / "game", keygen(tmp_path / "keys"), "highcard", "--deadline", "48h",
                   "--now", _ahead(60 * 24), code=27)
    assert "--force-now" in out
    assert not (tmp_path / "game" / "game.toml").exists()
