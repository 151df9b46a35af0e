"""The deal cannot be steered by grinding nonces.

Before: ``pbem join`` drew a fresh random nonce on every run, and the referee
knows the seed. A referee and the last player to join (or a referee that
"loses" a join and asks for it again) could try nonces until the deal suited
them. Now the joins take two rounds: each player first sends a commitment
to SHA-256 of their nonce; once every seated player's commitment is in, each
sends the nonce itself, which must match; the last reveal deals. The nonce
is derived from the player's private key and the ``game.toml`` hash, so a
join sent again is the very same file, and nobody can choose their nonce
after seeing anyone else's. What is left is abort: a player who never
reveals stalls the deal (docs/trust.md).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from helpers_referee import snapshot
from helpers_trust import joining_table
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.signing import sign_document
from pbem.referee import sealing, status, submit, verify
from pbem.referee.errors import AlreadyApplied, GameDirError, UnexpectedJoin, VerificationFailed
from pbem.referee.gamefile import GameFile
from pbem.referee.joins import join_document, join_nonce, joined, make_join
from pbem.referee.layout import GameDir
from pbem.referee.storage import dump_json

PLAYERS = ("alice", "bob")


def deal_state(directory: Path, referee) -> dict:
    turn = json.loads((directory / "turns" / "000000.json").read_text())
    return sealing.open_with_key(turn["sealed"]["referee"], referee, "turn 0", compressed=True)["state"]


def send(table, player: str) -> bytes:
    """What ``pbem join`` writes for ``player`` now, submitted to the referee."""
    data = make_join(table.dir, player, table.keys[player])
    submit(table.dir, data, table.referee)
    return data


def test_a_join_sent_again_is_the_very_same_file(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    assert make_join(table.dir, "alice", table.keys["alice"]) == make_join(table.dir, "alice", table.keys["alice"])


def test_a_re_sent_join_gives_the_same_deal(tmp_path: Path) -> None:
    """A referee that "loses" bob's last join and asks again gets the same file, hence the same deal."""
    table = joining_table(tmp_path / "a", seed=bytes(range(32)))
    for player in PLAYERS:
        send(table, player)
    send(table, "alice")
    spare = tmp_path / "b"
    shutil.copytree(table.dir, spare)
    last = make_join(table.dir, "bob", table.keys["bob"])
    submit(table.dir, last, table.referee)
    again = make_join(spare, "bob", table.keys["bob"])
    assert again == last
    submit(spare, again, table.referee)
    assert deal_state(table.dir, table.referee) == deal_state(spare, table.referee)


def test_the_nonce_follows_from_the_players_key_and_game_toml(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    other = joining_table(tmp_path / "other")
    gamefile = GameFile.read(table.dir / "game.toml")
    nonce = join_nonce(table.keys["alice"], gamefile)
    assert nonce == join_nonce(table.keys["alice"], gamefile) and len(nonce) == 32
    assert nonce != join_nonce(table.keys["bob"], gamefile)
    assert nonce != join_nonce(table.keys["alice"], GameFile.read(other.dir / "game.toml"))
    commit = json.loads(make_join(table.dir, "alice", table.keys["alice"]))
    assert commit["round"] == "commit" and "nonce" not in commit
    assert commit["commitment"] == "sha256:" + hashlib.sha256(nonce).hexdigest()


def test_first_every_player_commits_then_every_player_reveals_and_the_last_reveal_deals(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    kinds = lambda: [(a["player"], a["kind"]) for a in status(table.dir).awaiting]  # noqa: E731
    assert kinds() == [("alice", "join-commit"), ("bob", "join-commit")]
    send(table, "bob")
    assert kinds() == [("alice", "join-commit")]
    with pytest.raises(UnexpectedJoin, match="waiting for alice"):
        make_join(table.dir, "bob", table.keys["bob"])  # bob has committed; nothing to send yet
    send(table, "alice")
    assert kinds() == [("alice", "join-reveal"), ("bob", "join-reveal")]
    reveal = json.loads(make_join(table.dir, "alice", table.keys["alice"]))
    assert reveal["round"] == "reveal" and reveal["nonce"] == join_nonce(table.keys["alice"],
                                                                         GameFile.read(table.dir / "game.toml")).hex()
    send(table, "alice")
    assert kinds() == [("bob", "join-reveal")] and not (table.dir / "turns" / "000000.json").exists()
    send(table, "bob")
    assert (table.dir / "turns" / "000000.json").exists() and status(table.dir).awaiting[0]["kind"] != "join-reveal"
    assert sorted(p.name for p in (table.dir / "joins").iterdir()) == [
        "alice.commit.json", "alice.reveal.json", "bob.commit.json", "bob.reveal.json"]
    assert verify(table.dir).turns == 1


def forged(table, player: str, round_name: str, nonce: bytes) -> bytes:
    """A join file of any round and nonce, signed by the player (what a hand-made client could send);
    a nonce names the commitments the game holds now."""
    gamefile = GameFile.read(table.dir / "game.toml")
    commitments = joined(GameDir.at(table.dir), gamefile).commitments() if round_name == "reveal" else None
    doc = join_document(gamefile, player, round_name, nonce, commitments)
    return dump_json(sign_document(doc, table.keys[player]))


def forged_reveal(table, player: str, nonce: bytes) -> bytes:
    return forged(table, player, "reveal", nonce)


def test_a_reveal_before_every_commitment_is_in_is_refused(tmp_path: Path) -> None:
    """The last committer must not see anyone's nonce before choosing theirs."""
    table = joining_table(tmp_path)
    send(table, "alice")
    early = forged_reveal(table, "alice", join_nonce(table.keys["alice"], GameFile.read(table.dir / "game.toml")))
    before = snapshot(table.dir)
    with pytest.raises(UnexpectedJoin, match="once every seated player has committed"):
        submit(table.dir, early, table.referee)
    assert snapshot(table.dir) == before and list((table.dir / "rejected").iterdir())


def test_a_nonce_that_does_not_match_its_commitment_is_refused(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    for player in PLAYERS:
        send(table, player)
    before = snapshot(table.dir)
    with pytest.raises(UnexpectedJoin, match="does not match"):
        submit(table.dir, forged_reveal(table, "bob", b"\x01" * 32), table.referee)
    assert snapshot(table.dir) == before


def test_a_second_commitment_is_refused_and_the_same_one_is_a_no_op(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    first = send(table, "alice")
    with pytest.raises(AlreadyApplied):
        submit(table.dir, first, table.referee)
    with pytest.raises(UnexpectedJoin, match="committed already"):
        submit(table.dir, forged(table, "alice", "commit", b"\x02" * 32), table.referee)


def test_a_join_of_the_old_single_round_format_is_refused_with_its_version(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    gamefile = GameFile.read(table.dir / "game.toml")
    old = dump_json(sign_document({"format": "pbem-join/1", "game_id": gamefile.game_id, "game": gamefile.hash(),
                                   "player": "alice", "nonce": "00" * 32}, table.keys["alice"]))
    with pytest.raises(Exception, match="unknown format version 'pbem-join/1'"):
        submit(table.dir, old, table.referee)
    two_rounds = dump_json(sign_document({"format": "pbem-join/2", "game_id": gamefile.game_id,
                                          "game": gamefile.hash(), "player": "alice", "round": "commit",
                                          "commitment": "sha256:" + "00" * 32}, table.keys["alice"]))
    with pytest.raises(Exception, match="unknown format version 'pbem-join/2'"):  # its nonce named no commitment
        submit(table.dir, two_rounds, table.referee)


def test_verify_refuses_a_reveal_that_does_not_match_its_commitment(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    for player in (*PLAYERS, "alice"):
        send(table, player)
    (table.dir / "joins" / "alice.reveal.json").write_bytes(forged_reveal(table, "alice", b"\x03" * 32))
    with pytest.raises(VerificationFailed, match="does not match"):
        verify(table.dir)
    with pytest.raises(GameDirError, match="does not match"):
        submit(table.dir, make_join(table.dir, "bob", table.keys["bob"]), table.referee)


def test_the_join_command_writes_the_file_of_the_round_the_game_is_in(tmp_path: Path) -> None:
    table = joining_table(tmp_path)
    runner = CliRunner()
    for round_name in ("commit", "reveal"):
        for player in PLAYERS:
            out = tmp_path / f"{player}-{round_name}.json"
            result = runner.invoke(app, ["join", str(table.dir), "--as", player, "--key",
                                         str(table.key_files[player]), "--out", str(out)])
            assert result.exit_code == 0, result.output
            assert round_name in result.output and json.loads(out.read_text())["round"] == round_name
            submitted = runner.invoke(app, ["submit", str(table.dir), str(out), "--referee-key",
                                            str(table.key_files["referee"])])
            assert submitted.exit_code == 0, submitted.output
    assert "turn 0 dealt" in submitted.output
    result = runner.invoke(app, ["status", str(table.dir)])
    assert "join" not in result.output.split("turn 0", 1)[1]


def swapped_after_the_nonce(tmp_path: Path):
    """The referee shows alice a copy of the game where bob has committed, so her `pbem join` sends her
    nonce; knowing it (and the seed), bob commits to another nonce of his choice in the real game.
    Returns the real game and alice's nonce file."""
    table = joining_table(tmp_path / "real")
    send(table, "alice")
    shown = tmp_path / "shown"
    shutil.copytree(table.dir, shown)
    submit(shown, forged(table, "bob", "commit", b"\x01" * 32), table.referee)
    alices_nonce = make_join(shown, "alice", table.keys["alice"])
    submit(table.dir, forged(table, "bob", "commit", b"\x02" * 32), table.referee)  # chosen after seeing it
    return table, alices_nonce


def test_a_referee_and_the_last_player_cannot_swap_a_commitment_after_seeing_a_nonce(tmp_path: Path) -> None:
    """Not even together with the referee (docs/trust.md): alice's nonce names the commitments it was
    sent after, so the referee cannot take it after a commitment she never saw."""
    table, alices_nonce = swapped_after_the_nonce(tmp_path)
    before = snapshot(table.dir)
    with pytest.raises(UnexpectedJoin, match="bob's commitment"):
        submit(table.dir, alices_nonce, table.referee)
    assert snapshot(table.dir) == before


def test_verify_refuses_a_nonce_kept_after_another_commitment_than_it_names(tmp_path: Path) -> None:
    """The same swap, with the files written by hand rather than through `pbem submit`: verify names it."""
    table, alices_nonce = swapped_after_the_nonce(tmp_path)
    (table.dir / "joins" / "alice.reveal.json").write_bytes(alices_nonce)
    with pytest.raises(VerificationFailed, match="bob's commitment"):
        verify(table.dir)


def test_join_does_not_send_the_nonce_a_second_time_against_other_commitments(tmp_path: Path) -> None:
    """The nonce is the same on every run, so a referee that asks alice to join again, showing another
    commitment of bob's (one of several he made in advance), would get a second reveal naming it: one
    more deal to choose from. `pbem join` remembers, on the player's machine, the commitments it sent
    the nonce after, writes the same file again for the same ones, and refuses other ones."""
    state = tmp_path / "state"
    table = joining_table(tmp_path / "real")
    send(table, "alice")
    copies = {}
    for n in (1, 2):
        copies[n] = tmp_path / f"shown{n}"
        shutil.copytree(table.dir, copies[n])
        submit(copies[n], forged(table, "bob", "commit", bytes([n]) * 32), table.referee)
    first = make_join(copies[1], "alice", table.keys["alice"], state_dir=state)
    assert make_join(copies[1], "alice", table.keys["alice"], state_dir=state) == first  # "lost": the same file
    with pytest.raises(GameDirError, match="two different games"):
        make_join(copies[2], "alice", table.keys["alice"], state_dir=state)
    [record] = (state / "joins").iterdir()
    assert record.name.endswith("-alice.json") and oct(record.stat().st_mode & 0o777) == "0o600"
    result = CliRunner().invoke(app, ["join", str(copies[2]), "--as", "alice", "--key",
                                      str(table.key_files["alice"]), "--out", str(tmp_path / "j.json"),
                                      "--state-dir", str(state)])
    assert result.exit_code == 3 and "two different games" in result.output and not (tmp_path / "j.json").exists()
