"""The end of the game and scoring (EN 236-242, EN 251).

Fewest wounds (deck, hand and discard pile) wins. Ties: each player's
bite/burn/bleed counts, highest first, compared in turn; the lower wins.
Still tied: the player closest to the right of the first player wins.
End-of-the-World Series: totals across games; when someone reaches the
target (100), the lowest total wins.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import RulesError
from pbem.engine.machine import TurnMachine
from pbem.engine.protocol import Result
from pbem.engine.rng import Rng
from pbem.games.nightfall.state import Final, State, card, event, is_wound, wound_count, zones


def wound_types(state: State, player: str) -> dict[str, int]:
    counts = {"bite": 0, "burn": 0, "bleed": 0}
    z = zones(state, player)
    for zone in ("hand", "deck", "discard"):
        for c in z[zone]:
            if is_wound(state, c):
                counts[card(state, c)["wound_type"]] += 1
    return counts


def seat_from_right_of_first(state: State, player: str) -> int:
    """0 for the player to the first player's right, and so on counter-
    clockwise; the first player comes last."""
    seats = state["players"]
    if state["first"] is None:
        raise RulesError("no first player was chosen")
    first = seats.index(state["first"])
    return (first - seats.index(player) - 1) % len(seats)


def ranking_key(state: State, player: str) -> tuple[Any, ...]:
    return (wound_count(state, player), sorted(wound_types(state, player).values(), reverse=True),
            seat_from_right_of_first(state, player))


def standings(state: State) -> list[str]:
    """Players from winner to last."""
    return sorted(state["players"], key=lambda p: ranking_key(state, p))


def game_over(state: State, task: dict[str, Any], rng: Rng) -> None:
    scores = {p: wound_count(state, p) for p in state["players"]}
    order = standings(state)
    event(state, "the game is over: " + ", ".join(f"{p} {scores[p]} wounds" for p in order) + f"; {order[0]} wins")
    series = state["series"]
    if series is None:
        state["over"] = True
        state["final"] = {"winner": order[0], "scores": scores,
                          "types": {p: wound_types(state, p) for p in state["players"]}}
        return
    series["games"].append(scores)
    for p, score in scores.items():
        series["totals"][p] += score
    if max(series["totals"].values()) >= series["target"]:
        state["over"] = True
        winner = min(state["players"], key=lambda p: (series["totals"][p], order.index(p)))
        state["final"] = {"winner": winner, "scores": dict(series["totals"]), "types": {}}
        event(state, "the series is over: " + ", ".join(f"{p} {t}" for p, t in series["totals"].items()) + f"; {winner} wins")
        return
    from pbem.games.nightfall.setup import next_series_game
    next_series_game(state, rng)


def result(state: State) -> Result | None:
    if not state["over"]:
        return None
    final = state["final"]
    details: dict[str, Any] = {"wound_types": final["types"], "first_player": state["first"]}
    if state["series"] is not None:
        details["series_games"] = state["series"]["games"]
    summary = ", ".join(f"{p}: {s}" for p, s in final["scores"].items())
    decided = tie_break(final)
    return Result(winners=(final["winner"],), scores=final["scores"], details=details,
                  summary=f"{final['winner']} wins{f' on the tie-break, {decided}' if decided else ''} ({summary} wounds)")


def tie_break(final: Final) -> str:
    """What gave a single game to its winner over the players with as many wounds: the lower count of
    one wound keyword, compared highest count first (EN 240), then the seat closest to the right of the
    first player (EN 241); ``""`` when the winner has the fewest wounds alone (or a series was won)."""
    winner, scores, types = final["winner"], final["scores"], final["types"]
    tied = [p for p, score in scores.items() if p != winner and score == scores[winner]]
    if not tied or not types:
        return ""
    counts = {p: sorted(types[p].values(), reverse=True) for p in (winner, *tied)}
    decided = []
    if any(counts[p] != counts[winner] for p in tied):
        decided.append("the lower count of one wound keyword")
    if any(counts[p] == counts[winner] for p in tied):
        decided.append("the seat closest to the right of the first player")
    return ", then ".join(decided)


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("game_over", game_over)
