"""What a player has seen: the record that catches dropped or rewritten turns.

The hash chain proves that nothing changed *inside* it, but a shorter chain
verifies as well as a long one: whoever hosts the game directory can drop
the newest turns (and the moves that made them), or replace them by others,
and ``pbem verify`` still passes. Only someone who remembers a later turn
can tell. So ``pbem view`` keeps, per game and player, the latest turn it
showed and that turn's hash (``pbem-seen/1``) in a small file on the
player's machine — never in the game directory — and each time checks that
the current chain still holds that turn, with that hash, before it
remembers the new one.

The file is ``STATE/seen/GAME_ID-PLAYER.json``, written atomically with mode
0600; ``STATE`` is ``$PBEM_STATE_DIR`` or, by default, ``$XDG_STATE_HOME/pbem``
(``~/.local/state/pbem``).
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.durable import atomic_write
from pbem.referee import formats
from pbem.referee.errors import StateFileError
from pbem.referee.head import missing_from_chain as chain_problem
from pbem.referee.layout import GameDir
from pbem.referee.storage import dump_json

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.player import PlayerView

#: the environment variable naming the state directory (tests, several profiles)
STATE_ENV = "PBEM_STATE_DIR"


def default_state_dir() -> Path:
    """``$PBEM_STATE_DIR``, else ``$XDG_STATE_HOME/pbem``, else ``~/.local/state/pbem``."""
    chosen = os.environ.get(STATE_ENV)
    if chosen:
        return Path(chosen)
    xdg = os.environ.get("XDG_STATE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "state") / "pbem"


def record_path(state_dir: Path, game_id: str, player: str) -> Path:
    return Path(state_dir) / "seen" / f"{game_id}-{player}.json"


class HistoryWarning(NamedTuple):
    """The current chain no longer holds a turn the player was shown."""

    turn: int
    turn_hash: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "turn_hash": self.turn_hash, "message": self.message}


def _read_record(path: Path, seen: "PlayerView") -> dict[str, Any] | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StateFileError(f"{path}: cannot read the record of the turns you saw: {error.strerror}") from None
    try:
        doc = parse_json_strict(data, max_bytes=4096)
    except CryptoError as error:
        raise StateFileError(f"{path}: the record of the turns you saw is unreadable ({error}); remove it") from None
    if _is_own_record(doc, seen):
        return doc
    problem = formats.format_problem(doc, formats.SEEN)
    if problem:
        raise StateFileError(f"{path}: the record of the turns you saw is not valid ({problem}); remove it")
    return doc


def _is_own_record(doc: Any, seen: "PlayerView") -> bool:
    """Whether ``doc`` has the form of the record pbem writes for ``seen``'s game and player.

    Its turn and hash are then checked against the signed chain
    (:func:`missing_from_chain`), which is stricter than the schema; a
    record of any other form is checked against the schema, whose message
    says what is wrong with it.
    """
    return (isinstance(doc, dict) and set(doc) == set(_record(seen, 0, "")) and doc["format"] == formats.SEEN
            and doc["game_id"] == seen.gamefile.game_id and doc["player"] == seen.player
            and type(doc["turn"]) is int and doc["turn"] >= 0 and type(doc["turn_hash"]) is str)


def _record(seen: "PlayerView", turn: int, turn_hash: str) -> dict[str, Any]:
    """The record of having shown ``seen``'s player turn ``turn`` of its game."""
    return {"format": formats.SEEN, "game_id": seen.gamefile.game_id, "player": seen.player,
            "turn": turn, "turn_hash": turn_hash}


def missing_from_chain(seen: "PlayerView", turn: int, turn_hash: str) -> str | None:
    """Why the chain that ends in ``seen``'s turn does not hold turn ``turn`` with hash ``turn_hash`` (or ``None``)."""
    return chain_problem(GameDir(seen.turn.path.parent.parent), seen.gamefile, seen.turn, turn, turn_hash)


def check_and_remember(state_dir: Path, seen: "PlayerView") -> HistoryWarning | None:
    """Check ``seen`` against the player's record; remember its turn unless the chain lost the one remembered.

    On a warning the record is kept as it was, so that every later view
    warns again until the player removes the file.
    """
    path = record_path(state_dir, seen.gamefile.game_id, seen.player)
    record = _read_record(path, seen)
    if record is not None:
        why = missing_from_chain(seen, record["turn"], record["turn_hash"])
        if why is not None:
            return HistoryWarning(
                turn=record["turn"], turn_hash=record["turn_hash"],
                message=(f"you were shown turn {record['turn']} of game {seen.gamefile.game_id} "
                         f"({record['turn_hash']}), and the game directory no longer holds it: {why}. "
                         f"Moves were removed or replaced; do not trust this copy of the game "
                         f"(your record: {path})"),
            )
        if record["turn"] == seen.number:
            return None
    doc = _record(seen, seen.number, seen.turn.hash)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write(path, dump_json(doc), mode=0o600)
    except OSError as error:
        raise StateFileError(f"{path}: cannot write the record of the turns you saw: {error}") from None
    return None
