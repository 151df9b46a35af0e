"""Plain-text renderings of the referee's results, for a terminal."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.player import PlayerView
    from pbem.referee.public import LogEntry, Status


def result_line(result: dict[str, Any]) -> str:
    summary = result.get("summary") or ""
    winners = ", ".join(result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{p} {s}" for p, s in result.get("scores", {}).items())
    line = f"game over: {summary}" if summary else f"game over: won by {winners}"
    return line + (f" (scores: {scores})" if scores else "")


def unapplied_line(unapplied: dict[str, int]) -> str:
    """``choices 2-3 of 3 were not applied``: positions only, never what they were."""
    first, last = unapplied["from"], unapplied["to"]
    if first == last:
        return f"choice {first} of {last} was not applied"
    return f"choices {first}-{last} of {last} were not applied"


def awaiting_line(awaiting: list[dict[str, Any]]) -> str:
    if not awaiting:
        return "awaiting: nobody"
    return "awaiting: " + ", ".join(f"{a['player']} ({a['kind']}, since turn {a['since']})" for a in awaiting)


#: the line every command that shows a ``--seed`` test game prints about it
TEST_GAME_LINE = "TEST GAME: its seed is published in game.toml, so anybody can read every secret (--seed)"


def status_text(status: Status) -> str:
    gamefile = status.gamefile
    lines = [TEST_GAME_LINE] if gamefile.test_seed is not None else []
    lines += [
        f"game {gamefile.game_id}: {gamefile.game}, scenario {gamefile.scenario}",
        f"players: {', '.join(gamefile.player_names)}",
        f"turn {status.turn}",
    ]
    if status.dealing:
        lines.append("every player has sent their nonce: the referee's next run deals turn 0")
    else:
        lines.append(result_line(status.result) if status.result is not None else awaiting_line(status.awaiting))
    return "\n".join(lines)


def view_text(view: PlayerView, rendered: str, awaiting: list[dict[str, Any]]) -> str:
    lines = [TEST_GAME_LINE] if view.gamefile.test_seed is not None else []
    lines += [f"game {view.gamefile.game_id}, turn {view.number}, you are {view.player}", "", rendered, ""]
    if view.doc["unapplied"] is not None:
        lines.append(f"your move: {unapplied_line(view.doc['unapplied'])} (each choice must be an option "
                     "when its turn comes; the ones before it stand)")
    decision = view.decision
    if view.result is not None:
        lines.append(result_line(view.result))
    elif decision is None:
        others = ", ".join(f"{a['player']} ({a['kind']})" for a in awaiting) or "nobody"
        lines.append(f"not your decision; waiting for {others}")
    else:
        lines.append(f"your decision: {decision.kind}" + (f": {decision.prompt}" if decision.prompt else ""))
        for number, option in enumerate(decision.options, start=1):
            lines.append(f"  {number:>2}. {option.label}  [{option.id}]")
        lines.append(f"answer with: pbem move DIR --as {view.player} --key KEYFILE --choose NUMBER-OR-ID")
    return "\n".join(lines)


def log_text(entries: Iterable[LogEntry], test_seed: bool = False) -> str:
    lines: list[str] = [TEST_GAME_LINE] if test_seed else []
    for entry in entries:
        head = f"turn {entry.turn}" + (f": move by {entry.mover}" if entry.mover else ": the deal")
        lines.append(head)
        events = entry.events
        if events:
            lines.extend(f"    {e}" for e in events)
        elif entry.turn == 0:
            lines.append("    " + json.dumps(entry.public, sort_keys=True, ensure_ascii=False)[:400])
        if entry.result is not None:
            lines.append("    " + result_line(entry.result))
        else:
            lines.append("    " + awaiting_line(entry.awaiting))
    return "\n".join(lines)
