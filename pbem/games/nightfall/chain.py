"""The chain phase (EN 172-216).

Start a chain with any card from your hand; link more, each by colour to the
LAST card only; then each opponent, clockwise from your left, gets one
chance to link one or more. The chain resolves last in, first out: chain
text (and "Your Chain" text only for the player who started the chain),
then the kicker if the card was linked directly from a card of its kicker
colour, each followed by its feed as often as it is paid. Actions then go
to their owner's discard pile; minions come into play. The rules core names
no card: everything a card does is in its data and in :mod:`.effects`.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, new_task, push, push_all
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects import schedule
from pbem.games.nightfall.flow import ask, on_data
from pbem.games.nightfall.state import (
    ORDER_TYPES,
    Card,
    State,
    card,
    clockwise_from,
    current_chain,
    current_turn,
    discard_from_hand,
    event,
    name,
    put_into_play,
    receive_wounds,
    zones,
)


def linkable(state: State, player: str, last: Card) -> list[tuple[str, Card]]:
    """The orders in hand that link to the chain, each with its card: a card links if its colour is a link
    colour of the last card of the chain, ``last`` (EN 177)."""
    links = last["links"]
    found = []
    for c in zones(state, player)["hand"]:
        data = card(state, c)  # is_order and the colour, from one look-up
        if data["type"] in ORDER_TYPES and data["colour"] in links:
            found.append((c, data))
    return found


def add_to_chain(state: State, player: str, card_id: str) -> None:
    chain = current_chain(state)
    zones(state, player)["hand"].remove(card_id)
    kicker = False
    if chain["entries"]:
        last = chain["entries"][-1]["card"]
        kicker = card(state, card_id).get("kicker_colour") == card(state, last)["colour"] and bool(card(state, card_id)["kicker"])
    chain["entries"].append({"card": card_id, "owner": player, "controller": player, "kicker": kicker,
                             "force_kicker": False, "cancelled": False, "resolved": False, "multiplier": 1})
    verb = "starts the chain with" if len(chain["entries"]) == 1 else "links"
    event(state, f"{player} {verb} {name(state, card_id)}" + (" (kicker)" if kicker else ""))


def chain_phase(state: State, task: dict[str, Any], rng: Rng) -> None:
    current_turn(state)["phase"] = "chain"
    player = current_turn(state)["player"]
    options = []
    for c in zones(state, player)["hand"]:
        data = card(state, c)  # is_order and the name, from one look-up
        if data["type"] in ORDER_TYPES:
            options.append((f"play:{c}", data["name"]))
    # always asked, even with no order in hand: whether you could play stays hidden
    ask(state, player, "chain-start", "start a chain with a card from your hand, or pass",
        options + [("pass", "start no chain")], "chain:start")


def _start(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    player = current_turn(state)["player"]
    if option_id == "pass":
        event(state, f"{player} starts no chain")
        return
    state["chain"] = {"starter": player, "entries": []}
    add_to_chain(state, player, option_id.split(":", 1)[1])
    opportunities = [new_task("link_opportunity", player=p) for p in clockwise_from(state, player)]
    push_all(state, [new_task("link_opportunity", player=player), *opportunities, new_task("resolve_chain")])


def link_opportunity(state: State, task: dict[str, Any], rng: Rng) -> None:
    """One chance to link one or more cards. Always offered to every
    opponent (with a pass), so that whether they could link stays hidden,
    unless they chose to auto-pass when they cannot link."""
    player = task["player"]
    chain = current_chain(state)
    last = card(state, chain["entries"][-1]["card"])  # read once, for the links and the prompt
    options = [(f"link:{c}", data["name"]) for c, data in linkable(state, player, last)]
    starter = player == chain["starter"]
    if not options and not starter and player in state["options"].get("auto_pass_when_unable", []):
        return
    prompt = f"link to {last['name']} (links {', '.join(last['links'])}), or pass"
    # adding to your own chain ("when you are done adding cards to your chain", EN 180) is a kind of its
    # own, so that a standing order to pass opponents' chains never ends your own
    more = starter or task.get("linked", False)
    ask(state, player, "add-to-chain" if starter else "link", prompt,
        options + [("pass", "link no more" if more else "pass (link nothing)")],
        "chain:link", {"player": player, "more": more})


def _link(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "pass":
        event(state, f"{data['player']} links no more" if data.get("more", True) else f"{data['player']} passes")
        return
    add_to_chain(state, data["player"], option_id.split(":", 1)[1])
    push(state, "link_opportunity", player=data["player"], linked=True)


def resolve_chain(state: State, task: dict[str, Any], rng: Rng) -> None:
    """Resolve the last unresolved card, then come back (LIFO, EN 187)."""
    entries = current_chain(state)["entries"]
    waiting = [i for i, e in enumerate(entries) if not e["resolved"]]
    if not waiting:
        state["chain"] = None
        event(state, "the chain is complete")
        return
    index = waiting[-1]
    push_all(state, [new_task("resolve_entry", index=index), new_task("resolve_chain")])


def resolve_entry(state: State, task: dict[str, Any], rng: Rng) -> None:
    index = task["index"]
    entry = current_chain(state)["entries"][index]
    data = card(state, entry["card"])
    if entry["cancelled"]:
        push(state, "place_entry", index=index)
        return
    event(state, f"{name(state, entry['card'])} ({entry['controller']}) resolves")
    ctx = {"player": entry["controller"], "entry": index, "card": entry["card"]}
    steps = [new_task("run_text", index=index, part="chain", ctx=ctx)]
    if entry["controller"] == current_chain(state)["starter"]:
        steps.append(new_task("run_text", index=index, part="your_chain", ctx=ctx))
    if (entry["kicker"] or entry["force_kicker"]) and data["kicker"]:
        steps.append(new_task("run_text", index=index, part="kicker", ctx=ctx))
    steps.append(new_task("place_entry", index=index))
    push_all(state, steps)


def run_text(state: State, task: dict[str, Any], rng: Rng) -> None:
    """Carry out one text of a card, then offer its feed (EN 202)."""
    data = card(state, current_chain(state)["entries"][task["index"]]["card"])
    steps = data.get(task["part"], [])
    if not steps:
        return
    tasks = schedule(state, steps, task["ctx"])
    feed = data.get("feed")
    if feed and feed["text"] == task["part"]:
        tasks.append(new_task("offer_feed", index=task["index"], part=task["part"], ctx=task["ctx"], feed=feed))
    push_all(state, tasks)


def can_pay(state: State, player: str, feed: dict[str, Any]) -> bool:
    if feed["cost"] == "discard":
        return len(zones(state, player)["hand"]) >= feed["amount"]
    return True


def feed_label(feed: dict[str, Any]) -> str:
    if feed["cost"] == "discard":
        return f"discard {feed['amount']} card{'s' if feed['amount'] != 1 else ''}"
    return f"receive {feed['amount']} wound{'s' if feed['amount'] != 1 else ''}"


def offer_feed(state: State, task: dict[str, Any], rng: Rng) -> None:
    player = task["ctx"]["player"]
    if not can_pay(state, player, task["feed"]):
        return
    ask(state, player, "feed", f"feed {name(state, task['ctx']['card'])}: {feed_label(task['feed'])} to carry out its text again?",
        [("feed", f"feed: {feed_label(task['feed'])}"), ("stop", "do not feed")], "chain:feed", task)


def _feed(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "stop":
        return
    player = data["ctx"]["player"]
    feed = data["feed"]
    again = new_task("run_text", index=data["index"], part=data["part"], ctx=data["ctx"])
    if feed["cost"] == "discard":
        push_all(state, [new_task("pay_discard", player=player, left=feed["amount"]), again])
    else:
        receive_wounds(state, player, feed["amount"])
        push(state, "run_text", index=data["index"], part=data["part"], ctx=data["ctx"])


def pay_discard(state: State, task: dict[str, Any], rng: Rng) -> None:
    hand = zones(state, task["player"])["hand"]
    if task["left"] <= 0 or not hand:
        return
    ask(state, task["player"], "feed-payment", "discard a card to pay the feed",
        [(f"discard:{c}", name(state, c)) for c in hand], "chain:pay", task)


def _pay(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    discard_from_hand(state, data["player"], option_id.split(":", 1)[1])
    push(state, "pay_discard", player=data["player"], left=data["left"] - 1)


def place_entry(state: State, task: dict[str, Any], rng: Rng) -> None:
    """A resolved action goes to its owner's discard pile, a minion comes
    into play for the player who controls it (EN 190-191). A card whose text
    was not carried out goes to its owner's discard pile (DE 61)."""
    entry = current_chain(state)["entries"][task["index"]]
    entry["resolved"] = True
    if entry.get("moved"):
        return
    card_id = entry["card"]
    if entry["cancelled"]:
        zones(state, entry["owner"])["discard"].append(card_id)
        event(state, f"{name(state, card_id)} is not carried out and goes to {entry['owner']}'s discard pile")
    elif card(state, card_id)["type"] == "minion":
        put_into_play(state, card_id, entry["owner"], entry["controller"])
    else:
        zones(state, entry["owner"])["discard"].append(card_id)


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("chain_phase", chain_phase)
    machine.task("link_opportunity", link_opportunity)
    machine.task("resolve_chain", resolve_chain)
    machine.task("resolve_entry", resolve_entry)
    machine.task("run_text", run_text)
    machine.task("offer_feed", offer_feed)
    machine.task("pay_discard", pay_discard)
    machine.task("place_entry", place_entry)
    machine.answer("chain:start", on_data(_start))
    machine.answer("chain:link", on_data(_link))
    machine.answer("chain:feed", on_data(_feed))
    machine.answer("chain:pay", on_data(_pay))
