"""The rules of Sealed Bids, on the engine's turn machine.

* Each player has coins (public). The lots, worth 1 to 9, are shuffled face
  down.
* **A round** (a task in steps): the top lot is shown; every player bids at
  once, sealed (a simultaneous decision; bidding 0 is the pass). When the
  last bid is in, all are shown: the single highest bid pays and takes the
  lot; a tie for highest takes nothing and the lot is discarded.
* **Cash in** (a free action, in every decision): sell a lot you won back
  for half its worth, rounded down.
* When the lots are gone, coins plus the worth of your lots is your score;
  the highest wins, tied leaders share the win.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import present
from pbem.engine.machine import MachineState, PendingDecision, Task, TurnMachine, ask, finish, push, push_all, top
from pbem.engine.rng import Rng


class State(MachineState):
    players: list[str]
    coins: dict[str, int]
    won: dict[str, list[int]]
    deck: list[int]
    discard: list[int]
    lot: int | None
    events: list[str]
    scores: dict[str, int] | None
    census: list[int]


def say(state: State, line: str) -> None:
    state["events"].append(line)


def new_state(scenario: dict[str, Any], players: list[str], rng: Rng) -> State:
    lots = [int(v) for v in scenario["lots"]]
    state: State = {
        "stack": [], "pending": [], "over": False,
        "players": list(players), "coins": dict.fromkeys(players, scenario["coins"]), "won": {p: [] for p in players},
        "deck": rng.shuffled(lots, label="lots"), "discard": [], "lot": None, "events": [], "scores": None,
        "census": sorted(lots),
    }
    push(state, "auction")
    return state


# --- tasks


def auction(state: State, task: Task, rng: Rng) -> None:
    """One-shot: the next round while lots are left, then the score."""
    if state["deck"]:
        push_all(state, [{"type": "round", "bids": {}}, {"type": "auction"}])
    else:
        push(state, "score")


def round_start(state: State, task: Task, rng: Rng) -> None:
    lot = state["deck"].pop(0)
    state["lot"] = lot
    say(state, f"a lot worth {lot} is up")
    for player in state["players"]:
        ask(state, player, "bid", f"bid for the lot worth {lot} (sealed until all have bid)", simultaneous=True)
    task["step"] = "settle"


def round_settle(state: State, task: Task, rng: Rng) -> None:
    lot = present(state["lot"], "the lot up for auction")
    bids: dict[str, int] = task["bids"]
    say(state, "bids: " + ", ".join(f"{p} {bids[p]}" for p in state["players"]))
    best = max(bids.values())
    leaders = [p for p in state["players"] if bids[p] == best]
    if len(leaders) == 1 and best > 0:
        winner = leaders[0]
        state["coins"][winner] -= best
        state["won"][winner].append(lot)
        say(state, f"{winner} takes the lot for {best}")
    else:
        state["discard"].append(lot)
        say(state, "nobody takes the lot")
    state["lot"] = None
    finish(state)


def score(state: State, task: Task, rng: Rng) -> None:
    scores = {p: state["coins"][p] + sum(state["won"][p]) for p in state["players"]}
    state["scores"] = scores
    say(state, "scores: " + ", ".join(f"{p} {s}" for p, s in scores.items()))
    state["over"] = True


# --- decisions


def bid_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    coins = state["coins"][decision["player"]]
    return [(f"bid:{n}", f"bid {n}" if n else "bid nothing") for n in range(coins + 1)]


def bid_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    top(state)["bids"][decision["player"]] = int(option.split(":")[1])


def cash_offers(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    worths = sorted(set(state["won"][decision["player"]]))
    return [(f"cash:{worth}", f"cash in a lot worth {worth} for {worth // 2}") for worth in worths]


def cash_apply(state: State, player: str, option: str, rng: Rng) -> None:
    worth = int(option.split(":")[1])
    state["won"][player].remove(worth)
    state["discard"].append(worth)
    state["coins"][player] += worth // 2
    say(state, f"{player} cashes in a lot worth {worth}")


def turn_machine() -> TurnMachine[State]:
    machine: TurnMachine[State] = TurnMachine("sealedbids")
    machine.task("auction", auction)
    machine.task("score", score)
    machine.steps("round", {"start": round_start, "settle": round_settle})
    machine.kind("bid", prompt="your sealed bid", pass_id="bid:0", options=bid_options, apply=bid_apply)
    machine.free_action("cash", cash_offers, cash_apply)
    return machine
