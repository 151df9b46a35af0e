"""Damage, health and destruction (EN 155-168, EN 197).

Damage to a minion turns its card; at no health left it is destroyed,
unless its text keeps it in play at 0 health (then its controller may
destroy it, DE 78). Excess damage to a minion is lost: it never spills to
its player (EN 197). Damage to a player is first blocked by their minions
that "block damage inflicted on you" (EN 167), in a combat each for one
attacker only (ruling 48); what gets through becomes wounds. "Receive wounds" is not damage and is never
blocked (EN 168).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import TurnMachine, new_task, push
from pbem.games.nightfall import abilities
from pbem.games.nightfall.flow import ask, on_data, triggers_in_chosen_order
from pbem.games.nightfall.state import (
    Minion,
    State,
    card,
    current_chain,
    current_combat,
    current_turn,
    event,
    health,
    leave_play,
    minion,
    minions_of,
    name,
    receive_wounds,
)

Ctx = dict[str, Any]


def multiplier(state: State, ctx: Ctx) -> int:
    """Damage of a card in the chain may have been doubled by the card that
    resolved before it (a "double all damage" kicker, DE 93)."""
    entry = ctx.get("entry")
    if entry is None or state.get("chain") is None:
        return 1
    return current_chain(state)["entries"][entry].get("multiplier", 1)


def damage_minion(state: State, record: Minion, amount: int, ctx: Ctx, scaled: bool = False) -> int:
    """Inflict ``amount`` damage on a minion in play; return how much it absorbed."""
    if not scaled:
        amount *= multiplier(state, ctx)
    if amount <= 0 or record not in state["in_play"]:
        return 0
    absorbed = min(amount, health(state, record))
    if record["card"] in current_turn(state)["protected"]:
        event(state, f"damage to {name(state, record['card'])} is prevented")
        return absorbed
    record["damage"] += absorbed
    if absorbed:
        event(state, f"{name(state, record['card'])} ({record['controller']}) takes {absorbed} damage")
    if health(state, record) <= 0:
        if not abilities.survives_zero_health(card(state, record["card"])):
            destroy(state, record, ctx, by_effect=False)
        elif absorbed:
            push(state, "zero_health", card=record["card"])
    return absorbed


def zero_health(state: State, task: dict[str, Any], rng: Any) -> None:
    """A minion whose text keeps it in play at 0 health: "When [it] is
    reduced to 0 health, you do not have to destroy it" (DE 78), so its
    controller may. Asked once, when damage brings it to 0 (its health is
    public: asking reveals nothing)."""
    record = minion(state, task["card"])
    if record is None or health(state, record) > 0:
        return
    who = name(state, record["card"])
    ask(state, record["controller"], "optional",
        f"{who} has no health left: you do not have to destroy it; it then stays in play until it is discarded",
        [("destroy", f"destroy {who}"), ("decline", f"keep {who} in play")], "damage:zero_health",
        {"card": record["card"]})


def _zero_health(state: State, data: dict[str, Any], option_id: str, rng: Any) -> None:
    record = minion(state, data["card"])
    if record is None:
        return
    if option_id == "decline":
        event(state, f"{name(state, record['card'])} stays in play at 0 health")
        return
    # its controller's choice, not a "destroy" effect: being protected from those does not stop it (DE 52, DE 78)
    destroy(state, record, {"player": record["controller"], "entry": None, "card": record["card"]}, by_effect=False)


def destroy(state: State, record: Minion, ctx: Ctx, by_effect: bool = True) -> bool:
    """Destroy a minion in play: it goes to its owner's discard pile, or is
    exiled if it is a starting minion (EN 127, EN 264). A card "protected
    from destroy effects" ignores destroy effects (DE 52)."""
    if record not in state["in_play"]:
        return False
    card_id = record["card"]
    if by_effect and abilities.immune_to_destroy(card(state, card_id)):
        event(state, f"{name(state, card_id)} is protected from destroy effects")
        return False
    controller = record["controller"]
    # in-play triggers of friendly minions, the destroyed one included (DE 71)
    friends = minions_of(state, controller)
    triggers = [
        (friend["card"], ability)
        for friend in friends
        for ability in abilities.triggers(card(state, friend["card"]), "on_friendly_destroyed", len(friends))
    ]
    where = leave_play(state, record, "destroyed")
    event(state, f"{name(state, card_id)} ({controller}) is destroyed" + (" and exiled" if where == "exiled" else ""))
    entry = ctx.get("entry")
    if entry is not None and state.get("chain") is not None:
        current_chain(state)["entries"][entry].setdefault("destroyed", []).append(card_id)
    triggers_in_chosen_order(state, current_turn(state)["player"], [
        (f"trigger:{source}", f"{name(state, source)} ({controller}): when a minion of yours is destroyed",
         new_task("effect", name=ability["effect"], params=ability,
                   ctx={"player": controller, "entry": None, "card": source}))
        for source, ability in triggers
    ])
    return True


def direct_blockers(state: State, player: str, ctx: Ctx) -> list[Minion]:
    """``player``'s minions that "block damage inflicted on you" and have health to block with.

    Damage an attacking minion inflicts (``ctx["attacker"]``) is blocked "just
    like it was blocking an attacking minion" (EN 167), and "A blocking minion
    can only block a single attacking minion" (EN 152; DE 81): a minion that
    blocks an attacker in this combat, as a blocker or by blocking the damage
    that got past, blocks no other attacker's damage (ruling 48)."""
    blocking = current_combat(state)["blocks"] if ctx.get("attacker") is not None else {}
    return [m for m in minions_of(state, player)
            if abilities.blocks_direct_damage(card(state, m["card"])) and health(state, m) > 0
            and m["card"] not in blocking]


def damage_player(state: State, player: str, amount: int, ctx: Ctx, scaled: bool = False) -> None:
    """Inflict damage on a player: blockers of direct damage absorb it first
    (EN 167: "the minion must block it just like it was blocking an attacking
    minion"), the rest is received as wounds. Like the blockers of an attack
    (EN 155), the defending player orders them: with two or more that can
    block, he chooses which blocks next, one at a time, until the damage is
    absorbed or none is left; a single blocker blocks at once (minions in play
    are public, so this reveals nothing)."""
    if not scaled:
        amount *= multiplier(state, ctx)
    block_direct_damage(state, player, amount, ctx)


def block_direct_damage(state: State, player: str, amount: int, ctx: Ctx, used: list[str] | None = None) -> None:
    """Each blocker blocks once (a protected one absorbs without losing health, DE 88)."""
    used = list(used or [])
    while amount > 0:
        blockers = [m for m in direct_blockers(state, player, ctx) if m["card"] not in used]
        if not blockers:
            break
        if len(blockers) > 1:
            ask(state, player, "block-order",
                     f"{amount} damage is inflicted on you: which of your minions blocks it next?",
                     [(f"blocker:{m['card']}", f"{name(state, m['card'])} (health {health(state, m)})")
                      for m in blockers],
                     "damage:direct_blocker", {"player": player, "amount": amount, "ctx": ctx, "used": used})
            return
        used.append(blockers[0]["card"])
        amount -= block_with(state, blockers[0], player, amount, ctx)
    receive_wounds(state, player, amount)


def block_with(state: State, blocker: Minion, player: str, amount: int, ctx: Ctx) -> int:
    event(state, f"{name(state, blocker['card'])} blocks damage inflicted on {player}")
    if ctx.get("attacker") is not None:
        current_combat(state)["blocks"][blocker["card"]] = ctx["attacker"]
    return damage_minion(state, blocker, amount, ctx, scaled=True)


def _direct_blocker(state: State, data: dict[str, Any], option_id: str, rng: Any) -> None:
    player, amount, ctx = data["player"], data["amount"], data["ctx"]
    blocker = next(m for m in direct_blockers(state, player, ctx) if m["card"] == option_id.split(":", 1)[1])
    amount -= block_with(state, blocker, player, amount, ctx)
    # the rest is blocked before any trigger of a destroyed blocker runs, as when the blockers did not need ordering
    push(state, "direct_damage", player=player, amount=amount, ctx=ctx, used=data["used"] + [blocker["card"]])


def _direct_damage(state: State, task: dict[str, Any], rng: Any) -> None:
    block_direct_damage(state, task["player"], task["amount"], task["ctx"], task["used"])


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.task("direct_damage", _direct_damage)
    machine.task("zero_health", zero_health)
    machine.answer("damage:direct_blocker", on_data(_direct_blocker))
    machine.answer("damage:zero_health", on_data(_zero_health))
