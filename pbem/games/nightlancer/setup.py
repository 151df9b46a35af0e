"""Set-up (rulebook 2.1, 2.2) and the outer game loop.

The event deck is 4 Late event cards under 4 Early ones (5 and 5 with two
players; solitaire sets up as for two, 6.1). Each player picks a
Nightlancer; when several pick at once the picks are sealed until all are
in, and a Nightlancer picked by several goes to one of them at random while
the others pick again. Random turn order; the last seat takes 1 extra KC.
Hardened (6.1): every player takes 1 (or 2) Loan tokens without the money.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine.errors import ScenarioError
from pbem.engine.machine import PendingDecision, Task, TurnMachine, push, top
from pbem.engine.remembered import for_the_last_object
from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.cards import instances, shared_catalogue
from pbem.games.nightlancer.data import DATA
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.state import Seat, State
from pbem.games.nightlancer.zones import all_cards, card, draw, tableau_zone


def table_size(state: State) -> int:
    """Player count used for the card tables: solitaire draws as for two (6.1)."""
    return max(2, len(state["players"]))


def new_state(scenario: dict[str, Any], players: Sequence[str], rng: Rng) -> State:
    setup, data = scenario, scenario["card_data"]
    options = DATA.options(setup.get("options", {}), players)
    players = list(players)
    if len(set(players)) != len(players) or not 1 <= len(players) <= 4:
        raise ScenarioError(f"Nightlancer needs 1 to 4 distinct players, not {players!r}")
    mode = options["mode"]
    if len(players) == 1:
        mode = "solitaire"
    elif mode == "solitaire":
        raise ScenarioError(f"the {setup['name']!r} scenario is solitaire play: one player, not {len(players)}")
    state: State = {
        "format": "pbem-nightlancer-state-v1",
        "scenario": setup["name"],
        "mode": mode,
        "hardened": options["hardened"],
        "players": players,
        "order": list(players),
        "catalogue": shared_catalogue(data),
        "round": 0,
        "phase": "setup",
        "decks": {},
        "discards": {k: [] for k in ("contact", "black_market", "skill", "agenda", "low", "high",
                                      "event", "starting_item", "personal_agenda")},
        "box": [],
        "market": [],
        "missions": [],
        "event": None,
        "seats": {},
        "stack": [],
        "pending": [],
        "events": [],
        "private": {},
        "dice": [],
        "over": False,
        "outcome": None,
        "census": [],
    }
    pin = setup.get("pin", {})
    for key in ("nightlancers", "kc", "items", "hands"):
        if len(pin.get(key, [])) > len(players):
            raise ScenarioError(f"the scenario pins {key} for {len(pin[key])} seats but {len(players)} play")
    if "turn_order" in pin and sorted(pin["turn_order"]) != list(range(len(players))):
        raise ScenarioError(f"pinned turn_order {pin['turn_order']!r} is not an order of {len(players)} seats")
    for deck, section in (("contact", "contact"), ("black_market", "black_market"), ("skill", "skill"),
                          ("agenda", "agenda")):
        state["decks"][deck] = rng.shuffled(instances(data, section), label=f"setup-{deck}")
    missions = instances(data, "mission")
    cards = state["catalogue"]["cards"]
    for profile in ("low", "high"):
        state["decks"][profile] = rng.shuffled([m for m in missions if cards[m]["profile"] == profile],
                                               label=f"setup-{profile}")
    per_deck = 5 if table_size(state) == 2 else 4
    early = rng.shuffled([e for e in instances(data, "event") if cards[e]["deck"] == "early"], label="setup-early")
    late = rng.shuffled([e for e in instances(data, "event") if cards[e]["deck"] == "late"], label="setup-late")
    if "events" in pin:
        chosen = list(pin["events"])
        state["decks"]["event"] = chosen
        state["box"].extend(e for e in early + late if e not in chosen)
    else:
        state["decks"]["event"] = early[:per_deck] + late[:per_deck]
        state["box"].extend(early[per_deck:] + late[per_deck:])
    state["box"].extend(instances(data, "starting_item"))
    state["box"].extend(instances(data, "personal_agenda"))
    state["census"] = sorted(all_cards(state))
    for deck, on_top in pin.get("decks", {}).items():
        for c in on_top:
            if c not in state["decks"][deck]:
                raise ScenarioError(f"pinned card {c!r} is not in the {deck} deck")
            state["decks"][deck].remove(c)
        state["decks"][deck][:0] = on_top
    state["dice"] = list(pin.get("dice", []))
    for player in players:
        state["seats"][player] = blank_seat()
    if "turn_order" in pin:
        state["order"] = [players[i] for i in pin["turn_order"]]
    else:
        state["order"] = rng.shuffled(players, label="setup-turn-order")
    for i, hand in enumerate(pin.get("hands", [])):
        for c in hand:
            for deck in ("contact", "agenda"):
                if c in state["decks"][deck]:
                    state["decks"][deck].remove(c)
                    break
            else:
                raise ScenarioError(f"pinned hand card {c!r} is not in a deck")
            state["seats"][players[i]]["hand"].append(c)
    push(state, "game", pin_nightlancers=list(pin.get("nightlancers", [])), pin_kc=list(pin.get("kc", [])),
         pin_items=[list(x) for x in pin.get("items", [])], picks={})
    return state


def blank_seat() -> Seat:
    return {"nightlancer": None, "health": 0, "resolve": 0, "ideals": 0, "kc": 0, "heat": 0, "prospects": 0,
            "loans": 0, "shaken": False, "deal": True, "items": [], "cyber": [], "skills": [], "fulfilled": [],
            "hand": [], "spent": [], "loadout": [], "missions_done": 0}


def take_nightlancer(state: State, player: str, nightlancer: str, rng: Rng) -> None:
    """2.2: Health, Resolve, Ideals, KC, starting item, starting agenda plus two Agenda cards, Deal token."""
    data = card(state, nightlancer)
    p = tokens.seat(state, player)
    p["nightlancer"] = nightlancer
    p["health"], p["resolve"], p["ideals"], p["kc"] = data["health"], data["resolve"], data["ideals"], data["kc"]
    p["deal"] = True
    state["box"].remove(data["item"])
    p["items"].append(data["item"])
    state["box"].remove(data["agenda"])
    p["hand"].append(data["agenda"])
    for _ in range(2):
        agenda = draw(state, "agenda", rng)
        if agenda is not None:
            p["hand"].append(agenda)
    tokens.say(state, f"{player} plays {data['name']}.")


def pinned_nightlancers(state: State, frame: Task, rng: Rng) -> None:
    """A scenario may pin the Nightlancers of the first seats."""
    for i, nightlancer in enumerate(frame["pin_nightlancers"]):
        take_nightlancer(state, state["players"][i], nightlancer, rng)
    frame["step"] = "pick"


def pick_nightlancers(state: State, frame: Task, rng: Rng) -> None:
    """2.2: every player without one picks a Nightlancer; several pick at once, sealed."""
    choosers = [p for p in state["players"] if tokens.seat(state, p)["nightlancer"] is None]
    if not choosers:
        frame["step"] = "ready"
        return
    for p in choosers:
        ask(state, p, "pick", simultaneous=len(choosers) > 1,
            prompt="Choose your Nightlancer" + (" (picks are sealed until all are in)" if len(choosers) > 1 else ""))
    frame["step"] = "picked"


def nightlancers_picked(state: State, frame: Task, rng: Rng) -> None:
    """The picks are revealed together; a Nightlancer picked by several goes to one by lot."""
    picks = frame["picks"]
    frame["picks"] = {}
    wanted: dict[str, list[str]] = {}
    for player in state["players"]:
        if player in picks:
            wanted.setdefault(picks[player], []).append(player)
    for nightlancer, pickers in wanted.items():
        winner = pickers[0] if len(pickers) == 1 else rng.choice(pickers, label="pick-tie")
        if len(pickers) > 1:
            tokens.say(state, f"{', '.join(pickers)} all picked {card(state, nightlancer)['name']}; "
                       f"it goes to {winner} by lot and the others pick again.")
        take_nightlancer(state, winner, nightlancer, rng)
    frame["step"] = "pick"


def ready(state: State, frame: Task, rng: Rng) -> None:
    """2.2: the last in turn order takes 1 extra KC; Hardened (6.1) Loans."""
    players = state["players"]
    for i, kc in enumerate(frame["pin_kc"]):
        tokens.seat(state, players[i])["kc"] = kc
    for i, items in enumerate(frame["pin_items"]):
        for c in items:
            take_pinned_item(state, players[i], c)
    last = state["order"][-1]
    tokens.seat(state, last)["kc"] += 1
    tokens.say(state, f"Turn order: {', '.join(state['order'])}; {last} takes 1 extra KC.")
    for player in players:
        tokens.seat(state, player)["loans"] = state["hardened"]
    if state["hardened"]:
        tokens.say(state, f"Hardened Nightlancers: everyone starts with {state['hardened']} Loan(s) and no money for them.")
    frame["step"] = "round"


def next_round(state: State, frame: Task, rng: Rng) -> None:
    """Rounds follow one another until the game ends (3.4)."""
    push(state, "round")


def take_pinned_item(state: State, player: str, instance: str) -> None:
    if instance not in state["decks"]["black_market"]:
        raise ScenarioError(f"pinned item {instance!r} is not in the black market deck")
    state["decks"]["black_market"].remove(instance)
    tableau_zone(state, player, instance).append(instance)


def pick_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    taken = {tokens.seat(state, p)["nightlancer"] for p in state["players"]}
    return [(option_id, label) for nightlancer, option_id, label in _pick_offers(state["catalogue"]["cards"])
            if nightlancer not in taken]


def _pick_offers_of(cards: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every Nightlancer of the catalogue's ``cards``, in their order, with the option that picks it and its
    label: ``(id, option id, label)``."""
    return [(c["id"], f"pick:{c['id']}", _pick_label(c)) for c in cards.values() if c["kind"] == "nightlancer"]


#: :func:`_pick_offers_of`, found once for a catalogue, as every state set up from one card data shares it and
#: it never changes: a pick is asked some ten times a game, and finding them was a walk through the whole
#: catalogue each time
_pick_offers = for_the_last_object(_pick_offers_of)


def _pick_label(c: dict[str, Any]) -> str:
    """A Nightlancer card as a pick's option shows it: ratings, tokens and special."""
    a = c["abilities"]
    stats = (f"Covert {a['covert']}, Streetwise {a['streetwise']}, Technical {a['technical']}, Close {a['close']}, "
             f"Gunfighter {a['gunfighter']}, Marksman {a['marksman']}; Health {c['health']}, Resolve {c['resolve']}, "
             f"Ideals {c['ideals']}, {c['kc']} KC")
    return f"{c['name']} ({stats}): {c.get('special_text', '')}"


def pick_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    frame["picks"][decision["player"]] = option.split(":", 1)[1]


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.steps("game", {"start": pinned_nightlancers, "pick": pick_nightlancers, "picked": nightlancers_picked,
                           "ready": ready, "round": next_round})
    machine.kind("pick", prompt="Choose your Nightlancer", options=pick_options, apply=pick_apply)
