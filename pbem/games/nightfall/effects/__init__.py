"""Card effects: the vocabulary card data names, one small function each.

A card text is a list of steps, ``{effect = NAME, ...parameters}``; the
``effect`` task carries out one step with the function :data:`EFFECTS`
names. The functions live in modules by what they act on (see
:mod:`.common` for what they share). Rules every effect keeps:

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

#: every effect a card may name, by the name card data uses
EFFECTS: dict[str, Effect] = {
    # minions in play
    "damage_minion": minions.damage_minion,
    "destroy_minion": minions.destroy_minion,
    "destroy_self": minions.destroy_self,
    "stake_minion": minions.stake_minion,
    "heal_minion": minions.heal_minion,
    "take_control": minions.take_control,
    "return_minion_to_hand": minions.return_minion_to_hand,
    "protect_minion": minions.protect_minion,
    "minion_hurts_itself_and_controller": minions.minion_hurts_itself_and_controller,
    "each_player_damages_own_minion": minions.each_player_damages_own_minion,
    "resurrect_minion": minions.resurrect_minion,
    "exile_destroyed_by_previous": minions.exile_destroyed_by_previous,
    # "when this minion attacks"
    "force_block": attacks.force_block,
    "may_discard": attacks.may_discard,
    "defender_receives_wound": attacks.defender_receives_wound,
    # players
    "damage_player": on_players.damage_player,
    "damage_each_player": on_players.damage_each_player,
    "receive_wounds": on_players.receive_wounds,
    "draw": on_players.draw,
    "gain_influence": on_players.gain_influence,
    "action_discard_influence": on_players.action_discard_influence,
    "each_player_discards": on_players.each_player_discards,
    "each_player_discards_top_of_deck": on_players.each_player_discards_top_of_deck,
    "discard_down_to": on_players.discard_down_to,
    # the chain
    "cancel_next": in_chain.cancel_next,
    "double_next_damage": in_chain.double_next_damage,
    "grant_kicker": in_chain.grant_kicker,
    "grant_kicker_to_following": in_chain.grant_kicker_to_following,
    "take_control_in_chain": in_chain.take_control_in_chain,
    "exile_self": in_chain.exile_self,
    "return_self_to_archive": in_chain.return_self_to_archive,
    # archives, the deck, the discard pile
    "take_minion_from_archive": archives.take_minion_from_archive,
    "new_blind_archive": archives.new_blind_archive,
    "search_deck": deck.search_deck,
    "play_drawn_chain_text": deck.play_drawn_chain_text,
    "exile_for_damage": discard_pile.exile_for_damage,
    "damage_minion_by_exiled_cost": discard_pile.damage_minion_by_exiled_cost,
    "exile_from_discard": discard_pile.exile_from_discard,
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


__all__ = ["EFFECTS", "Effect", "archive_label", "carry_out", "find_archive", "register", "schedule"]
