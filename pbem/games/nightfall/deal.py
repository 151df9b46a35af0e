"""The end of the set-up (EN 77-79): the archives laid out, every deck shuffled, five cards drawn, the
first player.

A draft and the Quick Start sets (:mod:`.drafts`) end here, and a pinned
set-up (:mod:`.setup`) lays its archives out the same way, so this module
depends on neither.
"""

from __future__ import annotations

from pbem.engine.rng import Rng
from pbem.games.nightfall.state import Archive, State, all_cards, draw, event, new_id
from pbem.games.nightfall.turn import begin_turn


def make_archive(state: State, archive_id: str, key: str, owner: str | None) -> Archive:
    copies = state["catalog"][key]["copies"]
    return {"id": archive_id, "owner": owner, "cards": [new_id(state, key) for _ in range(copies)], "hidden": False}


def finish_setup(state: State, commons: list[str], private: dict[str, list[str]], rng: Rng) -> None:
    """Replace the draft cards with their piles of order cards, shuffle,
    draw 5 and begin (EN 77-79)."""
    state["draft"] = None
    secret = "secret-archives" in state["options"]["variants"]
    for i, key in enumerate(commons):
        state["archives"].append(make_archive(state, f"commons-{i + 1}", key, None))
    for player in state["players"]:
        for i, key in enumerate(private.get(player, [])):
            archive = make_archive(state, f"{player}-{i + 1}", key, player)
            archive["secret"] = secret
            state["archives"].append(archive)
    names = ", ".join(state["catalog"][k]["name"] for k in commons)
    event(state, f"the commons: {names}")
    for player in state["players"]:
        z = state["zones"][player]
        rng.shuffle(z["deck"], label="deck")
        draw(state, player, 5, rng)
    state["census"] = sorted(all_cards(state))
    first = state["options"]["first_player"] or rng.choice(state["players"], label="first")
    state["first"] = first
    event(state, f"{first} is the first player")
    begin_turn(state, first)
