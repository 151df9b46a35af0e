"""How the referee words public facts in a message: who is awaited, how a game ended.

Used by refusals, ``pbem status`` and ``view``, and the mails alike, so that
every one says a fact in the same words; nothing here reads a file.
"""

from __future__ import annotations

from typing import Any


def result_text(result: dict[str, Any]) -> str:
    """``game over: SUMMARY``, or ``game over: won by alice (scores: alice 3, bob 1)`` when the game gives
    no summary (a summary tells the scores): how every command and mail says how a game ended."""
    summary = result.get("summary") or ""
    if summary:
        return f"game over: {summary}"
    winners = ", ".join(result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{p} {s}" for p, s in result.get("scores", {}).items())
    return f"game over: won by {winners}" + (f" (scores: {scores})" if scores else "")


def awaiting_text(awaiting: list[dict[str, Any]]) -> str:
    """Who is awaited and for what: ``bob (draw, since turn 2), carol (block, since turn 3)``, or ``nobody``.

    ``awaiting`` is a turn's public list (``player``, ``kind``, ``since``, and
    ``deadline`` in a game with deadlines).
    """
    if not awaiting:
        return "nobody"
    return ", ".join(f"{a['player']} ({a['kind']}, since turn {a['since']}"
                     + (f", deadline {a['deadline']}" if "deadline" in a else "") + ")" for a in awaiting)
