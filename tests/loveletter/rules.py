"""The rules of Love Letter, on the engine's turn machine.

* **A round**: the sixteen cards are shuffled; the top card is removed face
  down (with two players three more, face up); each player is dealt one.
* **A turn**: the player draws a card and plays one of their two, face up
  (``play``: asked even with one option, as the Countess rule makes it a
  fact of the hand); its text is carried out. A card that chooses a player
  chooses among those not out and not protected by the Handmaid
  (``target``: a choice among public things, taken at once when single);
  the Guard names a card (``guess``).
* The round ends when one player is left, or when the deck is empty: then
  the highest card in hand wins it (tied: the higher total of cards
  played; still tied: all of them). The winner of a round gains a token of
  affection and starts the next; ``tokens_to_win`` tokens win the game.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.events import Events
from pbem.engine.machine import MachineState, PendingDecision, PublicCount, Task, TurnMachine, ask, push
from pbem.engine.rng import Rng

#: the card kinds the rules know, by key, with what their texts do
CARDS = ("guard", "priest", "baron", "handmaid", "prince", "king", "countess", "princess")


class State(MachineState):
    players: list[str]
    cards: dict[str, dict[str, Any]]
    census: list[str]
    target: int
    tokens: dict[str, int]
    round: int
    deck: list[str]
    removed: list[str]
    face_up: list[str]
    hands: dict[str, list[str]]
    discards: dict[str, list[str]]
    out: list[str]
    protected: list[str]
    active: str
    events: list[str]
    private: dict[str, list[str]]
    winners: list[str]


#: the lines of a step (``events``, and ``private`` per player), kept by the kit
EVENTS = Events()
say, tell = EVENTS.say, EVENTS.tell


def key(card_id: str) -> str:
    return card_id.partition("#")[0]


def name(state: State, card_id: str) -> str:
    return str(state["cards"][key(card_id)]["name"])


def value(state: State, card_id: str) -> int:
    return int(state["cards"][key(card_id)]["value"])


def in_round(state: State) -> list[str]:
    """The players not out of the round, from the active player on."""
    start = state["players"].index(state["active"])
    seats = state["players"][start:] + state["players"][:start]
    return [p for p in seats if p not in state["out"]]


def new_state(scenario: dict[str, Any], players: list[str], census: list[str], cards: dict[str, Any],
              target: int) -> State:
    state: State = {
        "stack": [], "pending": [], "over": False, "players": players, "cards": cards, "census": census,
        "target": target, "tokens": dict.fromkeys(players, 0), "round": 0, "deck": [], "removed": [],
        "face_up": [], "hands": {p: [] for p in players}, "discards": {p: [] for p in players}, "out": [],
        "protected": [], "active": players[0], "events": [], "private": {}, "winners": [],
    }
    push(state, "round", deck=list(scenario.get("deck", [])))
    return state


# --- tasks


def start_round(state: State, task: Task, rng: Rng) -> None:
    """Shuffle, remove the top card (and three face up with two players), deal one each."""
    state["round"] += 1
    pinned = [f"{k}#{n}" for n, k in numbered(task.get("deck", []))]
    rest = rng.shuffled([c for c in state["census"] if c not in pinned], label="shuffle")
    deck = list(reversed(pinned + rest))  # top card last
    state["removed"] = [deck.pop()]
    state["face_up"] = [deck.pop() for _ in range(3)] if len(state["players"]) == 2 else []
    state["deck"], state["out"], state["protected"] = deck, [], []
    state["discards"] = {p: [] for p in state["players"]}
    for player in in_round(state):
        state["hands"][player] = [deck.pop()]
        tell(state, player, f"you are dealt the {name(state, state['hands'][player][0])}")
    say(state, f"round {state['round']}: {state['active']} starts"
        + (f"; face up: {', '.join(name(state, c) for c in state['face_up'])}" if state["face_up"] else ""))
    push(state, "turn")


def numbered(keys: list[str]) -> list[tuple[int, str]]:
    seen: dict[str, int] = {}
    numbered = []
    for card_key in keys:
        seen[card_key] = seen.get(card_key, 0) + 1
        numbered.append((seen[card_key], card_key))
    return numbered


def turn(state: State, task: Task, rng: Rng) -> None:
    """The active player draws and plays; or the round is over."""
    left = in_round(state)
    if len(left) == 1 or not state["deck"]:
        push(state, "round_end")
        return
    player = left[0]
    if player in state["protected"]:
        state["protected"].remove(player)
    drawn = state["deck"].pop()
    state["hands"][player].append(drawn)
    tell(state, player, f"you draw the {name(state, drawn)}")
    ask(state, player, "play", "play one of your cards")


def next_turn(state: State) -> None:
    """The next player clockwise who is not out takes the turn."""
    players = state["players"]
    seat = players.index(state["active"])
    state["active"] = next(p for p in players[seat + 1:] + players[:seat + 1] if p not in state["out"])
    push(state, "turn")


def round_end(state: State, task: Task, rng: Rng) -> None:
    left = in_round(state)
    if len(left) > 1:
        say(state, "the deck is empty: " + ", ".join(f"{p} holds the {name(state, state['hands'][p][0])}"
                                                      for p in left))
        best = max((value(state, state["hands"][p][0]), sum(value(state, c) for c in state["discards"][p]))
                   for p in left)
        left = [p for p in left if (value(state, state["hands"][p][0]),
                                    sum(value(state, c) for c in state["discards"][p])) == best]
    for player in left:
        state["tokens"][player] += 1
    say(state, f"{' and '.join(left)} win{'s' if len(left) == 1 else ''} round {state['round']}")
    for player in state["players"]:
        state["discards"][player] += state["hands"][player]
        state["hands"][player] = []
    winners = [p for p in state["players"] if state["tokens"][p] >= state["target"]]
    if winners:
        state["winners"] = winners
        state["over"] = True
        return
    state["active"] = left[0]
    push(state, "round")


# --- decisions


def play_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    hand = state["hands"][decision["player"]]
    keys = {key(c) for c in hand}
    playable = [c for c in hand if key(c) == "countess"] if keys & {"king", "prince"} and "countess" in keys \
        else hand
    return [(f"play:{c}", f"play the {name(state, c)}") for c in sorted(playable)]


def play(state: State, decision: PendingDecision, option_id: str, rng: Rng) -> None:
    player, card = decision["player"], option_id.partition(":")[2]
    state["hands"][player].remove(card)
    state["discards"][player].append(card)
    say(state, f"{player} plays the {name(state, card)}")
    effect = key(card)
    if effect == "handmaid":
        state["protected"].append(player)
        say(state, f"{player} is protected until their next turn")
    elif effect == "princess":
        knock_out(state, player)
    elif effect in ("guard", "priest", "baron", "prince", "king"):
        choices = [p for p in in_round(state) if p not in state["protected"] and (p != player or effect == "prince")]
        if choices:
            ask(state, player, "target", f"the {name(state, card)}: choose a player",
                options=[(f"player:{p}", p) for p in choices], answer="target", data={"effect": effect},
                forced=True)
            return
        say(state, f"every other player is protected: the {name(state, card)} does nothing")
    next_turn(state)


def knock_out(state: State, player: str) -> None:
    state["out"].append(player)
    state["discards"][player] += state["hands"][player]
    say(state, f"{player} is out of the round" + (f", discarding the {name(state, state['hands'][player][0])}"
                                                  if state["hands"][player] else ""))
    state["hands"][player] = []


def target(state: State, decision: PendingDecision, option_id: str, rng: Rng) -> None:
    player, other, effect = decision["player"], option_id.partition(":")[2], decision["data"]["effect"]
    if effect == "guard":
        guesses = [k for k in CARDS if k != "guard"]
        ask(state, player, "guess", f"the Guard: name {other}'s card", answer="guess", data={"other": other},
            options=[(f"guess:{k}", state["cards"][k]["name"]) for k in guesses])
        return
    held = state["hands"][other][0]
    if effect == "priest":
        say(state, f"{player} looks at {other}'s hand")
        tell(state, player, f"{other} holds the {name(state, held)}")
    elif effect == "baron":
        mine = state["hands"][player][0]
        say(state, f"{player} and {other} compare hands")
        tell(state, player, f"{other} holds the {name(state, held)}")
        tell(state, other, f"{player} holds the {name(state, mine)}")
        if value(state, mine) != value(state, held):
            knock_out(state, other if value(state, mine) > value(state, held) else player)
    elif effect == "king":
        state["hands"][player], state["hands"][other] = [held], [state["hands"][player][0]]
        say(state, f"{player} and {other} trade hands")
        for who in (player, other):
            tell(state, who, f"you now hold the {name(state, state['hands'][who][0])}")
    elif effect == "prince":
        say(state, f"{other} discards the {name(state, held)}")
        state["hands"][other] = []
        state["discards"][other].append(held)
        if key(held) == "princess":
            knock_out(state, other)
        else:
            new = (state["deck"] or state["removed"]).pop()
            state["hands"][other] = [new]
            tell(state, other, f"you draw the {name(state, new)}")
    next_turn(state)


def guess(state: State, decision: PendingDecision, option_id: str, rng: Rng) -> None:
    other, guessed = decision["data"]["other"], option_id.partition(":")[2]
    card_name = state["cards"][guessed]["name"]
    if key(state["hands"][other][0]) == guessed:
        say(state, f"{decision['player']} names the {card_name}: {other} holds it")
        knock_out(state, other)
    else:
        say(state, f"{decision['player']} names the {card_name}: {other} does not hold it")
    next_turn(state)


def taken(state: State, decision: PendingDecision, option_id: str, label: str) -> None:
    say(state, f"{decision['player']}'s {decision['kind']}: {label} (the only choice)")


#: the kinds whose number of options follows from public facts, so that a single one is taken without asking:
#: none (a card to play is a fact of the hand; a target among public things is asked ``forced``)
PUBLIC_COUNTS: dict[str, PublicCount[State]] = {}


def turn_machine() -> TurnMachine[State]:
    machine: TurnMachine[State] = TurnMachine("loveletter")
    machine.task("round", start_round)
    machine.task("turn", turn)
    machine.task("round_end", round_end)
    machine.kind("play", prompt="play one of your cards", options=play_options, apply=play, default_action="bot",
                 public_count=PUBLIC_COUNTS.get("play"))
    for kind in ("target", "guess"):
        machine.kind(kind, default_action="bot", public_count=PUBLIC_COUNTS.get(kind))
    machine.answer("target", target)
    machine.answer("guess", guess)
    machine.on_taken(taken)
    return machine
