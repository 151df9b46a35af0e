"""Card effects: small named functions the card data refers to.

An effect is ``effect(state, ctx, params, rng)``: ``ctx`` says who carries it
out (``player``), from which card (``card``) and, for a card in the chain,
which entry of the chain (``entry``); ``params`` is the step from the card
data. An effect that needs a choice asks for it and is resumed by its answer
handler. Rules every effect keeps:

* obey as much of the text as you can (EN 195);
* a minion is targeted only in play, never in the chain, hand or deck
  (EN 129, EN 192);
* "next card in the chain" is the one that resolves next, "previous" the
  one that resolved just before (DE 98, card-facts §0).
"""

from __future__ import annotations

from typing import Any, Callable

from pbem.engine.rng import Rng
from pbem.games.nightfall import damage, flow
from pbem.games.nightfall.flow import ask, on_answer, op
from pbem.games.nightfall.state import (
    State,
    card,
    clockwise_from,
    discard_from_hand,
    event,
    exile,
    health,
    is_minion_card,
    is_order,
    is_wound,
    key_of,
    minion,
    name,
    players,
    private_event,
    put_into_play,
    strength,
    zones,
)

Effect = Callable[[State, dict[str, Any], dict[str, Any], Rng], None]
EFFECTS: dict[str, Effect] = {}


def effect(function: Effect) -> Effect:
    EFFECTS[function.__name__] = function
    return function


@op("effect")
def _run_effect(state: State, task: dict[str, Any], rng: Rng) -> None:
    EFFECTS[task["name"]](state, task["ctx"], task["params"], rng)


def schedule(state: State, steps: list[dict[str, Any]], ctx: dict[str, Any]) -> list[dict[str, Any]]:
    """Tasks that carry out a text (a list of effect steps) in order."""
    return [flow.task("effect", name=step["effect"], params=step, ctx=ctx) for step in steps]


# ------------------------------------------------------------- choosing

def choose(state, player, kind, prompt, options, handler, data, auto=True):
    """Ask ``player``; a single option among public things is taken at once."""
    if auto and len(options) == 1:
        flow.ANSWERS[handler](state, data, options[0][0], None)
    else:
        ask(state, player, kind, prompt, options, handler, data)


def minion_label(state: State, record: dict[str, Any]) -> str:
    return f"{name(state, record['card'])} ({record['controller']}, strength {strength(state, record)}, health {health(state, record)})"


def minion_options(state: State, records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(f"minion:{m['card']}", minion_label(state, m)) for m in records]


def target_minions(state: State, ctx: dict[str, Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """Minions in play a text may pick; with ``prefer_opposing`` an own minion
    only when no opponent has one (DE 77, DE 90, DE 95)."""
    records = list(state["in_play"])
    if params.get("prefer_opposing"):
        opposing = [m for m in records if m["controller"] != ctx["player"]]
        if opposing:
            return opposing
    return records


def picked_minion(state: State, option_id: str) -> dict[str, Any] | None:
    return minion(state, option_id.split(":", 1)[1])


def player_options(state: State, ctx: dict[str, Any], opponents_only: bool = False) -> list[tuple[str, str]]:
    return [(f"player:{p}", p) for p in players(state) if not (opponents_only and p == ctx["player"])]


def entry_of(state: State, ctx: dict[str, Any]) -> dict[str, Any] | None:
    if ctx.get("entry") is None or state.get("chain") is None:
        return None
    return state["chain"]["entries"][ctx["entry"]]


def unresolved_before(state: State, ctx: dict[str, Any]) -> list[int]:
    """Indices of the chain cards still to resolve after this one, next first."""
    if ctx.get("entry") is None or state.get("chain") is None:
        return []
    entries = state["chain"]["entries"]
    return [i for i in range(ctx["entry"] - 1, -1, -1) if not entries[i]["resolved"]]


def chain_entry_label(state: State, index: int) -> str:
    entry = state["chain"]["entries"][index]
    return f"{name(state, entry['card'])} ({entry['controller']}, #{index + 1} in the chain)"


# --------------------------------------------------------------- players

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
    from pbem.games.nightfall.state import receive_wounds as take
    take(state, ctx["player"], params["amount"])


@effect
def draw(state, ctx, params, rng):
    """Draw N cards."""
    from pbem.games.nightfall.state import draw as take
    take(state, ctx["player"], params["amount"], rng)


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
    """Each player, starting with you and going clockwise, discards N cards
    of his choice."""
    order = [ctx["player"], *clockwise_from(state, ctx["player"])]
    flow.push_all(state, [flow.task("effect", name="_discard_own", params={"player": p, "amount": params["amount"]}, ctx=ctx)
                          for p in order])


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
    from pbem.games.nightfall.state import receive_wounds as take
    take(state, params["player"], params["amount"])


# --------------------------------------------------------------- minions

def _ask_minion(state, ctx, params, handler, prompt, records, extra=None):
    if not records:
        event(state, f"{name(state, ctx['card'])}: no minion in play to choose")
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: {prompt}", minion_options(state, records),
           handler, {"ctx": ctx, "params": params, **(extra or {})})


@effect
def damage_minion(state, ctx, params, rng):
    """Deal N damage to 1 minion in play."""
    _ask_minion(state, ctx, params, "fx:damage_minion", f"deal {params['amount']} damage to which minion?",
                target_minions(state, ctx, params))


@on_answer("fx:damage_minion")
def _damage_minion(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        damage.damage_minion(state, record, data["params"]["amount"], data["ctx"])


@effect
def destroy_minion(state, ctx, params, rng):
    """Destroy 1 minion in play."""
    _ask_minion(state, ctx, params, "fx:destroy_minion", "destroy which minion?", target_minions(state, ctx, params))


@on_answer("fx:destroy_minion")
def _destroy_minion(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        damage.destroy(state, record, data["ctx"])


@effect
def stake_minion(state, ctx, params, rng):
    """Deal N damage to 1 minion in play; a vampire is destroyed instead
    (if it cannot be destroyed, it takes the damage)."""
    _ask_minion(state, ctx, params, "fx:stake_minion", "which minion?", target_minions(state, ctx, params))


@on_answer("fx:stake_minion")
def _stake_minion(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is None:
        return
    if card(state, record["card"]).get("species") == "vampire" and damage.destroy(state, record, data["ctx"]):
        return
    damage.damage_minion(state, record, data["params"]["amount"], data["ctx"])


@effect
def heal_minion(state, ctx, params, rng):
    """1 minion in play regains N health, never above its printed health (DE 78)."""
    _ask_minion(state, ctx, params, "fx:heal_minion", f"which minion regains {params['amount']} health?",
                list(state["in_play"]))


@on_answer("fx:heal_minion")
def _heal_minion(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        healed = min(record["damage"], data["params"]["amount"])
        record["damage"] -= healed
        event(state, f"{name(state, record['card'])} regains {healed} health")


@effect
def take_control(state, ctx, params, rng):
    """Take control of 1 minion in play; it stays yours until it leaves play
    (EN 214, EN 306, DE 83)."""
    records = [m for m in state["in_play"] if m["controller"] != ctx["player"]]
    _ask_minion(state, ctx, params, "fx:take_control", "take control of which minion?", records)


@on_answer("fx:take_control")
def _take_control(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        record["controller"] = data["ctx"]["player"]
        event(state, f"{data['ctx']['player']} takes control of {name(state, record['card'])} (owner {record['owner']})")


@effect
def return_minion_to_hand(state, ctx, params, rng):
    """1 minion in play goes back to its owner's hand (DE 73)."""
    _ask_minion(state, ctx, params, "fx:return_minion", "which minion goes back to its owner's hand?",
                list(state["in_play"]))


@on_answer("fx:return_minion")
def _return_minion(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        state["in_play"].remove(record)
        zones(state, record["owner"])["hand"].append(record["card"])
        event(state, f"{name(state, record['card'])} goes back to {record['owner']}'s hand")


@effect
def protect_minion(state, ctx, params, rng):
    """Prevent all damage to 1 of your minions this turn (DE 88: only your
    minions are protected, not you)."""
    records = [m for m in state["in_play"] if m["controller"] == ctx["player"] and m["card"] not in state["turn"]["protected"]]
    _ask_minion(state, ctx, params, "fx:protect", "protect which of your minions?", records)


@on_answer("fx:protect")
def _protect(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        state["turn"]["protected"].append(record["card"])
        event(state, f"{name(state, record['card'])} is protected from damage this turn")


@effect
def minion_hurts_itself_and_controller(state, ctx, params, rng):
    """1 minion deals damage equal to its strength to itself and to its
    controller (DE 57). The amount is fixed when the text starts; damage
    the minion cannot absorb is lost (DE 91); the controller's share can be
    blocked like any damage to a player."""
    _ask_minion(state, ctx, params, "fx:hysteria", "which minion hurts itself and its controller?",
                list(state["in_play"]))


@on_answer("fx:hysteria")
def _hysteria(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is None:
        return
    amount = strength(state, record)
    controller = record["controller"]
    damage.damage_minion(state, record, amount, data["ctx"])
    damage.damage_player(state, controller, amount, data["ctx"])


@effect
def each_player_damages_own_minion(state, ctx, params, rng):
    """Each player, starting with you, chooses 1 of his own minions; it takes
    N damage (DE 96)."""
    order = [ctx["player"], *clockwise_from(state, ctx["player"])]
    flow.push_all(state, [flow.task("effect", name="_own_minion_damage", params={"player": p, "amount": params["amount"]}, ctx=ctx)
                          for p in order])


@effect
def _own_minion_damage(state, ctx, params, rng):
    records = [m for m in state["in_play"] if m["controller"] == params["player"]]
    if records:
        choose(state, params["player"], "target", f"{name(state, ctx['card'])}: which of your minions takes {params['amount']} damage?",
               minion_options(state, records), "fx:damage_minion", {"ctx": ctx, "params": params})


@effect
def resurrect_minion(state, ctx, params, rng):
    """Put 1 minion from your discard pile into play, without its chain or
    kicker text (DE 98)."""
    pile = zones(state, ctx["player"])["discard"]
    options = sorted({(f"card:{c}", name(state, c)) for c in pile if is_minion_card(state, c)})
    if not options:
        event(state, f"{ctx['player']} has no minion in the discard pile")
        return
    ask(state, ctx["player"], "target", f"{name(state, ctx['card'])}: which minion comes back into play?", options,
        "fx:resurrect", {"ctx": ctx})


@on_answer("fx:resurrect")
def _resurrect(state, data, option_id, rng):
    card_id = option_id.split(":", 1)[1]
    player = data["ctx"]["player"]
    zones(state, player)["discard"].remove(card_id)
    put_into_play(state, card_id, player, player)


@effect
def exile_destroyed_by_previous(state, ctx, params, rng):
    """Exile every minion destroyed by the card that resolved just before
    this one, even one brought back in the meantime (DE 98)."""
    if ctx.get("entry") is None or state.get("chain") is None:
        return
    entries = state["chain"]["entries"]
    later = [i for i in range(ctx["entry"] + 1, len(entries))]
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


# ----------------------------------------------------------------- chain

@effect
def cancel_next(state, ctx, params, rng):
    """The next card in the chain is not carried out: it goes to its owner's
    discard pile instead (DE 61)."""
    later = unresolved_before(state, ctx)
    if later:
        state["chain"]["entries"][later[0]]["cancelled"] = True
        event(state, f"{chain_entry_label(state, later[0])} will not be carried out")


@effect
def double_next_damage(state, ctx, params, rng):
    """Double all damage of the next card in the chain, as it stands (DE 93)."""
    later = unresolved_before(state, ctx)
    if later:
        entry = state["chain"]["entries"][later[0]]
        entry["multiplier"] = entry.get("multiplier", 1) * 2
        event(state, f"the damage of {chain_entry_label(state, later[0])} is doubled")


@effect
def grant_kicker(state, ctx, params, rng):
    """1 card in the chain (one still to resolve) carries out its kicker text."""
    later = unresolved_before(state, ctx)
    if not later:
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: which card in the chain carries out its kicker?",
           [(f"chain:{i + 1}", chain_entry_label(state, i)) for i in later], "fx:grant_kicker", {"ctx": ctx})


@on_answer("fx:grant_kicker")
def _grant_kicker(state, data, option_id, rng):
    index = int(option_id.split(":", 1)[1]) - 1
    state["chain"]["entries"][index]["force_kicker"] = True
    event(state, f"{chain_entry_label(state, index)} will carry out its kicker")


@effect
def grant_kicker_to_following(state, ctx, params, rng):
    """All your cards in the chain that resolve after this one carry out
    their kicker text, once (DE 71)."""
    for index in unresolved_before(state, ctx):
        entry = state["chain"]["entries"][index]
        if entry["controller"] == ctx["player"]:
            entry["force_kicker"] = True


@effect
def take_control_in_chain(state, ctx, params, rng):
    """Take control of 1 card in the chain that has not resolved: it resolves
    for you, keeps its kicker, and a minion comes into play for you (DE 87)."""
    later = [i for i in unresolved_before(state, ctx) if state["chain"]["entries"][i]["controller"] != ctx["player"]]
    if not later:
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: take control of which card in the chain?",
           [(f"chain:{i + 1}", chain_entry_label(state, i)) for i in later], "fx:control_in_chain", {"ctx": ctx})


@on_answer("fx:control_in_chain")
def _control_in_chain(state, data, option_id, rng):
    index = int(option_id.split(":", 1)[1]) - 1
    state["chain"]["entries"][index]["controller"] = data["ctx"]["player"]
    event(state, f"{data['ctx']['player']} takes control of {chain_entry_label(state, index)}")


@effect
def exile_self(state, ctx, params, rng):
    """This card is exiled instead of going to the discard pile."""
    entry = entry_of(state, ctx)
    if entry is not None and entry["card"] == ctx["card"] and not entry.get("moved"):
        exile(state, entry["card"])
        entry["moved"] = True
        event(state, f"{name(state, entry['card'])} is exiled")


@effect
def return_self_to_archive(state, ctx, params, rng):
    """Put this card on top of an archive of your choice (DE 92)."""
    entry = entry_of(state, ctx)
    if entry is None or entry["card"] != ctx["card"] or entry.get("moved"):
        return
    options = [(f"archive:{a['id']}", archive_label(state, a)) for a in state["archives"]]
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: on top of which archive?", options,
           "fx:return_to_archive", {"ctx": ctx})


@on_answer("fx:return_to_archive")
def _return_to_archive(state, data, option_id, rng):
    entry = entry_of(state, data["ctx"])
    archive = find_archive(state, option_id.split(":", 1)[1])
    archive["cards"].append(entry["card"])
    entry["moved"] = True
    event(state, f"{name(state, entry['card'])} goes on top of archive {archive['id']}")


# --------------------------------------------------------------- archives

def find_archive(state: State, archive_id: str) -> dict[str, Any]:
    for archive in state["archives"]:
        if archive["id"] == archive_id:
            return archive
    raise KeyError(archive_id)


def archive_label(state: State, archive: dict[str, Any]) -> str:
    where = "commons" if archive["owner"] is None else f"{archive['owner']}'s private archive"
    if archive["hidden"] or archive.get("secret"):
        return f"face-down archive {archive['id']} ({where}, {len(archive['cards'])} cards)"
    if not archive["cards"]:
        return f"archive {archive['id']} ({where}, empty)"
    return f"{name(state, archive['cards'][-1])} ({where}, {len(archive['cards'])} left)"


@effect
def take_minion_from_archive(state, ctx, params, rng):
    """Take the top card of any archive for free, now, if it is a minion
    (DE 74, EN 298); it goes to your discard pile like a claimed card."""
    options = [(f"archive:{a['id']}", archive_label(state, a)) for a in state["archives"] if a["cards"]]
    if options:
        choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: take a minion from which archive?", options,
               "fx:take_from_archive", {"ctx": ctx})


@on_answer("fx:take_from_archive")
def _take_from_archive(state, data, option_id, rng):
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


@effect
def new_blind_archive(state, ctx, params, rng):
    """Shuffle N cards from your hand face down into a new archive in the
    commons; it is claimed from the top, unseen (DE 87, EN 297)."""
    _blind_pick(state, {"ctx": ctx, "left": params["amount"], "cards": []}, None, rng)


@on_answer("fx:blind_archive")
def _blind_pick(state, data, option_id, rng):
    player = data["ctx"]["player"]
    hand = zones(state, player)["hand"]
    if option_id is not None:
        data["cards"].append(option_id.split(":", 1)[1])
        data["left"] -= 1
    # the cards stay in hand until all are chosen
    rest = [c for c in hand if c not in data["cards"]]
    if data["left"] > 0 and rest:
        ask(state, player, "discard", f"{name(state, data['ctx']['card'])}: put which card into the new archive?",
            [(f"card:{c}", name(state, c)) for c in rest], "fx:blind_archive", data)
        return
    for card_id in data["cards"]:
        hand.remove(card_id)
    if data["cards"]:
        flow.push(state, "effect", name="_make_blind_archive", params={"cards": data["cards"]}, ctx=data["ctx"])


@effect
def _make_blind_archive(state, ctx, params, rng):
    state["blind_archives"] = state.get("blind_archives", 0) + 1
    archive_id = f"blind-{state['blind_archives']}"
    state["archives"].append({"id": archive_id, "owner": None, "cards": rng.shuffled(params["cards"], label="blind"),
                              "hidden": True})
    event(state, f"{ctx['player']} makes a face-down archive {archive_id} of {len(params['cards'])} cards")


# ------------------------------------------------------------ discard pile

@effect
def exile_for_damage(state, ctx, params, rng):
    """Exile 1 order card from your discard pile and deal damage equal to its
    cost to a player (DE 56, DE 89; wounds are not order cards)."""
    pile = zones(state, ctx["player"])["discard"]
    options = [(f"card:{c}", f"{name(state, c)} (cost {card(state, c)['cost']})") for c in pile if is_order(state, c)]
    if not options:
        event(state, f"{ctx['player']} has no order card in the discard pile")
        return
    ask(state, ctx["player"], "target", f"{name(state, ctx['card'])}: exile which card from your discard pile?",
        options, "fx:exile_for_damage", {"ctx": ctx})


@on_answer("fx:exile_for_damage")
def _exile_for_damage(state, data, option_id, rng):
    ctx = data["ctx"]
    card_id = option_id.split(":", 1)[1]
    zones(state, ctx["player"])["discard"].remove(card_id)
    exile(state, card_id)
    cost = card(state, card_id)["cost"]
    entry = entry_of(state, ctx)
    if entry is not None:
        entry.setdefault("memory", {})["exiled_cost"] = cost
    event(state, f"{ctx['player']} exiles {name(state, card_id)} (cost {cost})")
    if cost > 0:
        damage_player(state, ctx, {"amount": cost}, rng)


@effect
def damage_minion_by_exiled_cost(state, ctx, params, rng):
    """Deal damage equal to the exiled card's cost to a minion (EN 301)."""
    entry = entry_of(state, ctx)
    cost = (entry or {}).get("memory", {}).get("exiled_cost", 0)
    if cost > 0:
        damage_minion(state, ctx, {"amount": cost}, rng)


@effect
def exile_from_discard(state, ctx, params, rng):
    """Exile up to N cards from your discard pile; if only wounds were
    exiled, one goes back (DE 94)."""
    _exile_pick(state, {"ctx": ctx, "left": params["amount"], "exiled": []}, None, rng)


@on_answer("fx:exile_from_discard")
def _exile_pick(state, data, option_id, rng):
    player = data["ctx"]["player"]
    pile = zones(state, player)["discard"]
    if option_id is not None and option_id != "done":
        card_id = option_id.split(":", 1)[1]
        pile.remove(card_id)
        exile(state, card_id)
        data["exiled"].append(card_id)
        data["left"] -= 1
        event(state, f"{player} exiles {name(state, card_id)}")
    if option_id != "done" and data["left"] > 0 and pile:
        options = sorted({(f"card:{c}", name(state, c)) for c in pile}) + [("done", "exile no more")]
        ask(state, player, "target", f"{name(state, data['ctx']['card'])}: exile a card from your discard pile?",
            options, "fx:exile_from_discard", data)
        return
    if data["exiled"] and all(is_wound(state, c) for c in data["exiled"]):
        back = data["exiled"][-1]
        state["exiled"].remove(back)
        pile.append(back)
        event(state, f"only wounds were exiled: {name(state, back)} goes back to {player}'s discard pile")


# -------------------------------------------------------------------- deck

@effect
def search_deck(state, ctx, params, rng):
    """Look through your deck, draw 1 card of your choice, shuffle the deck
    (EN 213)."""
    deck = zones(state, ctx["player"])["deck"]
    if not deck:
        event(state, f"{ctx['player']}'s deck is empty")
        return
    keys = sorted({key_of(c) for c in deck})
    ask(state, ctx["player"], "target", f"{name(state, ctx['card'])}: draw which card from your deck?",
        [(f"take:{k}", state["catalog"][k]["name"]) for k in keys], "fx:search_deck", {"ctx": ctx})


@on_answer("fx:search_deck")
def _search_deck(state, data, option_id, rng):
    ctx = data["ctx"]
    z = zones(state, ctx["player"])
    wanted = option_id.split(":", 1)[1]
    chosen = sorted(c for c in z["deck"] if key_of(c) == wanted)[0]
    z["deck"].remove(chosen)
    z["hand"].append(chosen)
    rng.shuffle(z["deck"], label="search")
    entry = entry_of(state, ctx)
    if entry is not None:
        entry.setdefault("memory", {})["drawn"] = chosen
    event(state, f"{ctx['player']} looks through the deck, draws a card and shuffles the deck")
    private_event(state, ctx["player"], f"you draw {name(state, chosen)}")


@effect
def play_drawn_chain_text(state, ctx, params, rng):
    """Reveal the card drawn by this card's chain text and carry out its
    chain text; it stays in hand (EN 310, DE 97)."""
    entry = entry_of(state, ctx)
    drawn = (entry or {}).get("memory", {}).get("drawn")
    if drawn is None:
        return
    event(state, f"{ctx['player']} reveals {name(state, drawn)}")
    text = list(card(state, drawn).get("chain", []))
    if state["chain"]["starter"] == ctx["player"]:
        text += card(state, drawn).get("your_chain", [])
    flow.push_all(state, schedule(state, text, dict(ctx, card=drawn)))


# --------------------------------------------------------- attack triggers

@effect
def force_block(state, ctx, params, rng):
    """When this minion attacks, 1 minion of your choice must block it."""
    defender = ctx["defender"]
    records = [m for m in state["in_play"] if m["controller"] == defender and health(state, m) > 0]
    _ask_minion(state, ctx, params, "fx:force_block", "which minion must block it?", records)


@on_answer("fx:force_block")
def _force_block(state, data, option_id, rng):
    record = picked_minion(state, option_id)
    if record is not None:
        state["turn"]["combat"]["blocks"][record["card"]] = data["ctx"]["minion"]
        event(state, f"{name(state, record['card'])} must block {name(state, data['ctx']['minion'])}")


@effect
def may_discard(state, ctx, params, rng):
    """When this minion attacks, you may discard 1 card or wound from hand."""
    hand = zones(state, ctx["player"])["hand"]
    if hand:
        ask(state, ctx["player"], "discard", f"{name(state, ctx['card'])} attacks: you may discard a card",
            [(f"discard:{c}", name(state, c)) for c in hand] + [("pass", "discard nothing")], "fx:may_discard",
            {"ctx": ctx})


@on_answer("fx:may_discard")
def _may_discard(state, data, option_id, rng):
    if option_id != "pass":
        discard_from_hand(state, data["ctx"]["player"], option_id.split(":", 1)[1])


@effect
def defender_receives_wound(state, ctx, params, rng):
    """When this minion attacks, the player it attacks receives N wounds,
    blocked or not (DE 77)."""
    from pbem.games.nightfall.state import receive_wounds as take
    take(state, ctx["defender"], params["amount"])
