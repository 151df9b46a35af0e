"""Timeouts: the referee answers a decision whose deadline has passed, with the game's default action.

When an awaited decision's deadline (:mod:`pbem.referee.deadlines`) has
come, ``pbem tick`` answers it in the player's place, as one step of its
own: it writes a **timeout record** (``timeouts/NNNNNN-PLAYER.json``,
``pbem-timeout/1``, signed by the referee) in place of a move file, and the
turn it produces names the record's hash in ``move`` and ``move_file`` and
says what happened in ``referee_step``::

    {"kind": "timeout", "player": "alice", "decision": "claim", "action": "pass"}

**The default action** is declared per decision kind by the game
(``Game.default_action(kind) -> "pass" | "bot"``, optional; a game on the
turn machine declares it when it registers the kind); without a
declaration it is ``"pass"``. ``pass`` answers with the decision's pass
option (``pass_id``) when it has one; otherwise, and for ``bot``, the
referee draws one of the options uniformly from the step's own generator
(stream ``timeout``), so a replay makes the same choice. The record and
the turn say which of the two it was, never which option a bot drew: that
may be as secret as the player's own pick (it is in the referee's sealed
section, ``step``, as ``"by": "timeout"``).

The record carries the decision's deadline and the referee's clock, so
anyone can check, without the seed, that the referee acted only after the
deadline (:func:`record_problem`, run by ``pbem verify``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.referee import formats
from pbem.referee.clock import read_recorded
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.records import Record, read_step_record


def act_of(doc: dict[str, Any]) -> dict[str, str]:
    """The turn's ``referee_step`` for a timeout record."""
    return {"kind": "timeout", "player": doc["player"], "decision": doc["kind"], "action": doc["action"]}


def record_doc(gamefile: GameFile, turn: int, base: str, entry: dict[str, Any], time: str, action: str) -> dict[str, Any]:
    """A timeout record (unsigned): the referee answers ``entry`` (an ``awaiting`` entry of turn ``turn``) at ``time``."""
    return {
        "format": formats.TIMEOUT,
        "game_id": gamefile.game_id,
        "game": gamefile.hash(),
        "turn": turn,
        "base": base,
        "player": entry["player"],
        "kind": entry["kind"],
        "since": entry["since"],
        "deadline": entry["deadline"],
        "time": time,
        "action": action,
    }


def record_problem(doc: dict[str, Any], previous: dict[str, Any], turn: dict[str, Any]) -> str | None:
    """What is wrong with a timeout record that produced ``turn`` from ``previous`` (turn documents), or ``None``.

    Public facts only, so ``pbem verify`` checks it without the seed: the
    decision was awaited in ``previous`` with that kind, ``since`` and
    deadline; the record's time is the turn's; and that time is not before
    the deadline (the referee acts for a player only after it).
    """
    entry = next((a for a in previous["awaiting"] if a["player"] == doc["player"]), None)
    if entry is None or entry["kind"] != doc["kind"] or entry["since"] != doc["since"]:
        return f"no {doc['kind']} decision of {doc['player']} open since turn {doc['since']} was awaited at turn {previous['turn']}"
    if entry.get("deadline") != doc["deadline"]:
        return f"its deadline {doc['deadline']} is not the decision's ({entry.get('deadline')})"
    if turn.get("time") != doc["time"]:
        return f"its time {doc['time']} is not the time of turn {turn['turn']} ({turn.get('time')})"
    if read_recorded(doc["time"]) < read_recorded(doc["deadline"]):
        return (f"the referee acted for {doc['player']} at {doc['time']}, before the deadline {doc['deadline']}: "
                "a timeout may come only after its deadline")
    if turn.get("referee_step") != act_of(doc):
        return f"turn {turn['turn']} does not describe this timeout in referee_step"
    return None


def read_timeout_record(path: Path, gamefile: GameFile, number: int, player: str, previous: Record,
                        turn: dict[str, Any]) -> Record:
    """The timeout record ``timeouts/NUMBER-PLAYER.json`` that produced ``turn`` from ``previous``, checked:
    signed by the referee, of this game and ``game.toml``, answering ``previous``, and
    :func:`record_problem`. Raises :class:`GameDirError`."""
    record = read_step_record(path, formats.TIMEOUT, gamefile, number, player, previous.hash)
    doc = record.doc
    problem = record_problem(doc, previous.doc, turn)
    if problem:
        raise GameDirError(f"{path}: {problem}", path=path)
    return record
