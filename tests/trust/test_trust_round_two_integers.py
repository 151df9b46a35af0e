"""An integer is an int, and nothing but a documented refusal escapes ``submit``.

``"turn": 1.0`` has the canonical form of ``"turn": 1`` (RFC 8785 writes
both as ``1``), so a rewritten move keeps its signature. Every schema now
says that an integer is a JSON integer (``type(x) is int``), and whatever
goes wrong inside a referee step is a refusal with a signed notice
(``referee-failed``, exit 23), never a traceback; a damaged game directory
still stops the step (exit 3).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers_referee import TEST_SEED, Table, make_table, snapshot
from toygame import HighCard
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.canonical import document_hash
from pbem.engine import register
from pbem.referee import errors, formats, submit, verify
from pbem.referee.errors import GameDirError, SchemaInvalidMove, VerificationFailed
from pbem.referee.storage import dump_json


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def first_card(table: Table, player: str) -> str:
    return f"card-{table.view(player).private['hand'][0]}"


def with_float_turn(data: bytes) -> bytes:
    """The same signed document with its turn written as a float (same canonical form, same signature)."""
    doc = json.loads(data)
    doc["turn"] = float(doc["turn"])
    rewritten = json.dumps(doc, indent=2, sort_keys=True).encode()
    assert document_hash(json.loads(rewritten)) == document_hash(json.loads(data))
    return rewritten


def submit_by_command_line(table: Table, tmp_path: Path, data: bytes) -> tuple[int, dict]:
    path = tmp_path / "incoming.json"
    path.write_bytes(data)
    result = CliRunner().invoke(app, ["submit", str(table.dir), str(path), "--referee-key",
                                      str(table.key_files["referee"]), "--wait", "0", "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, json.loads(result.stdout)


def test_a_rewritten_old_move_with_a_float_turn_is_refused_with_a_notice(table: Table, tmp_path: Path) -> None:
    """bob's pick answers turn 0; alice moves first; bob's file, rewritten with ``"turn": 0.0``, is refused."""
    bobs = table.move("bob", first_card(table, "bob"))
    submit(table.dir, table.move("alice", first_card(table, "alice")), table.referee)
    before = snapshot(table.dir)
    code, out = submit_by_command_line(table, tmp_path, with_float_turn(bobs))
    entry = out["results"][0]
    assert (code, entry["status"], entry["reason"]) == (11, "refused", "schema-invalid")
    assert "turn" in entry["message"]
    assert entry["rejection"] is not None and Path(entry["rejection"]).is_file()
    assert snapshot(table.dir) == before
    submit(table.dir, bobs, table.referee)  # the file as bob signed it is still good
    verify(table.dir, replay=True)


def test_a_fresh_move_with_a_float_turn_is_refused(table: Table, tmp_path: Path) -> None:
    """Applied, such a move was kept verbatim and made ``verify --replay`` crash; it is refused instead."""
    submit(table.dir, table.move("alice", first_card(table, "alice")), table.referee)
    before = snapshot(table.dir)
    code, out = submit_by_command_line(table, tmp_path, with_float_turn(table.move("bob", first_card(table, "bob"))))
    assert (code, out["results"][0]["reason"]) == (11, "schema-invalid")
    assert snapshot(table.dir) == before
    verify(table.dir, replay=True)


def test_verify_replay_names_an_applied_move_with_a_float_turn(table: Table, monkeypatch) -> None:
    """A referee that applied such a move (here: one whose schema check let the float pass) is caught, no traceback."""
    submit(table.dir, table.move("alice", first_card(table, "alice")), table.referee)
    data = with_float_turn(table.move("bob", first_card(table, "bob")))
    strict = formats.format_problem

    def lax(doc, expected, **options):
        if expected == formats.MOVE and isinstance(doc, dict) and isinstance(doc.get("turn"), float):
            doc = {**doc, "turn": int(doc["turn"])}
        return strict(doc, expected, **options)

    monkeypatch.setattr(formats, "format_problem", lax)
    submit(table.dir, data, table.referee)
    monkeypatch.setattr(formats, "format_problem", strict)
    with pytest.raises(VerificationFailed) as failure:
        verify(table.dir, replay=True)
    assert (failure.value.path or "").endswith("000002-bob.json")


@pytest.mark.parametrize("where", ["turn", "exit_code"])
def test_every_schema_refuses_a_float_where_an_integer_is_meant(where: str) -> None:
    doc = {"format": formats.MOVE, "game_id": "0" * 16, "player": "alice", "turn": 1, "base": "sha256:" + "0" * 64,
           "sealed_choices": "-----BEGIN AGE ENCRYPTED FILE-----", "signature": {"alg": "ed25519", "signer": "x",
                                                                               "value": "y"}}
    fmt = formats.MOVE
    if where == "exit_code":
        doc = {"format": formats.CLI_ERROR, "code": 3, "reason": "x", "message": "m", "file": None}
        where, fmt = "code", formats.CLI_ERROR
    assert formats.format_problem(doc, fmt) is None
    for bad in (1.0, True):
        problem = formats.format_problem({**doc, where: bad}, fmt)
        assert problem is not None and where in problem


class CrashingHighCard(HighCard):
    """High Card whose rules fail on a draw (a bug in a game module)."""

    name = "highcard-crashing"

    def apply(self, state, player, option_id, rng):
        if option_id == "draw":
            raise KeyError("the top card of the deck")
        return super().apply(state, player, option_id, rng)


def test_a_failure_inside_the_step_is_a_refusal_with_a_notice(tmp_path: Path) -> None:
    register(CrashingHighCard())  # here, not at import: the random walks over every registered game skip it
    table = make_table(tmp_path, game_name="highcard-crashing")
    for player in ("alice", "bob"):
        submit(table.dir, table.move(player, first_card(table, player)), table.referee)
    before = snapshot(table.dir)
    with pytest.raises(errors.Refusal) as refused:
        submit(table.dir, table.move("alice", "draw"), table.referee)
    assert refused.value.exit_code == 23 and refused.value.reason == "referee-failed"
    assert "top card" not in refused.value.message  # the game's own words may name hidden cards
    assert refused.value.rejection is not None
    notice = json.loads(Path(refused.value.rejection).read_text())
    assert (notice["reason"], notice["exit_code"]) == ("referee-failed", 23)
    assert snapshot(table.dir) == before
    code, out = submit_by_command_line(table, tmp_path, table.move("alice", "draw"))
    assert (code, out["results"][0]["reason"]) == (23, "referee-failed")
    assert snapshot(table.dir) == before


def test_a_damaged_game_directory_still_stops_the_step(table: Table) -> None:
    (table.dir / "turns" / "000000.json").write_text("{}")
    with pytest.raises(GameDirError):
        submit(table.dir, b"{}", table.referee)


def test_a_move_refused_for_its_schema_is_still_schema_invalid(table: Table) -> None:
    doc = json.loads(table.move("alice", first_card(table, "alice")))
    doc["turn"] = True
    with pytest.raises(SchemaInvalidMove):
        submit(table.dir, dump_json(doc), table.referee)


def test_plain_verify_finds_an_integer_of_a_turns_public_part_rewritten_as_a_float(table: Table) -> None:
    """``"round": 1.0`` for ``"round": 1`` in the game's public part (which no schema types) keeps the turn's
    canonical form, so its signature and hash; laid out as pbem lays out a float, the file passed plain
    ``verify``, whose promise is that a changed byte of a file the referee wrote is found without the seed.
    The referee writes only plain documents (no float), so such a file is not one it wrote."""
    for player in ("alice", "bob"):
        submit(table.dir, table.move(player, first_card(table, player)), table.referee)
    path = table.dir / "turns" / "000002.json"
    doc = json.loads(path.read_bytes())
    assert type(doc["public"]["round"]) is int
    doc["public"]["round"] = float(doc["public"]["round"])
    assert document_hash(doc) == document_hash(json.loads(path.read_bytes()))
    path.write_bytes(dump_json(doc))
    with pytest.raises(VerificationFailed) as failure:
        verify(table.dir)
    assert (failure.value.path or "").endswith("000002.json")
    assert "float" in str(failure.value) or "fraction" in str(failure.value)


class FloatHighCard(HighCard):
    """High Card whose public part holds a float once a card is picked (a bug in a game module: pbem's files
    hold integers only)."""

    name = "highcard-float"

    def public(self, state):
        public = super().public(state)
        return {**public, "average": 0.5} if state["picks"] else public


def test_a_turn_whose_public_part_holds_a_float_is_not_written(tmp_path: Path) -> None:
    """A file the referee writes is plain JSON (no float: what plain ``verify`` requires of it); a step whose
    game puts a float in its public part fails (``referee-failed``, exit 23) and writes nothing but its notice."""
    register(FloatHighCard())  # here, not at import: the random walks over every registered game skip it
    table = make_table(tmp_path, game_name="highcard-float")
    before = snapshot(table.dir)
    with pytest.raises(errors.Refusal) as refused:
        submit(table.dir, table.move("alice", first_card(table, "alice")), table.referee)
    assert refused.value.exit_code == 23 and refused.value.reason == "referee-failed"
    assert snapshot(table.dir) == before
    verify(table.dir)


class FloatFromTheDealHighCard(FloatHighCard):
    name = "highcard-float-dealt"

    def public(self, state):
        return {**HighCard.public(self, state), "average": 0.5}


def test_a_game_whose_first_turn_holds_a_float_is_not_set_up(tmp_path: Path) -> None:
    from helpers_referee import make_keys

    from pbem.referee import new_game

    register(FloatFromTheDealHighCard())
    keys, _ = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    with pytest.raises(errors.SetupError) as refused:
        new_game(tmp_path / "game", "highcard-float-dealt", [(p, keys[p].public) for p in ("alice", "bob")],
                 keys["referee"], seed=TEST_SEED)
    assert "float" in str(refused.value) and "bug in the game" in str(refused.value)
    assert not (tmp_path / "game").exists()
