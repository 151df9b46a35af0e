"""``pbem new``: create a game directory and deal turn 0.

The referee draws a secret seed (or takes ``--seed`` for a reproducible test
game, recorded as such in ``game.toml``), commits to it, derives the game id
and the game identity from it, sets the game up through the game's own
:meth:`~pbem.engine.protocol.Game.new_state`, and writes turn 0 with every
player's view.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pbem.crypto.keys import PrivateKey, PublicKey
from pbem.digests import sha256_hex
from pbem.engine.errors import EngineError
from pbem.engine.options import OptionError, options_of, set_up_options
from pbem.engine.registry import find_game
from pbem.referee import core, keying, sealing
from pbem.referee.deadlines import DeadlineRules, deal_clock
from pbem.referee.deal import setup_hash, static_of
from pbem.referee.errors import SetupError
from pbem.referee.gamefile import PLAYER_JOINS, PLAYER_NAME, REFEREE_ONLY, GameFile
from pbem.referee.joins import write_pending
from pbem.referee.layout import GameDir
from pbem.referee.storage import atomic_write, fsync_dir
from pbem.referee.turns import NotPlainTurn, sign_turn, write_turn

RESERVED_NAMES = frozenset({"referee"})


def new_game(
    directory: str | Path,
    game_name: str,
    players: Sequence[tuple[str, PublicKey]],
    referee_key: PrivateKey,
    scenario: str | None = None,
    seed: bytes | None = None,
    cards: str | Path | None = None,
    options: dict[str, str] | None = None,
    wait_for_joins: bool = False,
    deadlines: Sequence[str] = (),
    remind: Sequence[str] = (),
    now: datetime | None = None,
) -> GameFile:
    """Create the game directory ``directory`` and write turn 0.

    With ``wait_for_joins`` the deal waits: ``game.toml`` says ``entropy =
    "player-joins"``, the seed is kept sealed in ``pending.json``, and turn 0
    is written when the last seated player's join file is submitted.
    ``deadlines`` (``48h``, ``KIND=12h``, ``KIND=off``) and ``remind``
    (``24h``...) set the ``[deadlines]`` table (:mod:`pbem.referee.deadlines`);
    the turns of such a game record the referee's clock, ``now``.
    """
    gamedir = GameDir.at(directory)
    if gamedir.root.exists() and any(gamedir.root.iterdir()):
        raise SetupError(f"{gamedir.root} exists and is not empty; a new game needs a new directory")
    names = [name for name, _ in players]
    if len(set(names)) != len(names):
        raise SetupError(f"a player is seated twice: {', '.join(names)}")
    for name in names:
        if name in RESERVED_NAMES or not PLAYER_NAME.fullmatch(name):
            raise SetupError(
                f"player name {name!r}: use 1-32 lower-case letters, digits, '-' or '_' (not 'referee')"
            )
    try:
        game = find_game(game_name)
    except EngineError as error:
        raise SetupError(str(error)) from error
    rules = DeadlineRules.from_options(deadlines, remind, game.decision_kinds()) if deadlines or remind else None
    if not game.min_players <= len(players) <= game.max_players:
        raise SetupError(f"{game.name} seats {game.min_players}-{game.max_players} players, not {len(players)}")
    scenario_name = scenario or game.scenarios()[0]
    if scenario_name not in game.scenarios():
        raise SetupError(f"{game.name} has no scenario {scenario_name!r}; scenarios: {', '.join(game.scenarios())}")
    try:
        setup = game.load_scenario(scenario_name, cards=str(cards) if cards is not None else None)
        chosen = set_up_options(game, setup, options_of(game).parse(dict(options or {}), names), names)
    except OptionError as error:
        raise SetupError(f"{error} (`pbem games --options` lists each game's options)") from error
    except EngineError as error:
        raise SetupError(str(error)) from error
    cards_record = None
    if cards is not None:
        cards_path = Path(cards)
        if not cards_path.is_file() or cards_path.name.startswith("."):
            raise SetupError(f"--cards {cards}: not a card file")
        digest = sha256_hex(cards_path.read_bytes())
        cards_record = {"file": cards_path.name, "sha256": "sha256:" + digest}

    secret = seed if seed is not None else os.urandom(keying.SEED_BYTES)
    if len(secret) != keying.SEED_BYTES:
        raise SetupError(f"a test seed is {keying.SEED_BYTES} bytes like a drawn one, not {len(secret)}")
    gamefile = GameFile(
        game_id=keying.game_id(secret),
        game=game.name,
        scenario=scenario_name,
        players=tuple(players),
        referee=referee_key.public,
        game_recipient=sealing.game_recipient(secret),
        commitment=keying.commitment(secret),
        options=chosen,
        cards=cards_record,
        test_seed=seed,
        entropy=PLAYER_JOINS if wait_for_joins else REFEREE_ONLY,
        setup=setup_hash(setup),
        deadlines=rules.to_doc() if rules is not None else None,
    )
    files = None
    if not wait_for_joins:
        try:
            static = static_of(game, setup)
            played = core.deal(game, gamefile, setup, secret, [])
        except EngineError as error:
            raise SetupError(str(error)) from error
        try:
            unsigned = core.next_turn(game, gamefile, played, None, None, None, static,
                                      clock=deal_clock(rules, now))
            files = sign_turn(unsigned, gamefile, referee_key)
        except NotPlainTurn as error:
            raise SetupError(f"{game.name}: {error}, which pbem's files never hold: a bug in the game") from error

    gamedir.root.mkdir(parents=True, exist_ok=True)
    for folder in (gamedir.turns, gamedir.moves, gamedir.views, gamedir.rejected):
        folder.mkdir(exist_ok=True)
    gamedir.lock.touch()
    if cards is not None and cards_record is not None:
        atomic_write(gamedir.cards / cards_record["file"], Path(cards).read_bytes())
    atomic_write(gamedir.game_toml, gamefile.to_toml())
    if files is not None:
        write_turn(gamedir, files)
    else:
        gamedir.joins.mkdir(exist_ok=True)
        write_pending(gamedir, gamefile, secret, referee_key)
    fsync_dir(gamedir.root)
    return gamefile
