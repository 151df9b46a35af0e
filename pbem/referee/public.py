"""What anyone may read from a game directory: its status and its public log.

No key is needed. Every turn read is checked against the referee's
signature first, so a status or log never shows a forged turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.referee import formats
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import current_turn, read_turn
from pbem.referee.reveal import read_reveal


@dataclass(frozen=True)
class Status:
    """The current turn of a game as the public sees it."""

    gamefile: GameFile
    turn: int
    awaiting: list[dict[str, Any]]
    result: dict[str, Any] | None
    public: Any
    #: every player has joined but turn 0 is not written yet (a referee died
    #: after the last join file): nobody is awaited, and the game is not over;
    #: the referee's next run deals
    dealing: bool = False

    @property
    def over(self) -> bool:
        return self.result is not None or (not self.awaiting and not self.dealing)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": formats.CLI_STATUS,
            "game_id": self.gamefile.game_id,
            "game": self.gamefile.game,
            "scenario": self.gamefile.scenario,
            "turn": self.turn,
            "players": self.gamefile.player_names,
            "awaiting": [a["player"] for a in self.awaiting],
            "decisions": [dict(a) for a in self.awaiting],
            "over": self.over,
            "result": self.result,
            "test_seed": self.gamefile.test_seed is not None,
        }


def status(directory: str | Path) -> Status:
    """The current turn; before the deal of a game that waits for joins, the players yet to join.

    Those are listed as awaited with decision kind ``join-commit`` (the first
    round: every player's commitment) or ``join-reveal`` (the second: their
    nonces); turn 0 is the deal to come. A game whose seed was revealed early (``pbem reveal
    --force``) is over: nobody is awaited any more.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    # the current turn names the hash of game.toml: it vouches for the file (GameFile.read)
    gamefile = GameFile.read(gamedir.game_toml, schema=not gamedir.has_turns())
    if gamefile.waits_for_joins and not gamedir.has_turns():
        from pbem.referee.joins import joined

        joins = joined(gamedir, gamefile)
        if read_reveal(gamedir, gamefile) is not None:
            return joining_status(gamefile, [])
        return joining_status(gamefile, joins.awaiting(gamefile), dealing=joins.round(gamefile) is None)
    turn = current_turn(gamedir, gamefile).doc
    return turn_status(gamefile, turn, revealed=turn["result"] is None and read_reveal(gamedir, gamefile) is not None)


def joining_status(gamefile: GameFile, awaiting: list[tuple[str, str]], dealing: bool = False) -> Status:
    """Before the deal: the players the join round waits for, with decision kind ``join-commit`` or ``join-reveal``."""
    return Status(gamefile=gamefile, turn=0,
                  awaiting=[{"player": p, "kind": kind, "since": 0} for p, kind in awaiting],
                  result=None, public=None, dealing=dealing)


def turn_status(gamefile: GameFile, turn: dict[str, Any], revealed: bool = False) -> Status:
    """The status a checked turn document gives (``revealed``: the seed was published early, the game abandoned)."""
    if revealed:
        return Status(gamefile=gamefile, turn=turn["turn"], awaiting=[], result=None, public=turn["public"])
    return Status(gamefile=gamefile, turn=turn["turn"], awaiting=turn["awaiting"], result=turn["result"],
                  public=turn["public"])


@dataclass(frozen=True)
class LogEntry:
    """One turn of the public record."""

    turn: int
    mover: str | None
    public: Any
    awaiting: list[dict[str, Any]]
    result: dict[str, Any] | None

    @property
    def events(self) -> list[str]:
        """The events of the step, when the game's public part lists them."""
        events = self.public.get("events") if isinstance(self.public, dict) else None
        return [str(e) if not isinstance(e, dict) else e.get("text", str(e)) for e in events or []]


def public_log(directory: str | Path, first: int = 0) -> Iterator[LogEntry]:
    """The public record, turn by turn from turn ``first`` on, each turn signature-checked."""
    gamedir = GameDir.at(directory)
    gamedir.refuse_all_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    for number in (n for n in gamedir.turn_numbers() if n >= first):
        doc = read_turn(gamedir, gamefile, number).doc
        yield LogEntry(turn=number, mover=doc["mover"], public=doc["public"], awaiting=doc["awaiting"],
                       result=doc["result"])
