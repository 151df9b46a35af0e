"""Setting up a game (EN 60-79, DE 28-30).

The wound stack (the Martial Law mix by default: 45 Nightfall wounds, 5 of
each type taken out, plus 15 Martial Law wounds), 10 face up per player;
starting decks of 12 (two of each starting minion); the archives (by draft,
Quick Start or a pinned set-up); each player shuffles and draws 5; the
referee picks the first player at random.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine.remembered import for_the_last_object
from pbem.engine.rng import Rng
from pbem.games.nightfall import drafts
from pbem.games.nightfall.cards import build_catalogue, quick_start_sets
from pbem.games.nightfall.data import DATA
from pbem.games.nightfall.deal import make_archive
from pbem.games.nightfall.state import State, all_cards, current_turn, event, new_id
from pbem.games.nightfall.turn import begin_turn

FACE_UP_PER_PLAYER = 10
STARTER_COPIES = 2


def static_members(scenario: dict[str, Any]) -> dict[str, Any]:
    """The card catalogue and the Quick Start sets: from the scenario's card data alone, never changed."""
    return _static_members_of(scenario["card_data"])


def _static_members_of(card_data: dict[str, Any]) -> dict[str, Any]:
    return {"catalog": build_catalogue(card_data), "quick_start_sets": quick_start_sets(card_data)}


#: :func:`static_members`, one for every state set up from the same card data object, one after another
#: (games played in memory): they are static and no rule changes them, so states may share them, as every
#: state the referee opens in a process shares one read-only copy
_shared_static_members = for_the_last_object(_static_members_of)


def empty_state(scenario: dict[str, Any], players: Sequence[str]) -> State:
    static = _shared_static_members(scenario["card_data"])
    return {
        "format": "nightfall-state/1",
        "scenario": scenario.get("name", ""),
        "players": list(players),
        "options": DATA.options(scenario.get("options", {}), players),
        "catalog": static["catalog"],
        "quick_start_sets": static["quick_start_sets"],
        "counters": {},
        "zones": {p: {"hand": [], "deck": [], "discard": []} for p in players},
        "archives": [],
        "in_play": [],
        "chain": None,
        "wound_stack": [],
        "face_up": 0,
        "exiled": [],
        "stack": [],
        "pending": [],
        "events": [],
        "private_events": {},
        "ending": False,
        "over": False,
        "turn": None,
        "first": None,
        "draft": None,
        "draft_picks": {p: [] for p in players},
        "census": [],
        "series": None,
    }


def wound_keys(state: State) -> list[str]:
    """The wound cards of the chosen mix (EN 9, DE 30)."""
    mix = state["options"]["wounds"]
    keys: list[str] = []
    for key, data in sorted(state["catalog"].items()):
        if data["type"] != "wound":
            continue
        count = data["per_type"]
        if data["kind"] == "nightfall" and mix == "martial-law":
            count -= 5
        if data["kind"] == "martial-law" and mix == "nightfall":
            count = 0
        keys += [key] * count
    return keys


def start_game(state: State, rng: Rng) -> None:
    """Wound stack, starting decks, archives; then the draw and the first turn."""
    stack = [new_id(state, key) for key in wound_keys(state)]
    state["wound_stack"] = rng.shuffled(stack, label="wounds")
    state["face_up"] = min(FACE_UP_PER_PLAYER * len(state["players"]), len(stack))
    starters = sorted(k for k, c in state["catalog"].items() if c.get("group") == "starter")
    for player in state["players"]:
        state["zones"][player]["deck"] = [new_id(state, k) for k in starters for _ in range(STARTER_COPIES)]
    if state["options"]["draft"] == "quick-start":
        drafts.quick_start(state, rng)
    else:
        drafts.start_draft(state, rng)


PHASES = ("combat", "chain", "claim", "cleanup")


def pinned_setup(state: State, pin: dict[str, Any], rng: Rng) -> None:
    """A set-up fixed card by card, so that worked examples are tests.

    ``pin`` gives, per player, ``hand``, ``deck`` (top card first),
    ``discard`` (top card last), ``in_play`` (``{card, damage, owner}``) and
    ``archives``; ``commons``; the wound stack (``wound_stack`` of wound keys,
    top last, or the scenario's mix shuffled) and ``face_up``; ``first``,
    ``active`` and the ``phase`` the game starts in.
    """
    if "wound_stack" in pin:
        state["wound_stack"] = [new_id(state, k) for k in pin["wound_stack"]]
    else:
        state["wound_stack"] = rng.shuffled([new_id(state, k) for k in wound_keys(state)], label="wounds")
    state["face_up"] = min(pin.get("face_up", FACE_UP_PER_PLAYER * len(state["players"])), len(state["wound_stack"]))
    for i, key in enumerate(pin.get("commons", [])):
        state["archives"].append(make_archive(state, f"commons-{i + 1}", key, None))
    for player in state["players"]:
        setup = pin.get("players", {}).get(player, {})
        z = state["zones"][player]
        z["hand"] = [new_id(state, k) for k in setup.get("hand", [])]
        z["deck"] = [new_id(state, k) for k in reversed(setup.get("deck", []))]
        z["discard"] = [new_id(state, k) for k in setup.get("discard", [])]
        for item in setup.get("in_play", []):
            item = {"card": item} if isinstance(item, str) else item
            state["in_play"].append({"card": new_id(state, item["card"]), "owner": item.get("owner", player),
                                     "controller": player, "damage": item.get("damage", 0)})
        for i, key in enumerate(setup.get("archives", [])):
            state["archives"].append(make_archive(state, f"{player}-{i + 1}", key, player))
    state["census"] = sorted(all_cards(state))
    first = pin.get("first", state["players"][0])
    state["first"] = first
    begin_turn(state, pin.get("active", first))
    phase = pin.get("phase", "combat")
    current_turn(state).update(pin.get("turn", {}))
    # drop the phases before the pinned one
    skip = 2 * PHASES.index(phase) if phase in ("combat", "chain") else {"claim": 4, "cleanup": 5}[phase]
    for _ in range(skip):
        state["stack"].pop()


def next_series_game(state: State, rng: Rng) -> None:
    """End-of-the-World Series: the next game, with the totals kept (EN 251)."""
    for player in state["players"]:
        state["zones"][player] = {"hand": [], "deck": [], "discard": []}
    state.update({"archives": [], "in_play": [], "chain": None, "wound_stack": [], "face_up": 0, "exiled": [],
                  "stack": [], "ending": False, "turn": None, "counters": {}, "census": []})
    games = len(state["series"]["games"]) if state["series"] else 0
    event(state, f"End-of-the-World Series: game {games + 1}")
    start_game(state, rng)
