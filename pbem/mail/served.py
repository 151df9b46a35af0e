"""The games a referee serves by mail: each game's directory and configuration, and where each seat gets mail."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.crypto.errors import CryptoError
from pbem.engine.errors import EngineError
from pbem.mail.config import GameEntry, MailConfig
from pbem.mail.errors import MailConfigError
from pbem.mail.record import MailRecord
from pbem.referee import status
from pbem.referee.errors import GameDirError, RefereeError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir

#: what a game directory raises when it is damaged, or busy (:class:`~pbem.referee.errors.LockBusy`): the
#: game's trouble, not a mail's
GAME_TROUBLE = (RefereeError, CryptoError, EngineError, OSError)


@dataclass(frozen=True)
class ServedGame:
    entry: GameEntry
    gamefile: GameFile

    @property
    def dir(self) -> Path:
        return self.entry.dir


def served_games(config: MailConfig) -> dict[str, ServedGame]:
    """The configured games by game id, each seat address checked against ``game.toml``."""
    games, unread = read_served_games(config)
    if unread:
        raise unread[0]
    return games


def read_served_games(config: MailConfig) -> tuple[dict[str, ServedGame], list[GameDirError]]:
    """The configured games by game id, and why each game whose ``game.toml`` cannot be read was left out
    (a run of the loop serves the others)."""
    games: dict[str, ServedGame] = {}
    unread: list[GameDirError] = []
    for index, entry in enumerate(config.games):
        try:
            gamefile = GameFile.read(GameDir.at(entry.dir).game_toml)
        except GAME_TROUBLE as error:
            unread.append(GameDirError(f"{config.path}: games[{index}] ({entry.dir}): {error}"))
            continue
        if gamefile.game_id in games:
            raise MailConfigError(f"{config.path}: games[{index}]: game {gamefile.game_id} is configured twice")
        unknown = sorted(set(entry.players) - set(gamefile.player_names))
        if unknown:
            raise MailConfigError(
                f"{config.path}: games[{index}].players: {unknown[0]!r} is not seated in game {gamefile.game_id} "
                f"(players: {', '.join(gamefile.player_names)})"
            )
        games[gamefile.game_id] = ServedGame(entry, gamefile)
    return games, unread


def seat_address(game: ServedGame, record: MailRecord, player: str, gamefile: GameFile | None = None,
                 fingerprint: str | None = None) -> str | None:
    """Where the holder of ``player``'s seat gets mail: the address recorded for their key (``pbem takeover
    --address``), else the configuration's. ``fingerprint`` asks for another key's (a previous holder's);
    ``gamefile`` is ``game.toml`` with the seats in force, when the caller has it."""
    if fingerprint is None:
        if gamefile is None:
            gamefile = status(game.dir).gamefile  # with the seat records the current turn names
        key = gamefile.player_key(player)
        if key is None:
            return None
        fingerprint = key.fingerprint
    return record.address(game.gamefile.game_id, player, fingerprint) or game.entry.players.get(player)
