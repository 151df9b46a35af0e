"""Games that bots play step by step through the real files, for the archive's tests: a look back over a
finished game, and a rollback by consent, which both need the game as it stood at each step."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import PrivateKey, load_private_key, write_keypair
from pbem.engine.rng import Rng
from pbem.referee.demo import PLAYER_NAMES, bot_move, seeded_demo_key
from pbem.referee.pipeline import submit
from pbem.referee.setup import new_game


@dataclass
class SteppedGame:
    """A test game (seed known) with its keys, which :meth:`step` advances one bot move at a time."""

    root: Path
    name: str
    players: tuple[str, ...]
    keys: dict[str, PrivateKey]
    bots: dict[str, RandomBot]

    @property
    def dir(self) -> Path:
        return self.root / "game"

    def key_file(self, who: str) -> Path:
        return self.root / "keys" / f"{who}.key"

    def move(self) -> tuple[str, bytes] | None:
        """The next bot move file (its player and bytes), not submitted; ``None`` once the game is over."""
        made = bot_move(self.dir, self.keys, self.bots)
        return (made.player, made.data) if made is not None else None

    def step(self, **submit_options: object) -> bool:
        """Submit the next bot move; whether there was one."""
        made = self.move()
        if made is None:
            return False
        submit(self.dir, made[1], self.keys["referee"], **submit_options)  # type: ignore[arg-type]
        return True

    def play(self, turns: int, after: Callable[[], None] | None = None) -> None:
        """Step until turn ``turns`` (or the end), calling ``after`` after the deal and each step."""
        from pbem.referee.public import status

        if after is not None:
            after()
        while status(self.dir).turn < turns and self.step():
            if after is not None:
                after()


def new_stepped_game(root: Path, name: str, players: int, seed_byte: int) -> SteppedGame:
    """A new ``name`` game of ``players`` seats with a test seed, dealt and not yet stepped."""
    seed = bytes([seed_byte]) * 32
    seats = PLAYER_NAMES[:players]
    keys: dict[str, PrivateKey] = {}
    for who in ("referee", *seats):
        path, _ = write_keypair(seeded_demo_key(who, seed), root / "keys")
        keys[who] = load_private_key(path, name=who)
    new_game(root / "game", name, [(p, keys[p].public) for p in seats], keys["referee"], seed=seed)
    bots = {p: RandomBot(Rng.from_seed(f"archive-{seed_byte}-{p}")) for p in seats}
    return SteppedGame(root, name, tuple(seats), keys, bots)
