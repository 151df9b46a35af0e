"""Effects on players: damage, wounds, cards drawn and discarded, influence."""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, push
from pbem.engine.rng import Rng
from pbem.games.nightfall import damage
from pbem.games.nightfall.effects.common import (
    amount_of,
    choose,
    each_player_in_chosen_order,
    effect_task,
    player_options,
)
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    clockwise_from,
    current_turn,
    discard_from_hand,
    event,
    name,
    zones,
)
from pbem.games.nightfall.state import draw as draw_cards
from pbem.games.nightfall.state import receive_wounds as take_wounds


def damage_player(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Deal N damage to a player of your choice (``target = "player"``; an opponent with ``opponents_only``),
    or to every player (``target = "each-player"``), one after another in the order the causing player
    chooses (EN 132). ``amount_from = "exiled-cost"``: N is the cost of the card this text exiled, nothing
    when it exiled none. The damage to a minion is :func:`.minions.damage_minion`'s."""
    amount = amount_of(state, ctx, params)
    if "amount_from" in params and amount <= 0:
        return
    if params["target"] == "each-player":
        each_player_in_chosen_order(state, ctx, "damage_one", {"amount": amount})
        return
    dealt = amount * damage.multiplier(state, ctx)  # the prompt says what will be dealt: a doubling too (DE 93)
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: deal {dealt} damage to which player?",
           player_options(state, ctx, params.get("opponents_only", False)), "fx:damage_player",
           {"ctx": ctx, "amount": amount})


def _damage_player(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    damage.damage_player(state, option_id.split(":", 1)[1], data["amount"], data["ctx"])


def _damage_one(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    damage.damage_player(state, params["player"], params["amount"], ctx)


def receive_wounds(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """You receive N wounds (``target = "you"``), or the player this minion attacks (``target =
    "defender"``: when it attacks, blocked or not, DE 77). Wounds are not damage: never blocked (EN 168)."""
    take_wounds(state, ctx["defender"] if params["target"] == "defender" else ctx["player"], params["amount"])


def draw(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Draw N cards."""
    draw_cards(state, ctx["player"], params["amount"], rng)


def gain_influence(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Gain N influence (it can only be spent in your own claim phase)."""
    if ctx["player"] == current_turn(state)["player"]:
        current_turn(state)["influence"] += params["amount"]
        event(state, f"{ctx['player']} gains {params['amount']} influence")


def action_discard_influence(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """In your own turn, each action card discarded for influence gives N
    (DE 76, DE 82); with several such effects the highest counts."""
    if ctx["player"] == current_turn(state)["player"]:
        turn = current_turn(state)
        turn["action_influence"] = max(turn["action_influence"], params["amount"])
        event(state, f"{ctx['player']}'s discarded actions give {turn['action_influence']} influence this turn")


def discard(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Discard N cards of your choice from hand (``target = "you"``; with ``optional``, you may: each time
    with the choice to discard nothing, which ends it), or each player N of his choice (``target =
    "each-player"``), one player after another in the order you choose (EN 132: a later player sees the
    earlier discards)."""
    amount = params.get("amount", 1)
    if params["target"] == "each-player":
        each_player_in_chosen_order(state, ctx, "discard_own", {"amount": amount},
                                    lambda p: bool(zones(state, p)["hand"]))
        return
    _discard_own(state, ctx, {"amount": amount, "player": ctx["player"], "optional": params.get("optional", False)},
                 rng)


def _discard_own(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """One card of the player's choice, and a task for the rest. An optional discard a minion's attack
    causes (its text's context names the defender) says so."""
    player = params["player"]
    hand = zones(state, player)["hand"]
    if params["amount"] <= 0 or not hand:
        return
    options = [(f"discard:{c}", name(state, c)) for c in hand]
    if params.get("optional"):
        attacks = " attacks" if "defender" in ctx else ""
        ask(state, player, "discard", f"{name(state, ctx['card'])}{attacks}: you may discard a card",
            options + [("pass", "discard nothing")], "fx:discard_own", {"ctx": ctx, "params": params})
        return
    ask(state, player, "discard", f"{name(state, ctx['card'])}: discard a card", options, "fx:discard_own",
        {"ctx": ctx, "params": params})


def _discard_own_answer(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "pass":
        return
    discard_from_hand(state, data["params"]["player"], option_id.split(":", 1)[1])
    rest = dict(data["params"], amount=data["params"]["amount"] - 1)
    push(state, "discard_own", params=rest, ctx=data["ctx"])


def each_player_discards_top_of_deck(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Each player, you included, discards the top card of his deck; a
    player with an empty deck is not affected and does not reshuffle (DE 81)."""
    for player in [ctx["player"], *clockwise_from(state, ctx["player"])]:
        z = zones(state, player)
        if z["deck"]:
            top = z["deck"].pop()
            z["discard"].append(top)
            event(state, f"{player} discards {name(state, top)} from the top of the deck")


def discard_down_to(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """1 player discards all cards but N and receives 1 wound per card
    discarded (DE 55, DE 93); the player chooses what to keep."""
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: which player discards down to {params['amount']}?",
           player_options(state, ctx), "fx:discard_down_to", {"ctx": ctx, "amount": params["amount"]})


def _discard_down_to(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    target = option_id.split(":", 1)[1]
    excess = len(zones(state, target)["hand"]) - data["amount"]
    if excess <= 0:
        event(state, f"{target} holds {data['amount']} cards or fewer: nothing is discarded")
        return
    push(state, "receive", params={"player": target, "amount": excess}, ctx=data["ctx"])
    push(state, "discard_own", params={"player": target, "amount": excess}, ctx=data["ctx"])


def _receive(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    take_wounds(state, params["player"], params["amount"])


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("damage_one", effect_task(_damage_one))
    machine.task("discard_own", effect_task(_discard_own))
    machine.task("receive", effect_task(_receive))
    machine.answer("fx:damage_player", on_data(_damage_player))
    machine.answer("fx:discard_own", on_data(_discard_own_answer))
    machine.answer("fx:discard_down_to", on_data(_discard_down_to))
