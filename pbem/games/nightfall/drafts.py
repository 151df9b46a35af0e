"""Choosing the archives: drafts, Quick Start and their variants (EN 72-90,
EN 246-250, DE 41-48).

Every player picks at once from the draft cards in hand; a pick stays sealed
until all picks of the round are in (a simultaneous decision), then the
rest of each hand passes to the left (to the right in Upstream Draft).

A schedule says where each round's pick goes:

=======================================  =====  ===============================================
mode                                     dealt  picks
=======================================  =====  ===============================================
standard (EN 72-76)                      4      private, private, commons; last back
two-player (EN 81)                       4      removed, private, private, commons
five-card (DE 43)                        5      private, private, commons; last 2 removed
two-player five-card (EN 81, EN 83)      5      removed, private, private, commons; last removed
open archives (EN 249)                   3      private, private; last removed
two-player open archives (EN 249, 81)    3      removed, private, private
=======================================  =====  ===============================================

With 2 players every draft is the 2-player draft (EN 81: "For 2-player
games, we recommend you draft as follows"): its first pick removed, then
the picks of the mode. Five cards make it exactly EN 83's "with the last
card being discarded"; in Open Archives the commons are already full, so
its commons pick falls away. Common Ground (EN 250) sends every private
pick to the commons instead.
Except in Open Archives (commons laid out first), the commons are then
filled to 8 from the draft cards set aside.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.machine import TurnMachine, push
from pbem.engine.rng import Rng
from pbem.games.nightfall.deal import finish_setup
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    current_draft,
    event,
    left_of,
    private_event,
)

COMMONS_SIZE = 8

SCHEDULES = {
    "standard": (4, ["private", "private", "commons"]),
    "two-player": (4, ["removed", "private", "private", "commons"]),
    "five-card": (5, ["private", "private", "commons"]),
    "two-player-five-card": (5, ["removed", "private", "private", "commons"]),
    "open-archives": (3, ["private", "private"]),
    "two-player-open-archives": (3, ["removed", "private", "private"]),
}

#: what a pick does, by the schedule's destination
PICK_PROMPTS = {
    "private": "pick a card for your private archives",
    "commons": "pick a card for the commons (placed face down until the draft ends)",
    "removed": "pick a card to remove from the game (nobody gets it)",
}


def draft_pool(state: State) -> list[str]:
    """The draft cards in play: one per draft card name (and per promo if used)."""
    groups = ("draft", "promo") if state["options"].get("promos") else ("draft",)
    return sorted(k for k, c in state["catalog"].items() if c.get("group") in groups)


def draft_mode(state: State) -> str:
    """The schedule the draft follows: the option's, or Open Archives; with 2 players its 2-player form (EN 81)."""
    mode = "open-archives" if "open-archives" in state["options"]["variants"] else state["options"]["draft"]
    if len(state["players"]) == 2:
        return "two-player" if mode == "standard" else f"two-player-{mode}"
    return mode


def start_draft(state: State, rng: Rng) -> None:
    """Deal the draft cards and open the first round of picks."""
    variants = state["options"]["variants"]
    mode = draft_mode(state)
    dealt, schedule = SCHEDULES[mode]
    if "common-ground" in variants:
        schedule = ["commons" if d == "private" else d for d in schedule]
    pool = rng.shuffled(draft_pool(state), label="draft")
    commons_first: list[str] = []
    if mode.endswith("open-archives"):
        commons_first, pool = pool[:COMMONS_SIZE], pool[COMMONS_SIZE:]
    needed = dealt * len(state["players"])
    if needed > len(pool):
        raise ScenarioError(f"the {mode} draft needs {needed} draft cards for {len(state['players'])} players; "
                         f"only {len(pool)} are in play (set options.promos = true for more)")
    hands = {p: pool[i * dealt:(i + 1) * dealt] for i, p in enumerate(state["players"])}
    state["draft"] = {
        "mode": mode,
        "schedule": schedule,
        "round": 0,
        "hands": hands,
        "chosen": {},
        "private": {p: [] for p in state["players"]},
        "commons": commons_first,
        "face_down": [],
        "set_aside": pool[needed:],
        "direction": -1 if "upstream" in variants else 1,
    }
    state["draft_picks"] = {p: [] for p in state["players"]}
    event(state, f"draft ({mode}): {dealt} draft cards dealt to each player"
          + (f"; commons laid out first: {', '.join(state['catalog'][k]['name'] for k in commons_first)}" if commons_first else ""))
    push(state, "draft_round")


def draft_round(state: State, task: dict[str, Any], rng: Rng) -> None:
    draft = current_draft(state)
    destination = draft["schedule"][draft["round"]]
    if all(len(hand) == 1 for hand in draft["hands"].values()):
        # a pick from a single card is no choice, and everybody knows the count: take it at once
        for player in state["players"]:
            draft["chosen"][player] = draft["hands"][player][0]
        push(state, "draft_resolve")
        return
    for player in state["players"]:
        hand = draft["hands"][player]
        ask(state, player, "draft-pick",
            f"draft round {draft['round'] + 1} of {len(draft['schedule'])}: {PICK_PROMPTS[destination]}",
            [(f"pick:{k}", pick_label(state["catalog"][k])) for k in hand], "draft:pick", {"player": player},
            simultaneous=True)


def pick_label(entry: dict[str, Any]) -> str:
    """A draft card as a pick: its name, colour, type and cost (the screen has the rest)."""
    return f"{entry['name']} ({entry['colour']} {entry['type']}, cost {entry['cost']})"


def _pick(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    draft = current_draft(state)
    draft["chosen"][data["player"]] = option_id.split(":", 1)[1]
    if len(draft["chosen"]) == len(state["players"]):
        push(state, "draft_resolve")


def draft_resolve(state: State, task: dict[str, Any], rng: Rng) -> None:
    """All picks are in: place them face down and pass the rest on."""
    draft = current_draft(state)
    destination = draft["schedule"][draft["round"]]
    for player in state["players"]:
        key = draft["chosen"][player]
        draft["hands"][player].remove(key)
        if destination == "private":
            draft["private"][player].append(key)
        elif destination == "commons":
            draft["face_down"].append(key)
        state["draft_picks"][player].append([key, destination])
        private_event(state, player, f"you pick {state['catalog'][key]['name']}: "
                      + {"private": "your private archives", "commons": "the commons",
                         "removed": "removed from the game"}[destination])
    event(state, f"draft round {draft['round'] + 1}: every player has picked")
    draft["chosen"] = {}
    draft["round"] += 1
    draft["hands"] = {left_of(state, p, draft["direction"]): hand for p, hand in draft["hands"].items()}
    if draft["round"] < len(draft["schedule"]):
        push(state, "draft_round")
        return
    commons = draft["commons"] + sorted(draft["face_down"])
    # Common Ground: "Draft cards not chosen are removed from the game" (EN 250): no filling
    if not draft["mode"].endswith("open-archives") and "common-ground" not in state["options"]["variants"]:
        while len(commons) < COMMONS_SIZE and draft["set_aside"]:
            commons.append(draft["set_aside"].pop())
    finish_setup(state, commons, draft["private"], rng)


def quick_start(state: State, rng: Rng) -> None:
    """Each player gets one Quick Start set for his private archives (EN 84-90,
    the sets of the card file); the referee deals the sets at random and fills
    the commons with 8 random draft cards from the rest (the book is silent on
    the commons)."""
    quick_start_sets = state["quick_start_sets"]
    if len(state["players"]) > len(quick_start_sets):
        raise ScenarioError(f"the card file has {len(quick_start_sets)} Quick Start sets: "
                            f"at most {len(quick_start_sets)} players")
    sets = rng.shuffled(quick_start_sets, label="quick-start")
    private = {p: list(sets[i]) for i, p in enumerate(state["players"])}
    used = {k for s in private.values() for k in s}
    rest = rng.shuffled([k for k in draft_pool(state) if k not in used], label="quick-start")
    finish_setup(state, rest[:COMMONS_SIZE], private, rng)


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("draft_round", draft_round)
    machine.task("draft_resolve", draft_resolve)
    machine.answer("draft:pick", on_data(_pick))
