"""Effects on archives."""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, push
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects.common import (
    archive_label,
    choose,
    effect_task,
    find_archive,
)
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    event,
    is_minion_card,
    is_order,
    name,
    zones,
)


def take_minion_from_archive(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Take the top card of any archive for free, now, if it is a minion
    (DE 74, EN 298); it goes to your discard pile like a claimed card."""
    options = [(f"archive:{a['id']}", archive_label(state, a)) for a in state["archives"] if a["cards"]]
    if options:
        choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: take a minion from which archive?", options,
               "fx:take_from_archive", {"ctx": ctx})


def _take_from_archive(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    archive = find_archive(state, option_id.split(":", 1)[1])
    player = data["ctx"]["player"]
    top = archive["cards"][-1]
    if not is_minion_card(state, top):
        event(state, f"the top card of archive {archive['id']} is not a minion: {player} takes nothing")
        return
    archive["cards"].pop()
    archive["secret"] = False
    zones(state, player)["discard"].append(top)
    event(state, f"{player} takes {name(state, top)} from archive {archive['id']}")


def new_blind_archive(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Shuffle N cards from your hand face down into a new archive in the
    commons; it is claimed from the top, unseen (DE 87, EN 297)."""
    _blind_pick(state, {"ctx": ctx, "left": params["amount"], "cards": []}, None, rng)


def _blind_pick(state: State, data: dict[str, Any], option_id: str | None, rng: Rng) -> None:
    """Archives hold order cards only (EN 108 "Archives are stacks of order
    cards"): a wound cannot go in, or it would leave the player's wound count.
    The player is asked once per card the text asks for (while his hand holds
    cards), even with no order card left, so the others learn nothing of his hand."""
    player = data["ctx"]["player"]
    hand = zones(state, player)["hand"]
    if option_id is not None:
        data["left"] -= 1
        if option_id.startswith("card:"):
            data["cards"].append(option_id.split(":", 1)[1])
        else:
            data["left"] = 0
    # the cards stay in hand until all are chosen
    rest = [c for c in hand if c not in data["cards"]]
    if data["left"] > 0 and rest:
        orders = [(f"card:{c}", name(state, c)) for c in rest if is_order(state, c)]
        ask(state, player, "discard", f"{name(state, data['ctx']['card'])}: put which order card into the new archive?",
            orders or [("none", "no order card left to put in")], "fx:blind_archive", data)
        return
    for card_id in data["cards"]:
        hand.remove(card_id)
    if data["cards"]:
        push(state, "make_blind_archive", params={"cards": data["cards"]}, ctx=data["ctx"])


def _make_blind_archive(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    state["blind_archives"] = state.get("blind_archives", 0) + 1
    archive_id = f"blind-{state['blind_archives']}"
    state["archives"].append({"id": archive_id, "owner": None, "cards": rng.shuffled(params["cards"], label="blind"),
                              "hidden": True})
    event(state, f"{ctx['player']} makes a face-down archive {archive_id} of {len(params['cards'])} cards")


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("make_blind_archive", effect_task(_make_blind_archive))
    machine.answer("fx:take_from_archive", on_data(_take_from_archive))
    machine.answer("fx:blind_archive", on_data(_blind_pick))
