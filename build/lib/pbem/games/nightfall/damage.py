"""Damage, health and destruction (EN 155-168, EN 197).

Damage to a minion turns its card; at no health left it is destroyed,
unless its text keeps it in play at 0 health. Excess damage to a minion is
lost: it never spills to its player (EN 197). Damage to a player is first
blocked by their minions that "block damage inflicted on you" (EN 167); what
gets through becomes wounds. "Receive wounds" is not damage and is never
blocked (EN 168).
"""

from __future__ import annotations

from typing import Any

from pbem.games.nightfall import flow
from pbem.games.nightfall.state import (
    State,
    abilities,
    has_ability,
    health,
    leave_play,
    minions_of,
    name,
    event,
    receive_wounds,
)

Ctx = dict[str, Any]


def multiplier(state: State, ctx: Ctx) -> int:
    """Damage of a card in the chain may have been doubled by the card that
    resolved before it (a "double all damage" kicker, DE 93)."""
    entry = ctx.get("entry")
    if entry is None or state.get("chain") is None:
        return 1
    return state["chain"]["entries"][entry].get("multiplier", 1)


def damage_minion(state: State, record: dict[str, Any], amount: int, ctx: Ctx, scaled: bool = False) -> int:
    """Inflict ``amount`` damage on a minion in play; return how much it absorbed."""
    if not scaled:
        amount *= multiplier(state, ctx)
    if amount <= 0 or record not in state["in_play"]:
        return 0
    absorbed = min(amount, health(state, record))
    if record["card"] in state["turn"]["protected"]:
        event(state, f"damage to {name(state, record['card'])} is prevented")
        return absorbed
    record["damage"] += absorbed
    if absorbed:
        event(state, f"{name(state, record['card'])} ({record['controller']}) takes {absorbed} damage")
    if health(state, record) <= 0 and not has_ability(state, record["card"], "survives_zero_health"):
        destroy(state, record, ctx, by_effect=False)
    return absorbed


def destroy(state: State, record: dict[str, Any], ctx: Ctx, by_effect: bool = True) -> bool:
    """Destroy a minion in play: it goes to its owner's discard pile, or is
    exiled if it is a starting minion (EN 127, EN 264). A card "protected
    from destroy effects" ignores destroy effects (DE 52)."""
    if record not in state["in_play"]:
        return False
    card_id = record["card"]
    if by_effect and has_ability(state, card_id, "immune_to_destroy"):
        event(state, f"{name(state, card_id)} is protected from destroy effects")
        return False
    controller = record["controller"]
    # in-play triggers of friendly minions, the destroyed one included (DE 71)
    triggers = [
        (friend["card"], ability)
        for friend in minions_of(state, controller)
        for ability in abilities(state, friend["card"], "on_friendly_destroyed")
    ]
    where = leave_play(state, record, "destroyed")
    event(state, f"{name(state, card_id)} ({controller}) is destroyed" + (" and exiled" if where == "exiled" else ""))
    entry = ctx.get("entry")
    if entry is not None and state.get("chain") is not None:
        state["chain"]["entries"][entry].setdefault("destroyed", []).append(card_id)
    for source, ability in reversed(triggers):
        flow.push(
            state,
            "effect",
            name=ability["effect"],
            params=ability,
            ctx={"player": controller, "entry": None, "card": source},
        )
    return True


def damage_player(state: State, player: str, amount: int, ctx: Ctx, scaled: bool = False) -> int:
    """Inflict damage on a player: blockers of direct damage absorb it first
    (EN 167, in the order they came into play), the rest is received as
    wounds. Returns the wounds received."""
    if not scaled:
        amount *= multiplier(state, ctx)
    if amount <= 0:
        return 0
    for blocker in list(minions_of(state, player)):
        if amount <= 0:
            break
        if has_ability(state, blocker["card"], "blocks_direct_damage") and health(state, blocker) > 0:
            event(state, f"{name(state, blocker['card'])} blocks damage inflicted on {player}")
            amount -= damage_minion(state, blocker, amount, ctx, scaled=True)
    return receive_wounds(state, player, amount)
