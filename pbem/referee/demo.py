"""``pbem demo``: random bots play a whole game through the real files.

Nothing is simulated in memory: the demo writes key files, creates the game
directory with :func:`~pbem.referee.setup.new_game`, and for every decision
opens the awaited bot's view with its key, has the bot choose, writes the
signed move file to ``outbox/`` and submits it with the referee's key, the
same library calls the commands make. At the end it verifies the directory.

The layout under the demo directory::

    keys/     NAME.key, NAME.pub for the referee and each player (never in the game)
    game/     the game directory
    outbox/   every move file the bots wrote

With a test seed the demo is reproducible, file for file: the bots' choices
and the sealing streams of their moves come from the seed, and so do the
keys (:func:`seeded_demo_key`), since each player's nonce, which the deal draws
from, is derived from their key. Such keys are for that demo only: the seed
is published in ``game.toml``, so anyone can derive them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.bots.random_bot import RandomBot
from pbem.crypto import age
from pbem.crypto.keys import PrivateKey, generate, load_private_key, write_keypair
from pbem.engine.errors import EngineError
from pbem.engine.registry import GAMES, find_game, game_names
from pbem.engine.rng import Rng
from pbem.referee.errors import SetupError
from pbem.referee.joins import COMMIT, REVEAL, make_join
from pbem.referee.pipeline import submit
from pbem.referee.player import make_move, read_view
from pbem.referee.public import status
from pbem.referee.setup import new_game
from pbem.referee.storage import atomic_write
from pbem.referee.verify import VerifyReport, verify

PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")
MAX_STEPS = 100_000


@dataclass(frozen=True)
class DemoReport:
    directory: Path
    game: str
    players: list[str]
    turns: int
    result: dict[str, Any] | None
    verified: VerifyReport


@dataclass(frozen=True)
class BotMove:
    """A move file a bot made: whose, answering which turn, its bytes."""

    player: str
    turn: int
    data: bytes


def bot_move(game_dir: str | Path, keys: dict[str, PrivateKey], bots: dict[str, RandomBot],
             seal_stream: Callable[[int, str], Callable[[int], bytes]] | None = None) -> BotMove | None:
    """The move file the first awaited player's bot makes now, as ``pbem view`` and ``pbem move`` would;
    ``None`` when the game is over. ``seal_stream(turn, player)``, if given, is the byte source
    that seals the choices (reproducible files for a test seed)."""
    now = status(game_dir)
    if now.over:
        return None
    player = now.awaiting[0]["player"]
    view = read_view(game_dir, player, keys[player])
    assert view.decision is not None, "the status says the player is awaited"
    choice = bots[player].choose(view.private, view.decision)
    rng = seal_stream(view.number, player) if seal_stream is not None else None
    return BotMove(player, view.number, make_move(view, keys[player], [choice], rng=rng))


def default_game() -> str:
    """The first registered game that imports: Nightfall once it exists, else the next one."""
    for name in list(GAMES) + [n for n in game_names() if n not in GAMES]:
        try:
            find_game(name)
        except (ImportError, AttributeError, EngineError):
            continue
        return name
    raise SetupError("no game module is installed")


def seeded_demo_key(name: str, seed: bytes) -> PrivateKey:
    """The demo key of ``name`` for a test seed: its Ed25519 and X25519 secrets are HMAC-SHA256 of the
    name under the seed, so that a demo with that seed makes the same keys, and so the same game, each time.

    Anyone who reads the seed (``game.toml`` publishes a test seed) can derive these keys: they sign and
    open nothing but that demo's files.
    """
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from pbem.digests import hmac_sha256

    def secret(part: str) -> bytes:
        return hmac_sha256(seed, f"pbem-demo-key\x00{part}\x00{name}".encode())

    return PrivateKey(name, Ed25519PrivateKey.from_private_bytes(secret("ed25519")),
                      age.X25519Identity(secret("x25519")))


def run_demo(
    directory: str | Path,
    game_name: str | None = None,
    players: int | None = None,
    seed: bytes | None = None,
    progress: Callable[[str], None] | None = None,
    wait_for_joins: bool = True,
    max_turns: int | None = None,
) -> DemoReport:
    """Play a whole game with random bots in ``directory``; return what happened.

    By default the game waits for joins and every bot sends its join files
    (a commitment, then the nonce), so the deal uses the players' entropy. ``max_turns`` stops the game early (a
    short demo for tests; a stopped game can be replayed only with a test seed).
    At the end the directory is verified, with the full replay when the seed
    is known (the game ended, or a test seed).
    """
    root = Path(directory)
    game_dir, keys_dir, outbox = root / "game", root / "keys", root / "outbox"
    name = game_name or default_game()
    try:
        game = find_game(name)
    except (ImportError, AttributeError, EngineError) as error:
        raise SetupError(f"cannot load game {name!r}: {error}") from error
    count = players if players is not None else game.min_players
    if not game.min_players <= count <= min(game.max_players, len(PLAYER_NAMES)):
        raise SetupError(f"{name} seats {game.min_players}-{game.max_players} players, not {count}")
    seats = list(PLAYER_NAMES[:count])

    keys_dir.mkdir(parents=True, exist_ok=True)
    keys: dict[str, PrivateKey] = {}
    for who in ["referee", *seats]:
        key_path, _ = write_keypair(generate(who) if seed is None else seeded_demo_key(who, seed), keys_dir)
        keys[who] = load_private_key(key_path, name=who)
    new_game(game_dir, name, [(p, keys[p].public) for p in seats], keys["referee"], seed=seed,
             wait_for_joins=wait_for_joins)

    bot_seed = seed.hex() if seed is not None else os.urandom(16).hex()
    if wait_for_joins:
        # both rounds: every bot commits to its nonce, then every bot sends it; the last one deals
        for round_name in (COMMIT, REVEAL):
            for player in seats:
                path = outbox / f"join-{player}-{round_name}.json"
                atomic_write(path, make_join(game_dir, player, keys[player]))
                submit(game_dir, path.read_bytes(), keys["referee"])
                if progress is not None:
                    progress(f"{player} joined ({round_name})")
    bots = {p: RandomBot(Rng.from_seed(f"demo-{bot_seed}-{p}")) for p in seats}

    def seal_stream(turn: int, player: str) -> Callable[[int], bytes]:
        stream = Rng.from_seed(f"demo-seal-{bot_seed}-{turn}-{player}")
        return lambda n: stream.token(n, "seal")

    for _ in range(MAX_STEPS):
        if max_turns is not None and status(game_dir).turn >= max_turns:
            break
        made = bot_move(game_dir, keys, bots, seal_stream)
        if made is None:
            break
        path = outbox / f"{made.turn:06d}-{made.player}.json"
        atomic_write(path, made.data)
        submit(game_dir, path.read_bytes(), keys["referee"])
        if progress is not None:
            progress(f"turn {made.turn + 1}: {made.player} chose")
    else:
        raise SetupError(f"the demo game did not end within {MAX_STEPS} steps")
    final = status(game_dir)
    return DemoReport(
        directory=root, game=name, players=seats, turns=final.turn, result=final.result,
        verified=verify(game_dir, replay=True, progress=progress)
    )
