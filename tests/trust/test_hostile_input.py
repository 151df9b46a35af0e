"""Hostile input: every bad move file is refused with its exit code and message, and changes nothing.

The corpus under ``corpus/`` holds the files that are bad on their own
(``manifest.toml`` gives each one's refusal); the cases that need a live game
(signatures, old turns, other games) are built here against one. After each
refusal the game directory is byte-identical except for the signed notice in
``rejected/`` (docs/referee.md, "The pipeline").
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot
from helpers_trust import play, record_reads
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.keys import generate
from pbem.crypto.signing import sign_document
from pbem.referee import formats, read_view, sealing, submit, verify
from pbem.referee.gamefile import GameFile
from pbem.referee.player import CHOICES_SIZE, choices_payload
from pbem.referee.storage import dump_json

CORPUS = Path(__file__).resolve().parent / "corpus"
MANIFEST = tomllib.loads((CORPUS / "manifest.toml").read_text())["cases"]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def forge(table: Table, player: str, choices: list[str], signer=None, turn: int | None = None,
          base: str | None = None, game_dir: Path | None = None, **fields) -> bytes:
    """A move file built by hand: any player name, choice, turn or signer."""
    gamefile = GameFile.read((game_dir or table.dir) / "game.toml")
    current = read_view(game_dir or table.dir, "alice", table.keys["alice"]).turn
    turn = current.doc["turn"] if turn is None else turn
    base = current.hash if base is None else base
    doc = {
        "format": formats.MOVE,
        "game_id": gamefile.game_id,
        "player": player,
        "turn": turn,
        "base": base,
        "sealed_choices": sealing.seal_json(choices_payload(gamefile.game_id, player, turn, base, choices),
                                            [gamefile.game_recipient], None, CHOICES_SIZE),
        **fields,
    }
    return dump_json(sign_document(doc, signer if signer is not None else table.keys[player]))


def refused_by_the_command_line(table: Table, tmp_path: Path, data: bytes, reason: str, exit_code: int,
                                says: str) -> None:
    """``pbem submit`` refuses the file with this code, reason and message; only a notice is added."""
    path = tmp_path / "incoming.json"
    path.write_bytes(data)
    before = snapshot(table.dir)
    notices = set((table.dir / "rejected").iterdir())
    result = CliRunner().invoke(app, ["submit", str(table.dir), str(path), "--referee-key",
                                      str(table.key_files["referee"]), "--wait", "0", "--json"])
    assert result.exit_code == exit_code, result.output
    entry = json.loads(result.stdout)["results"][0]
    assert (entry["status"], entry["reason"], entry["exit_code"]) == ("refused", reason, exit_code)
    assert says in entry["message"], entry["message"]
    assert snapshot(table.dir) == before
    added = set((table.dir / "rejected").iterdir()) - notices
    assert len(added) == 1 and json.loads(added.pop().read_text())["reason"] == reason
    verify(table.dir)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_a_corpus_file_is_refused_with_its_code_and_message(name: str, table: Table, tmp_path: Path) -> None:
    case = MANIFEST[name]
    refused_by_the_command_line(table, tmp_path, (CORPUS / name).read_bytes(), case["reason"], case["exit_code"],
                                case["says"])


def test_every_corpus_file_is_in_the_manifest() -> None:
    files = {p.name for p in CORPUS.iterdir() if p.name not in ("manifest.toml", "README.md")}
    assert files == set(MANIFEST)


def test_a_huge_file_is_refused_unread(table: Table, tmp_path: Path) -> None:
    data = b'{"format": "pbem-move/1", "pad": "' + b"x" * (2 << 20) + b'"}'
    refused_by_the_command_line(table, tmp_path, data, "unreadable", 10, "bytes")


def test_a_signature_from_another_player_is_refused(table: Table, tmp_path: Path) -> None:
    data = forge(table, "alice", [f"card-{table.view('alice').private['hand'][0]}"], signer=table.keys["bob"])
    refused_by_the_command_line(table, tmp_path, data, "bad-signature", 14, "not alice's")


def test_a_signature_over_a_different_body_is_refused(table: Table, tmp_path: Path) -> None:
    doc = json.loads(table.move("alice", f"card-{table.view('alice').private['hand'][0]}"))
    doc["base"] = "sha256:" + "1" * 64
    refused_by_the_command_line(table, tmp_path, dump_json(doc), "bad-signature", 14, "not alice's")


def test_an_unknown_player_with_a_valid_name_is_refused(table: Table, tmp_path: Path) -> None:
    data = forge(table, "carol", ["card-1"], signer=generate("carol"))
    refused_by_the_command_line(table, tmp_path, data, "unknown-player", 13, "not seated")


def test_a_lookalike_player_name_is_an_unknown_player(table: Table, tmp_path: Path) -> None:
    data = forge(table, "a1ice", ["card-1"], signer=generate("a1ice"))
    refused_by_the_command_line(table, tmp_path, data, "unknown-player", 13, "'a1ice' is not seated")


def test_a_move_for_another_game_is_refused(table: Table, tmp_path: Path) -> None:
    other = make_table(tmp_path / "other", seed=b"\x42" * 32, keys=(table.keys, table.key_files))
    data = other.move("alice", f"card-{other.view('alice').private['hand'][0]}")
    refused_by_the_command_line(table, tmp_path, data, "other-game", 12, "is for game")


def test_a_replayed_old_move_is_a_no_op(table: Table, tmp_path: Path) -> None:
    data = table.move("alice", f"card-{table.view('alice').private['hand'][0]}")
    submit(table.dir, data, table.referee)
    relaid = dump_json(json.loads(data))[:-1] + b"\n\n"  # other bytes, the same signed document
    for copy in (data, relaid):
        path = tmp_path / "old.json"
        path.write_bytes(copy)
        before = snapshot(table.dir, skip=())
        result = CliRunner().invoke(app, ["submit", str(table.dir), str(path), "--referee-key",
                                          str(table.key_files["referee"]), "--json"])
        assert result.exit_code == 19 and json.loads(result.stdout)["results"][0]["status"] == "already-applied"
        assert snapshot(table.dir, skip=()) == before


def test_a_move_answering_an_old_turn_is_refused(table: Table, tmp_path: Path) -> None:
    early = table.move("alice", f"card-{table.view('alice').private['hand'][0]}")
    play(table, steps=2)  # both play; alice's draw decision opens at turn 2
    assert table.view("alice").decision.kind == "draw"
    refused_by_the_command_line(table, tmp_path, early, "stale", 16, "answers turn 0")


def test_a_move_with_a_base_hash_not_in_the_chain_is_refused(table: Table, tmp_path: Path) -> None:
    data = forge(table, "alice", ["card-1"], base="sha256:" + "2" * 64)
    refused_by_the_command_line(table, tmp_path, data, "stale", 16, "base hash")


def test_a_move_of_a_player_not_awaited_is_refused(table: Table, tmp_path: Path) -> None:
    play(table, steps=2)
    data = forge(table, "bob", ["draw"])
    refused_by_the_command_line(table, tmp_path, data, "not-your-decision", 17, "no decision of bob")


def test_a_choice_that_is_not_an_option_is_refused_without_quoting_it(table: Table, tmp_path: Path) -> None:
    data = forge(table, "alice", ["card-of-the-secret-queen"])
    refused_by_the_command_line(table, tmp_path, data, "illegal", 18, "the first choice is not an option")
    assert "secret-queen" not in "".join(p.read_text() for p in (table.dir / "rejected").iterdir())


def test_a_move_after_the_end_is_refused(table: Table, tmp_path: Path) -> None:
    play(table)
    data = forge(table, "alice", ["pass"])
    refused_by_the_command_line(table, tmp_path, data, "game-over", 15, "is over")


def test_sealed_choices_that_do_not_open_are_refused(table: Table, tmp_path: Path) -> None:
    gamefile = GameFile.read(table.dir / "game.toml")
    doc = json.loads(forge(table, "alice", ["card-1"]))
    doc["sealed_choices"] = sealing.seal_json({"format": formats.CHOICES, "choices": ["card-1"]},
                                              [table.keys["bob"].public.recipient], None, CHOICES_SIZE)
    del doc["signature"]
    assert gamefile.game_recipient not in doc["sealed_choices"]
    refused_by_the_command_line(table, tmp_path, dump_json(sign_document(doc, table.keys["alice"])),
                                "unreadable", 10, "do not open")


@pytest.mark.parametrize("command", ["status", "view", "submit", "verify"])
def test_a_game_toml_nested_too_deep_to_read_is_a_damaged_directory_not_a_traceback(table: Table, command: str) -> None:
    """Whoever can write the game directory (a player pushing in the git flow, a hostile host) must get
    the documented exit 3 (5 for verify) from every command, never a RecursionError's traceback."""
    (table.dir / "game.toml").write_text("a = " + "[" * 100_000)
    args = {"status": ["status", str(table.dir)],
            "view": ["view", str(table.dir), "--as", "alice", "--key", str(table.key_files["alice"])],
            "submit": ["submit", str(table.dir), str(table.key_files["alice"].with_suffix(".pub")),
                       "--referee-key", str(table.key_files["referee"])],
            "verify": ["verify", str(table.dir)]}[command]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == (5 if command == "verify" else 3), (result.exit_code, result.exception)
    assert "not valid TOML" in result.output


def test_a_card_file_that_game_toml_names_outside_the_game_directory_is_never_read(tmp_path: Path) -> None:
    """game.toml names the owner's card file kept in cards/; a hostile game directory (its own referee
    key, every record re-signed) naming '../../outside.toml' (or /dev/zero, or a FIFO) would have the
    player's `pbem view` read any file of their machine. Only a plain file name in cards/ is read."""
    from helpers_trust import hostile_game_toml

    card_file = tmp_path / "cards.toml"
    card_file.write_text("cards = [5, 6, 7, 8, 9]\n")
    table = make_table(tmp_path / "t", cards=card_file)
    outside = tmp_path / "t" / "outside.toml"  # game/cards/../../outside.toml
    outside.write_bytes(card_file.read_bytes())
    kept = tomllib.loads((table.dir / "game.toml").read_text())["cards"]
    hostile_game_toml(table, cards={**kept, "file": "../../outside.toml"})
    (table.dir / "cards" / kept["file"]).unlink()
    result = CliRunner().invoke(app, ["view", str(table.dir), "--as", "alice", "--key", str(table.key_files["alice"])])
    assert result.exit_code == 3 and "cards/" in result.output, (result.exit_code, result.output)


@pytest.mark.parametrize("game_name", ["nightfall", "nightlancer"])
def test_a_scenario_that_game_toml_names_outside_the_shipped_scenarios_is_never_read(
    tmp_path: Path, game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """game.toml names the scenario by name; a hostile game directory (its own referee key, every record
    re-signed) naming a path instead — absolute, or climbing out of pbem's scenarios with '..' — would
    have the player's `pbem view` read a file of their machine (here a copy of the standard scenario,
    which would even hash to the set-up game.toml pins). Only a scenario this pbem ships is loaded."""
    import os
    import shutil

    from helpers_referee import make_keys
    from helpers_trust import hostile_game_toml

    from pbem.engine import find_game
    from pbem.referee import new_game
    from pbem.resources import scenario_dir

    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    game = tmp_path / "game"
    new_game(game, game_name, [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             seed=bytes(range(32)))
    table = Table(dir=game, keys=keys, key_files=files)
    standard = find_game(game_name).scenarios()[0]
    outside = tmp_path / "elsewhere" / f"{standard}.toml"
    outside.parent.mkdir()
    shutil.copyfile(scenario_dir(game_name) / f"{standard}.toml", outside)
    climbing = os.path.relpath(outside.with_suffix(""), scenario_dir(game_name))
    read = record_reads(monkeypatch)
    view = ["view", str(game), "--as", "alice", "--key", str(files["alice"])]
    dealt = {path: path.read_bytes() for path in (game / "game.toml", game / "turns" / "000000.json")}
    for named in (str(outside), climbing):
        for path, data in dealt.items():
            path.write_bytes(data)
        hostile_game_toml(table, scenario=named)
        result = CliRunner().invoke(app, view)
        assert result.exit_code == 3 and "at scenario" in result.output, (named, result.output)
        assert outside.resolve() not in read, named


def test_every_shipped_scenario_has_a_name_game_toml_may_hold() -> None:
    """game.toml's schema takes a scenario's name, never a path: each scenario pbem ships has such a name."""
    import re

    from pbem.engine import find_game, game_names
    from pbem.resources import schema_path

    pattern = re.compile(json.loads(schema_path("game").read_text())["properties"]["scenario"]["pattern"])
    for name in game_names():
        for scenario in find_game(name).scenarios():
            assert pattern.fullmatch(scenario), (name, scenario)
