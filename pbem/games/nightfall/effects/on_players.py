"""Effects on players: damage, wounds, cards drawn and discarded, influence."""

from __future__ import annotations

from pbem.games.nightfall import damage, flow
from pbem.games.nightfall.effects import (
    choose,
    each_player_in_chosen_order,
    effect,
    player_options,
)
from pbem.games.nightfall.flow import ask, on_answer
from pbem.games.nightfall.state import draw as draw_cards
from pbem.games.nightfall.state import receive_wounds as take_wounds
from pbem.games.nightfall.state import (
    clockwise_from,
    discard_from_hand,
    event,
    name,
    players,
    zones,
)


@effect
def damage_player(state, ctx, params, rng):
    """Deal N damage to a player of your choice (an opponent, if it says so)."""
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: deal {params['amount']} damage to which player?",
           player_options(state, ctx, params.get("opponents_only", False)), "fx:damage_player",
           {"ctx": ctx, "amount": params["amount"]})


@on_answer("fx:damage_player")
def _damage_player(state, data, option_id, rng):
    damage.damage_player(state, option_id.split(":", 1)[1], data["amount"], data["ctx"])


@effect
def damage_each_player(state, ctx, params, rng):
    """Deal N damage to every player, in the order the causing player
    chooses (EN 132)."""
    _order_next(state, {"ctx": ctx, "amount": params["amount"], "left": list(players(state))}, None, rng)


@on_answer("fx:damage_each_player")
def _order_next(state, data, option_id, rng):
    if option_id is not None:
        target = option_id.split(":", 1)[1]
        data["left"].remove(target)
        if data["left"]:
            flow.push(state, "effect", name="_order_rest", params=data, ctx=data["ctx"])
        flow.push(state, "effect", name="_damage_one", params={"player": target, "amount": data["amount"]}, ctx=data["ctx"])
        return
    choose(state, data["ctx"]["player"], "order", "which player takes the damage next?",
           [(f"player:{p}", p) for p in data["left"]], "fx:damage_each_player", data)


@effect
def _damage_one(state, ctx, params, rng):
    damage.damage_player(state, params["player"], params["amount"], ctx)


@effect
def _order_rest(state, ctx, params, rng):
    _order_next(state, params, None, rng)


@effect
def receive_wounds(state, ctx, params, rng):
    """You receive N wounds (not damage: never blocked, EN 168)."""
    take_wounds(state, ctx["player"], params["amount"])


@effect
def draw(state, ctx, params, rng):
    """Draw N cards."""
    draw_cards(state, ctx["player"], params["amount"], rng)


@effect
def gain_influence(state, ctx, params, rng):
    """Gain N influence (it can only be spent in your own claim phase)."""
    if ctx["player"] == state["turn"]["player"]:
        state["turn"]["influence"] += params["amount"]
        event(state, f"{ctx['player']} gains {params['amount']} influence")


@effect
def action_discard_influence(state, ctx, params, rng):
    """In your own turn, each action card discarded for influence gives N
    (DE 76, DE 82); with several such effects the highest counts."""
    if ctx["player"] == state["turn"]["player"]:
        turn = state["turn"]
        turn["action_influence"] = max(turn["action_influence"], params["amount"])
        event(state, f"{ctx['player']}'s discarded actions give {turn['action_influence']} influence this turn")


@effect
def each_player_discards(state, ctx, params, rng):
    """Each player discards N cards of his choice, one player after another
    in the order you choose (EN 132: a later player sees the earlier discards)."""
    each_player_in_chosen_order(state, ctx, "_discard_own", {"amount": params["amount"]},
                                lambda p: bool(zones(state, p)["hand"]))


@effect
def _discard_own(state, ctx, params, rng):
    player = params["player"]
    hand = zones(state, player)["hand"]
    if params["amount"] <= 0 or not hand:
        return
    ask(state, player, "discard", f"{name(state, ctx['card'])}: discard a card",
        [(f"discard:{c}", name(state, c)) for c in hand], "fx:discard_own", {"ctx": ctx, "params": params})


@on_answer("fx:discard_own")
def _discard_own_answer(state, data, option_id, rng):
    discard_from_hand(state, data["params"]["player"], option_id.split(":", 1)[1])
    rest = dict(data["params"], amount=data["params"]["amount"] - 1)
    flow.push(state, "effect", name="_discard_own", params=rest, ctx=data["ctx"])


@effect
def each_player_discards_top_of_deck(state, ctx, params, rng):
    """Each player, you included, discards the top card of his deck; a
    player with an empty deck is not affected and does not reshuffle (DE 81)."""
    for player in [ctx["player"], *clockwise_from(state, ctx["player"])]:
        z = zones(state, player)
        if z["deck"]:
            top = z["deck"].pop()
            z["discard"].append(top)
            event(state, f"{player} discards {name(state, top)} from the top of the deck")


@effect
def discard_down_to(state, ctx, params, rng):
    """1 player discards all cards but N and receives 1 wound per card
    discarded (DE 55, DE 93); the player chooses what to keep."""
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: which player discards down to {params['amount']}?",
           player_options(state, ctx), "fx:discard_down_to", {"ctx": ctx, "amount": params["amount"]})


@on_answer("fx:discard_down_to")
def _discard_down_to(state, data, option_id, rng):
    target = option_id.split(":", 1)[1]
    excess = len(zones(state, target)["hand"]) - data["amount"]
    if excess <= 0:
        event(state, f"{target} holds {data['amount']} cards or fewer: nothing is discarded")
        return
    flow.push(state, "effect", name="_receive", params={"player": target, "amount": excess}, ctx=data["ctx"])
    flow.push(state, "effect", name="_discard_own", params={"player": target, "amount": excess}, ctx=data["ctx"])


@effect
def _receive(state, ctx, params, rng):
    take_wounds(state, params["player"], params["amount"])
