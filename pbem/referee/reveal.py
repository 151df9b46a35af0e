"""``pbem reveal``: publish the game's secret seed.

A finished game publishes its seed by itself, in the final turn file
(``seed``). ``reveal`` writes it explicitly to ``reveal.json``
(``pbem-reveal/1``, signed by the referee, naming the latest turn and its
hash), for example for a game that was abandoned. While the game is running
it refuses, because the seed opens every sealed section; with ``force`` it
marks the game **abandoned**: no move or join is taken after that.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.referee import formats
from pbem.referee.errors import GameDirError, RevealRefused
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.lock import DEFAULT_WAIT
from pbem.referee.records import current_turn, read_record


def read_reveal(gamedir: GameDir, gamefile: GameFile) -> dict[str, Any] | None:
    """``reveal.json`` if present, signature and game checked."""
    if not gamedir.reveal.exists():
        return None
    doc = read_record(gamedir.reveal, formats.REVEAL, gamefile.referee, by_referee=True).doc
    if doc["game_id"] != gamefile.game_id or doc["game"] != gamefile.hash():
        raise GameDirError(f"{gamedir.reveal}: belongs to another game")
    return doc


def reveal(directory: str | Path, referee_key: PrivateKey, force: bool = False,
           wait: float = DEFAULT_WAIT) -> dict[str, Any]:
    """Write ``reveal.json`` with the seed and return it (the existing one if the seed was revealed before)."""
    from pbem.referee.gamefile import check_referee_key
    from pbem.referee.joins import read_pending_seed
    from pbem.referee.lock import locked
    from pbem.referee.storage import atomic_write, dump_json
    from pbem.referee.turns import open_seed

    gamedir = GameDir.at(directory)
    with locked(gamedir.lock, wait):
        gamefile = GameFile.read(gamedir.game_toml)
        check_referee_key(gamefile, referee_key)
        existing = read_reveal(gamedir, gamefile)
        if existing is not None:
            return existing
        if gamedir.has_turns():
            turn = current_turn(gamedir, gamefile, gapless=True)
            seed = open_seed(turn, referee_key, gamefile)
            number, turn_hash = turn.doc["turn"], turn.hash
            over = turn.doc["result"] is not None or not turn.doc["awaiting"]
        else:
            seed = read_pending_seed(gamedir, gamefile, referee_key)
            number, turn_hash, over = None, None, False
        if not over and not force:
            where = f"turn {number}" if number is not None else "waiting for joins"
            raise RevealRefused(
                f"game {gamefile.game_id} is running ({where}); revealing the seed opens every sealed section. "
                "Use --force to abandon the game and reveal it"
            )
        doc = sign_document(
            {
                "format": formats.REVEAL,
                "game_id": gamefile.game_id,
                "game": gamefile.hash(),
                "turn": number,
                "turn_hash": turn_hash,
                "seed": seed.hex(),
                "abandoned": not over,
            },
            referee_key,
        )
        atomic_write(gamedir.reveal, dump_json(doc))
        return doc
