"""Views leak nothing through the files: sealed sections open only for their reader, and the
public record (the turn files' public part, ``pbem log``) never holds a hidden card."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import zonegame
from helpers_referee import make_keys
from helpers_trust import Table, finished_table, play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.errors import CryptoError
from pbem.crypto.seal import open_sealed
from pbem.engine import register
from pbem.referee import new_game, sealing

register(zonegame.GAME)

#: card values no count, score or round number of the toy game can take
CARDS = list(range(7001, 7013))


def turn_docs(directory: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((directory / "turns").glob("*.json"))]


def test_no_sealed_section_opens_with_another_players_key(tmp_path: Path) -> None:
    table = finished_table(tmp_path)
    players = ["alice", "bob"]
    for turn in turn_docs(table.dir):
        for section, text in turn["sealed"].items():
            for reader in players:
                if reader == section:
                    assert open_sealed(text, table.keys[reader])["player"] == reader
                    continue
                with pytest.raises(CryptoError):
                    open_sealed(text, table.keys[reader])
        with pytest.raises(CryptoError):
            open_sealed(turn["sealed"]["alice"], table.referee)  # not even the referee reads a player's copy


def test_the_public_record_never_holds_a_hidden_card(tmp_path: Path) -> None:
    """With distinctive card values, every card in a hidden zone (deck, hands, unrevealed picks) at a
    turn is absent from that turn's public part and from its entry in ``pbem log``."""
    cards = tmp_path / "cards.toml"
    cards.write_text(f"cards = {CARDS}\n")
    keys, files = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    game = tmp_path / "game"
    new_game(game, "highcard-zones", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             cards=cards, seed=b"\x33" * 32)
    table = Table(dir=game, keys=keys, key_files=files)
    play(table)
    log = CliRunner().invoke(app, ["log", str(game)]).output
    entries = ("\n" + log).split("\nturn ")[1:]  # what precedes turn 0 (the TEST GAME line) is no turn
    docs = turn_docs(game)
    assert len(entries) == len(docs)
    seed = b"\x33" * 32
    hidden_somewhere = 0
    for turn, entry in zip(docs, entries, strict=True):
        state = sealing.open_with_seed(turn["sealed"]["referee"], seed, compressed=True)["state"]
        hidden = zonegame.GAME.hidden_zones(state)
        public = json.dumps({k: v for k, v in turn.items() if k not in ("sealed", "commitments", "signature")})
        public = re.sub(r"sha256:[0-9a-f]{64}|" + turn["game_id"], "HASH", public)  # hex digits are not cards
        for zone, zone_cards in hidden.items():
            for card in zone_cards:
                hidden_somewhere += 1
                assert str(card) not in public, f"turn {turn['turn']}: hidden card {card} ({zone}) is public"
                assert str(card) not in entry, f"turn {turn['turn']}: hidden card {card} ({zone}) is in the log"
    assert hidden_somewhere > 50
