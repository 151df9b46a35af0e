"""The combat phase (EN 146-171, DE 31-35).

Every minion you control must attack. You assign each to an opponent, all
before any combat resolves; "when it attacks" texts trigger then, all at
once (ruling 27). Then you resolve the combats (one per defending player)
in the order you choose. In a combat the defender assigns blockers (each
blocks one attacker, several may block one) and orders each attacker's
blockers; then, attacker by attacker in the order you choose, damage fills
the blockers one at a time and the rest is inflicted on the defender.
Blockers deal no damage. At any point before a strike you may use a Martial
Law wound (once per turn, fed by any wound). Afterwards you discard your
minions, except those that stay in play.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import RulesError
from pbem.engine.machine import TurnMachine, new_task, push, push_all
from pbem.engine.rng import Rng
from pbem.games.nightfall import abilities, damage
from pbem.games.nightfall.effects import carry_out
from pbem.games.nightfall.flow import ask, on_data, triggers_in_chosen_order
from pbem.games.nightfall.state import (
    Combat,
    Minion,
    State,
    card,
    clockwise_from,
    current_combat,
    current_turn,
    event,
    health,
    in_play,
    is_wound,
    leave_play,
    minion,
    minions_of,
    name,
    strength,
    zones,
)


def combat_phase(state: State, task: dict[str, Any], rng: Rng) -> None:
    player = current_turn(state)["player"]
    current_turn(state)["phase"] = "combat"
    # start-of-turn in-play texts come first (DE 72)
    for record in list(minions_of(state, player)):
        for trigger in abilities.triggers(card(state, record["card"]), "at_turn_start", len(minions_of(state, player))):
            carry_out(state, trigger, {"player": player, "entry": None, "card": record["card"]}, rng)
    attackers = [m["card"] for m in minions_of(state, player)]
    if not attackers:
        return
    current_turn(state)["combat"] = {"attackers": attackers, "assign": {}, "done": [], "defender": None,
                               "blocks": {}, "asked": [], "order": {}, "struck": []}
    push_all(state, [new_task("assign_attacks"), new_task("choose_combat"), new_task("end_combat")])


def assign_attacks(state: State, task: dict[str, Any], rng: Rng) -> None:
    combat = current_combat(state)
    player = current_turn(state)["player"]
    for attacker in combat["attackers"]:
        if attacker not in combat["assign"]:
            break
    else:
        for attacker in combat["attackers"]:
            event(state, f"{name(state, attacker)} attacks {combat['assign'][attacker]}")
        attack_triggers(state)
        return
    opponents = clockwise_from(state, player)
    push(state, "assign_attacks")
    options = [(f"target:{p}", p) for p in opponents]
    if len(options) == 1:
        combat["assign"][attacker] = opponents[0]
        return
    ask(state, player, "attack", f"{name(state, attacker)} must attack: which opponent?", options, "combat:assign",
        {"attacker": attacker})


def _assign(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    current_combat(state)["assign"][data["attacker"]] = option_id.split(":", 1)[1]


def defender_of(combat: Combat) -> str:
    """The player whose combat is resolving."""
    if combat["defender"] is None:
        raise RulesError("no combat has been chosen")
    return combat["defender"]


def attackers_against(state: State, defender: str) -> list[str]:
    combat = current_combat(state)
    return [a for a in combat["attackers"] if combat["assign"].get(a) == defender and minion(state, a) is not None]


def choose_combat(state: State, task: dict[str, Any], rng: Rng) -> None:
    combat = current_combat(state)
    defenders = []
    for attacker in combat["attackers"]:
        defender = combat["assign"][attacker]
        if defender not in defenders and defender not in combat["done"]:
            defenders.append(defender)
    if not defenders:
        return
    push(state, "choose_combat")
    if len(defenders) == 1:
        _choose(state, {}, f"combat:{defenders[0]}", rng)
        return
    ask(state, current_turn(state)["player"], "combat-order", "resolve which combat next?",
        [(f"combat:{d}", f"the attack on {d}") for d in defenders], "combat:choose")


def attack_triggers(state: State) -> None:
    """"When this minion attacks" texts (EN 124) trigger when the attackers
    are sent: a minion attacks when it is sent against an opponent ("Attack:
    To send your minions to damage another player", EN 255; "Each minion
    attacks one of your opponents", EN 149), and all are sent at once (EN
    150). So they trigger at the same time, before any combat resolves and
    so before any blocker is chosen (EN 308, DE 80), and the active player
    orders them (EN 124). A minion that leaves play before its text resolves
    no longer carries it out (In Play text lasts until the minion leaves
    play, EN 277)."""
    combat = current_combat(state)
    player = current_turn(state)["player"]
    triggers = []
    controlled = len(minions_of(state, player))
    for attacker in combat["attackers"]:
        for ability in abilities.triggers(card(state, attacker), "on_attack", controlled):
            ctx = {"player": player, "entry": None, "card": attacker, "minion": attacker,
                   "defender": combat["assign"][attacker]}
            triggers.append((f"trigger:{attacker}", f"{name(state, attacker)}: when it attacks",
                             new_task("attack_trigger", attacker=attacker, ability=ability, ctx=ctx)))
    triggers_in_chosen_order(state, player, triggers)


def _choose(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    defender = option_id.split(":", 1)[1]
    combat = current_combat(state)
    combat["done"].append(defender)
    combat["defender"] = defender
    push_all(state, [new_task("wound_window"), new_task("declare_blocks"), new_task("order_blocks"),
                          new_task("strike_step")])


def attack_trigger(state: State, task: dict[str, Any], rng: Rng) -> None:
    """One "when this minion attacks" text, if its minion is still in play."""
    if minion(state, task["attacker"]) is None:
        return
    push(state, "effect", name=task["ability"]["effect"], params=task["ability"], ctx=task["ctx"])


def can_block(state: State, record: Minion) -> bool:
    return health(state, record) > 0


def declare_blocks(state: State, task: dict[str, Any], rng: Rng) -> None:
    combat = current_combat(state)
    defender = defender_of(combat)
    attackers = attackers_against(state, defender)
    if not attackers:
        return
    for record in minions_of(state, defender):
        blocker = record["card"]
        if blocker in combat["blocks"] or blocker in combat["asked"] or not can_block(state, record):
            continue
        combat["asked"].append(blocker)
        push(state, "declare_blocks")
        options = [(f"block:{a}", f"block {name(state, a)} (strength {strength(state, in_play(state, a))})") for a in attackers]
        ask(state, defender, "block", f"does {name(state, blocker)} block?", options + [("no-block", "do not block")],
            "combat:block", {"blocker": blocker})
        return


def _block(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id != "no-block":
        current_combat(state)["blocks"][data["blocker"]] = option_id.split(":", 1)[1]
        event(state, f"{name(state, data['blocker'])} blocks {name(state, option_id.split(':', 1)[1])}")


def blockers_of(state: State, attacker: str) -> list[str]:
    combat = current_combat(state)
    unordered = [b for b, a in combat["blocks"].items() if a == attacker and minion(state, b) is not None]
    ordered = [b for b in combat["order"].get(attacker, []) if b in unordered]
    return ordered + [b for b in unordered if b not in ordered]


def order_blocks(state: State, task: dict[str, Any], rng: Rng) -> None:
    """The defender orders the blockers of each attacker (EN 155)."""
    combat = current_combat(state)
    for attacker in attackers_against(state, defender_of(combat)):
        blockers = blockers_of(state, attacker)
        placed = combat["order"].setdefault(attacker, [])
        rest = [b for b in blockers if b not in placed]
        if len(rest) >= 2:
            push(state, "order_blocks")
            ask(state, defender_of(combat), "block-order",
                f"which blocker takes {name(state, attacker)}'s damage next?",
                [(f"first:{b}", name(state, b)) for b in rest], "combat:order", {"attacker": attacker})
            return


def _order(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    current_combat(state)["order"][data["attacker"]].append(option_id.split(":", 1)[1])


def wound_effect_options(state: State, player: str) -> list[tuple[str, str]]:
    """Martial Law wounds usable now: your combat phase, one wound effect a turn."""
    if current_turn(state)["wound_used"]:
        return []
    return [(f"wound:{c}", f"use {name(state, c)}: +1 strength to one of your minions")
            for c in zones(state, player)["hand"] if card(state, c).get("kind") == "martial-law"]


def wound_window(state: State, task: dict[str, Any], rng: Rng) -> None:
    """The Martial Law wound may be used "at any time during your combat
    phase, including after the defending player has chosen his minions to
    block" (DE 33): here, before the blocks of each combat (later, before each
    strike). Always asked while the turn's wound effect is unused, so that
    whether you hold a Martial Law wound stays hidden."""
    player = current_turn(state)["player"]
    combat = current_combat(state)
    if current_turn(state)["wound_used"] or not attackers_against(state, defender_of(combat)):
        return
    ask(state, player, "wound-window", f"the attack on {combat['defender']}: use a wound effect before blocks are declared?",
        wound_effect_options(state, player) + [("continue", "go on to the blocks")], "combat:wound-window")


def _wound_window(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id != "continue":
        use_wound_effect(state, option_id.split(":", 1)[1])


def use_wound_effect(state: State, wound: str) -> None:
    player = current_turn(state)["player"]
    zones(state, player)["hand"].remove(wound)
    zones(state, player)["discard"].append(wound)
    current_turn(state)["wound_used"] = True
    event(state, f"{player} discards {name(state, wound)} for its wound effect")
    push(state, "boost")


def strike_step(state: State, task: dict[str, Any], rng: Rng) -> None:
    combat = current_combat(state)
    player = current_turn(state)["player"]
    waiting = [a for a in attackers_against(state, defender_of(combat)) if a not in combat["struck"]]
    if not waiting:
        return
    options = [(f"strike:{a}", f"{name(state, a)} deals {strength(state, in_play(state, a))} damage") for a in waiting]
    # always asked, so that whether you hold a Martial Law wound stays hidden
    ask(state, player, "strike", f"the attack on {combat['defender']}: which attacker strikes next"
        + ("?" if current_turn(state)["wound_used"] else " (or use a wound effect first)?"),
        options + wound_effect_options(state, player), "combat:strike")


def _strike(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    kind, _, which = option_id.partition(":")
    push(state, "strike_step")
    if kind == "wound":
        use_wound_effect(state, which)
        return
    strike(state, which)


def strike(state: State, attacker: str) -> None:
    """One attacker deals its strength: blockers absorb one at a time, the
    rest is inflicted on the defender (EN 155-156)."""
    combat = current_combat(state)
    combat["struck"].append(attacker)
    record = minion(state, attacker)
    if record is None:
        return
    defender = defender_of(combat)
    ctx = {"player": current_turn(state)["player"], "entry": None, "card": attacker, "attacker": attacker}
    amount = strength(state, record)
    blockers = blockers_of(state, attacker)
    for blocker in blockers:
        amount = max(amount - abilities.blocked_damage_reduction(card(state, blocker)), 0)
    event(state, f"{name(state, attacker)} deals {amount} damage")
    for blocker in blockers:
        if amount <= 0:
            break
        blocker_record = minion(state, blocker)
        if blocker_record is not None:
            amount -= damage.damage_minion(state, blocker_record, amount, ctx)
    if amount > 0:
        damage.damage_player(state, defender, amount, ctx)


def boost(state: State, task: dict[str, Any], rng: Rng) -> None:
    """+1 strength to one of your minions (DE 33-34: your own, P11). The minions in play are public, so with
    one of them the choice is taken without asking (``forced``)."""
    player = current_turn(state)["player"]
    records = minions_of(state, player)
    if records:
        ask(state, player, "target", "which of your minions gets +1 strength?",
            [(f"minion:{m['card']}", f"{name(state, m['card'])} (strength {strength(state, m)})") for m in records],
            "combat:boost", forced=True)


def _boost(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    target = option_id.split(":", 1)[1]
    bonus = current_turn(state)["bonus"]
    bonus[target] = bonus.get(target, 0) + 1
    event(state, f"{name(state, target)} gets +1 strength")
    player = current_turn(state)["player"]
    wounds = [c for c in zones(state, player)["hand"] if is_wound(state, c)]
    # the feed is always offered, so that whether you hold a wound stays hidden
    ask(state, player, "feed", "feed the wound effect: discard 1 wound for another +1 strength?",
        [(f"feed:{c}", f"discard {name(state, c)}") for c in wounds] + [("stop", "do not feed")], "combat:wound-feed")


def _wound_feed(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    if option_id == "stop":
        return
    player = current_turn(state)["player"]
    wound = option_id.split(":", 1)[1]
    zones(state, player)["hand"].remove(wound)
    zones(state, player)["discard"].append(wound)
    event(state, f"{player} discards {name(state, wound)} to feed the wound effect")
    push(state, "boost")


def end_combat(state: State, task: dict[str, Any], rng: Rng) -> None:
    """Discard your minions from play, except those that stay in play
    (EN 170-171); a starting minion that says so is exiled (EN 127)."""
    player = current_turn(state)["player"]
    for record in list(minions_of(state, player)):
        if abilities.stays_in_play(card(state, record["card"])):
            continue
        where = leave_play(state, record, "discarded")
        event(state, f"{name(state, record['card'])} is discarded from play" + (" and exiled" if where == "exiled" else ""))
    current_turn(state)["combat"] = None


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("combat_phase", combat_phase)
    machine.task("assign_attacks", assign_attacks)
    machine.task("choose_combat", choose_combat)
    machine.task("attack_trigger", attack_trigger)
    machine.task("declare_blocks", declare_blocks)
    machine.task("order_blocks", order_blocks)
    machine.task("wound_window", wound_window)
    machine.task("strike_step", strike_step)
    machine.task("boost", boost)
    machine.task("end_combat", end_combat)
    machine.answer("combat:assign", on_data(_assign))
    machine.answer("combat:choose", on_data(_choose))
    machine.answer("combat:block", on_data(_block))
    machine.answer("combat:order", on_data(_order))
    machine.answer("combat:wound-window", on_data(_wound_window))
    machine.answer("combat:strike", on_data(_strike))
    machine.answer("combat:boost", on_data(_boost))
    machine.answer("combat:wound-feed", on_data(_wound_feed))
