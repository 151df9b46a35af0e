"""Effects on minions in play (never one in the chain, hand or deck: EN 129, EN 192), and on minions
leaving or coming back into play."""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, new_task, push_all
from pbem.engine.rng import Rng
from pbem.games.nightfall import damage
from pbem.games.nightfall.effects.common import (
    amount_of,
    ask_from_discard_pile,
    ask_minion,
    choose,
    each_player_in_chosen_order,
    effect_task,
    minion_options,
    picked_minion,
    target_minions,
)
from pbem.games.nightfall.effects.in_chain import take_control_of_chain_card
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    State,
    card,
    current_chain,
    current_turn,
    event,
    exile,
    is_minion_card,
    minion,
    name,
    players,
    put_into_play,
    strength,
    zones,
)


def damage_minion(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Deal N damage to 1 minion in play (``target = "minion"``; with ``prefer_opposing`` an own minion only
    when no opponent has one), or to 1 minion of each player's (``target = "own-minion"``: each chooses
    one of his own, one after another in the order you choose, DE 96, EN 132). ``destroys = "vampire"``: a
    minion of that species is destroyed instead (if it cannot be destroyed, it takes the damage).
    ``amount_from = "exiled-cost"``: N is the cost of the card this text exiled (EN 301): nothing when it
    exiled none. The damage to a player is :func:`.on_players.damage_player`'s."""
    amount = amount_of(state, ctx, params)
    if "amount_from" in params and amount <= 0:
        return
    if params["target"] == "own-minion":
        each_player_in_chosen_order(state, ctx, "own_minion_damage", {"amount": amount},
                                    lambda p: any(m["controller"] == p for m in state["in_play"]))
        return
    dealt = amount * damage.multiplier(state, ctx)  # the prompt says what will be dealt: a doubling too (DE 93)
    prompt = "which minion?" if params.get("destroys") else f"deal {dealt} damage to which minion?"
    ask_minion(state, ctx, {**params, "amount": amount}, "fx:damage_minion", prompt,
               target_minions(state, ctx, params))


def _damage_minion(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is None:
        return
    params = data["params"]
    species = params.get("destroys")
    if species is not None and card(state, record["card"]).get("species") == species and \
            damage.destroy(state, record, data["ctx"]):
        return
    damage.damage_minion(state, record, params["amount"], data["ctx"])


def _own_minion_damage(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    records = [m for m in state["in_play"] if m["controller"] == params["player"]]
    if records:
        dealt = params["amount"] * damage.multiplier(state, ctx)
        choose(state, params["player"], "target", f"{name(state, ctx['card'])}: which of your minions takes {dealt} damage?",
               minion_options(state, records), "fx:damage_minion", {"ctx": ctx, "params": params})


def destroy_minion(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Destroy 1 minion in play (``target = "minion"``, with ``prefer_opposing`` as for :func:`damage_minion`), or
    this minion (``target = "this-minion"``: an in-play trigger of its own, e.g. at the start of your turn)."""
    if params["target"] == "this-minion":
        record = minion(state, ctx["card"])
        if record is not None:
            damage.destroy(state, record, ctx)
        return
    ask_minion(state, ctx, params, "fx:destroy_minion", "destroy which minion?", target_minions(state, ctx, params))


def _destroy_minion(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        damage.destroy(state, record, data["ctx"])


def heal(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """1 minion in play regains N health, never above its printed health (DE 78)."""
    ask_minion(state, ctx, params, "fx:heal_minion", f"which minion regains {params['amount']} health?",
                list(state["in_play"]))


def _heal_minion(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        healed = min(record["damage"], data["params"]["amount"])
        record["damage"] -= healed
        event(state, f"{name(state, record['card'])} regains {healed} health")


def take_control(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Take control of 1 minion in play (``target = "minion"``); it stays yours until it leaves play
    (EN 214, EN 306, DE 83). Of a card in the chain (``target = "chain-card"``):
    :func:`.in_chain.take_control_of_chain_card`."""
    if params["target"] == "chain-card":
        take_control_of_chain_card(state, ctx, params, rng)
        return
    records = [m for m in state["in_play"] if m["controller"] != ctx["player"]]
    ask_minion(state, ctx, params, "fx:take_control", "take control of which minion?", records)


def _take_control(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        record["controller"] = data["ctx"]["player"]
        event(state, f"{data['ctx']['player']} takes control of {name(state, record['card'])} (owner {record['owner']})")


def return_to_hand(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """1 minion in play goes back to its owner's hand (DE 73)."""
    ask_minion(state, ctx, params, "fx:return_minion", "which minion goes back to its owner's hand?",
                list(state["in_play"]))


def _return_minion(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        state["in_play"].remove(record)
        zones(state, record["owner"])["hand"].append(record["card"])
        event(state, f"{name(state, record['card'])} goes back to {record['owner']}'s hand")


def protect(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Prevent all damage to 1 of your minions this turn (DE 88: only your
    minions are protected, not you)."""
    records = [m for m in state["in_play"] if m["controller"] == ctx["player"] and m["card"] not in current_turn(state)["protected"]]
    ask_minion(state, ctx, params, "fx:protect", "protect which of your minions?", records)


def _protect(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    record = picked_minion(state, option_id)
    if record is not None:
        current_turn(state)["protected"].append(record["card"])
        event(state, f"{name(state, record['card'])} is protected from damage this turn")


def minion_hurts_itself_and_controller(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """1 minion deals damage equal to its strength to itself and to its
    controller (DE 57). The amount is fixed when the text starts; damage
    the minion cannot absorb is lost (DE 91); the controller's share can be
    blocked like any damage to a player."""
    ask_minion(state, ctx, params, "fx:hysteria", "which minion hurts itself and its controller?",
                list(state["in_play"]))


def _hysteria(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    """The two shares are simultaneous events: the player who caused them
    orders them (EN 132) when the order can matter, that is when the minion
    itself blocks damage inflicted on its controller (EN 167): hurt first, it
    may be destroyed before it can block; blocking first, it may be destroyed
    before its own share, which is then lost (DE 91). Otherwise the minion is
    hurt first."""
    record = picked_minion(state, option_id)
    if record is None:
        return
    shares: dict[str, Any] = {"card": record["card"], "amount": strength(state, record),
                              "controller": record["controller"]}
    ctx = data["ctx"]
    if shares["amount"] > 0 and record in damage.direct_blockers(state, record["controller"], ctx):
        who = name(state, record["card"])
        ask(state, ctx["player"], "order", f"{name(state, ctx['card'])}: {who} deals {shares['amount']} damage to itself and to "
            f"{shares['controller']}; which is inflicted first?",
            [("first:minion", f"{who} takes its damage first"),
             ("first:controller", f"{shares['controller']} takes the damage first ({who} may block it)")],
            "fx:hysteria_order", {"ctx": ctx, "shares": shares})
        return
    _hysteria_order(state, {"ctx": ctx, "shares": shares}, "first:minion", rng)


def _hysteria_order(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    shares = [new_task("hysteria_minion_share", params=data["shares"], ctx=data["ctx"]),
              new_task("hysteria_controller_share", params=data["shares"], ctx=data["ctx"])]
    if option_id == "first:controller":
        shares.reverse()
    push_all(state, shares)


def _hysteria_minion_share(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    record = minion(state, params["card"])
    if record is None:
        event(state, f"{name(state, params['card'])} has left play: the rest of its damage is lost")
        return
    damage.damage_minion(state, record, params["amount"], ctx)


def _hysteria_controller_share(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    damage.damage_player(state, params["controller"], params["amount"], ctx)


def resurrect_minion(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Put 1 minion from your discard pile into play, without its chain or
    kicker text (DE 98)."""
    pile = zones(state, ctx["player"])["discard"]
    options = sorted({(f"card:{c}", name(state, c)) for c in pile if is_minion_card(state, c)})
    ask_from_discard_pile(state, ctx, options, f"{name(state, ctx['card'])}: which minion comes back into play?",
                          "no minion in your discard pile", "fx:resurrect")


def _resurrect(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "none":
        event(state, f"{data['ctx']['player']} brings no minion back")
        return
    card_id = option_id.split(":", 1)[1]
    player = data["ctx"]["player"]
    zones(state, player)["discard"].remove(card_id)
    put_into_play(state, card_id, player, player)


def exile_destroyed_by_previous(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Exile every minion destroyed by the card that resolved just before
    this one, even one brought back in the meantime (DE 98)."""
    if ctx.get("entry") is None or state.get("chain") is None:
        return
    entries = current_chain(state)["entries"]
    later = list(range(ctx["entry"] + 1, len(entries)))
    if not later:
        return
    for card_id in entries[later[0]].get("destroyed", []):
        for player in players(state):
            pile = zones(state, player)["discard"]
            if card_id in pile:
                pile.remove(card_id)
                exile(state, card_id)
                event(state, f"{name(state, card_id)} is exiled")
        record = minion(state, card_id)
        if record is not None:
            state["in_play"].remove(record)
            exile(state, card_id)
            event(state, f"{name(state, card_id)} is exiled from play")


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("hysteria_minion_share", effect_task(_hysteria_minion_share))
    machine.task("hysteria_controller_share", effect_task(_hysteria_controller_share))
    machine.task("own_minion_damage", effect_task(_own_minion_damage))
    machine.answer("fx:damage_minion", on_data(_damage_minion))
    machine.answer("fx:destroy_minion", on_data(_destroy_minion))
    machine.answer("fx:heal_minion", on_data(_heal_minion))
    machine.answer("fx:take_control", on_data(_take_control))
    machine.answer("fx:return_minion", on_data(_return_minion))
    machine.answer("fx:protect", on_data(_protect))
    machine.answer("fx:hysteria", on_data(_hysteria))
    machine.answer("fx:hysteria_order", on_data(_hysteria_order))
    machine.answer("fx:resurrect", on_data(_resurrect))
