"""The Missions phase (rulebook 3.3): gear up, three stages, competing Crews,
the face-off and payment.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.rng import Rng
from pbem.games.nightlancer import tokens
from pbem.games.nightlancer.cards import COMBAT_CHALLENGES
from pbem.games.nightlancer.challenges import automatic_contact, defeat, open_window, others_in_turn_order, start_challenge
from pbem.games.nightlancer.crews import FIRST, SECOND, crew_at, crew_by_label, leave_mission, next_positions, slot_by_card, slot_of
from pbem.games.nightlancer.effects import describe, new_mods
from pbem.games.nightlancer.flow import ask, decision, finish, push, runner
from pbem.games.nightlancer.zones import card, discard, draw

State = dict[str, Any]
LOADOUT = 3


@runner("missions-phase")
def run_missions_phase(state: State, rng: Rng, frame: dict[str, Any]) -> None:
    """"In Turn Order, if a player is on a mission then that mission is
    attempted for all players on that mission." """
    for player in state["order"]:
        slot = slot_of(state, player)
        if slot is not None and slot["card"] not in frame["done"]:
            frame["done"].append(slot["card"])
            members = [m for crew in sorted(slot["crews"], key=lambda c: c["pos"]) for m in crew["members"]]
            push(state, "mission", card=slot["card"], stage=1, participants=members, gear=list(members),
                 order=[], idx=0, results={}, queue=[], option=None, faced_off=False)
            tokens.say(state, f"The mission {card(state, slot['card'])['name']} is attempted by {', '.join(members)}.")
            return
    finish(state)


def mission_ctx(state: State, card_id: str) -> dict[str, Any]:
    return {"event": False, "traits": list(card(state, card_id)["traits"])}


def crew(state: State, frame: dict[str, Any], label: str) -> dict[str, Any] | None:
    slot = slot_by_card(state, frame["card"])
    return crew_by_label(slot, label) if slot else None


@runner("mission")
def run_mission(state: State, rng: Rng, frame: dict[str, Any]) -> None:
    slot = slot_by_card(state, frame["card"])
    data = card(state, frame["card"])
    step = frame["step"]
    if step == "start":  # I. Gear up
        while frame["gear"]:
            player = frame["gear"][0]
            p = tokens.seat(state, player)
            if p["items"] and len(p["loadout"]) < LOADOUT and len(p["loadout"]) < len(p["items"]):
                ask(state, player, "gear-up", prompt=f"Gear up for {data['name']}: choose up to {LOADOUT} Items for your Loadout ({len(p['loadout'])} chosen)")
                return
            frame["gear"].pop(0)
        frame["step"] = "stage"
    elif step == "stage":
        if not slot["crews"]:
            frame["step"] = "end"
            return
        if frame["stage"] > 3:
            frame["step"] = "payment"
            frame["queue"] = None
            return
        if frame["stage"] == 3 and len(slot["crews"]) == 2 and not frame["faced_off"]:
            frame["step"] = "face-off"
            return
        frame["order"] = [c["label"] for c in sorted(slot["crews"], key=lambda c: c["pos"])]
        frame["positions"] = {c["label"]: c["pos"] for c in slot["crews"]}
        frame["idx"], frame["results"] = 0, {}
        frame["step"] = "crew"
        tokens.say(state, f"Stage {frame['stage']} of {data['name']}.")
    elif step == "crew":
        if frame["idx"] >= len(frame["order"]):
            reposition(state, frame, slot)
            frame["stage"] += 1
            frame["step"] = "stage"
            return
        label = frame["order"][frame["idx"]]
        c = crew_by_label(slot, label)
        if c is None:
            frame["results"][label] = "gone"
            frame["idx"] += 1
            return
        frame["queue"] = list(c["members"][1:])
        frame["step"] = "abandon"
    elif step == "abandon":
        label = frame["order"][frame["idx"]]
        c = crew_by_label(slot, label)
        frame["queue"] = [m for m in frame["queue"] if c is not None and m in c["members"]]
        if frame["queue"]:
            ask(state, frame["queue"][0], "abandon",
                prompt=f"Stage {frame['stage']} of {data['name']} begins: continue or abandon the mission")
            return
        frame["step"] = "choose"
    elif step == "choose":
        label = frame["order"][frame["idx"]]
        c = crew_by_label(slot, label)
        if c is None:
            frame["results"][label] = "gone"
            frame["idx"] += 1
            frame["step"] = "crew"
            return
        ask(state, c["members"][0], "choose-option",
            prompt=f"Stage {frame['stage']} of {data['name']}: as Boss, choose how the Crew attempts it (or abandon)")
    elif step == "attempted":
        label = frame["order"][frame["idx"]]
        passed = frame.pop("ret")
        option = data["stages"][frame["stage"] - 1]["options"][frame["option"]]
        penalty = data["stages"][frame["stage"] - 1]["penalty"]
        c = crew_by_label(slot, label)
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
    elif step == "penalty":
        label = frame["order"][frame["idx"]]
        frame.pop("ret")
        frame["results"][label] = "fail" if crew_by_label(slot, label) else "gone"
        frame["idx"] += 1
        frame["step"] = "crew"
    elif step == "face-off":
        first = crew_at(slot, FIRST) or slot["crews"][0]
        frame["lead"] = first["label"]
        frame["trail"] = next(c["label"] for c in slot["crews"] if c["label"] != first["label"])
        frame["faced_off"] = True
        tokens.say(state, "Face-off! Both Crews reach Stage 3.")
        ask(state, first["members"][0], "face-off", prompt="Face-off: abandon the mission or choose how to fight the other Crew")
        frame["step"] = "face-off-chosen"
    elif step == "contest-lead":
        frame["lead_score"] = frame.pop("ret")
        lead = crew_by_label(slot, frame["lead"])
        if lead is None or crew_by_label(slot, frame["trail"]) is None:
            frame["step"] = "stage"
            return
        tokens.say(state, f"The First Crew's score {frame['lead_score']} is the difficulty the Second Crew must beat.")
        frame["step"] = "contest-trail"
        start_challenge(state, frame["fight"], frame["lead_score"], mission_ctx(state, frame["card"]),
                        card_id=frame["card"], label=frame["trail"])
    elif step == "contest-trail":
        won = frame.pop("ret")
        lead = crew_by_label(slot, frame["lead"])
        if won and lead is not None:
            tokens.say(state, "The Second Crew wins the fight: the First Crew is defeated.")
            defeat(state, list(lead["members"]))
        elif not won:
            tokens.say(state, "The First Crew wins the fight.")
        for c in slot["crews"] if slot else []:
            c["pos"] = FIRST
        frame["step"] = "stage"
    elif step == "payment":
        pay(state, rng, frame, slot, data)
    elif step == "end":
        end_mission(state, frame)


def reposition(state: State, frame: dict[str, Any], slot: dict[str, Any]) -> None:
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


@decision("gear-up", "Choose your Loadout")
def gear_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    p = tokens.seat(state, entry["player"])
    options = []
    for c in p["items"]:
        if c not in p["loadout"]:
            data = card(state, c)
            marks = [data["type"].title()] + [t.title() for t in data["traits"]] + (["Spend"] if data.get("spend") else [])
            # Loud and Obvious decide Stealthy and Incognito use, so the label shows them
            options.append((f"take:{c}", f"Take {data['name']} ({', '.join(marks)})"))
    options.append(("done", "Done: leave the rest aside"))
    return options


@gear_options.apply
def gear_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    player = entry["player"]
    p = tokens.seat(state, player)
    if option == "done":
        frame["gear"].pop(0)
        tokens.say(state, f"{player}'s Loadout: {', '.join(card(state, c)['name'] for c in p['loadout']) or 'nothing'}.")
    else:
        p["loadout"].append(option.split(":", 1)[1])
        if len(p["loadout"]) >= LOADOUT or len(p["loadout"]) == len(p["items"]):
            frame["gear"].pop(0)
            tokens.say(state, f"{player}'s Loadout: {', '.join(card(state, c)['name'] for c in p['loadout'])}.")


@decision("abandon", "Continue or abandon the mission")
def abandon_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    return [("continue", "Continue"), ("abandon", "Abandon the mission")]


@abandon_options.apply
def abandon_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    player = entry["player"]
    frame["queue"].pop(0)
    if option == "abandon":
        leave_mission(state, player)
        tokens.say(state, f"{player} abandons the mission.")


@decision("choose-option", "Choose the Stage option")
def choose_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    stage = card(state, frame["card"])["stages"][frame["stage"] - 1]
    options = [(f"option:{i + 1}", f"{o['challenge'].title()} {o['difficulty']}") for i, o in enumerate(stage["options"])]
    options.append(("abandon", "Abandon the mission"))
    return options


@choose_options.apply
def choose_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    player = entry["player"]
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


@decision("face-off", "Face-off: fight or abandon")
def faceoff_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f"fight:{t}", f"Fight: {t.title()} contested combat") for t in COMBAT_CHALLENGES] + [
        ("abandon", "Abandon the mission (the whole Crew)")]


@faceoff_options.apply
def faceoff_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    slot = slot_by_card(state, frame["card"])
    if option == "abandon":
        abandon_face_off(state, slot, frame, "lead",
                         "The First Crew abandons the mission; the Second Crew continues alone.")
        return
    frame["fight"] = option.split(":")[1]
    tokens.say(state, f"The First Crew chooses to fight: {frame['fight'].title()}.")
    trail = crew_by_label(slot, frame["trail"])
    frame["step"] = "accept"
    ask(state, trail["members"][0], "accept-fight",
        prompt=f"Face-off: the First Crew will fight ({frame['fight'].title()}). Accept the fight or abandon the mission")


def abandon_face_off(state: State, slot: dict[str, Any], frame: dict[str, Any], side: str, message: str) -> None:
    """A Crew abandons at the face-off: its members leave, the other Crew goes on alone, in first position."""
    crew = crew_by_label(slot, frame[side])
    tokens.say(state, message)
    for member in list(crew["members"]):
        leave_mission(state, member)
    for c in slot["crews"]:
        c["pos"] = FIRST
    frame["step"] = "stage"


@decision("accept-fight", "Accept the fight or abandon")
def accept_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    return [("fight", f"Fight ({frame['fight'].title()})"), ("abandon", "Abandon the mission (the whole Crew)")]


@accept_options.apply
def accept_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    slot = slot_by_card(state, frame["card"])
    if option == "abandon":
        abandon_face_off(state, slot, frame, "trail", "The Second Crew abandons the mission.")
        return
    tokens.say(state, "The Second Crew accepts: Contested Combat Challenge.")
    frame["step"] = "contest-lead"
    start_challenge(state, frame["fight"], None, mission_ctx(state, frame["card"]), card_id=frame["card"],
                    label=frame["lead"])


def pay(state: State, rng: Rng, frame: dict[str, Any], slot: dict[str, Any], data: dict[str, Any]) -> None:
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


@runner("skills")
def run_skills(state: State, rng: Rng, frame: dict[str, Any]) -> None:
    if frame["step"] == "start":
        frame["step"] = "chosen"
        ask(state, frame["player"], "skill", contacts=True,
            prompt=f"Buy one of the Skills you drew for {skill_cost(state, frame['player'])} KC, or none")
    else:
        for c in frame["drawn"]:
            discard(state, c)
        frame["drawn"] = []
        finish(state)


@decision("skill", "Buy a Skill")
def skill_options(state: State, frame: dict[str, Any], entry: dict[str, Any]) -> list[tuple[str, str]]:
    player = entry["player"]
    cost = skill_cost(state, player)
    options = []
    if tokens.seat(state, player)["kc"] >= cost:
        options = [(f"buy:{c}", f"Buy {card(state, c)['name']} ({'; '.join(describe(e) for e in card(state, c)['effects'])}) for {cost} KC")
                   for c in frame["drawn"]]
    options.append(("none", "Buy none"))
    return options


@skill_options.apply
def skill_apply(state: State, rng: Rng, frame: dict[str, Any], entry: dict[str, Any], option: str) -> None:
    player = entry["player"]
    if option == "none":
        return
    skill = option.split(":", 1)[1]
    p = tokens.seat(state, player)
    p["kc"] -= skill_cost(state, player)
    frame["drawn"].remove(skill)
    p["skills"].append(skill)
    p["prospects"] += card(state, skill)["prospects"]
    tokens.say(state, f"{player} buys the Skill {card(state, skill)['name']}.")


def end_mission(state: State, frame: dict[str, Any]) -> None:
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
