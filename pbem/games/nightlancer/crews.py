"""Missions in the open mission area, Crews and their positions.

A mission slot is ``{"card", "crews": [{"label", "pos", "members"}], "deal"}``;
``members`` lists Nightlancer tokens top first, so ``members[0]`` is the
Boss ("The top token in a Crew is always the Boss of that Crew", 3.1).
"""

from __future__ import annotations

from pbem.games.nightlancer.events import say
from pbem.games.nightlancer.state import Crew, Slot, State

FIRST, SECOND = "first", "second"


def slot_of(state: State, player: str) -> Slot | None:
    for slot in state["missions"]:
        for crew in slot["crews"]:
            if player in crew["members"]:
                return slot
    return None


def crew_at(slot: Slot, pos: str) -> Crew | None:
    for crew in slot["crews"]:
        if crew["pos"] == pos:
            return crew
    return None


def crew_by_label(slot: Slot, label: str) -> Crew | None:
    for crew in slot["crews"]:
        if crew["label"] == label:
            return crew
    return None


def on_mission(state: State, player: str) -> bool:
    return slot_of(state, player) is not None


def leave_mission(state: State, player: str) -> None:
    """Remove a Nightlancer token from its Crew, keeping the others' order.

    Rulebook 3.1 "Leaving a mission": the highest remaining token becomes
    the Boss; in the Take missions step, if no First Crew remains and there
    is a Second Crew, the Second Crew moves into the First Crew space.
    """
    slot = slot_of(state, player)
    if slot is None:
        return
    if slot["deal"] == player:
        # NL:98 the Deal marks "an exclusive deal on a mission" of that Nightlancer and NL:193 it stops
        # a Second Crew "competing against you": once they leave, the deal leaves with them
        slot["deal"] = None
        state["seats"][player]["deal"] = True
        say(state, f"{player}'s Deal token leaves the mission with them.")
    for crew in list(slot["crews"]):
        if player in crew["members"]:
            crew["members"].remove(player)
            if not crew["members"]:
                slot["crews"].remove(crew)
    if state["phase"] == "prep" and slot["crews"] and crew_at(slot, FIRST) is None:
        slot["crews"][0]["pos"] = FIRST


def next_positions(first: str | None, second: str | None, results: dict[str, str]) -> dict[str, str]:
    """Positions on the next Stage of competing Crews (rulebook 3.3 "Competing Crews").

    ``first``/``second`` are the labels of the Crews in each position this
    Stage; ``results`` maps a label to ``"pass"``, ``"fail"`` or ``"gone"``.

    * First Crew passes: First Crew position next Stage; fails: Second.
    * Second Crew passes: First position if it is open, else Second.
    * Second Crew fails: Second position; if the other Crew is already
      there, it is moved to the First position first (it keeps its lead).
    * A Crew left alone on the mission moves to the First Crew space.
    """
    placed: dict[str, str] = {}
    if first is not None and results.get(first) in ("pass", "fail"):
        placed[first] = FIRST if results[first] == "pass" else SECOND
    if second is not None and results.get(second) in ("pass", "fail"):
        if results[second] == "pass":
            placed[second] = FIRST if FIRST not in placed.values() else SECOND
        else:
            if first in placed and placed[first] == SECOND:
                placed[first] = FIRST
            placed[second] = SECOND
    if len(placed) == 1:
        only = next(iter(placed))
        placed[only] = FIRST
    return placed


def slot_by_card(state: State, card_id: str) -> Slot | None:
    for slot in state["missions"]:
        if slot["card"] == card_id:
            return slot
    return None
