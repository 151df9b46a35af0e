"""What anyone may read from a game directory: its status and its public log.

No key is needed. Every turn read is checked against the referee's
signature first, so a status or log never shows a forged turn.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.referee import copies, formats, seats
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import current_turn, read_game_file, read_turn
from pbem.referee.reveal import read_reveal

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.protocol import GameScreen


def result_text(result: dict[str, Any]) -> str:
    """``game over: SUMMARY``, or ``game over: won by alice (scores: alice 3, bob 1)`` when the game gives
    no summary (a summary tells the scores): how every command and mail says how a game ended."""
    summary = result.get("summary") or ""
    if summary:
        return f"game over: {summary}"
    winners = ", ".join(result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{p} {s}" for p, s in result.get("scores", {}).items())
    return f"game over: won by {winners}" + (f" (scores: {scores})" if scores else "")


class Status(NamedTuple):
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
    #: the referee's clock when it wrote the turn (a game with deadlines), else ``None``
    time: str | None = None

    @property
    def takeovers(self) -> list[dict[str, Any]]:
        """Every seat handed to a new key: ``{player, turn, key, previous}`` (fingerprints), in turn order."""
        return seats.describe(self.gamefile)

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
            "time": self.time,
            "takeovers": self.takeovers,
            "copy": None,
        }


def status(directory: str | Path) -> Status:
    """The current turn (of a player's copy: the latest it holds); before the deal of a game that waits for
    joins, the players yet to join.

    Those are listed as awaited with decision kind ``join-commit`` (the first
    round: every player's commitment) or ``join-reveal`` (the second: their
    nonces); turn 0 is the deal to come. A game whose seed was revealed early (``pbem reveal
    --force``) is over: nobody is awaited any more.
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = read_game_file(gamedir)
    if gamefile.waits_for_joins and not gamedir.has_turns():
        from pbem.referee.joins import joined

        joins = joined(gamedir, gamefile)
        if read_reveal(gamedir, gamefile) is not None:
            return joining_status(gamefile, [])
        return joining_status(gamefile, joins.awaiting(gamefile), dealing=joins.round(gamefile) is None)
    turn = current_turn(gamedir, gamefile).doc
    gamefile = seats.in_force(gamedir, gamefile, turn, partial=copies.is_marked(gamedir, gamefile))
    return turn_status(gamefile, turn, revealed=turn["result"] is None and read_reveal(gamedir, gamefile) is not None)


def joining_status(gamefile: GameFile, awaiting: list[tuple[str, str]], dealing: bool = False) -> Status:
    """Before the deal: the players the join round waits for, with decision kind ``join-commit`` or ``join-reveal``."""
    return Status(gamefile=gamefile, turn=0,
                  awaiting=[{"player": p, "kind": kind, "since": 0} for p, kind in awaiting],
                  result=None, public=None, dealing=dealing)


def turn_status(gamefile: GameFile, turn: dict[str, Any], revealed: bool = False) -> Status:
    """The status a checked turn document gives (``revealed``: the seed was published early, the game abandoned)."""
    if revealed:
        return Status(gamefile=gamefile, turn=turn["turn"], awaiting=[], result=None, public=turn["public"],
                      time=turn.get("time"))
    return Status(gamefile=gamefile, turn=turn["turn"], awaiting=turn["awaiting"], result=turn["result"],
                  public=turn["public"], time=turn.get("time"))


class LogEntry(NamedTuple):
    """One turn of the public record."""

    turn: int
    mover: str | None
    public: Any
    awaiting: list[dict[str, Any]]
    result: dict[str, Any] | None
    #: a step the referee made in place of a move (a timeout, a takeover), as the turn describes it
    referee_step: dict[str, Any] | None = None
    #: the referee's clock at this turn (a game with deadlines)
    time: str | None = None
    #: the rollback by consent this turn follows (``{number, record}``), if it follows one
    rollback: dict[str, Any] | None = None

    @property
    def what(self) -> str:
        """What produced this turn, in a few words (:func:`step_what`)."""
        return step_what(self.mover, self.referee_step)

    @property
    def events(self) -> list[str]:
        """The events of the step, when the game's public part lists them."""
        return event_lines(self.public)


def step_what(mover: str | None, referee_step: dict[str, Any] | None) -> str:
    """What produced a turn, in a few words: ``move by alice``, ``the deal``, a timeout or a takeover
    (``referee_step``, the turn's description of a step the referee made in place of a move)."""
    act = referee_step
    if act is not None and act["kind"] == "timeout":
        done = "passed" if act["action"] == "pass" else "chose one of the options at random"
        return (f"{act['player']}'s {act['decision']} decision timed out: the referee {done} "
                f"on {act['player']}'s behalf")
    if act is not None:
        return (f"the referee handed {act['player']}'s seat to a new key ({act['key']}; "
                f"it was {act['previous']})")
    return f"move by {mover}" if mover else "the deal"


def event_lines(part: Any) -> list[str]:
    """The lines under ``events`` of a game's public or private part: what happened in that step.

    By the protocol's convention (docs/engine.md) a part that tells what
    happened lists it as ``events``, lines of text (or ``{"text": ...}``);
    a part without it tells nothing.
    """
    events = part.get("events") if isinstance(part, dict) else None
    if not isinstance(events, list):
        return []
    return [e.get("text", str(e)) if isinstance(e, dict) else str(e) for e in events]


def game_cards(directory: str | Path) -> "tuple[GameScreen, Any]":
    """A game directory's game (its screen) and its card data (:meth:`Game.cards` of the set-up ``game.toml``
    pins, an owner's ``--cards`` file included): public, static, and no key needed."""
    from pbem.referee.deal import screen_and_cards  # the game's screen: for pbem card, not for status

    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    return screen_and_cards(gamedir, GameFile.read(gamedir.game_toml))


def public_log(directory: str | Path, first: int = 0) -> Iterator[LogEntry]:
    """The public record, turn by turn from turn ``first`` on, each turn signature-checked.

    A player's copy gives the turns it holds (:func:`pbem.referee.copies.standing` says which it lacks).
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_all_symlinks()
    gamefile = GameFile.read(gamedir.game_toml)
    for number in (n for n in gamedir.turn_numbers() if n >= first):
        doc = read_turn(gamedir, gamefile, number).doc
        yield LogEntry(turn=number, mover=doc["mover"], public=doc["public"], awaiting=doc["awaiting"],
                       result=doc["result"], referee_step=doc.get("referee_step"), time=doc.get("time"),
                       rollback=doc.get("rollback"))
