"""Plain-text renderings of the referee's results, for an 80-column terminal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.engine.screen import wrap
from pbem.referee.copies import turns_text
from pbem.referee.errors import awaiting_text
from pbem.referee.public import event_lines, result_text, step_what

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.protocol import Option
    from pbem.referee.gamefile import GameFile
    from pbem.referee.player import Choice, PlayerView
    from pbem.referee.public import LogEntry, Status
    from pbem.referee.since import SinceLastMove, StepEvents
    from pbem.referee.tick import TickReport
    from pbem.referee.verify import VerifyReport


def unapplied_line(unapplied: dict[str, int]) -> str:
    """``choices 2-3 of 3 were not applied``: positions only, never what they were."""
    first, last = unapplied["from"], unapplied["to"]
    if first == last:
        return f"choice {first} of {last} was not applied"
    return f"choices {first}-{last} of {last} were not applied"


def chosen_lines(choices: Iterable[Choice], standing_orders: dict[str, Any]) -> list[str]:
    """What a move file says, in order: each choice's label (or id, for a decision not seen yet), its orders."""
    lines = []
    for number, choice in enumerate(choices, start=1):
        if choice.label is not None:
            lines.append(f"choice {number}: {choice.label} [{choice.id}]")
        else:
            lines.append(f"choice {number}: [{choice.id}], for the decision that opens after choice {number - 1} "
                         "(applied if it is an option then, else dropped with the rest)")
    from pbem.referee.ordertext import order_text

    for kind, order in sorted(standing_orders.get("orders", {}).items()):
        lines.append(f"order for your {kind} decisions: " + ("cancelled" if order == "off" else order_text(order)))
    return lines


def submit_hint(directory: Path, file: Path) -> str:
    """How the file reaches the game when no mail was asked for: the referee's ``pbem submit`` of it."""
    import shlex

    return (f"send it to the referee, who applies it with: pbem submit {shlex.quote(str(directory))} "
            f"{shlex.quote(str(file))} --referee-key REFEREE-KEYFILE")


def awaiting_line(awaiting: list[dict[str, Any]]) -> str:
    return f"awaiting: {awaiting_text(awaiting)}"


#: the line every command that shows a ``--seed`` test game prints about it
TEST_GAME_LINE = "TEST GAME: its seed is in game.toml, so anybody can read every secret (--seed)"


def status_text(status: Status) -> str:
    gamefile = status.gamefile
    lines = [TEST_GAME_LINE] if gamefile.test_seed is not None else []
    lines += wrap(f"game {gamefile.game_id}: {gamefile.game}, scenario {gamefile.scenario}")
    lines += wrap(f"players: {', '.join(gamefile.player_names)}")
    lines.append(f"turn {status.turn}")
    for h in status.takeovers:
        lines += wrap(f"{h['player']}'s seat: handed to a new key ({h['key']}) at turn {h['turn']}")
    if status.time is not None:
        lines.append(f"the referee's clock at this turn: {status.time}")
    if status.dealing:
        lines.append("every player has sent their nonce: the referee's next run deals turn 0")
    else:
        lines += wrap(result_text(status.result) if status.result is not None else awaiting_line(status.awaiting))
    return "\n".join(lines)


def since_lines(since: SinceLastMove) -> list[str]:
    """What happened since the player's last move, turn by turn: the public events and, marked
    ``(only you)``, the player's own; turns that tell nothing are left out."""
    if since.last_move is not None:
        head = f"Since your last move (turn {since.last_move}):"
    elif since.seat_taken is not None:
        head = f"Since the seat was handed to you (turn {since.seat_taken}):"
    elif since.complete:
        head = "Since the deal:"
    elif since.missing is not None:
        head = (f"The last {len(since.steps)} turns your copy holds (it lacks {turns_text([since.missing])} before "
                "them; pbem mail request asks the referee for them):")
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
    if step.referee_step is not None:
        return step_what(step.mover, step.referee_step)
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
              card_texts: list[str] | None = None, notes: list[str] | None = None) -> str:
    """The screen of ``pbem view``: who and where (and, for a player's copy, ``notes``: how it stands against
    the game), what happened since the player's last move, the game's rendering of the position, the full
    texts of its cards (``--cards``), and then the result, or whom the game waits for, or the player's
    decision with its numbered options."""
    lines = [TEST_GAME_LINE] if view.gamefile.test_seed is not None else []
    lines += [f"game {view.gamefile.game_id}, turn {view.number}, you are {view.player}"]
    for note in notes or ():
        lines += wrap(note, "", "")
    lines += [""]
    if since is not None:
        lines += since_lines(since) + [""]
    lines += [rendered, ""]
    if card_texts:
        lines += ["Cards on this screen:", *card_texts, ""]
    if view.doc["unapplied"] is not None:
        lines += wrap(f"your move: {unapplied_line(view.doc['unapplied'])} (each choice must be an option "
                      "when its turn comes; the ones before it stand)")
    from pbem.referee.ordertext import orders_lines

    held = orders_lines(view.standing_orders) if view.standing_orders else []
    if held and view.result is None:
        lines += wrap("your orders, which answer these decisions for you without asking (pbem move "
                      "--order KIND=off cancels one):")
        for line in held:
            lines += wrap(line, "  ", "      ")
    decision = view.decision
    if view.result is not None:
        lines.append(result_text(view.result))
    elif decision is None:
        others = ", ".join(f"{a['player']} ({a['kind']})" for a in awaiting) or "nobody"
        lines += wrap(f"not your decision; waiting for {others}")
    else:
        lines += wrap(f"your decision: {decision.kind}" + (f": {decision.prompt}" if decision.prompt else ""))
        if view.deadline is not None:
            lines += wrap(f"deadline: {view.deadline}; after it, the referee may answer for you with the game's "
                          "default action")
        lines += option_lines(decision.options, cards)
        lines += ["answer with:", f"  pbem move DIR --as {view.player} --key KEYFILE --choose NUMBER-OR-ID"]
    return "\n".join(lines)


def spectator_text(gamefile: GameFile, turn: dict[str, Any], rendered: str) -> str:
    """A turn as a spectator saw the table (``pbem replay --as spectator``): who and where, what produced the
    turn and its public events, the game's rendering of the public part, then the result or whom it waits for."""
    lines = [TEST_GAME_LINE] if gamefile.test_seed is not None else []
    lines += [f"game {gamefile.game_id}, turn {turn['turn']}, as a spectator", ""]
    lines += wrap(f"turn {turn['turn']}: {step_what(turn['mover'], turn.get('referee_step'))}", "", "    ")
    for event in event_lines(turn["public"]):
        lines += wrap(event, "    ", "      ")
    lines += ["", rendered, ""]
    lines += wrap(result_text(turn["result"]) if turn["result"] is not None else awaiting_line(turn["awaiting"]))
    return "\n".join(lines)


def _test_text(test: dict[str, Any]) -> str:
    kind = {"boolean": "true or false", "integer": "a number or a range", "pattern": "a pattern, * for any text",
            "text-list": "a text"}.get(test["type"], "one of " + ", ".join(test["values"]) if test.get("values")
                                                    else "a text")
    return f"{test['name']} ({kind}): {test['help']}"


def orders_text(orders: dict[str, list[dict[str, Any]]]) -> list[str]:
    """What each kind's orders may test, for ``pbem games --orders``: the generic tests once, then, kind
    by kind, the game's own, split into what a rule tests of the decision (``IF``) and of an option."""
    lines = ["  orders (pbem move --order KIND=SPEC): every kind's rules may choose an option by"]
    first = next(iter(orders.values()), [])
    generic = [t for t in first if t["name"] in ("option", "card", "label")]
    for test in generic:
        lines += wrap(_test_text(test), "      ", " " * 8, width=78)
    for kind, tests in orders.items():
        own = [t for t in tests if t["name"] not in ("option", "card", "label")]
        if not own:
            continue
        lines.append(f"    {kind}:")
        for about, heading in (("decision", "if (of the decision)"), ("option", "choose (of an option)")):
            for test in (t for t in own if t["about"] == about):
                lines += wrap(f"{heading}: {_test_text(test)}", "      ", " " * 8, width=78)
    return lines


def game_line(entry: dict[str, Any], with_options: bool = False, with_orders: bool = False) -> str:
    """``nightfall: 2-5 players; scenarios: ...``, and with ``with_options`` one entry per option, with
    ``with_orders`` what each decision kind's orders may test (:func:`orders_text`).

    ``entry`` is a game as ``pbem games`` gathers it, its ``options`` an
    :class:`~pbem.engine.options.OptionTable`.
    """
    if not entry["installed"]:
        return f"{entry['name']} (not installed)"
    lines = [f"{entry['name']}: {entry['min_players']}-{entry['max_players']} players; "
             f"scenarios: {', '.join(entry['scenarios'])}"]
    if with_options:
        table = entry["options"]
        if not table.options:
            lines.append("  no options")
        for spec in table.options:
            lines.append(f"  {spec.name} = {spec.default_text()}")
            lines += wrap(f"{spec.type}: {spec.kind_text()}. {spec.help}", " " * 6, " " * 6, width=78)
    if with_orders and entry.get("orders"):
        lines += orders_text(entry["orders"])
    return "\n".join(lines)


def log_text(entries: Iterable[LogEntry], test_seed: bool = False) -> str:
    """``pbem log``: each turn, who moved, what happened, and whom the game then waits for; the
    result once, after the last turn."""
    lines: list[str] = [TEST_GAME_LINE] if test_seed else []
    expected = 0
    for entry in entries:
        if entry.turn > expected:  # a player's copy lacks the turns of a mail that did not arrive
            lines += wrap(f"{turns_text([(expected, entry.turn - 1)])}: not in this copy")
        expected = entry.turn + 1
        if entry.rollback is not None:
            number = entry.rollback["number"]
            lines += wrap(f"rollback {number}: every seat consented to take the game back to turn {entry.turn - 1}; "
                          f"the turns it abandoned are kept in abandoned/{number:06d}/", "", "    ")
        lines += wrap(f"turn {entry.turn}: {entry.what}" + (f" (at {entry.time})" if entry.time else ""), "", "    ")
        for event in entry.events:
            lines += wrap(event, "    ", "      ")
        if entry.result is not None:
            lines.append("    " + result_text(entry.result))
        else:
            lines += wrap(awaiting_line(entry.awaiting), "    ", "      ")
    return "\n".join(lines)


def copy_verify_text(report: VerifyReport) -> str:
    """``pbem verify`` of a player's copy: what it holds, checked, and each thing it could not check."""
    copy = report.copy
    assert copy is not None
    held = f"{report.turns} turn{'s' if report.turns != 1 else ''}" + (
        f", the latest {copy.latest}" if copy.latest is not None else "")
    lines = wrap(f"game {report.game_id}: a player's copy, OK as far as it goes ({held}; {report.files} files "
                 "checked: every one the copy holds)")
    if copy.head is not None:
        lines += wrap(f"the referee's head: turn {copy.head.turn}, written {copy.head.time}"
                      + ("; this copy is behind it" if copy.behind else ""))
    lines.append("not checked (a copy cannot hold them):")
    for item in copy.not_checked:
        lines += wrap(item, "  - ", "    ")
    return "\n".join(lines)


def deadlines_line(deadlines: dict[str, Any]) -> str:
    """``48h per decision (claim 12h, draft-pick none); reminders 24h, 4h before``: a game.toml [deadlines] table."""
    parts = [f"{deadlines['default']} per decision" if "default" in deadlines else "only the kinds listed"]
    kinds = ", ".join(f"{k} {'none' if v == 'off' else v}" for k, v in deadlines.get("kinds", {}).items())
    line = parts[0] + (f" ({kinds})" if kinds else "")
    if deadlines.get("remind"):
        line += "; reminders " + ", ".join(deadlines["remind"]) + " before"
    return line


def tick_text(report: TickReport) -> str:
    lines = [f"game {report.game_id}: the referee's clock: {report.now}"]
    for t in report.timeouts:
        done = "passed" if t.action == "pass" else "chose one of the options at random"
        lines.append(f"{t.player}'s {t.kind} decision timed out (deadline {t.deadline}): the referee {done} "
                     f"on {t.player}'s behalf; turn {t.turn} written ({t.record})")
    for r in report.reminders:
        lines.append(f"reminder due: {r.player}'s {r.kind} decision, deadline {r.deadline} ({r.before} before it)")
    if report.idle is not None:
        lines.append(f"nothing to tick: {report.idle}")
    elif not report.timeouts:
        lines.append("no deadline has passed")
    if report.turn is not None and report.idle is None:
        lines.append(awaiting_line(report.awaiting))
    return "\n".join(lines)
