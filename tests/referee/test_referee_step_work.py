"""One referee step does each piece of work once, and still every check.

The current turn file and ``game.toml`` are read, parsed and checked once per
step (not once per helper that needs them); the turn is serialised once for
its signature and its hash; the views are compared byte for byte with the
ones the current turn implies.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC
from pathlib import Path

import pytest
from helpers_referee import make_table
from helpers_trust import finished_table, record_reads

from pbem.crypto.canonical import document_hash
from pbem.crypto.signing import sign_document
from pbem.referee import submit, verify
from pbem.referee.errors import AlreadyApplied, Refusal
from pbem.referee.turns import sign_and_hash


def test_a_step_reads_game_toml_and_the_current_turn_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    read = record_reads(monkeypatch)
    step = submit(table.dir, data, table.referee)
    reads = Counter(path.name for path in read)
    assert step.turn == 1
    assert reads["game.toml"] == 1 and reads["000000.json"] == 1, reads
    # the status it reports is that of the turn it wrote, not read back
    assert step.status is not None and step.status.turn == 1 and reads["000001.json"] == 0


def test_a_step_still_refuses_a_tampered_current_turn(tmp_path: Path) -> None:
    from pbem.referee.errors import GameDirError

    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    turn = table.dir / "turns" / "000000.json"
    doc = json.loads(turn.read_text())
    doc["awaiting"] = doc["awaiting"][:1]
    turn.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    with pytest.raises(GameDirError, match="bad signature"):
        submit(table.dir, data, table.referee)


def test_signing_and_hashing_a_turn_from_one_canonical_form_is_sign_then_hash(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    doc = json.loads((table.dir / "turns" / "000000.json").read_text())
    doc["signature"] = {"alg": "ed25519", "signer": "stale", "value": "stale"}  # replaced, as sign_document does
    signed, digest = sign_and_hash(doc, table.referee)
    assert signed == sign_document(doc, table.referee)
    assert digest == document_hash(sign_document(doc, table.referee))


def test_a_view_in_another_layout_is_rewritten_by_the_next_step(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    view = table.dir / "views" / "bob" / "latest.json"
    view.write_text(json.dumps(json.loads(view.read_text()), indent=4))  # same document, other bytes
    step = submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee)
    assert str(view) in step.repaired  # rewritten from turn 0, then replaced by turn 1's view
    assert json.loads(view.read_text())["turn"] == 1


def _forge_signature_value(view: Path) -> bytes:
    """Put another valid-looking signature value in a view file, its layout kept; return the true bytes."""
    true = view.read_bytes()
    doc = json.loads(true)
    value = doc["signature"]["value"]
    forged = value[:10] + ("A" if value[10] != "A" else "B") + value[11:]
    view.write_bytes(true.replace(value.encode(), forged.encode()))
    assert view.read_bytes() != true and len(view.read_bytes()) == len(true)
    return true


def test_a_view_whose_signature_alone_was_altered_is_replaced_by_the_next_step(tmp_path: Path) -> None:
    """A step that writes the next turn signs every view anew: a view altered in its signature's value
    only (which the step does not sign again just to compare) is replaced all the same."""
    from pbem.crypto.signing import verify_document

    table = make_table(tmp_path)
    view = table.dir / "views" / "bob" / "latest.json"
    _forge_signature_value(view)
    step = submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee)
    doc = json.loads(view.read_text())
    assert step.turn == 1 and doc["turn"] == 1
    verify_document(doc, table.keys["referee"].public)


def test_a_refused_move_repairs_a_view_whose_signature_alone_was_altered(tmp_path: Path) -> None:
    """A step that writes no turn (the move is refused) still leaves every view the current turn's,
    byte for byte, its signature compared too."""
    from pbem.referee.errors import Refusal

    table = make_table(tmp_path)
    view = table.dir / "views" / "bob" / "latest.json"
    true = _forge_signature_value(view)
    with pytest.raises(Refusal):
        submit(table.dir, b"not json", table.referee)
    assert view.read_bytes() == true


def listed_folders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders listed from now on (by name, relative to nothing: the last part of the path)."""
    import os

    listed: list[str] = []
    real_scandir, real_listdir = os.scandir, os.listdir

    def scandir(path=".", *args, **kwargs):
        listed.append(Path(path).name)
        return real_scandir(path, *args, **kwargs)

    def listdir(path=".", *args, **kwargs):
        listed.append(Path(path).name)
        return real_listdir(path, *args, **kwargs)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "listdir", listdir)
    return listed


def test_a_step_finds_its_files_by_name_and_lists_no_folder_that_grows_with_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step at move 2,000 costs what a step at move 10 does, so it lists neither turns/, moves/
    nor rejected/ nor abandoned/: the current turn, a crash's leftovers, an applied move and the latest
    rollback are looked up by name."""
    table = make_table(tmp_path)
    for _ in range(3):  # a history, a refusal notice, and a move answering an older turn (simultaneous picks)
        awaited = table.view("alice").turn.doc["awaiting"][0]["player"]
        submit(table.dir, table.move(awaited, table.view(awaited).decision.options[0].id), table.referee)
    with pytest.raises(Refusal, match="unreadable"):
        submit(table.dir, b"not json", table.referee)
    awaited = table.view("alice").turn.doc["awaiting"][0]["player"]
    data = table.move(awaited, table.view(awaited).decision.options[0].id)
    listed = listed_folders(monkeypatch)
    step = submit(table.dir, data, table.referee)
    with pytest.raises(AlreadyApplied):
        submit(table.dir, data, table.referee)
    assert step.turn == 4
    assert not {"turns", "moves", "rejected", "abandoned"} & set(listed), listed


def test_a_step_canonicalises_each_document_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move, the current turn, each new section, the new turn and each view are put in
    canonical form once per step (for a signature, a hash, a seal or a commitment alike)."""
    import pbem.crypto.canonical as canonical

    table = make_table(tmp_path, players=("alice", "bob", "carol"))
    submit(table.dir, table.move("alice", table.view("alice").decision.options[0].id), table.referee)
    data = table.move("bob", table.view("bob").decision.options[0].id)
    written: list[bytes] = []
    real = canonical.canonical_json

    def counting(value, plain=None):  # plain: the caller's is_plain(value), a hint
        written.append(real(value, plain))
        return written[-1]

    for module in list(__import__("sys").modules.values()):
        if getattr(module, "__name__", "").startswith("pbem") and getattr(module, "canonical_json", None) is real:
            monkeypatch.setattr(module, "canonical_json", counting)
    submit(table.dir, data, table.referee)
    players = 3
    # the move and the current turn read; P+1 sections, the turn and P views written (the toy game
    # commits to no zone); the current turn's views are compared with the files without signing them
    # again, since the step replaces them all
    assert len(written) == 2 + (players + 1) + 1 + players
    assert len(set(written)) == len(written)


def test_the_steps_of_a_game_with_deadlines_and_takeovers_list_no_folder_that_grows_with_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """timeouts/ grows with every timeout and seats/ with every takeover: a move, a stale move's refusal,
    a tick and a takeover find what they need in them by name, as in turns/ and moves/ (a refusal
    counts the notices of rejected/, which holds at most MAX_NOTICES)."""
    from datetime import datetime, timedelta

    from pbem.crypto.keys import generate
    from pbem.referee.errors import StaleMove
    from pbem.referee.takeover import take_over
    from pbem.referee.tick import tick

    t0, hour = datetime(2025, 3, 1, 12, 0, tzinfo=UTC), timedelta(hours=1)
    table = make_table(tmp_path, deadlines=["1h"], now=t0)
    options = [o.id for o in table.view("alice").decision.options]
    first, stale = table.move("alice", options[0]), table.move("alice", options[1])
    submit(table.dir, first, table.referee, now=t0 + hour / 2)
    assert tick(table.dir, table.referee, now=t0 + 2 * hour).timeouts  # bob's play: timeouts/000002-bob.json
    take_over(table.dir, "bob", generate("bob").public, table.referee, now=t0 + 2 * hour)  # seats/000003-bob.json
    growing = {"turns", "moves", "rejected", "timeouts", "seats"}
    data = table.move("alice", table.view("alice").decision.options[0].id)

    def a_stale_move() -> pytest.ExceptionInfo[StaleMove]:
        with pytest.raises(StaleMove) as refused:
            submit(table.dir, stale, table.referee, now=t0 + 2 * hour)
        return refused

    steps = {
        "a move": lambda: submit(table.dir, data, table.referee, now=t0 + 2 * hour),
        "a stale move": a_stale_move,
        "a tick": lambda: tick(table.dir, table.referee, now=t0 + 10 * hour).timeouts,
        "a takeover": lambda: take_over(table.dir, "bob", generate("bob").public, table.referee, now=t0 + 10 * hour),
    }
    for what, step in steps.items():
        listed = listed_folders(monkeypatch)
        assert step(), what
        allowed = {"rejected"} if what == "a stale move" else set()
        assert not (growing - allowed) & set(listed), (what, listed)
        monkeypatch.undo()


def test_a_step_walks_the_referee_section_only_to_build_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee's section of the current turn is sealed text the turn's signature covers,
    so the step does not walk its whole state again to check it is plain (as it must a document whose
    signature covers only a canonical form); it walks the new section once, to canonicalise it."""
    import pbem.crypto.canonical as canonical
    from pbem.referee import core, formats

    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    walked: list[int] = []
    real = canonical.is_plain

    def counting(value):
        if isinstance(value, dict) and value.get("format") == formats.REFEREE:
            walked.append(value["turn"])
        return real(value)

    monkeypatch.setattr(canonical, "is_plain", counting)
    monkeypatch.setattr(formats, "is_plain", counting)
    monkeypatch.setattr(core, "is_plain", counting)  # section_forms: once per section, for its canonical form
    assert submit(table.dir, data, table.referee).turn == 1
    assert walked == [1]


def test_a_step_still_refuses_a_current_turn_whose_referee_section_is_not_one(tmp_path: Path) -> None:
    """The referee section is still checked to be one, and a tampered one still breaks the turn's signature."""
    from pbem.referee.errors import GameDirError

    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    turn = table.dir / "turns" / "000000.json"
    doc = json.loads(turn.read_text())
    doc["sealed"]["referee"] = doc["sealed"]["alice"]
    turn.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
    with pytest.raises(GameDirError, match="bad signature"):
        submit(table.dir, data, table.referee)


def test_a_step_checks_game_toml_by_the_hash_the_current_turn_names_not_by_its_schema(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Referee-signed files are verified by signature, not re-validated. Once a turn exists it
    names the hash of the game.toml it was signed for, so a step does not check game.toml against the
    JSON Schema again; a changed game.toml is still refused, by that hash."""
    from pbem.referee import formats, gamefile
    from pbem.referee.errors import GameDirError

    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    checked: list[str] = []
    real = formats.format_problem

    def recording(doc, expected, quote=True):
        checked.append(expected)
        return real(doc, expected, quote)

    monkeypatch.setattr(formats, "format_problem", recording)
    gamefile._READ.clear()  # as in a new process
    assert submit(table.dir, data, table.referee).turn == 1
    assert formats.GAME not in checked and formats.MOVE in checked
    awaited = table.view("bob").decision or table.view("alice").decision
    assert awaited is not None
    following = table.move(awaited.player, awaited.options[0].id)
    toml = table.dir / "game.toml"
    changed = toml.read_text().replace('scenario = "', 'scenario = "x', 1)
    assert changed != toml.read_text()
    toml.write_text(changed)
    with pytest.raises(GameDirError, match=r"different game.toml"):
        submit(table.dir, following, table.referee)


def test_a_signed_referee_section_is_read_by_the_plain_parser_and_still_must_be_json() -> None:
    """The referee's section, whose text the verified turn signature covers, is read without the
    strict reader; what does not parse is still a damaged section, not a crash."""
    import zlib

    from pbem.crypto.errors import SealError
    from pbem.referee.sealing import COMPRESSED_FILL, decompress

    assert decompress(zlib.compress(b'{"a":[1,2]}') + COMPRESSED_FILL * 8, signed=True) == {"a": [1, 2]}
    with pytest.raises(SealError, match="does not hold a JSON document"):
        decompress(zlib.compress(b'{"a":'), signed=True)


def counting_move_work(monkeypatch: pytest.MonkeyPatch, watched: set[bytes]) -> Counter[str]:
    """From now on, how often the bytes of a move file in ``watched`` are parsed and hashed, and how often its
    document is put in canonical form and that form hashed (the work of reading a move; not that of reading
    another move file, as the look-up of a move already applied does)."""
    import sys

    import pbem.crypto.canonical as canonical
    import pbem.digests as digests

    counts: Counter[str] = Counter()
    unsigned: list[dict] = []  # each watched move's document without its signature
    forms: set[bytes] = set()
    real_parse, real_canonical, real_hash = canonical.parse_json_strict_plain, canonical.canonical_json, digests.sha256_hex

    def parse(data, *args, **kwargs):
        parsed = real_parse(data, *args, **kwargs)
        if data in watched:
            counts["parse"] += 1
            unsigned.append({name: value for name, value in parsed[0].items() if name != "signature"})
        return parsed

    def canonical_json(value, plain=None):
        form = real_canonical(value, plain)
        if isinstance(value, dict) and value.get("format") == "pbem-move/1" and value in unsigned:
            counts["canonical form"] += 1
            forms.add(form)
        return form

    def sha256_hex(data):
        counts["hash of the bytes"] += data in watched
        counts["hash of the canonical form"] += data in forms
        return real_hash(data)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("pbem"):
            for name, real, counting in (("parse_json_strict_plain", real_parse, parse),
                                         ("canonical_json", real_canonical, canonical_json),
                                         ("sha256_hex", real_hash, sha256_hex)):
                if getattr(module, name, None) is real:
                    monkeypatch.setattr(module, name, counting)
    return counts


#: reading a move: its bytes parsed once and hashed once, its canonical form made once and hashed once
ONCE = {"parse": 1, "canonical form": 1, "hash of the bytes": 1, "hash of the canonical form": 1}


def test_a_step_reads_the_move_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is read once, into one record that every check and the next turn take from (its document,
    the canonical form its signature covers, the move's hash and the hash of its bytes)."""
    table = make_table(tmp_path)
    data = table.move("alice", table.view("alice").decision.options[0].id)
    counts = counting_move_work(monkeypatch, {data})
    assert submit(table.dir, data, table.referee).turn == 1
    assert counts == ONCE


def test_a_refused_move_is_read_once_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its notice names the hash of the bytes the move was read with."""
    table = make_table(tmp_path)
    options = [option.id for option in table.view("alice").decision.options]
    first, data = table.move("alice", options[0]), table.move("alice", options[1])
    submit(table.dir, first, table.referee)
    counts = counting_move_work(monkeypatch, {data})
    with pytest.raises(Refusal) as refused:
        submit(table.dir, data, table.referee)
    assert counts == ONCE and refused.value.rejection is not None


def test_the_replay_reads_each_move_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``verify --replay`` checks each move file, then applies it with the step core: from the one record
    it read, its bytes hashed once for the turn's move_file and the check of it alike."""
    table = finished_table(tmp_path)
    moves = {path.read_bytes() for path in (table.dir / "moves").iterdir()}
    counts = counting_move_work(monkeypatch, moves)
    assert verify(table.dir, replay=True).replayed
    assert counts == {what: len(moves) for what in ONCE}
