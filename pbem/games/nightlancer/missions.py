"""The Missions phase (rulebook 3.3): gear up, three stages, competing Crews,
the face-off and payment.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import present
from pbem.engine.machine import PendingDecision, Task, TurnMachine, finish, push, top
from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.cards import COMBAT_CHALLENGES
from pbem.games.nightlancer.challenges import (
    automatic_contact,
    defeat,
    open_window,
    others_in_turn_order,
    start_challenge,
)
from pbem.games.nightlancer.crews import (
    FIRST,
    SECOND,
    Crew,
    Slot,
    crew_at,
    crew_by_label,
    leave_mission,
    next_positions,
    slot_by_card,
    slot_of,
)
from pbem.games.nightlancer.effects import new_mods
from pbem.games.nightlancer.flow import ask
from pbem.games.nightlancer.ordertests import TESTS
from pbem.games.nightlancer.state import State
from pbem.games.nightlancer.texts import describe_effect
from pbem.games.nightlancer.zones import card, discard, draw

LOADOUT = 3


def run_missions_phase(state: State, frame: Task, rng: Rng) -> None:
    """"In Turn Order, if a player is on a mission then that mission is
    attempted for all players on that mission." """
    for player in state["order"]:
        slot = slot_of(state, player)
        if slot is not None and slot["card"] not in frame["done"]:
            frame["done"].append(slot["card"])
            members = [m for crew in sorted(slot["crews"], key=lambda c: c["pos"]) for m in crew["members"]]
            push(state, "mission", card=slot["card"], stage=1, participants=members, gear=list(members),
                 order=[], idx=0, results={}, queue=[], option=None, faced_off=False, asked_stage=0)
            tokens.say(state, f"The mission {card(state, slot['card'])['name']} is attempted by {', '.join(members)}.")
            return
    finish(state)


def mission_ctx(state: State, card_id: str) -> dict[str, Any]:
    return {"event": False, "traits": list(card(state, card_id)["traits"])}


def mission_slot(state: State, frame: Task) -> Slot:
    """The mission slot this frame attempts (it stays in the mission area until the mission ends)."""
    return present(slot_by_card(state, frame["card"]), f"the mission {frame['card']}")


def crew(state: State, frame: Task, label: str) -> Crew | None:
    """The Crew of this mission labelled ``label``, while it is still on it."""
    slot = slot_by_card(state, frame["card"])
    return crew_by_label(slot, label) if slot else None


def gear_up(state: State, frame: Task, rng: Rng) -> None:
    """I. Gear up: each player on the mission chooses up to 3 Items as their Loadout."""
    data = card(state, frame["card"])
    while frame["gear"]:
        player = frame["gear"][0]
        p = tokens.seat(state, player)
        if p["items"] and len(p["loadout"]) < LOADOUT and len(p["loadout"]) < len(p["items"]):
            ask(state, player, "gear-up", prompt=f"Gear up for {data['name']}: choose up to {LOADOUT} Items for your "
                f"Loadout ({len(p['loadout'])} chosen)")
            return
        frame["gear"].pop(0)
    frame["step"] = "stage"


def stage_begins(state: State, frame: Task, rng: Rng) -> None:
    """II-IV. The next Stage, in the Crews' positions; when two Crews reach Stage 3 their members
    may abandon, then the Crews face off; after Stage 3, payment. A mission nobody is left on ends."""
    slot = mission_slot(state, frame)
    if not slot["crews"]:
        frame["step"] = "end"
        return
    if frame["stage"] > 3:
        frame["step"] = "payment"
        frame["queue"] = None
        return
    if frame["stage"] == 3 and len(slot["crews"]) == 2 and not frame["faced_off"]:
        if frame["asked_stage"] != frame["stage"]:
            # "at the beginning of any Stage" (3.3): before the face-off, First Crew first
            frame["asked_stage"] = frame["stage"]
            frame["queue"] = [m for c in sorted(slot["crews"], key=lambda c: c["pos"]) for m in c["members"][1:]]
            frame["step"] = "before-face-off"
            return
        frame["step"] = "face-off"
        return
    frame["order"] = [c["label"] for c in sorted(slot["crews"], key=lambda c: c["pos"])]
    frame["positions"] = {c["label"]: c["pos"] for c in slot["crews"]}
    frame["idx"], frame["results"] = 0, {}
    frame["step"] = "crew"
    tokens.say(state, f"Stage {frame['stage']} of {card(state, frame['card'])['name']}.")


def next_crew(state: State, frame: Task, rng: Rng) -> None:
    """The next Crew attempts the Stage; when all have, the Crews take their positions for the next."""
    if frame["idx"] >= len(frame["order"]):
        reposition(state, frame, mission_slot(state, frame))
        frame["stage"] += 1
        frame["step"] = "stage"
        return
    label = frame["order"][frame["idx"]]
    c = crew(state, frame, label)
    if c is None:
        frame["results"][label] = "gone"
        frame["idx"] += 1
        return
    # members asked before a face-off have had the beginning of this Stage
    frame["queue"] = list(c["members"][1:]) if frame["asked_stage"] != frame["stage"] else []
    frame["step"] = "abandon"


def ask_next_member(state: State, frame: Task) -> bool:
    """Ask the next member in the queue still on the mission to continue or abandon; whether one was asked."""
    slot = mission_slot(state, frame)
    frame["queue"] = [m for m in frame["queue"] if any(m in c["members"] for c in slot["crews"])]
    if not frame["queue"]:
        return False
    ask(state, frame["queue"][0], "abandon", prompt=f"Stage {frame['stage']} of {card(state, frame['card'])['name']} "
        "begins: continue or abandon the mission")
    return True


def members_may_abandon(state: State, frame: Task, rng: Rng) -> None:
    """At the start of a Stage each member but the Boss continues or abandons (3.3 "Abandoning a
    mission"; the Boss abandons in the option choice, ruling R9)."""
    if not ask_next_member(state, frame):
        frame["step"] = "choose"


def members_may_abandon_before_face_off(state: State, frame: Task, rng: Rng) -> None:
    """Two Crews reach Stage 3: first each member but the Bosses continues or abandons, then the
    face-off (if both Crews are still on the mission)."""
    if not ask_next_member(state, frame):
        frame["step"] = "stage"


def boss_chooses(state: State, frame: Task, rng: Rng) -> None:
    """The Boss chooses the Stage option (or abandons: the next Boss chooses)."""
    label = frame["order"][frame["idx"]]
    c = crew(state, frame, label)
    if c is None:
        frame["results"][label] = "gone"
        frame["idx"] += 1
        frame["step"] = "crew"
        return
    ask(state, c["members"][0], "choose-option", prompt=f"Stage {frame['stage']} of {card(state, frame['card'])['name']}: "
        "as Boss, choose how the Crew attempts it (or abandon)")


def stage_attempted(state: State, frame: Task, rng: Rng) -> None:
    """The Crew's challenge is over: passed; a lost combat (the Crew is defeated and off the
    mission); or failed, and the Stage's penalty applies."""
    data = card(state, frame["card"])
    label = frame["order"][frame["idx"]]
    passed = frame.pop("ret")
    option = data["stages"][frame["stage"] - 1]["options"][frame["option"]]
    penalty = data["stages"][frame["stage"] - 1]["penalty"]
    c = crew(state, frame, label)
    if c is None:
        frame["results"][label] = "gone"
    elif passed:
        frame["results"][label] = "pass"
    elif option["challenge"] in COMBAT_CHALLENGES:
        frame["results"][label] = "gone"
    else:
        tokens.say(state, f"Penalty: {describe_penalty(penalty)}.")
        if penalty["kind"] == "heat":
            for m in list(c["members"]):
                tokens.gain_heat(state, m, penalty["amount"])
            frame["results"][label] = "fail"
        elif penalty["kind"] == "abort":
            for m in list(c["members"]):
                leave_mission(state, m)
            tokens.say(state, "The Crew must abort the mission.")
            frame["results"][label] = "gone"
        else:
            frame["step"] = "penalty"
            start_challenge(state, penalty["challenge"], penalty["difficulty"], mission_ctx(state, frame["card"]),
                            card_id=frame["card"], label=label)
            return
    frame["idx"] += 1
    frame["step"] = "crew"


def penalty_fought(state: State, frame: Task, rng: Rng) -> None:
    """A penalty combat is over: the Stage is failed either way."""
    label = frame["order"][frame["idx"]]
    frame.pop("ret")
    frame["results"][label] = "fail" if crew(state, frame, label) else "gone"
    frame["idx"] += 1
    frame["step"] = "crew"


def face_off(state: State, frame: Task, rng: Rng) -> None:
    """Both Crews reach Stage 3: the First Crew's Boss fights or abandons."""
    slot = mission_slot(state, frame)
    first = crew_at(slot, FIRST) or slot["crews"][0]
    frame["lead"] = first["label"]
    frame["trail"] = next(c["label"] for c in slot["crews"] if c["label"] != first["label"])
    frame["faced_off"] = True
    tokens.say(state, "Face-off! Both Crews reach Stage 3.")
    ask(state, first["members"][0], "face-off", prompt="Face-off: abandon the mission or choose how to fight the other Crew")
    frame["step"] = "face-off-chosen"


def lead_scored(state: State, frame: Task, rng: Rng) -> None:
    """The First Crew's score in the contested combat is the difficulty the Second Crew must beat;
    a First Crew defeated or knocked off the mission in its attempt leaves no fight (R13)."""
    frame["lead_score"] = frame.pop("ret")
    lead = crew(state, frame, frame["lead"])
    if lead is None or crew(state, frame, frame["trail"]) is None:
        first_alone(mission_slot(state, frame))
        frame["step"] = "stage"
        return
    tokens.say(state, f"The First Crew's score {frame['lead_score']} is the difficulty the Second Crew must beat.")
    frame["step"] = "contest-trail"
    start_challenge(state, frame["fight"], frame["lead_score"], mission_ctx(state, frame["card"]),
                    card_id=frame["card"], label=frame["trail"])


def trail_fought(state: State, frame: Task, rng: Rng) -> None:
    """The loser of the contested combat is defeated; whoever is left goes on in first position."""
    won = frame.pop("ret")
    lead = crew(state, frame, frame["lead"])
    if won and lead is not None:
        tokens.say(state, "The Second Crew wins the fight: the First Crew is defeated.")
        defeat(state, list(lead["members"]))
    elif not won:
        tokens.say(state, "The First Crew wins the fight.")
    first_alone(mission_slot(state, frame))
    frame["step"] = "stage"


def first_alone(slot: Slot) -> None:
    """After the face-off one Crew at most is left: it goes on in the First Crew position."""
    for c in slot["crews"]:
        c["pos"] = FIRST


def payment(state: State, frame: Task, rng: Rng) -> None:
    """V. Payment."""
    pay(state, rng, frame, mission_slot(state, frame), card(state, frame["card"]))


def reposition(state: State, frame: Task, slot: Slot) -> None:
    labels = {pos: label for label, pos in frame["positions"].items()}
    placed = next_positions(labels.get(FIRST), labels.get(SECOND), frame["results"])
    for c in slot["crews"]:
        if c["label"] in placed:
            c["pos"] = placed[c["label"]]
    if len(slot["crews"]) == 2:
        where = ", ".join(f"{c['members'][0]}'s Crew {c['pos']}" for c in slot["crews"])
        tokens.say(state, f"Positions for Stage {frame['stage'] + 1}: {where}.")


def describe_penalty(penalty: dict[str, Any]) -> str:
    if penalty["kind"] == "heat":
        return f"gain {penalty['amount']} Heat"
    if penalty["kind"] == "abort":
        return "Abort"
    return f"{penalty['challenge'].title()} {penalty['difficulty']} combat"


def gear_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    p = tokens.seat(state, decision["player"])
    options = []
    for c in p["items"]:
        if c not in p["loadout"]:
            data = card(state, c)
            marks = [data["type"].title()] + [t.title() for t in data["traits"]] + (["Spend"] if data.get("spend") else [])
            # Loud and Obvious decide Stealthy and Incognito use, so the label shows them
            options.append((f"take:{c}", f"Take {data['name']} ({', '.join(marks)})"))
    options.append(("done", "Done: leave the rest aside"))
    return options


def gear_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    p = tokens.seat(state, player)
    if option == "done":
        frame["gear"].pop(0)
        tokens.say(state, f"{player}'s Loadout: {', '.join(card(state, c)['name'] for c in p['loadout']) or 'nothing'}.")
    else:
        p["loadout"].append(option.split(":", 1)[1])
        if len(p["loadout"]) >= LOADOUT or len(p["loadout"]) == len(p["items"]):
            frame["gear"].pop(0)
            tokens.say(state, f"{player}'s Loadout: {', '.join(card(state, c)['name'] for c in p['loadout'])}.")


def abandon_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [("continue", "Continue"), ("abandon", "Abandon the mission")]


def abandon_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    frame["queue"].pop(0)
    if option == "abandon":
        leave_mission(state, player)
        tokens.say(state, f"{player} abandons the mission.")


def choose_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    stage = card(state, frame["card"])["stages"][frame["stage"] - 1]
    options = [(f"option:{i + 1}", f"{o['challenge'].title()} {o['difficulty']}") for i, o in enumerate(stage["options"])]
    options.append(("abandon", "Abandon the mission"))
    return options


def choose_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    if option == "abandon":
        leave_mission(state, player)
        tokens.say(state, f"{player} abandons the mission.")
        return  # the next Boss chooses (step stays "choose")
    index = int(option.split(":")[1]) - 1
    frame["option"] = index
    chosen = card(state, frame["card"])["stages"][frame["stage"] - 1]["options"][index]
    tokens.say(state, f"{player} chooses {chosen['challenge'].title()} {chosen['difficulty']}.")
    frame["step"] = "attempted"
    start_challenge(state, chosen["challenge"], chosen["difficulty"], mission_ctx(state, frame["card"]),
                    card_id=frame["card"], label=frame["order"][frame["idx"]])


def faceoff_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    return [(f"fight:{t}", f"Fight: {t.title()} contested combat") for t in COMBAT_CHALLENGES] + [
        ("abandon", "Abandon the mission (the whole Crew)")]


def faceoff_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    slot = mission_slot(state, frame)
    if option == "abandon":
        abandon_face_off(state, slot, frame, "lead",
                         "The First Crew abandons the mission; the Second Crew continues alone.")
        return
    frame["fight"] = option.split(":")[1]
    tokens.say(state, f"The First Crew chooses to fight: {frame['fight'].title()}.")
    trail = present(crew_by_label(slot, frame["trail"]), "the Second Crew")
    frame["step"] = "accept"
    ask(state, trail["members"][0], "accept-fight",
        prompt=f"Face-off: the First Crew will fight ({frame['fight'].title()}). Accept the fight or abandon the mission")


def abandon_face_off(state: State, slot: Slot, frame: Task, side: str, message: str) -> None:
    """A Crew abandons at the face-off: its members leave, the other Crew goes on alone, in first position."""
    crew = present(crew_by_label(slot, frame[side]), f"the Crew {frame[side]}")
    tokens.say(state, message)
    for member in list(crew["members"]):
        leave_mission(state, member)
    first_alone(slot)
    frame["step"] = "stage"


def accept_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    return [("fight", f"Fight ({frame['fight'].title()})"), ("abandon", "Abandon the mission (the whole Crew)")]


def accept_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    slot = mission_slot(state, frame)
    if option == "abandon":
        abandon_face_off(state, slot, frame, "trail", "The Second Crew abandons the mission.")
        return
    tokens.say(state, "The Second Crew accepts: Contested Combat Challenge.")
    frame["step"] = "contest-lead"
    start_challenge(state, frame["fight"], None, mission_ctx(state, frame["card"]), card_id=frame["card"],
                    label=frame["lead"])


def pay(state: State, rng: Rng, frame: Task, slot: Slot, data: dict[str, Any]) -> None:
    """V. Payment: every Crew member still on the mission takes the reward for
    the Crew size; Dirty costs each an Ideal; Skill draws are bought one at
    2, 3, 4 ... KC by the number of Skills owned."""
    if frame["queue"] is None:
        members = [m for c in slot["crews"] for m in c["members"]]
        frame["queue"] = members
        frame["size"] = len(members)
        if members:
            verb = "takes" if len(members) == 1 else "take"
            tokens.say(state, f"{data['name']} is Complete: {', '.join(members)} {verb} the reward.")
        frame["paying"] = None
    if frame["paying"] is not None:
        player = frame["paying"]
        mods = frame.pop("ret")
        frame["paying"] = None
        reward_player(state, rng, frame, player, data, mods)
        return
    if not frame["queue"]:
        frame["step"] = "end"
        return
    player = frame["queue"].pop(0)
    frame["paying"] = player
    if state["mode"] == "competitive":
        open_window(state, "payment", player, others_in_turn_order(state, player), what=data["name"])
    else:
        mods = new_mods()
        automatic_contact(state, player, "payment", mods, rng)
        frame["ret"] = mods


def reward_player(state: State, rng: Rng, frame: dict[str, Any], player: str, data: dict[str, Any],
                  mods: dict[str, Any]) -> None:
    p = tokens.seat(state, player)
    reward = data["rewards"][min(frame["size"], 4) - 1]
    kc = max(0, reward["kc"] - mods["skim"])
    p["kc"] += kc
    p["prospects"] += reward["prospects"]
    p["missions_done"] += 1
    tokens.say(state, f"{player} takes {kc} KC" + (f" and {reward['prospects']} Prospect(s)" if reward["prospects"] else "") + ".")
    tokens.gain_heat(state, player, reward["heat"] + mods["heat"])
    if "dirty" in data["traits"]:
        tokens.say(state, f"Dirty work: {player} loses an Ideal.")
        tokens.lose_ideal(state, player)
        if state["over"]:
            return
    if reward["skills"]:
        drawn = [c for c in (draw(state, "skill", rng) for _ in range(reward["skills"])) if c is not None]
        if drawn:
            tokens.tell(state, player, "You draw the Skills " + ", ".join(card(state, c)["name"] for c in drawn) + ".")
            push(state, "skills", player=player, drawn=drawn)


def skill_cost(state: State, player: str) -> int:
    """3.3: "The first Skill card costs 2 KC, each consecutive card costs one more KC." """
    return 2 + len(tokens.seat(state, player)["skills"])


def offer_skills(state: State, frame: Task, rng: Rng) -> None:
    """The player may buy one of the Skills drawn as a reward."""
    frame["step"] = "chosen"
    ask(state, frame["player"], "skill", contacts=True,
        prompt=f"Buy one of the Skills you drew for {skill_cost(state, frame['player'])} KC, or none")


def discard_skills(state: State, frame: Task, rng: Rng) -> None:
    """The Skills not bought are discarded."""
    for c in frame["drawn"]:
        discard(state, c)
    frame["drawn"] = []
    finish(state)


def skill_options(state: State, decision: PendingDecision) -> list[tuple[str, str]]:
    frame = top(state)
    player = decision["player"]
    cost = skill_cost(state, player)
    options = []
    if tokens.seat(state, player)["kc"] >= cost:
        options = [(f"buy:{c}", f"Buy {card(state, c)['name']} ({'; '.join(describe_effect(e) for e in card(state, c)['effects'])}) for {cost} KC")
                   for c in frame["drawn"]]
    options.append(("none", "Buy none"))
    return options


def skill_apply(state: State, decision: PendingDecision, option: str, rng: Rng) -> None:
    frame = top(state)
    player = decision["player"]
    if option == "none":
        return
    skill = option.split(":", 1)[1]
    p = tokens.seat(state, player)
    p["kc"] -= skill_cost(state, player)
    frame["drawn"].remove(skill)
    p["skills"].append(skill)
    p["prospects"] += card(state, skill)["prospects"]
    tokens.say(state, f"{player} buys the Skill {card(state, skill)['name']}.")


def end_mission(state: State, frame: Task, rng: Rng) -> None:
    """"Once payment is finished players take back their Nightlancer token and
    discard the mission card." """
    slot = slot_by_card(state, frame["card"])
    if slot is not None:
        state["missions"].remove(slot)
        discard(state, slot["card"])
        if slot["deal"]:
            tokens.seat(state, slot["deal"])["deal"] = True
    for player in frame["participants"]:
        tokens.seat(state, player)["loadout"] = []
    finish(state)


def register(machine: TurnMachine[State]) -> None:
    """This module's steps and decision kinds, on the game's turn machine."""
    machine.step("missions-phase", "start", run_missions_phase)
    machine.steps("mission", {
        "start": gear_up, "stage": stage_begins, "crew": next_crew, "abandon": members_may_abandon,
        "before-face-off": members_may_abandon_before_face_off,
        "choose": boss_chooses, "attempted": stage_attempted, "penalty": penalty_fought, "face-off": face_off,
        "contest-lead": lead_scored, "contest-trail": trail_fought, "payment": payment, "end": end_mission,
    })
    machine.steps("skills", {"start": offer_skills, "chosen": discard_skills})
    machine.kind("gear-up", prompt="Choose your Loadout", pass_id="done", options=gear_options, apply=gear_apply)
    machine.kind("abandon", prompt="Continue or abandon the mission", pass_id="continue", options=abandon_options, apply=abandon_apply,
                 tests=TESTS["abandon"])
    machine.kind("choose-option", prompt="Choose the Stage option", options=choose_options, apply=choose_apply)
    machine.kind("face-off", prompt="Face-off: fight or abandon", options=faceoff_options, apply=faceoff_apply,
                 tests=TESTS["face-off"])
    machine.kind("accept-fight", prompt="Accept the fight or abandon", options=accept_options, apply=accept_apply,
                 tests=TESTS["accept-fight"])
    machine.kind("skill", prompt="Buy a Skill", pass_id="none", options=skill_options, apply=skill_apply)
