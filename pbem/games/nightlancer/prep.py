"""The round (rulebook 3) and the Prep phase (3.1).

Prep: Draw cards, Downtime (with Loan costs last), Take missions, Event,
then missions with no Crew are discarded.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import RulesError, present
from pbem.engine.machine import PendingDecision, Task, TurnMachine, finish, push, top
from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.challenges import start_challenge
from pbem.games.nightlancer.crews import (
    FIRST,
    SECOND,
    crew_at,
    leave_mission,
    on_mission,
    slot_by_card,
)
from pbem.games.nightlancer.effects import draw_contacts, self_applies
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.ordertests import TESTS
from pbem.games.nightlancer.setup import table_size
from pbem.games.nightlancer.state import Crew, State
from pbem.games.nightlancer.texts import amounts
from pbem.games.nightlancer.zones import card, current_event, discard, draw

MAX_CREW = 4
#: 3.1 "Take missions step": "If a player is Shaken or has 5 Heat then they must pass"
HEAT_LIMIT = 5


def round_start(state: State, frame: Task, rng: Rng) -> None:
    """3.1: the Draw cards and Downtime steps, then Loan costs (last in Downtime)."""
    state["round"] += 1
    state["phase"] = "prep"
    tokens.say(state, f"Round {state['round']} begins.")
    draw_cards_step(state, rng)
    downtime_step(state)
    frame["step"] = "take"
    push(state, "loans", queue=list(state["order"]), stage="interest", paid=0)


def round_take_missions(state: State, frame: Task, rng: Rng) -> None:
    frame["step"] = "event"
    push(state, "take-missions", idx=0, leaving=None, refused=[])


def round_event(state: State, frame: Task, rng: Rng) -> None:
    frame["step"] = "prep-end"
    push(state, "event", queue=None, part=0, asked=False)


def round_prep_end(state: State, frame: Task, rng: Rng) -> None:
    """3.1 "End of Prep Phase", then the Streets phase (3.2)."""
    discard_idle_missions(state)
    state["phase"] = "streets"
    frame["step"] = "missions"
    push(state, "streets", idx=0, passes=0)


def round_missions(state: State, frame: Task, rng: Rng) -> None:
    """The Missions phase (3.3)."""
    state["phase"] = "missions"
    frame["step"] = "end"
    push(state, "missions-phase", done=[])


def round_end(state: State, frame: Task, rng: Rng) -> None:
    """The End phase (3.4)."""
    state["phase"] = "end"
    frame["step"] = "over"
    push(state, "end")


def round_over(state: State, frame: Task, rng: Rng) -> None:
    finish(state)


def draw_cards_step(state: State, rng: Rng) -> None:
    """3.1 "Draw cards step"."""
    if state["event"]:
        state["discards"]["event"].append(state["event"])
    state["event"] = state["decks"]["event"].pop(0)
    event = card(state, current_event(state))
    counts = event["missions"][str(min(table_size(state), 4))]
    tokens.say(state, f"Event: {event['name']} ({event['text']}) Prospects cost {event['price']} KC this round.")
    for profile in ("low", "high"):
        for _ in range(counts[profile]):
            mission = draw(state, profile, rng)
            if mission is not None:
                state["missions"].append({"card": mission, "crews": [], "deal": None})
                tokens.say(state, f"Mission available: {card(state, mission)['name']} ({profile}-profile).")
    market = 4 if state["mode"] == "solitaire" else 2 * len(state["players"]) + 2
    for _ in range(market):
        c = draw(state, "black_market", rng)
        if c is not None:
            state["market"].append(c)
    for player in state["order"]:
        draw_contacts(state, player, 2 + tokens.extra_contacts(state, player), rng)
        tokens.seat(state, player)["spent"] = []


def downtime_step(state: State) -> None:
    """3.1 "Downtime step" (Loan costs follow in the ``loans`` frame, always last)."""
    for player in state["order"]:
        p = tokens.seat(state, player)
        tokens.heal(state, player, 1, 1)
        p["kc"] += 1 + tokens.income(state, player)
        if p["shaken"]:
            p["shaken"] = False
            tokens.say(state, f"{player} is no longer Shaken.")


def sellable(state: State, player: str) -> bool:
    return bool(tokens.seat(state, player)["items"])


def run_loans(state: State, frame: Task, rng: Rng) -> None:
    """3.1: "for each Loan token a player has they must pay 1 KC in interest or
    discard 3 Health and 3 Resolve! After paying interest, for each Loan they
    may pay 10 KC to discard it." """
    while frame["queue"]:
        player = frame["queue"][0]
        p = tokens.seat(state, player)
        if frame["stage"] == "interest" and frame["paid"] < p["loans"]:
            if p["kc"] < 1 and not sellable(state, player) and not tokens.contacts_in_hand(state, player):
                # nothing to pay with, sell or play (KC, Items and Contacts in hand are all counted in public)
                interest_apply(state, {"player": player, "kind": "interest"}, "suffer", rng)
                continue
            ask(state, player, "interest", contacts=True,
                prompt=f"Loan {frame['paid'] + 1} of {p['loans']}: pay 1 KC interest or discard 3 Health and 3 Resolve")
            return
        if frame["stage"] == "interest":
            frame["stage"], frame["paid"] = "repay", 0
        if frame["stage"] == "repay" and p["loans"] > 0 and (p["kc"] >= 10 or sellable(state, player)):
            ask(state, player, "repay", contacts=True, prompt=f"Repay a Loan for 10 KC? ({p['loans']} outstanding)")
            return
        frame["queue"].pop(0)
        frame["stage"], frame["paid"] = "interest", 0
    finish(state)


def interest_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    options = []
    if tokens.seat(state, decision["player"])["kc"] >= 1:
        options.append(("pay", "Pay 1 KC interest"))
    options.append(("suffer", "Discard 3 Health and 3 Resolve"))
    return options


def interest_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    if option == "pay":
        tokens.seat(state, player)["kc"] -= 1
        tokens.say(state, f"{player} pays 1 KC Loan interest.")
    else:
        tokens.say(state, f"{player} cannot or will not pay interest: discards 3 Health and 3 Resolve.")
        tokens.lose(state, player, health=3, resolve=3)
    frame["paid"] += 1


def repay_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    options = []
    if tokens.seat(state, decision["player"])["kc"] >= 10:
        options.append(("repay", "Pay 10 KC to discard a Loan"))
    options.append(("keep", "Keep the Loan"))
    return options


def repay_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    p = tokens.seat(state, player)
    if option == "repay":
        p["kc"] -= 10
        p["loans"] -= 1
        tokens.say(state, f"{player} repays a Loan.")
    else:
        frame["queue"].pop(0)
        frame["stage"], frame["paid"] = "interest", 0


# --- Take missions step -----------------------------------------------------------


def must_pass(state: State, player: str) -> bool:
    p = tokens.seat(state, player)
    return p["shaken"] or p["heat"] >= HEAT_LIMIT


def run_take_missions(state: State, frame: Task, rng: Rng) -> None:
    """3.1 "Take missions step": in Turn Order each player starts a First Crew,
    starts a Second Crew, joins a Crew (with the Boss's consent) or passes.

    "A player may leave their position on a mission at any time during this
    step": after every turn, each other player on a mission, in turn order,
    stays or leaves before the next turn (or the end of the step); whenever
    someone leaves, everyone else still on a mission may answer that too
    (ruling R6)."""
    order = state["order"]
    if frame["leaving"] is not None:
        frame["leaving"] = [p for p in frame["leaving"] if on_mission(state, p)]
        if frame["leaving"]:
            coming = f"{order[frame['idx']]}'s turn comes next" if frame["idx"] < len(order) else \
                "the Take missions step ends next"
            ask(state, frame["leaving"][0], "stay", prompt=f"Take missions, {coming}: stay on your mission or leave it")
            return
        frame["leaving"] = None
    if frame["idx"] >= len(order):
        finish(state)
        return
    player = order[frame["idx"]]
    if tokens.seat(state, player)["shaken"] or not state["missions"]:
        why = "is Shaken" if tokens.seat(state, player)["shaken"] else "has no mission to take"
        tokens.say(state, f"{player} {why} and passes.")
        frame["idx"] += 1
        return
    # a player on 5 Heat is still asked: a Contact that loses Heat ("any time", NL:423) may let them
    # take a mission, and whether they hold one is hidden
    ask(state, player, "take-mission", contacts=True, prompt="Take missions: start or join a Crew, or pass"
        + (" (you have 5 Heat: you must pass unless you lose Heat first)" if must_pass(state, player) else ""))


def end_turn(state: State, frame: Task, player: str) -> None:
    """``player``'s turn of the Take missions step is over: the others on a mission may leave (R6)."""
    frame["idx"] += 1
    frame["refused"] = []
    frame["leaving"] = [p for p in state["order"] if p != player and on_mission(state, p)]


def deal_contacts(state: State, player: str) -> list[str]:
    result = []
    for c in tokens.seat(state, player)["hand"]:
        data = card(state, c)
        if data["kind"] == "contact" and any(self_applies(e, "first-crew") for e in data["self"]):
            result.append(c)
    return result


def take_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    player = decision["player"]
    competitive = state["mode"] == "competitive"
    options = []
    if must_pass(state, player):
        return [("pass", "Pass (5 Heat)")]
    # the Contacts that could place the Deal token, the same for every mission
    deals = deal_contacts(state, player) if competitive and tokens.seat(state, player)["deal"] else []
    for slot in state["missions"]:
        m = slot["card"]
        mname = card(state, m)["name"]
        first, second = crew_at(slot, FIRST), crew_at(slot, SECOND)
        if first is None:
            options.append((f"first:{m}", f"Start a First Crew on {mname}"))
            for c in deals:
                options.append((f"deal:{m}:{c}", f"Start a First Crew on {mname} and play {card(state, c)['name']} to place your Deal token"))
        elif competitive and second is None and slot["deal"] is None:
            options.append((f"second:{m}", f"Start a Second Crew on {mname}"))
        for crew in (first, second):
            if crew is not None and len(crew["members"]) < MAX_CREW and [m, crew["pos"]] not in frame.get("refused", []):
                options.append((f"join:{m}:{crew['pos']}", f"Ask {crew['members'][0]} to join the {crew['pos'].title()} Crew on {mname}"))
    options.append(("pass", "Pass"))
    return options


def take_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    parts = option.split(":")
    if parts[0] != "join":
        # a refused joiner keeps their turn (below), so the turn moves on only here and on consent
        end_turn(state, frame, player)
    if parts[0] == "pass":
        tokens.say(state, f"{player} has 5 Heat and passes." if must_pass(state, player) else f"{player} passes.")
        return
    slot = present(slot_by_card(state, parts[1]), f"the mission {parts[1]}")
    mname = card(state, parts[1])["name"]
    if parts[0] in ("first", "deal"):
        label = "B" if any(c["label"] == "A" for c in slot["crews"]) else "A"
        slot["crews"].append({"label": label, "pos": FIRST, "members": [player]})
        tokens.say(state, f"{player} starts a First Crew on {mname} and is its Boss.")
        if parts[0] == "deal":
            contact = parts[2]
            tokens.seat(state, player)["hand"].remove(contact)
            discard(state, contact)
            tokens.seat(state, player)["deal"] = False
            slot["deal"] = player
            tokens.say(state, f"{player} plays {card(state, contact)['name']} and places their Deal token: no Second Crew may compete.")
    elif parts[0] == "second":
        label = "B" if any(c["label"] == "A" for c in slot["crews"]) else "A"
        slot["crews"].append({"label": label, "pos": SECOND, "members": [player]})
        tokens.say(state, f"{player} starts a Second Crew on {mname} and is its Boss.")
    else:
        crew = present(crew_at(slot, parts[2]), f"the {parts[2]} Crew")
        tokens.say(state, f"{player} asks {crew['members'][0]} to join their Crew on {mname}.")
        push(state, "consent", joiner=player, card=parts[1], pos=parts[2])


def consent_start(state: State, frame: Task, rng: Rng) -> None:
    crew = joined_crew(state, frame)
    frame["step"] = "done"
    ask(state, crew["members"][0], "consent",
        prompt=f"{frame['joiner']} asks to join your Crew on {card(state, frame['card'])['name']}")


def joined_crew(state: State, frame: Task) -> Crew:
    """The Crew a player asks to join."""
    slot = present(slot_by_card(state, frame["card"]), f"the mission {frame['card']}")
    return present(crew_at(slot, frame["pos"]), f"the {frame['pos']} Crew on {frame['card']}")


def consent_done(state: State, frame: Task, rng: Rng) -> None:
    finish(state)


def consent_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    return [("accept", f"Accept {frame['joiner']}"), ("refuse", f"Refuse {frame['joiner']}")]


def consent_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    step = state["stack"][-2]  # the Take missions step that pushed this consent frame
    if step["type"] != "take-missions":
        raise RulesError(f"a consent decision under a {step['type']} task")
    if option == "accept":
        joined_crew(state, frame)["members"].append(frame["joiner"])
        tokens.say(state, f"{decision['player']} accepts {frame['joiner']} into the Crew.")
        end_turn(state, step, frame["joiner"])
    else:
        # NL:182-197: the player picks one option; a Boss's refusal is not the player's pass,
        # so they choose again, without the Crew that refused them
        tokens.say(state, f"{decision['player']} refuses {frame['joiner']}.")
        step.setdefault("refused", []).append([frame["card"], frame["pos"]])


def stay_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [("stay", "Stay on the mission"), ("leave", "Leave the mission")]


def stay_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    frame["leaving"].pop(0)
    if option == "leave":
        leave_mission(state, player)
        tokens.say(state, f"{player} leaves their mission.")
        # a Boss gone, a Crew moved up: whoever has answered already may answer this too
        frame["leaving"] += [p for p in state["order"] if on_mission(state, p) and p not in frame["leaving"]]


# --- Event step -----------------------------------------------------------------


def event_applies(state: State, player: str, who: dict[str, Any]) -> bool:
    p = tokens.seat(state, player)
    if who.get("all"):
        return True
    if "heat_at_least" in who:
        return p["heat"] >= who["heat_at_least"]
    if "loans_at_least" in who:
        return p["loans"] >= who["loans_at_least"]
    if "ideals_at_most" in who:
        return p["ideals"] <= who["ideals_at_most"]
    if "cards_at_least" in who:
        need = who["cards_at_least"]
        return sum(1 for c in p["items"] + p["cyber"] if card(state, c)["type"] == need["of"]) >= need["n"]
    return False


def apply_losses(state: State, player: str, losses: dict[str, int]) -> None:
    p = tokens.seat(state, player)
    if losses.get("kc"):
        p["kc"] = max(0, p["kc"] - losses["kc"])
    tokens.gain_heat(state, player, losses.get("heat", 0))
    if losses.get("health") or losses.get("resolve"):
        tokens.lose(state, player, health=losses.get("health", 0), resolve=losses.get("resolve", 0))


def describe_part(part: dict[str, Any]) -> str:
    """One part of an Event as the player reads it."""
    if "challenge" in part:
        losses = amounts(part["on_fail"])
        return f"{part['challenge'].title()} {part['difficulty']}" + (f" or lose {losses}" if losses else "")
    if "lose" in part:
        return f"lose {amounts(part['lose'])}"
    return f"gain {part['heat']} Heat"


def may_play_contacts_before(state: State, player: str, part: dict[str, Any]) -> bool:
    """Whether ``player`` is asked before a part of the Event (ruling R29): they hold a Contact (the
    count is public), and the part is not a challenge that applies to everyone (its attempt
    window offers the same Contacts, and nothing they do can change whether it applies)."""
    return bool(tokens.contacts_in_hand(state, player)) and not ("challenge" in part and part["who"].get("all"))


def run_event(state: State, frame: Task, rng: Rng) -> None:
    """3.1 "Event step": players off missions recover to maximum, lose 1 Heat
    and draw an Agenda; then the Event hits players on missions, in Turn
    Order, one part after another; a player Shaken stops there. Before each
    part that applies to them a player may play Contacts on themselves ("A
    Contact can be played at any time it can apply", 5.1; ruling R29)."""
    if frame["queue"] is None:
        for player in state["order"]:
            if not on_mission(state, player):
                p = tokens.seat(state, player)
                tokens.heal(state, player, 99, 99)
                tokens.cool(state, player, 1)
                agenda = draw(state, "agenda", rng)
                if agenda is not None:
                    p["hand"].append(agenda)
                    tokens.tell(state, player, f"You draw the Agenda {card(state, agenda)['name']}.")
        frame["queue"] = [p for p in state["order"] if on_mission(state, p)]
        frame["part"] = 0
        return
    if "ret" in frame:
        result = frame.pop("ret")
        player = frame["queue"][0]
        part = card(state, current_event(state))["parts"][frame["part"]]
        if not result and not tokens.seat(state, player)["shaken"]:
            apply_losses(state, player, part["on_fail"])
        frame["part"] += 1
        return
    parts = card(state, current_event(state))["parts"]
    while frame["queue"]:
        player = frame["queue"][0]
        if frame["part"] >= len(parts) or tokens.seat(state, player)["shaken"] or not on_mission(state, player):
            frame["queue"].pop(0)
            frame["part"], frame["asked"] = 0, False
            continue
        part = parts[frame["part"]]
        if not event_applies(state, player, part["who"]):
            frame["part"], frame["asked"] = frame["part"] + 1, False
            continue
        if not frame["asked"] and may_play_contacts_before(state, player, part):
            # asked once: the applicability is checked again when the player goes on
            frame["asked"] = True
            ask(state, player, "event", contacts=True,
                prompt=f"The Event's next part for you: {describe_part(part)}. Play Contacts on yourself first, or go on")
            return
        frame["asked"] = False
        if "challenge" in part:
            start_challenge(state, part["challenge"], part["difficulty"], {"event": True, "traits": []}, solo=player)
            return
        if "lose" in part:
            tokens.say(state, f"The event hits {player}.")
            apply_losses(state, player, part["lose"])
        else:
            apply_losses(state, player, {"heat": part["heat"]})
        frame["part"] += 1
        if state["over"]:
            return
    finish(state)


def event_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [("go-on", "Go on with the Event")]


def event_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    """Going on: the Event step resolves the part (Contacts were played as free actions)."""


def discard_idle_missions(state: State) -> None:
    """3.1 "End of Prep Phase": discard mission cards with no Crews."""
    for slot in list(state["missions"]):
        if not slot["crews"]:
            state["missions"].remove(slot)
            discard(state, slot["card"])
            if slot["deal"]:
                tokens.seat(state, slot["deal"])["deal"] = True


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.steps("round", {"start": round_start, "take": round_take_missions, "event": round_event,
                            "prep-end": round_prep_end, "missions": round_missions, "end": round_end,
                            "over": round_over})
    machine.step("loans", "start", run_loans)
    machine.step("take-missions", "start", run_take_missions)
    machine.steps("consent", {"start": consent_start, "done": consent_done})
    machine.step("event", "start", run_event)
    machine.kind("interest", prompt="Pay Loan interest", options=interest_options, apply=interest_apply)
    machine.kind("repay", prompt="Repay a Loan", pass_id="keep", options=repay_options, apply=repay_apply)
    machine.kind("take-mission", prompt="Take missions", pass_id="pass", options=take_options, apply=take_apply)
    machine.kind("consent", prompt="Let a player join your Crew?", options=consent_options, apply=consent_apply,
                 tests=TESTS["consent"])
    machine.kind("stay", prompt="Stay on your mission or leave it", pass_id="stay", options=stay_options,
                 apply=stay_apply)
    machine.kind("event", prompt="Play Contacts on yourself before the Event's next part, or go on", pass_id="go-on",
                 options=event_options, apply=event_apply)
