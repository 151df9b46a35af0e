"""Games played through the real files for the screen tests, the referee's own record to check views against,
and what a screen may and may not show."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.keys import PrivateKey, load_private_key
from pbem.engine import find_game
from pbem.referee import sealing
from pbem.referee.deal import load_setup, static_of
from pbem.referee.demo import run_demo
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.player import PlayerView, open_section
from pbem.referee.records import read_turn
from pbem.referee.turns import StaticMembers

#: lines a screen may print wider than 80 columns, by name: a command to copy whole (a long player
#: name makes it wider), and a single word longer than the screen (nothing to break it at)
EXCEPTIONS = {
    "a command to copy": re.compile(r"^  pbem \S.*$"),
    "one unbreakable word": re.compile(r"^\s*\S+$"),
}

#: a card instance id as the game data names it: ``bad-smoke#3``
RAW_ID = re.compile(r"[a-z0-9]#\d")


@dataclass(frozen=True)
class PlayedGame:
    """A test game (its seed is known) that bots played through the real files up to some turn."""

    root: Path
    name: str
    seed: bytes
    players: tuple[str, ...]

    @property
    def dir(self) -> Path:
        return self.root / "game"

    def key(self, player: str) -> PrivateKey:
        return load_private_key(self.root / "keys" / f"{player}.key", name=player)

    def key_file(self, player: str) -> Path:
        return self.root / "keys" / f"{player}.key"

    def turn_doc(self, number: int) -> dict[str, Any]:
        return parse_json_strict((self.dir / "turns" / f"{number:06d}.json").read_bytes())

    def state(self, number: int) -> dict[str, Any]:
        """The whole state after turn ``number``, from the referee's section (the seed opens it): the oracle."""
        sealed = self.turn_doc(number)["sealed"]["referee"]
        state = sealing.open_with_seed(sealed, self.seed, compressed=True)["state"]
        return {**state, **_static(self.dir, self.name).members()}

    def private_events(self, number: int, player: str) -> list[str]:
        """``player``'s private events of turn ``number`` as the referee's state has them."""
        return list(_private_events(self, number)[player])


@functools.cache
def _static(directory: Path, name: str) -> StaticMembers:
    game = find_game(name)
    gamedir = GameDir.at(directory)
    return static_of(game, load_setup(game, gamedir, GameFile.read(gamedir.game_toml)))


@functools.cache
def _private_events(game: PlayedGame, number: int) -> dict[str, tuple[str, ...]]:
    state = game.state(number)
    rules = find_game(game.name)
    return {p: tuple(rules.private(state, p).get("events", [])) for p in game.players}


def play(root: Path, name: str, players: int, seed_byte: int, turns: int | None) -> PlayedGame:
    """Bots play ``name`` up to turn ``turns`` (``None``: to the end), the same game on every run.

    The seed is the only entropy (no join files: a player's nonce comes from their key, and the
    keys are new on every run), so the game, its turn files' contents and every screen are fixed.
    """
    seed = bytes([seed_byte]) * 32
    report = run_demo(root, name, players, seed, max_turns=turns, wait_for_joins=False)
    return PlayedGame(root=root, name=name, seed=seed, players=tuple(report.players))


def view_at(game: PlayedGame, player: str, number: int) -> PlayerView:
    """``player``'s view of turn ``number`` as ``pbem view`` opened it when that turn was the latest."""
    gamedir = GameDir.at(game.dir)
    gamefile = GameFile.read(gamedir.game_toml)
    turn = read_turn(gamedir, gamefile, number)
    return PlayerView(gamefile=gamefile, turn=turn, doc=open_section(gamefile, turn, player, game.key(player)))


#: the golden screens: a transcript of commands and what they printed, one file each
GOLDEN = Path(__file__).parent / "screen" / "golden"


def check_golden(name: str, transcript: str) -> None:
    """``transcript`` is golden screen ``name`` (``PBEM_REGOLD=1`` writes it anew, on purpose)."""
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("PBEM_REGOLD"):
        path.write_text(transcript)
    assert path.exists(), f"{path} is missing: run with PBEM_REGOLD=1 to write it"
    assert transcript == path.read_text(), f"the screens of {name} changed; regenerate {path} if this is intended"
