"""The game state as plain data, and the small moves every rule uses.

Stacks (deck, discard pile, archive, wound stack) keep their top card LAST.
Card instance ids are ``key#n``; they are given out before any shuffle, so an
id says nothing about a card's place in a deck. The owner of a card in a
player's hand, deck or discard pile is that player; minions in play and
orders in the chain carry ``owner`` and ``controller``.
"""

# No ``from __future__ import annotations`` here: given strings, typing would compile some 80 annotations
# for these, 2 ms of every step's start-up (docs/performance.md, "Annotations evaluated at import"). The
# annotations below name only what is defined above them.

from typing import Any, NotRequired, TypedDict

from pbem.engine.errors import RulesError
from pbem.engine.events import Events
from pbem.engine.machine import MachineState
from pbem.engine.rng import Rng
from pbem.engine.screen import key_of
from pbem.games.nightfall import abilities

#: a card's data in the catalogue (the card file's entry; wounds get one per kind and type)
Card = dict[str, Any]


class Zones(TypedDict):
    """A player's hidden zones (top card last)."""

    hand: list[str]
    deck: list[str]
    discard: list[str]


class Minion(TypedDict):
    """A minion in play; ``damage`` turns its card (EN 157)."""

    card: str
    owner: str
    controller: str
    damage: int


class ChainEntry(TypedDict):
    """A card in the chain: whether its kicker fires, and what effects did to it."""

    card: str
    owner: str
    controller: str
    kicker: bool
    force_kicker: bool
    cancelled: bool
    resolved: bool
    multiplier: int
    moved: NotRequired[bool]
    destroyed: NotRequired[list[str]]
    memory: NotRequired[dict[str, Any]]


class Chain(TypedDict):
    starter: str
    entries: list[ChainEntry]


class Archive(TypedDict):
    """A stack of order cards (top last): the commons, a private archive, a face-down one."""

    id: str
    owner: str | None
    cards: list[str]
    hidden: bool
    secret: NotRequired[bool]


class Combat(TypedDict):
    """The combat phase in progress: who attacks whom, the blocks and their order, who has struck."""

    attackers: list[str]
    assign: dict[str, str]
    done: list[str]
    defender: str | None
    blocks: dict[str, str]
    asked: list[str]
    order: dict[str, list[str]]
    struck: list[str]


class Turn(TypedDict):
    player: str
    number: int
    phase: str
    influence: int
    action_influence: int
    wound_used: bool
    bonus: dict[str, int]
    protected: list[str]
    combat: Combat | None
    tried: list[str]


class Draft(TypedDict):
    """The draft in progress (see :mod:`.drafts`)."""

    mode: str
    schedule: list[str]
    round: int
    hands: dict[str, list[str]]
    chosen: dict[str, str]
    private: dict[str, list[str]]
    commons: list[str]
    face_down: list[str]
    set_aside: list[str]
    direction: int


class Series(TypedDict):
    """End-of-the-World Series totals (EN 251)."""

    target: int
    totals: dict[str, int]
    games: list[dict[str, int]]


class Final(TypedDict):
    winner: str
    scores: dict[str, int]
    types: dict[str, dict[str, int]]


class State(MachineState):
    """A Nightfall game, plain JSON (the turn machine's ``stack``, ``pending`` and ``over`` included)."""

    format: str
    scenario: str
    players: list[str]
    options: dict[str, Any]
    catalog: dict[str, Card]
    quick_start_sets: list[list[str]]
    counters: dict[str, int]
    zones: dict[str, Zones]
    archives: list[Archive]
    in_play: list[Minion]
    chain: Chain | None
    wound_stack: list[str]
    face_up: int
    exiled: list[str]
    events: list[str]
    private_events: dict[str, list[str]]
    ending: bool
    turn: Turn | None
    first: str | None
    draft: Draft | None
    #: each player's draft picks, ``[card key, "private" | "commons" | "removed"]`` in pick order (his alone)
    draft_picks: dict[str, list[list[str]]]
    census: list[str]
    series: Series | None
    final: NotRequired[Final]
    blind_archives: NotRequired[int]


# ------------------------------------------------------------------ the turn and the chain

def current_turn(state: State) -> Turn:
    """The turn in progress (there is none during the draft)."""
    if state["turn"] is None:
        raise RulesError("no turn has begun")
    return state["turn"]


def current_chain(state: State) -> Chain:
    """The chain being built or resolved."""
    if state["chain"] is None:
        raise RulesError("no chain is in progress")
    return state["chain"]


def current_draft(state: State) -> Draft:
    """The draft in progress."""
    if state["draft"] is None:
        raise RulesError("no draft is in progress")
    return state["draft"]


def current_combat(state: State) -> Combat:
    """The combat phase in progress."""
    combat = current_turn(state)["combat"]
    if combat is None:
        raise RulesError("no combat is in progress")
    return combat


# ------------------------------------------------------------------ cards

def card(state: State, card_id: str) -> Card:
    """The catalogue entry of a card instance."""
    return state["catalog"][key_of(card_id)]


def name(state: State, card_id: str) -> str:
    return card(state, card_id)["name"]


def is_wound(state: State, card_id: str) -> bool:
    return card(state, card_id)["type"] == "wound"


#: the types of order cards, which a chain is built from (wounds are not orders)
ORDER_TYPES = ("minion", "action")


def is_order(state: State, card_id: str) -> bool:
    return card(state, card_id)["type"] in ORDER_TYPES


def is_minion_card(state: State, card_id: str) -> bool:
    return card(state, card_id)["type"] == "minion"


def new_id(state: State, key: str) -> str:
    """A fresh instance id for a card made during set-up."""
    counters = state["counters"]
    counters[key] = counters.get(key, 0) + 1
    return f"{key}#{counters[key]}"


# ---------------------------------------------------------------- players

def players(state: State) -> list[str]:
    return state["players"]


def left_of(state: State, player: str, step: int = 1) -> str:
    seats = state["players"]
    return seats[(seats.index(player) + step) % len(seats)]


def clockwise_from(state: State, player: str) -> list[str]:
    """The other players, starting with the one to ``player``'s left."""
    return [left_of(state, player, i) for i in range(1, len(state["players"]))]


def zones(state: State, player: str) -> Zones:
    return state["zones"][player]


def active(state: State) -> str:
    return current_turn(state)["player"]


# ----------------------------------------------------------------- events

#: the lines of a step, kept by the kit: the public ``events`` and each player's ``private_events``, forgotten
#: when a step begins (the view shows what happened in the step that led to it)
EVENTS = Events(public="events", private="private_events")
#: ``event(state, text)``: a public line about what happened
event = EVENTS.say
#: ``private_event(state, player, text)``: a line only ``player`` reads (the cards they draw)
private_event = EVENTS.tell


# -------------------------------------------------------------- card moves

def reshuffle(state: State, player: str, rng: Rng) -> None:
    """Shuffle the discard pile to make a new deck (EN 106)."""
    z = zones(state, player)
    z["deck"] = rng.shuffled(z["discard"], label="reshuffle") + z["deck"]
    z["discard"] = []
    event(state, f"{player} shuffles the discard pile into a new deck")


def draw(state: State, player: str, count: int, rng: Rng) -> list[str]:
    """Draw ``count`` cards; reshuffle the discard pile only when a draw needs it."""
    z = zones(state, player)
    drawn: list[str] = []
    for _ in range(count):
        if not z["deck"]:
            if not z["discard"]:
                break
            reshuffle(state, player, rng)
        drawn.append(z["deck"].pop())
    z["hand"].extend(drawn)
    if drawn:
        event(state, f"{player} draws {len(drawn)} card{'s' if len(drawn) != 1 else ''}")
        private_event(state, player, "you draw " + ", ".join(name(state, c) for c in drawn))
    return drawn


def discard_from_hand(state: State, player: str, card_id: str) -> None:
    """Discard a card from hand (a starter is not exiled: it was never in play)."""
    z = zones(state, player)
    z["hand"].remove(card_id)
    z["discard"].append(card_id)
    event(state, f"{player} discards {name(state, card_id)}")


def exile(state: State, card_id: str) -> None:
    state["exiled"].append(card_id)


# ----------------------------------------------------------------- minions

def minion(state: State, card_id: str) -> Minion | None:
    for record in state["in_play"]:
        if record["card"] == card_id:
            return record
    return None


def in_play(state: State, card_id: str) -> Minion:
    """The minion in play with this card (one the rules know to be in play)."""
    record = minion(state, card_id)
    if record is None:
        raise RulesError(f"{card_id} is not in play")
    return record


def minions_of(state: State, player: str) -> list[Minion]:
    """Minions ``player`` controls, in the order they came into play."""
    return [m for m in state["in_play"] if m["controller"] == player]


def health(state: State, record: Minion) -> int:
    return card(state, record["card"])["health"] - record["damage"]


def strength(state: State, record: Minion) -> int:
    """Printed strength + every friendly strength aura (stacking, the
    minion's own included: DE 79) + bonuses for this turn."""
    value = card(state, record["card"])["strength"]
    for other in minions_of(state, record["controller"]):
        value += abilities.strength_aura(card(state, other["card"]))
    value += current_turn(state)["bonus"].get(record["card"], 0)
    return max(value, 0)


def discarded_action_influence(state: State) -> int:
    """The influence an action card discarded for influence gives now: 1, or
    more while an effect of this turn or an in-play text of the active
    player's minions says so; several do not add up, the highest counts (DE
    76, DE 82, ruling 21)."""
    return max(1, current_turn(state)["action_influence"], *[
        abilities.action_discard_influence(card(state, m["card"])) for m in minions_of(state, active(state))
    ])


def put_into_play(state: State, card_id: str, owner: str, controller: str) -> None:
    state["in_play"].append({"card": card_id, "owner": owner, "controller": controller, "damage": 0})
    event(state, f"{name(state, card_id)} comes into play for {controller}")


def leave_play(state: State, record: Minion, how: str) -> str:
    """Move a minion out of play to its owner's pile (DE 83).

    ``how`` is ``"destroyed"`` or ``"discarded"``; a starting minion whose
    exile line names it is exiled instead (EN 127). Returns where it went.
    """
    state["in_play"].remove(record)
    card_id = record["card"]
    if abilities.exiled_when(card(state, card_id), how):
        exile(state, card_id)
        return "exiled"
    zones(state, record["owner"])["discard"].append(card_id)
    return "discard"


# ------------------------------------------------------------------ wounds

def wound_count(state: State, player: str) -> int:
    z = zones(state, player)
    return sum(1 for zone in ("hand", "deck", "discard") for c in z[zone] if is_wound(state, c))


def receive_wounds(state: State, player: str, count: int) -> int:
    """Take ``count`` wounds from the top of the wound stack onto the
    discard pile (EN 287). When the face-up ones are gone the game is ending;
    face-down wounds and then exiled ones keep counting (EN 237)."""
    received = 0
    for _ in range(count):
        if state["wound_stack"]:
            wound = state["wound_stack"].pop()
            if state["face_up"] > 0:
                state["face_up"] -= 1
                if state["face_up"] == 0 and not state["ending"]:
                    state["ending"] = True
                    event(state, "the last face-up wound is taken: the game ends when this "
                          + ("chain" if state["turn"] is not None and state["turn"]["phase"] == "chain" else "phase") + " is over")
        else:
            exiled = [c for c in state["exiled"] if is_wound(state, c)]
            if not exiled:
                event(state, f"no wound is left for {player}")
                break
            wound = exiled[0]
            state["exiled"].remove(wound)
        zones(state, player)["discard"].append(wound)
        received += 1
    if received:
        event(state, f"{player} receives {received} wound{'s' if received != 1 else ''}")
    return received


def all_cards(state: State) -> list[str]:
    """Every card instance wherever it is (for the conservation invariant)."""
    cards: list[str] = []
    for z in state["zones"].values():
        cards += z["hand"] + z["deck"] + z["discard"]
    for archive in state["archives"]:
        cards += archive["cards"]
    cards += [m["card"] for m in state["in_play"]]
    if state["chain"]:
        cards += [e["card"] for e in current_chain(state)["entries"] if not e["resolved"] and not e.get("moved")]
    cards += state["wound_stack"] + state["exiled"]
    return cards
