"""``verify --replay``: the archive and the revealed seed rebuild every turn, byte for byte."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from helpers_trust import finished_table, joined_table, make_table, play
from typer.testing import CliRunner

import pbem.referee.pipeline as pipeline
from pbem.cli.main import app
from pbem.crypto import age
from pbem.referee import sealing, verify
from pbem.referee.errors import VerificationFailed
from pbem.referee.verify import NO_REPLAY_NOTE


def test_a_finished_game_replays_byte_for_byte(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    report = verify(table.dir, replay=True)
    assert report.replayed and report.note is None and report.turns > 5


def test_a_game_without_joins_replays_too(tmp_path: Path) -> None:
    table = finished_table(tmp_path, joins=False)
    assert verify(table.dir, replay=True).replayed


def test_a_test_game_replays_while_running(tmp_path: Path) -> None:
    table = make_table(tmp_path)  # --seed: the seed is in game.toml
    play(table, steps=3)
    assert verify(table.dir, replay=True).replayed


def test_before_the_end_verify_checks_signatures_and_the_chain_only_and_says_so(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    play(table, steps=2)
    report = verify(table.dir, replay=True)
    assert not report.replayed and report.note == NO_REPLAY_NOTE
    result = CliRunner().invoke(app, ["verify", str(table.dir), "--replay"])
    assert result.exit_code == 0 and "signatures and the hash chain only" in result.output


def test_a_referee_that_changes_the_state_is_caught_at_that_step(tmp_path: Path, monkeypatch) -> None:
    """Every file is signed and chained, so plain ``verify`` passes; the replay names the step."""
    table = joined_table(tmp_path)
    play(table, steps=2)
    real = pipeline.play_move

    def cheating(*args, **kwargs):
        played = real(*args, **kwargs)
        state = played.position.state
        hand = state["hands"]["alice"]
        if hand and state["deck"]:
            hand[0], state["deck"][0] = state["deck"][0], hand[0]  # slip alice the top card
        else:
            state["scores"]["alice"] += 1
        return played

    monkeypatch.setattr(pipeline, "play_move", cheating)
    play(table, steps=1)
    monkeypatch.undo()
    play(table)
    assert verify(table.dir).turns > 3  # signatures and chain: all fine
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "turns" / "000003.json")
    assert "differs from the replay" in str(caught.value)


def test_a_referee_that_deals_from_another_generator_is_caught_at_the_deal(tmp_path: Path, monkeypatch) -> None:
    import pbem.referee.keying as keying
    from pbem.engine.rng import Rng

    monkeypatch.setattr(keying, "engine_rng", lambda seed, entropy, turn: Rng.from_seed("stacked deck"))
    table = joined_table(tmp_path)
    monkeypatch.undo()
    play(table)
    with pytest.raises(VerificationFailed) as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "turns" / "000000.json")


def _deflate_as_another_zlib(data: bytes) -> bytes:
    """What another zlib build may write for the same input (here: level 1, another header and encoding)."""
    return zlib.compress(data, 1)


def test_a_referee_section_another_zlib_compressed_still_replays(tmp_path: Path, monkeypatch) -> None:
    """zlib's output is not the same on every build (zlib-ng): the replay accepts a section that holds
    exactly the rebuilt state, padded and sealed as the rule says, whatever deflate encoding it has."""
    monkeypatch.setattr(sealing, "compress", _deflate_as_another_zlib)
    table = finished_table(tmp_path)
    monkeypatch.undo()
    turns = [json.loads(p.read_text()) for p in sorted((table.dir / "turns").glob("*.json"))]
    plaintext = age.decrypt(turns[1]["sealed"]["referee"].encode(), [sealing.game_identity(bytes.fromhex(turns[-1]["seed"]))])
    inflater = zlib.decompressobj()
    document = inflater.decompress(plaintext)
    assert plaintext[: len(plaintext) - len(inflater.unused_data)] != sealing.compress(document)
    assert verify(table.dir, replay=True).replayed


def test_verify_replay_json_says_whether_it_replayed(tmp_path: Path) -> None:
    import json

    table = finished_table(tmp_path)
    result = CliRunner().invoke(app, ["verify", str(table.dir), "--replay", "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 0 and doc["replayed"] is True and doc["note"] is None


def test_a_replay_with_other_scenario_data_names_game_toml(tmp_path: Path, monkeypatch) -> None:
    """game.toml pins the scenario data (``setup``): a pbem whose data differs says so instead of
    reporting a mysterious difference at turn 0."""
    import toygame

    table = finished_table(tmp_path)
    monkeypatch.setitem(toygame.SCENARIOS["standard"], "options", {"rounds": 4})
    with pytest.raises(VerificationFailed, match="scenario data") as caught:
        verify(table.dir, replay=True)
    assert caught.value.path == str(table.dir / "game.toml")


def _referee_seals_alices_section_otherwise(tmp_path: Path, monkeypatch, change) -> tuple[Path, Path]:
    """A game in which the referee sealed alice's section of turn 3 with ``change(plaintext, recipients, stream)``
    (an armored age text) instead of the rule; the rest as the rule says. Returns the game and that turn's path."""
    table = joined_table(tmp_path)
    play(table, steps=2)
    alice = table.keys["alice"].public.recipient
    real = sealing.seal_canonical

    def sealing_otherwise(data, recipients, stream, size):
        if recipients != [alice]:
            return real(data, recipients, stream, size)
        return change(sealing.pad(data, size), recipients, stream)

    monkeypatch.setattr(sealing, "seal_canonical", sealing_otherwise)
    play(table, steps=1)
    monkeypatch.undo()
    play(table)
    turn = table.dir / "turns" / "000003.json"
    section = json.loads(turn.read_text())["sealed"]["alice"]
    assert age.decrypt(section.encode(), [table.keys["alice"]])  # alice opens it with her key
    assert verify(table.dir).turns > 3  # signed and chained: plain verify passes
    return table.dir, turn


def _caught_at(directory: Path, turn: Path, member: str) -> None:
    with pytest.raises(VerificationFailed) as caught:
        verify(directory, replay=True)
    assert caught.value.path == str(turn)
    assert f"first at `{member}`" in str(caught.value)


def test_a_section_sealed_with_another_file_key_is_caught(tmp_path: Path, monkeypatch) -> None:
    """The replay opens each section with the file key the seed's stream gives; one sealed with another
    key (which could hold anything for alice) does not open with it."""
    directory, turn = _referee_seals_alices_section_otherwise(
        tmp_path, monkeypatch, lambda plaintext, recipients, stream: age.encrypt(plaintext, recipients).decode())
    _caught_at(directory, turn, "sealed.alice")


def test_a_section_whose_stanza_the_referee_chose_is_caught(tmp_path: Path, monkeypatch) -> None:
    """The right file key, nonce and plaintext, but a stanza wrapped with an ephemeral key of the referee's
    choosing (a channel to signal through): the replay rebuilds every stanza, so it is caught."""
    def chosen_ephemeral(plaintext: bytes, recipients: list[str], stream) -> str:
        draws = iter([stream(16), b"\x07" * 32, stream(32) and stream(16)])
        return age.encrypt(plaintext, recipients, rng=lambda n: next(draws)).decode()

    directory, turn = _referee_seals_alices_section_otherwise(tmp_path, monkeypatch, chosen_ephemeral)
    _caught_at(directory, turn, "sealed.alice")


def test_a_section_armored_another_way_is_caught(tmp_path: Path, monkeypatch) -> None:
    """age reads armor with CRLF line ends too; pbem writes LF, and the replay holds the armor to that."""
    directory, turn = _referee_seals_alices_section_otherwise(
        tmp_path, monkeypatch,
        lambda plaintext, recipients, stream: age.encrypt(plaintext, recipients, rng=stream).decode().replace("\n", "\r\n"))
    _caught_at(directory, turn, "sealed.alice")


def test_a_section_padded_another_way_is_caught(tmp_path: Path, monkeypatch) -> None:
    """Sealed with the seed's stream, but its padding ends in another byte (a channel to signal through)."""
    directory, turn = _referee_seals_alices_section_otherwise(
        tmp_path, monkeypatch,
        lambda plaintext, recipients, stream: age.encrypt(plaintext[:-1] + b"\t", recipients, rng=stream).decode())
    _caught_at(directory, turn, "sealed.alice")


def test_a_referee_section_padded_beyond_its_size_is_caught(tmp_path: Path, monkeypatch) -> None:
    """The compressed referee section: any zlib stream of the state is accepted, but only the padding the
    rule says (here 64 zero bytes more, which every reader opens, and which would tell by its length)."""
    table = joined_table(tmp_path)
    play(table, steps=2)
    real = sealing.pad

    def padding_otherwise(data: bytes, size: int, fill: bytes = sealing.JSON_FILL) -> bytes:
        padded = real(data, size, fill)
        return padded + bytes(64) if fill == sealing.COMPRESSED_FILL else padded

    monkeypatch.setattr(sealing, "pad", padding_otherwise)
    play(table, steps=1)
    monkeypatch.undo()
    play(table)
    assert verify(table.dir).turns > 3
    _caught_at(table.dir, table.dir / "turns" / "000003.json", "sealed.referee")
