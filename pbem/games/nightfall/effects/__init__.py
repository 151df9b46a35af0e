"""Card effects: the vocabulary card data names, one function for each behaviour cards share.

A card text is a list of steps, ``{effect = NAME, ...parameters}``; the
``effect`` task carries out one step with the function :data:`EFFECTS`
names. A verb that several cards use names what it acts on with its
``target`` (:data:`TARGETS`: ``damage`` a ``minion``, the ``own-minion`` of
each player, a ``player`` or ``each-player``), and says how much with its
``amount`` (or ``amount_from``, a figure an earlier step remembered), like
Forge's ``DealDamage | ValidTgts$ Creature | NumDmg$ 3`` or fireplace's
``Hit(TARGET, 3)``; an effect of one card alone keeps a name of its own.
The functions live in modules by what they act on (see :mod:`.common` for
what they share). Rules every effect keeps:

* obey as much of the text as you can (EN 195);
* a minion is targeted only in play, never in the chain, hand or deck
  (EN 129, EN 192);
* "next card in the chain" is the one that resolves next, "previous" the
  one that resolved just before (DE 98, card-facts §0).
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import Task, TurnMachine
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects import (
    archives,
    attacks,
    common,
    deck,
    discard_pile,
    in_chain,
    minions,
    on_players,
)
from pbem.games.nightfall.effects.common import (
    Effect,
    archive_label,
    find_archive,
    schedule,
)
from pbem.games.nightfall.state import State


def damage(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Deal N damage to a minion (``target = "minion"`` or ``"own-minion"``: :func:`.minions.damage_minion`)
    or a player (``target = "player"`` or ``"each-player"``: :func:`.on_players.damage_player`)."""
    if params["target"] in ("player", "each-player"):
        on_players.damage_player(state, ctx, params, rng)
    else:
        minions.damage_minion(state, ctx, params, rng)


#: every effect a card may name, by the name card data uses: a verb, whose parameters (what it acts on, how
#: much, its options) are the card data's
EFFECTS: dict[str, Effect] = {
    # minions in play, players, cards in the chain: what the ``target`` says
    "damage": damage,
    "destroy": minions.destroy_minion,
    "take_control": minions.take_control,
    "grant_kicker": in_chain.grant_kicker,
    "receive_wounds": on_players.receive_wounds,
    "discard": on_players.discard,
    # minions in play
    "heal": minions.heal,
    "protect": minions.protect,
    "return_to_hand": minions.return_to_hand,
    "minion_hurts_itself_and_controller": minions.minion_hurts_itself_and_controller,
    "resurrect_minion": minions.resurrect_minion,
    "exile_destroyed_by_previous": minions.exile_destroyed_by_previous,
    "force_block": attacks.force_block,
    # players
    "draw": on_players.draw,
    "gain_influence": on_players.gain_influence,
    "action_discard_influence": on_players.action_discard_influence,
    "each_player_discards_top_of_deck": on_players.each_player_discards_top_of_deck,
    "discard_down_to": on_players.discard_down_to,
    # the chain
    "cancel_next": in_chain.cancel_next,
    "double_next_damage": in_chain.double_next_damage,
    "exile_self": in_chain.exile_self,
    "return_self_to_archive": in_chain.return_self_to_archive,
    # archives, the deck, the discard pile
    "take_minion_from_archive": archives.take_minion_from_archive,
    "new_blind_archive": archives.new_blind_archive,
    "search_deck": deck.search_deck,
    "play_drawn_chain_text": deck.play_drawn_chain_text,
    "exile_order_card": discard_pile.exile_order_card,
    "exile_from_discard": discard_pile.exile_from_discard,
}

#: what each effect that acts on more than one kind of thing may name as its ``target``; the card data's
#: other effects name none (``schemas/cards-nightfall.schema.json`` lists the parameters)
TARGETS: dict[str, tuple[str, ...]] = {
    "damage": ("minion", "own-minion", "player", "each-player"),
    "destroy": ("minion", "this-minion"),
    "take_control": ("minion", "chain-card"),
    "grant_kicker": ("chain-card", "your-chain-cards"),
    "receive_wounds": ("you", "defender"),
    "discard": ("you", "each-player"),
}


def run_effect(state: State, task: Task, rng: Rng) -> None:
    """Carry out one step of a card text: ``{name, params, ctx}``."""
    EFFECTS[task["name"]](state, task["ctx"], task["params"], rng)


def carry_out(state: State, step: dict[str, Any], ctx: dict[str, Any], rng: Rng) -> None:
    """Carry out one effect step now (an in-play trigger that runs at once, not as a task)."""
    EFFECTS[step["effect"]](state, ctx, step, rng)


def register(machine: TurnMachine[State]) -> None:
    """The ``effect`` task and every effect module's tasks and answers."""
    machine.task("effect", run_effect)
    for module in (common, archives, attacks, deck, discard_pile, in_chain, minions, on_players):
        module.register(machine)


__all__ = ["EFFECTS", "TARGETS", "Effect", "archive_label", "carry_out", "find_archive", "register", "schedule"]
