"""Turns and their phases: combat, chain, claim, cleanup (EN 133-235).

The game ends when the last face-up wound is taken, once the chain or the
combat in progress has finished (EN 237); no further phase is played.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import Task, TurnMachine, new_task, push, push_all
from pbem.engine.rng import Rng
from pbem.games.nightfall import abilities
from pbem.games.nightfall.effects import archive_label, carry_out, find_archive
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    Archive,
    State,
    Turn,
    card,
    current_turn,
    discarded_action_influence,
    draw,
    event,
    is_wound,
    left_of,
    minions_of,
    name,
    zones,
)

STARTING_INFLUENCE = 2
HAND_SIZE = 5


def fresh_turn(player: str, number: int) -> Turn:
    return {"player": player, "number": number, "phase": "start", "influence": STARTING_INFLUENCE,
            "action_influence": 1, "wound_used": False, "bonus": {}, "protected": [], "combat": None, "tried": []}


def turn_tasks() -> list[Task]:
    return [
        new_task("combat_phase"),
        new_task("check_end"),
        new_task("chain_phase"),
        new_task("check_end"),
        new_task("claim_phase"),
        new_task("cleanup_phase"),
        new_task("end_turn"),
    ]


def begin_turn(state: State, player: str) -> None:
    turn = fresh_turn(player, current_turn(state)["number"] + 1 if state["turn"] else 1)
    state["turn"] = turn
    event(state, f"turn {turn['number']}: {player}")
    push_all(state, turn_tasks())


def check_end(state: State, task: dict[str, Any], rng: Rng) -> None:
    if state["ending"]:
        state["stack"] = []
        push(state, "game_over")


# -------------------------------------------------------------------- claim

def influence_for(state: State, card_id: str) -> int:
    """A discarded card gives 1 influence; a discarded action more while an
    effect says so (DE 76, DE 82)."""
    if card(state, card_id)["type"] == "action":
        return discarded_action_influence(state)
    return 1


def claim_cost(state: State, archive: Archive) -> int:
    """The top card's printed cost (EN 220), a face-down archive's too: its
    cards "may be bought in the given order" (DE 87)."""
    return card(state, archive["cards"][-1])["cost"]


def claimable(state: State, player: str) -> list[Archive]:
    """The commons and your own private archives that hold a card, never opposing ones (EN 220), in order."""
    return [a for a in state["archives"] if a["cards"] and a["owner"] in (None, player)]


def claim_phase(state: State, task: dict[str, Any], rng: Rng) -> None:
    turn = current_turn(state)
    turn["phase"] = "claim"
    player = turn["player"]
    archives = claimable(state, player)
    options = []
    for archive in archives:
        if archive["hidden"]:
            # its top card is unseen (DE 87), so the option cannot depend on its cost
            if archive["id"] not in turn["tried"]:
                options.append((f"claim:{archive['id']}", f"claim the unseen top card of {archive_label(state, archive)} "
                                "(you pay its cost if you can; otherwise it is shown to all and stays)"))
            continue
        top = card(state, archive["cards"][-1])
        cost = top["cost"]  # claim_cost, the top card looked up once
        if cost <= turn["influence"]:
            label = archive_label(state, archive) if not archive.get("secret") else f"{top['name']} (your face-down archive)"
            options.append((f"claim:{archive['id']}", f"claim {label} for {cost}"))
    # an archive offered is something to claim: its cost is seen and paid, or it is face down and untried
    left = bool(options) or something_to_claim(state, player, archives)
    # influence_for an action, the same for each: read at the first action in hand, as most hands hold none
    action_influence: int | None = None
    for card_id in zones(state, player)["hand"]:
        data = card(state, card_id)
        if data["type"] == "action":
            if action_influence is None:
                action_influence = discarded_action_influence(state)
            gained = action_influence
        else:
            gained = 1
        options.append((f"discard:{card_id}", f"discard {data['name']} for {gained} influence"))
    ask(state, player, "claim" if left else "nothing-to-claim",
        f"claim phase: {turn['influence']} influence" + ("" if left else ", nothing left to claim"),
        options + [("done", "end the claim phase")], "turn:claim")


def something_to_claim(state: State, player: str, archives: list[Archive] | None = None) -> bool:
    """Whether an archive you may claim from (EN 220) has a top card you could pay for with
    your influence and one more per card in hand ("Influence = 2 automatic + influence from
    card effects + 1 per discard"), judged by public facts only, as the decision's kind is
    public: an untried face-down archive, or a secret archive of yours (whose top card
    only you see), counts as something to claim. A player's standing order may end the
    claim phase when nothing is left to claim (kind ``nothing-to-claim``).

    ``archives``: :func:`claimable` of ``player``, when the caller has it at hand.
    """
    turn = current_turn(state)
    reach = turn["influence"] + len(zones(state, player)["hand"])
    for archive in claimable(state, player) if archives is None else archives:
        if archive["hidden"]:
            if archive["id"] not in turn["tried"]:
                return True
        elif archive.get("secret") or claim_cost(state, archive) <= reach:
            return True
    return False


def _claim(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    turn = current_turn(state)
    player = turn["player"]
    kind, _, which = option_id.partition(":")
    if kind == "done":
        if turn["influence"]:
            event(state, f"{player}'s {turn['influence']} unused influence is lost")
        return
    push(state, "claim_phase")
    if kind == "discard":
        gained = influence_for(state, which)
        zones(state, player)["hand"].remove(which)
        zones(state, player)["discard"].append(which)
        turn["influence"] += gained
        event(state, f"{player} discards {name(state, which)} for {gained} influence")
        return
    archive = find_archive(state, which)
    cost = claim_cost(state, archive)
    if cost > turn["influence"]:
        # only a face-down archive can get here: the card is turned up, cannot be bought, and stays on top
        turn["tried"].append(archive["id"])
        event(state, f"{player} turns up {name(state, archive['cards'][-1])} (cost {cost}) on archive {archive['id']}: "
              f"{turn['influence']} influence is not enough; it stays")
        return
    top = archive["cards"].pop()
    archive["secret"] = False
    turn["influence"] -= cost
    zones(state, player)["discard"].append(top)
    event(state, f"{player} claims {name(state, top)} from archive {archive['id']} for {cost}")


# ------------------------------------------------------------------ cleanup

def cleanup_phase(state: State, task: dict[str, Any], rng: Rng) -> None:
    """Draw up to 5, then you may use one wound effect (EN 231-232)."""
    turn = current_turn(state)
    turn["phase"] = "cleanup"
    player = turn["player"]
    hand = zones(state, player)["hand"]
    if len(hand) < HAND_SIZE:
        draw(state, player, HAND_SIZE - len(hand), rng)
    options = []
    if not turn["wound_used"]:
        options = [(f"wound:{c}", f"use {name(state, c)}: discard wounds, draw 2 cards per wound")
                   for c in hand if card(state, c).get("kind") == "nightfall"]
    # always asked, so that whether you hold a wound stays hidden
    ask(state, player, "wound-effect", "use a wound effect?", options + [("pass", "use no wound effect")],
        "turn:wound")
    push(state, "cleanup_draws")


def _wound(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "pass":
        return
    current_turn(state)["wound_used"] = True
    _wound_discard(state, {"discarded": [], "first": option_id.split(":", 1)[1]}, option_id, rng)


def _wound_discard(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    player = current_turn(state)["player"]
    hand = zones(state, player)["hand"]
    if option_id != "done":
        wound = option_id.split(":", 1)[1]
        hand.remove(wound)
        zones(state, player)["discard"].append(wound)
        data["discarded"].append(wound)
        event(state, f"{player} discards {name(state, wound)}")
        others = [c for c in hand if is_wound(state, c)]
        ask(state, player, "wound-effect", "discard another wound to draw 2 more cards?",
            [(f"wound:{c}", f"discard {name(state, c)}") for c in others] + [("done", "draw now")],
            "turn:wound-more", data, pass_id="done")  # discarding no more wounds is this decision's pass
        return
    # the cards drawn now cannot be used for another wound effect (EN 232, EN 234)
    draw(state, player, 2 * len(data["discarded"]), rng)


def cleanup_draws(state: State, task: dict[str, Any], rng: Rng) -> None:
    """"At the end of your cleanup phase" texts ("draw 1 card"), after the
    wound effect (DE 73)."""
    player = current_turn(state)["player"]
    minions = minions_of(state, player)
    for record in minions:
        for trigger in abilities.triggers(card(state, record["card"]), "at_cleanup_end", len(minions)):
            carry_out(state, trigger, {"player": player, "entry": None, "card": record["card"]}, rng)


def end_turn(state: State, task: dict[str, Any], rng: Rng) -> None:
    """All card effects end (EN 235); the player to the left goes next."""
    begin_turn(state, left_of(state, current_turn(state)["player"]))


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("check_end", check_end)
    machine.task("claim_phase", claim_phase)
    machine.task("cleanup_phase", cleanup_phase)
    machine.task("cleanup_draws", cleanup_draws)
    machine.task("end_turn", end_turn)
    machine.answer("turn:claim", on_data(_claim))
    machine.answer("turn:wound", on_data(_wound))
    machine.answer("turn:wound-more", on_data(_wound_discard))
