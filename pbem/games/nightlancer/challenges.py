"""Challenges (rulebook 5.2), reaction windows and the Challenge die.

A challenge frame is faced by one Nightlancer (an Event) or a Crew (a
mission stage, a penalty, a contested combat). With more than one in the
Crew, each member chooses to assist or not before anyone rolls; the choices
are sealed until all are in (3.3 "Crews"). Each assisting member makes an
attempt: contacts may be played (the reaction window), combat Health is
paid, the die is rolled. The best score counts; a failure is the Crew's.

The reaction window replaces the book's three-second countdown ("Players
can interrupt to play cards that affect the challenge. If they are
interrupted by other players they should restart the countdown"): the
attempting player, then every other player in turn order, may play
contacts or pass; whenever someone plays, everybody is asked again, and the
window closes when all have passed in a row.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import PendingDecision, Task, TurnMachine, finish, push, top
from pbem.engine.plain import copy_plain
from pbem.engine.rng import Rng
from pbem.games.nightlancer import effects, tokens
from pbem.games.nightlancer.cards import (
    CHALLENGE_ABILITY,
    COMBAT_CHALLENGES,
    COMBAT_COST,
    NORMAL_CHALLENGES,
    SPECIAL_CHALLENGES,
)
from pbem.games.nightlancer.crews import crew_by_label, slot_by_card
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.ordertests import TESTS
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.texts import describe_effect
from pbem.games.nightlancer.zones import card, discard, draw


def title(ctype: str) -> str:
    return ctype.title()


def challenge_members(state: State, frame: dict[str, Any]) -> list[str]:
    """Who faces the challenge now (a Crew loses members who are Shaken or abandon)."""
    if frame.get("solo"):
        player = frame["solo"]
        return [] if tokens.seat(state, player)["shaken"] else [player]
    slot = slot_by_card(state, frame["card"])
    crew = crew_by_label(slot, frame["label"]) if slot else None
    return list(crew["members"]) if crew else []


def start_challenge(state: State, ctype: str, difficulty: int | None, ctx: dict[str, Any], *,
                    solo: str | None = None, card_id: str | None = None, label: str | None = None) -> None:
    push(state, "challenge", ctype=ctype, difficulty=difficulty, ctx=ctx, solo=solo, card=card_id,
         label=label, assist={}, queue=[], scores={}, current=None)


def challenge_start(state: State, frame: Task, rng: Rng) -> None:
    """A Crew of several first chooses who assists (sealed until all have chosen)."""
    members = challenge_members(state, frame)
    what = f"{title(frame['ctype'])} {frame['difficulty']}" if frame["difficulty"] is not None else title(frame["ctype"])
    tokens.say(state, f"{', '.join(members) or 'Nobody'} {'face' if len(members) != 1 else 'faces'} a {what} challenge.")
    if len(members) > 1:
        for m in members:
            ask(state, m, "assist", simultaneous=True,
                prompt=f"Assist in the {what} challenge? (choices are sealed until the whole Crew has chosen)")
        frame["step"] = "assisted"
        return
    frame["queue"] = members
    frame["step"] = "next"


def challenge_assisted(state: State, frame: Task, rng: Rng) -> None:
    """Every assist choice is in: they are revealed together."""
    members = challenge_members(state, frame)
    chosen = frame["assist"]
    helpers = [m for m in members if chosen.get(m)]
    tokens.say(state, "Assisting: " + (", ".join(helpers) if helpers else "nobody") + ".")
    frame["assist"] = {}
    frame["queue"] = helpers
    frame["step"] = "next"


def challenge_next(state: State, frame: Task, rng: Rng) -> None:
    """The next member still on the challenge makes an attempt."""
    members = challenge_members(state, frame)
    while frame["queue"] and frame["queue"][0] not in members:
        frame["queue"].pop(0)
    if not frame["queue"]:
        frame["step"] = "settle"
        return
    player = frame["queue"].pop(0)
    frame["current"] = player
    frame["step"] = "scored"
    push(state, "attempt", player=player, ctype=frame["ctype"], difficulty=frame["difficulty"],
         ctx=frame["ctx"], mods=effects.new_mods())


def challenge_scored(state: State, frame: Task, rng: Rng) -> None:
    frame["scores"][frame["current"]] = frame.pop("ret")
    frame["step"] = "next"


def challenge_settle(state: State, frame: Task, rng: Rng) -> None:
    """The best score counts (5.2); a failed combat defeats the whole Crew. A
    contested challenge (no difficulty: the First Crew's attempt) hands on its
    best score instead; with none (nobody attempted, or every attempt came
    to nothing) it is a group combat failed, and defeats the Crew (R13)."""
    members = challenge_members(state, frame)
    valid = [s for p, s in frame["scores"].items() if s is not None and p in members]
    best = max(valid) if valid else None
    if frame["difficulty"] is None:
        if best is None:
            tokens.say(state, f"The {title(frame['ctype'])} contested combat is failed: nobody in the Crew scores.")
            defeat(state, members)
        finish(state, best)
        return
    success = best is not None and best >= frame["difficulty"]
    tokens.say(state, f"The {title(frame['ctype'])} {frame['difficulty']} challenge is "
               f"{'passed' if success else 'failed'} (best score {best if best is not None else 'none'}).")
    if not success and frame["ctype"] in COMBAT_CHALLENGES:
        defeat(state, members)
    finish(state, success)


def defeat(state: State, players: list[str]) -> None:
    """Losing a combat challenge (5.2): discard all Health and be Shaken; in a
    group combat the whole Crew, whether they took part or not."""
    for player in players:
        p = tokens.seat(state, player)
        tokens.say(state, f"{player} is defeated and loses all Health.")
        p["health"] = 0
        tokens.shake(state, player)
        if state["over"]:
            return


def assist_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [("assist", "Assist: make an attempt"), ("stand-by", "Do not attempt")]


def assist_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    frame["assist"][decision["player"]] = option == "assist"


# --- one attempt ------------------------------------------------------------


def others_in_turn_order(state: State, player: str) -> list[str]:
    order = state["order"]
    i = order.index(player)
    return order[i + 1:] + order[:i]


def attempt_start(state: State, frame: Task, rng: Rng) -> None:
    """Declare the attempt; off competitive play a Contact is drawn against it (6.1) when it is a Covert,
    Streetwise or Technical challenge, special ones included (a special challenge "is attempted as a normal
    challenge with the connected ability", 5.2: ruling R30); then the reaction window."""
    player, ctype = frame["player"], frame["ctype"]
    tokens.say(state, f"{player} declares an attempt at {title(ctype)}"
               + (f" {frame['difficulty']}." if frame["difficulty"] is not None else "."))
    if state["mode"] != "competitive" and CHALLENGE_ABILITY[ctype] in NORMAL_CHALLENGES:
        automatic_contact(state, player, "challenge", frame["mods"], rng, ctype)
        if tokens.seat(state, player)["shaken"] or state["over"]:
            finish(state, None)
            return
    participants = [player] + (others_in_turn_order(state, player) if state["mode"] == "competitive" else [])
    open_window(state, "challenge", player, participants, ctype=ctype, mods=frame["mods"])
    frame["step"] = "pay"


def attempt_pay(state: State, frame: Task, rng: Rng) -> None:
    """The window is closed: pay a combat's Health, check a special challenge's requirement, roll."""
    player, ctype = frame["player"], frame["ctype"]
    p = tokens.seat(state, player)
    frame["mods"] = frame.pop("ret")
    if p["shaken"]:
        finish(state, None)
        return
    mods = frame["mods"]
    k = effects.kit(state, player, ctype, frame["ctx"], mods.get("leave_out", []))
    if ctype in COMBAT_CHALLENGES:
        cost = max(0, COMBAT_COST[ctype] - k["armour"] - mods["armour"])
        tokens.say(state, f"{player} pays {cost} Health for the {title(ctype)} challenge.")
        tokens.lose(state, player, health=cost)
        if p["shaken"]:
            finish(state, None)
            return
    if ctype in SPECIAL_CHALLENGES and not (k["enables"] or ctype in mods["enables"]):
        tokens.say(state, f"{player} has no card with {title(ctype)}: the attempt fails.")
        finish(state, None)
        return
    finish(state, roll(state, rng, player, ctype, k, mods))


def roll(state: State, rng: Rng, player: str, ctype: str, k: dict[str, Any], mods: dict[str, Any]) -> int | None:
    """Roll the Challenge die (5.2): add the face; a Resolve symbol costs 1
    Resolve, and being Shaken by it fails the attempt."""
    p = tokens.seat(state, player)
    faces = state["catalogue"]["die"]
    index = state["dice"].pop(0) if state["dice"] else rng.randbelow(len(faces), label="die")
    face = faces[index]
    ability = tokens.ability(state, player, CHALLENGE_ABILITY[ctype])
    score = ability + k["bonus"] + mods["bonus"] - mods["penalty"] + face["value"]
    used = k["used"]
    for c in used:
        data = card(state, c)
        if data.get("spend"):
            p["spent"].append(c)
        if "loud" in data["traits"]:
            tokens.say(state, f"{player} uses {data['name']} (Loud).")
            tokens.gain_heat(state, player, 1)
    symbol = " and a Resolve symbol" if face["resolve"] else ""
    tokens.say(state, f"{player} rolls +{face['value']}{symbol}: score {score}.")
    if face["resolve"]:
        if mods["steady"]:
            tokens.say(state, f"{player} ignores the Resolve symbol.")
        else:
            tokens.lose(state, player, resolve=1)
            if p["shaken"]:
                tokens.say(state, f"{player} is Shaken by the Resolve symbol and fails.")
                return None
    return score


def automatic_contact(state: State, player: str, trigger: str, mods: dict[str, Any], rng: Rng,
                      ctype: str | None = None) -> bool:
    """Cooperative or solitaire (6.1): draw a Contact card; if its negative
    effect can apply, it is played on the player "as if another player played
    it on them"; the card is discarded. Returns whether it applied."""
    drawn = draw(state, "contact", rng)
    if drawn is None:
        return False
    data = card(state, drawn)
    applies = effects.against_applies(data["against"], trigger, ctype)
    tokens.say(state, f"{player} draws the Contact {data['name']}: "
               + (f"{describe_effect(data['against'])} applies." if applies else "it does not apply."))
    discard(state, drawn)
    if applies:
        effects.apply_against(state, player, data["against"], mods)
    return applies


# --- reaction windows ---------------------------------------------------------


def open_window(state: State, trigger: str, target: str, participants: list[str], *,
                ctype: str | None = None, mods: dict[str, Any] | None = None, what: str = "") -> None:
    # a copy: one object in two frames would not survive the JSON round trip of a stored state
    mods = copy_plain(mods) if mods is not None else effects.new_mods()
    push(state, "window", trigger=trigger, target=target, ctype=ctype, participants=list(participants),
         idx=0, passes=0, mods=mods, what=what)


def run_window(state: State, frame: Task, rng: Rng) -> None:
    target = frame["target"]
    if (frame["trigger"] == "challenge" and tokens.seat(state, target)["shaken"]) or \
            frame["passes"] >= len(frame["participants"]):
        finish(state, frame["mods"])
        return
    player = frame["participants"][frame["idx"]]
    if player == target:
        ask(state, player, "attempt",
            prompt=f"Your {title(frame['ctype'])} attempt: play contacts on yourself, or roll")
    else:
        if frame["trigger"] == "challenge":
            about = f"{target} is about to roll for {title(frame['ctype'])}"
        elif frame["trigger"] == "buy":
            about = f"{target} is buying {frame['what']}"
        else:
            about = f"{target} is being paid for {frame['what']}"
        ask(state, player, "reaction", prompt=f"{about}: play a contact against them, or pass")


def attempt_frame(state: State) -> dict[str, Any]:
    return next(f for f in reversed(state["stack"]) if f["type"] == "attempt")


def optional_cards(state: State, player: str, window: dict[str, Any]) -> list[str]:
    """The cards the attempt would use that the player may keep back: Loud ones (they gain Heat,
    NL:399 "whenever they use it") and single-use ones (Spent, NL:449). "Any number of Gear cards
    may be used" (NL:467): using them is the player's choice; a card with no cost stays in use."""
    attempt = attempt_frame(state)
    used = effects.kit(state, player, window["ctype"], attempt["ctx"])["used"]
    left = window["mods"].get("leave_out", [])
    return [c for c in used + [c for c in left if c not in used]
            if "loud" in card(state, c)["traits"] or card(state, c).get("spend")]


def attempt_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    options = []
    left = frame["mods"].get("leave_out", [])
    for c in optional_cards(state, decision["player"], frame):
        data = card(state, c)
        why = ", ".join(t for t in (["Loud: +1 Heat"] if "loud" in data["traits"] else [])
                        + (["single use: Spent"] if data.get("spend") else []))
        if c in left:
            options.append((f"take:{c}", f"Use {data['name']} after all ({why})"))
        else:
            options.append((f"leave:{c}", f"Do not use {data['name']} ({why})"))
    for c in tokens.contacts_in_hand(state, decision["player"]):
        data = card(state, c)
        for n, effect in enumerate(data["self"], start=1):
            if effects.self_applies(effect, "challenge", frame["ctype"]):
                options.append((f"play:{c}:{n}", f"Play {data['name']}: {describe_effect(effect)}"))
    options.append(("roll", "Roll the die"))
    return options


def attempt_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    verb, _, c = option.partition(":")
    if verb in ("leave", "take"):
        # keeping a card back (or taking it again) is not a pass: the player is asked again
        left = frame["mods"].setdefault("leave_out", [])
        if verb == "leave":
            left.append(c)
        else:
            left.remove(c)
        tokens.say(state, f"{decision['player']} {'will not use' if verb == 'leave' else 'will use'} {card(state, c)['name']}.")
        return
    window_answer(state, rng, frame, decision["player"], option)


def reaction_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    options = []
    for c in tokens.seat(state, decision["player"])["hand"]:
        data = card(state, c)  # tokens.contacts_in_hand and the card, from one look-up
        if data["kind"] == "contact" and effects.against_applies(data["against"], frame["trigger"], frame["ctype"]):
            options.append((f"play:{c}", f"Play {data['name']} on {frame['target']}: {describe_effect(data['against'])}"))
    options.append(("pass", "Pass"))
    return options


def reaction_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    window_answer(state, rng, frame, decision["player"], option)


def window_answer(state: State, rng: Rng, frame: dict[str, Any], player: str, option: str) -> None:
    if not option.startswith("play:"):
        frame["passes"] += 1
        frame["idx"] = (frame["idx"] + 1) % len(frame["participants"])
        return
    parts = option.split(":")
    contact = parts[1]
    data = card(state, contact)
    tokens.seat(state, player)["hand"].remove(contact)
    discard(state, contact)
    frame["passes"] = 0
    if len(parts) == 3:
        effect = data["self"][int(parts[2]) - 1]
        tokens.say(state, f"{player} plays {data['name']} on themselves: {describe_effect(effect)}.")
        effects.apply_self(state, player, effect, frame["mods"], rng)
    else:
        effect = data["against"]
        tokens.say(state, f"{player} plays {data['name']} on {frame['target']}: {describe_effect(effect)}.")
        effects.apply_against(state, frame["target"], effect, frame["mods"])


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.steps("challenge", {"start": challenge_start, "assisted": challenge_assisted, "next": challenge_next,
                                "scored": challenge_scored, "settle": challenge_settle})
    machine.steps("attempt", {"start": attempt_start, "pay": attempt_pay})
    machine.step("window", "start", run_window)
    machine.kind("assist", prompt="Assist in the challenge?", pass_id="stand-by", options=assist_options, apply=assist_apply,
                 tests=TESTS["assist"])
    machine.kind("attempt", prompt="Play contacts on your attempt, or roll", pass_id="roll", options=attempt_options, apply=attempt_apply,
                 tests=TESTS["attempt"])
    machine.kind("reaction", prompt="Play a contact against the attempt, or pass", pass_id="pass", options=reaction_options, apply=reaction_apply,
                 tests=TESTS["reaction"])
