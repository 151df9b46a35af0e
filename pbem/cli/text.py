"""Plain-text renderings of the referee's results, for an 80-column terminal."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from pbem.engine.protocol import Option
from pbem.engine.screen import wrap
from pbem.referee.player import PlayerView
from pbem.referee.public import LogEntry, Status
from pbem.referee.since import SinceLastMove, StepEvents


def result_line(result: dict[str, Any]) -> str:
    """``game over: SUMMARY``; the scores only when the game gives no summary (which tells them)."""
    summary = result.get("summary") or ""
    if summary:
        return f"game over: {summary}"
    winners = ", ".join(result.get("winners", [])) or "nobody"
    scores = ", ".join(f"{p} {s}" for p, s in result.get("scores", {}).items())
    return f"game over: won by {winners}" + (f" (scores: {scores})" if scores else "")


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
TEST_GAME_LINE = "TEST GAME: its seed is in game.toml, so anybody can read every secret (--seed)"


def status_text(status: Status) -> str:
    gamefile = status.gamefile
    lines = [TEST_GAME_LINE] if gamefile.test_seed is not None else []
    lines += wrap(f"game {gamefile.game_id}: {gamefile.game}, scenario {gamefile.scenario}")
    lines += wrap(f"players: {', '.join(gamefile.player_names)}")
    lines.append(f"turn {status.turn}")
    if status.dealing:
        lines.append("every player has sent their nonce: the referee's next run deals turn 0")
    else:
        lines += wrap(result_line(status.result) if status.result is not None else awaiting_line(status.awaiting))
    return "\n".join(lines)


def since_lines(since: SinceLastMove) -> list[str]:
    """What happened since the player's last move, turn by turn: the public events and, marked
    ``(only you)``, the player's own; turns that tell nothing are left out."""
    if since.last_move is not None:
        head = f"Since your last move (turn {since.last_move}):"
    elif since.complete:
        head = "Since the deal:"
    else:
        head = (f"The last {len(since.steps)} turns (your last move was earlier; "
                "pbem log has the whole public record):")
    lines = wrap(head)
    told = [step for step in since.steps if step.events or step.private_events]
    for step in told:
        lines.append(f"  turn {step.turn}, {_whose(step, since.player)}:")
        for event in step.events:
            lines += wrap(event, "    ", "      ")
        for event in step.private_events:
            lines += wrap(f"(only you) {event}", "    ", "      ")
    if not told:
        lines.append("  nothing to tell")
    return lines


def _whose(step: StepEvents, player: str) -> str:
    if step.mover is None:
        return "the deal"
    return "your move" if step.mover == player else f"{step.mover}'s move"


def option_lines(options: Iterable[Option], cards: Mapping[str, Any] | None = None) -> list[str]:
    """The numbered options. An option's id follows its label when it is a word a player would
    type (``[done]``, ``[claim:commons-1]``); an id that names a card (``discard:bad-smoke#2``,
    ``pick:mad-jake``: a key of ``cards``) is left to ``--json``: the screen names cards by name,
    and the number chooses the option."""
    lines: list[str] = []
    for number, option in enumerate(options, start=1):
        typed = "" if names_a_card(option.id, cards or {}) else f"  [{option.id}]"
        lines += wrap(f"{number:>2}. {option.label}{typed}", "  ", "      ")
    return lines


def names_a_card(option_id: str, cards: Mapping[str, Any]) -> bool:
    """Whether an option id holds a card instance id or a card key among its ``:``-separated parts."""
    return "#" in option_id or any(part in cards for part in option_id.split(":"))


def view_text(view: PlayerView, rendered: str, awaiting: list[dict[str, Any]],
              since: SinceLastMove | None = None, cards: Mapping[str, Any] | None = None,
              card_texts: list[str] | None = None) -> str:
    """The screen of ``pbem view``: who and where, what happened since the player's last move, the
    game's rendering of the position, the full texts of its cards (``--cards``), and then the result,
    or whom the game waits for, or the player's decision with its numbered options."""
    lines = [TEST_GAME_LINE] if view.gamefile.test_seed is not None else []
    lines += [f"game {view.gamefile.game_id}, turn {view.number}, you are {view.player}", ""]
    if since is not None:
        lines += since_lines(since) + [""]
    lines += [rendered, ""]
    if card_texts:
        lines += ["Cards on this screen:", *card_texts, ""]
    if view.doc["unapplied"] is not None:
        lines += wrap(f"your move: {unapplied_line(view.doc['unapplied'])} (each choice must be an option "
                      "when its turn comes; the ones before it stand)")
    decision = view.decision
    if view.result is not None:
        lines.append(result_line(view.result))
    elif decision is None:
        others = ", ".join(f"{a['player']} ({a['kind']})" for a in awaiting) or "nobody"
        lines += wrap(f"not your decision; waiting for {others}")
    else:
        lines += wrap(f"your decision: {decision.kind}" + (f": {decision.prompt}" if decision.prompt else ""))
        lines += option_lines(decision.options, cards)
        lines += ["answer with:", f"  pbem move DIR --as {view.player} --key KEYFILE --choose NUMBER"]
    return "\n".join(lines)


def log_text(entries: Iterable[LogEntry], test_seed: bool = False) -> str:
    """``pbem log``: each turn, who moved, what happened, and whom the game then waits for; the
    result once, after the last turn."""
    lines: list[str] = [TEST_GAME_LINE] if test_seed else []
    for entry in entries:
        lines.append(f"turn {entry.turn}" + (f": move by {entry.mover}" if entry.mover else ": the deal"))
        for event in entry.events:
            lines += wrap(event, "    ", "      ")
        if entry.result is not None:
            lines.append("    " + result_line(entry.result))
        else:
            lines += wrap(awaiting_line(entry.awaiting), "    ", "      ")
    return "\n".join(lines)
