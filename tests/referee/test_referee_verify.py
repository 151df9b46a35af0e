"""``verify``: every signature, the hash chain, the move files; the first bad file is named."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot, validate_directory
from toygame import GAME

from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import SealError
from pbem.crypto.seal import open_sealed
from pbem.crypto.signing import sign_document
from pbem.referee import read_view, submit, verify
from pbem.referee.errors import GameDirError, Refusal, VerificationFailed
from pbem.referee.storage import dump_json


@pytest.fixture
def played(tmp_path: Path) -> Table:
    """A toy game four moves in."""
    table = make_table(tmp_path)
    for _ in range(4):
        awaited = table.view("alice").turn.doc["awaiting"][0]["player"]
        submit(table.dir, table.move(awaited, table.view(awaited).decision.options[0].id), table.referee)
    return table


def failure(table: Table) -> VerificationFailed:
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir)
    return caught.value


def rewrite(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_bytes(dump_json(doc))


def test_an_untouched_game_verifies(played: Table) -> None:
    report = verify(played.dir)
    assert (report.turns, report.moves) == (5, 4)
    assert report.files == 1 + 5 + 4 + 2 * 2


def test_a_tampered_turn_file_is_named(played: Table) -> None:
    path = played.dir / "turns" / "000002.json"
    rewrite(path, lambda d: d["public"]["scores"].update(alice=9))
    assert failure(played).path == str(path)


def test_a_tampered_sealed_section_is_detected(played: Table) -> None:
    """Changing one character of alice's sealed section breaks the referee's signature,
    and age's authentication refuses to open it as well."""
    path = played.dir / "turns" / "000004.json"

    def flip(doc):
        text = doc["sealed"]["alice"]
        i = text.index("\n", 40) + 5
        doc["sealed"]["alice"] = text[:i] + ("A" if text[i] != "A" else "B") + text[i + 1:]

    rewrite(path, flip)
    assert failure(played).path == str(path)
    with pytest.raises(GameDirError):
        read_view(played.dir, "alice", played.keys["alice"])
    with pytest.raises(SealError):
        open_sealed(json.loads(path.read_text())["sealed"]["alice"], played.keys["alice"])


def test_a_sealed_section_swapped_and_resigned_by_another_key_is_detected(played: Table) -> None:
    path = played.dir / "turns" / "000004.json"
    rewrite(path, lambda d: d.update(sign_document({k: v for k, v in d.items() if k != "signature"},
                                                   played.keys["bob"])))
    assert "bad signature" in str(failure(played))


def test_a_move_signed_by_the_wrong_key_is_named(played: Table) -> None:
    (path,) = played.dir.glob("moves/000003-*.json")
    rewrite(path, lambda d: d.update(sign_document({k: v for k, v in d.items() if k != "signature"},
                                                   played.keys["referee"])))
    error = failure(played)
    assert error.path == str(path)


def test_a_replaced_move_file_does_not_match_its_turn(played: Table) -> None:
    (path,) = played.dir.glob("moves/000002-*.json")
    player = path.name.split("-")[1].removesuffix(".json")
    rewrite(path, lambda d: d.update(sign_document({**{k: v for k, v in d.items() if k != "signature"},
                                                    "turn": 0}, played.keys[player])))
    assert "hash is not the one turn 2 names" in str(failure(played))


def test_a_missing_turn_breaks_the_chain(played: Table) -> None:
    (played.dir / "turns" / "000002.json").unlink()
    assert "turn 2 is missing" in str(failure(played))


def test_a_turn_copied_from_elsewhere_breaks_the_chain(played: Table, tmp_path: Path) -> None:
    other = make_table(tmp_path / "other", keys=(played.keys, played.key_files))
    shutil.copy(other.dir / "turns" / "000000.json", played.dir / "turns" / "000000.json")
    shutil.copy(other.dir / "game.toml", played.dir / "game.toml")
    # same seed and keys: identical deal, so the chain still holds...
    verify(played.dir)
    # ...but an edited game.toml no longer matches what every turn names
    toml = played.dir / "game.toml"
    toml.write_text(toml.read_text().replace('scenario = "standard"', 'scenario = "long"'))
    assert "different game.toml" in str(failure(played))


def test_a_forged_rejection_notice_is_named(played: Table) -> None:
    with pytest.raises(Refusal, match="unreadable"):
        submit(played.dir, b"not json", played.referee)
    (notice,) = played.dir.glob("rejected/*.json")
    rewrite(notice, lambda d: d.update(message="the referee cheats"))
    assert failure(played).path == str(notice)


def test_a_published_test_seed_must_match_the_commitment(played: Table) -> None:
    toml = played.dir / "game.toml"
    toml.write_text(toml.read_text().replace('seed = "00112233', 'seed = "ff112233'))
    assert "commitment" in str(failure(played))


def test_a_view_left_behind_by_a_crash_is_named_then_rewritten_by_the_next_step(played: Table) -> None:
    old_views = {p: played.dir.joinpath("views", p, "latest.json").read_bytes() for p in ("alice", "bob")}
    awaited = played.view("alice").turn.doc["awaiting"][0]["player"]
    submit(played.dir, played.move(awaited, played.view(awaited).decision.options[0].id), played.referee)
    for player, data in old_views.items():  # as if the step crashed after the turn's rename
        played.dir.joinpath("views", player, "latest.json").write_bytes(data)
    assert "views" in (failure(played).path or "")
    awaited = played.view("alice").turn.doc["awaiting"][0]["player"]
    data = played.move(awaited, played.view(awaited).decision.options[0].id)
    step = submit(played.dir, data, played.referee)
    assert verify(played.dir).turns == 7
    assert step.turn == 6


def test_a_move_file_without_its_turn_is_removed_by_the_next_step(played: Table) -> None:
    """A crash between writing moves/NNNNNN and the turn's rename (the commit point)."""
    orphan = played.dir / "moves" / "000005-alice.json"
    orphan.write_bytes(b"{}")
    (played.dir / ".tmp-000005.json.123").write_bytes(b"half a turn")  # where a step makes its temporary files
    assert failure(played).path == str(orphan)
    with pytest.raises(Refusal, match="unreadable"):
        submit(played.dir, b"not json", played.referee)
    assert not orphan.exists() and not list(played.dir.glob(".tmp-*"))
    verify(played.dir)
    validate_directory(played.dir, played.keys)


def test_the_stock_age_tool_opens_a_players_view(played: Table, tmp_path: Path) -> None:
    """`age -d -i KEY views/alice/latest.age` shows alice her section (Debian package `age`): her private
    part and her options, cards by id, as canonical JSON followed by blanks up to the padded size."""
    age = shutil.which("age")
    if age is None:
        pytest.fail("the stock `age` tool is needed (apt-get install age); .ci/run installs it")
    identity = tmp_path / "alice.identity"
    identity.write_text(played.keys["alice"].identity + "\n")
    identity.chmod(0o600)
    done = subprocess.run([age, "-d", "-i", str(identity), str(played.dir / "views" / "alice" / "latest.age")],
                          capture_output=True, check=True)
    opened = json.loads(done.stdout)
    assert opened == read_view(played.dir, "alice", played.keys["alice"]).doc
    assert opened["private"]["hand"] == played.view("alice").private["hand"]
    assert done.stdout == canonical_json(opened) + b" " * (len(done.stdout) - len(canonical_json(opened)))
    sizes = GAME.sealed_sizes(2)
    assert len(done.stdout) in {sizes.player_section(None), sizes.player_section("play"), sizes.player_section("draw")}
    refused = subprocess.run([age, "-d", "-i", str(identity), str(played.dir / "views" / "bob" / "latest.age")],
                             capture_output=True)
    assert refused.returncode != 0  # alice cannot open bob's view
    assert snapshot(played.dir)  # nothing was written by reading


def test_a_genuine_notice_copied_to_another_slot_is_named(played: Table) -> None:
    """A notice's name says whose file was refused at which turn (one slot per sender per turn): a player
    pushing a genuine notice under another name (alice refused at turn 9, say) fails verify."""
    with contextlib.suppress(Refusal):
        submit(played.dir, b"{}", played.referee)
    [notice] = list((played.dir / "rejected").iterdir())
    verify(played.dir)
    shutil.copy(notice, played.dir / "rejected" / "000000-alice.json")
    with pytest.raises(VerificationFailed, match=r"000000-alice.json"):
        verify(played.dir)
