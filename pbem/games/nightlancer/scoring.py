"""Game end and final scoring (rulebook 3.4, 4 and 6.1).

Final scoring, in the book's order: sell Items, use Contacts, fulfil
Agendas (the player's ``final`` decisions), then pay Heat at 2 KC a point,
Loans at 10 KC, and buy Prospects at 5 KC; +1 Prospect per Ideal, -1 per
Heat, -5 per Loan. These last payments are made for the player, in the
split that gives them the best result (:func:`best_payments`).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import RulesError, present
from pbem.engine.machine import PendingDecision, Task, TurnMachine, finish, top
from pbem.engine.protocol import Result
from pbem.engine.rng import Rng
from pbem.games.nightlancer import agendas, tokens
from pbem.games.nightlancer.actions import sell
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.outcome import game_over
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.zones import card, discard

HAND_LIMIT = 6
HEAT_KC, LOAN_KC, PROSPECT_KC, LOAN_PROSPECTS = 2, 10, 5, 5
#: 6.1: "a combined score of 30 multiplied by the number of players"
TARGET_PER_PLAYER = 30


def run_end(state: State, frame: Task, rng: Rng) -> None:
    """3.4 End phase: discard to 6, end game check, turn order by Heat then Prospects."""
    for player in state["order"]:
        if len(tokens.seat(state, player)["hand"]) > HAND_LIMIT:
            ask(state, player, "discard", prompt=f"Discard down to {HAND_LIMIT} cards")
            return
    if not state["decks"]["event"]:
        tokens.say(state, "The Event deck is empty: the game ends.")
        state["phase"] = "game-end"
        frame["type"] = "final"
        frame.update(step="start", queue=list(state["order"]))
        return
    before = list(state["order"])
    # sorted() is stable: "If there are still ties then the order of the tied players does not change."
    state["order"] = sorted(before, key=lambda p: (tokens.seat(state, p)["heat"], tokens.seat(state, p)["prospects"]))
    tokens.say(state, f"Turn order: {', '.join(state['order'])}.")
    finish(state)


def discard_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [(f"discard:{c}", f"Discard {card(state, c)['name']}") for c in tokens.seat(state, decision["player"])["hand"]]


def discard_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    c = option.split(":", 1)[1]
    tokens.seat(state, decision["player"])["hand"].remove(c)
    discard(state, c)
    tokens.say(state, f"{decision['player']} discards {card(state, c)['name']}.")


def run_final(state: State, frame: Task, rng: Rng) -> None:
    if frame["queue"]:
        ask(state, frame["queue"][0], "final", contacts=True,
            prompt="Game end: sell Items, use Contacts and fulfil Agendas, then score")
        return
    score_all(state)


def final_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    player = decision["player"]
    options = [(f"fulfil:{c}", f"Fulfil the Agenda {card(state, c)['name']}") for c in agendas.fulfillable(state, player)]
    options.append(("done", "Done: score"))
    return options


def final_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    if option == "done":
        frame["queue"].pop(0)
    else:
        agendas.fulfil(state, decision["player"], option.split(":", 1)[1], rng)


def best_payments(kc: int, heat: int, loans: int) -> tuple[int, int, int]:
    """The Loans repaid, Heat paid off and Prospects bought that give the best final result.

    NL:349-351 lets each player pay Heat (2 KC a point), discard Loans (10 KC each) and then buy
    Prospects (5 KC each); which payments to make is theirs. No fixed order is always best (10 KC,
    1 Heat, 1 Loan: repaying the Loan scores 3 more than paying the Heat first), so every number
    of Loans repaid is tried, then Heat, then Prospects; a tie keeps the most KC (the last tie-break).
    """
    best: tuple[tuple[int, int], tuple[int, int, int]] | None = None
    for repaid in range(min(loans, kc // LOAN_KC) + 1):
        left = kc - repaid * LOAN_KC
        paid = min(heat, left // HEAT_KC)
        left -= paid * HEAT_KC
        bought = left // PROSPECT_KC
        left -= bought * PROSPECT_KC
        gain = bought + paid + LOAN_PROSPECTS * repaid
        if best is None or (gain, left) > best[0]:
            best = ((gain, left), (repaid, paid, bought))
    if best is None:
        raise RulesError("no split of the final payments was tried")
    return best[1]


def final_score(state: State, player: str) -> dict[str, int]:
    """Settle one player's account and return their final figures."""
    p = tokens.seat(state, player)
    for item in list(p["items"]):
        sell(state, player, item)
    loans_paid, heat_paid, bought = best_payments(p["kc"], p["heat"], p["loans"])
    p["kc"] -= loans_paid * LOAN_KC + heat_paid * HEAT_KC + bought * PROSPECT_KC
    p["loans"] -= loans_paid
    p["heat"] -= heat_paid
    p["prospects"] += bought
    score = p["prospects"] + p["ideals"] - p["heat"] - LOAN_PROSPECTS * p["loans"]
    return {"score": score, "ideals": p["ideals"], "kc": p["kc"]}


def tie_break(figures: dict[str, Any], winners: list[str], candidates: list[str]) -> str:
    """What gave the game to a single winner over the candidates with as many Prospects: the most
    Ideals, then the most KC (rulebook 4); ``""`` when the winner has the most Prospects alone, or
    the victory is shared."""
    if len(winners) != 1:
        return ""
    won = figures[winners[0]]
    rivals = [figures[p] for p in candidates if p != winners[0] and figures[p]["score"] == won["score"]]
    by_ideals = any(rival["ideals"] < won["ideals"] for rival in rivals)
    by_kc = any(rival["ideals"] == won["ideals"] for rival in rivals)
    if by_ideals and by_kc:
        return "the most Ideals, then the most KC"
    if by_ideals:
        return "the most Ideals"
    return "the most KC (Ideals tied)" if by_kc else ""


def score_all(state: State) -> None:
    figures = {p: final_score(state, p) for p in state["order"]}
    scores = {p: f["score"] for p, f in figures.items()}
    mode = state["mode"]
    if mode == "competitive":
        sane = [p for p in state["players"] if figures[p]["ideals"] > 0]
        candidates = sane or list(state["players"])
        best = max((figures[p]["score"], figures[p]["ideals"], figures[p]["kc"]) for p in candidates)
        winners = [p for p in candidates if (figures[p]["score"], figures[p]["ideals"], figures[p]["kc"]) == best]
        decided = tie_break(figures, winners, candidates)
        summary = ("Shared victory: " if len(winners) > 1 else "Winner: ") + ", ".join(winners) + \
            f" with {best[0]} Prospects" + (f", on the tie-break: {decided}." if decided else ".")
    else:
        total = sum(scores.values())
        target = TARGET_PER_PLAYER * len(state["players"])
        winners = list(state["players"]) if total >= target else []
        summary = f"Combined score {total} against a target of {target}: " + ("won." if winners else "lost.")
    game_over(state, winners, scores, summary, {"final": figures})


def result(state: State) -> Result | None:
    if not state["over"]:
        return None
    o = present(state["outcome"], "the outcome of a finished game")
    return Result(winners=tuple(o["winners"]), scores=dict(o["scores"]), summary=o["summary"],
                  details=dict(o["details"]))


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.step("end", "start", run_end)
    machine.step("final", "start", run_final)
    machine.kind("discard", prompt="Discard down to 6 cards", options=discard_options, apply=discard_apply)
    machine.kind("final", prompt="Game end: fulfil Agendas, sell, use Contacts", pass_id="done", options=final_options, apply=final_apply)
