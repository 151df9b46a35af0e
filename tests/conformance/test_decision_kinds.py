"""``Game.decision_kinds``: every kind a game can await, for standing orders; and the decisions' options.

Random games of every registered game, in every scenario, check at every
step that each awaited decision's kind is in the game's set and that each
option id fits a move's sealed choices; the set itself fits the standing
orders' schema. A declared pass is an option; no option id is a bare number;
an early simultaneous answer asks nothing more until the others are in.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json

import pytest

from pbem.bots import RandomBot
from pbem.bots.playout import play
from pbem.engine import Rng, ScenarioError, apply_choice, find_game, game_names, step_rng
from pbem.resources import schema_path
from pbem.schemas import validator

#: what an option id must be for a move's sealed choices to hold it
CHOICE = validator(json.loads(schema_path("choices").read_text())["properties"]["choices"]["items"])
ORDERS = validator(json.loads(schema_path("standing-orders").read_text()))


def configurations(game):
    """(scenario, players) for each scenario, at a seat count it accepts."""
    for index, scenario_name in enumerate(game.scenarios()):
        scenario = game.load_scenario(scenario_name)
        counts = list(range(game.min_players, game.max_players + 1))
        for count in counts[index % len(counts):] + counts[: index % len(counts)]:
            players = [f"p{i}" for i in range(count)]
            try:
                game.new_state(scenario, players, Rng.from_seed("seats"))
            except ScenarioError:
                continue
            yield scenario_name, scenario, players
            break


@pytest.mark.parametrize("game_name", game_names())
def test_the_decision_kinds_fit_the_standing_orders_schema(game_name: str) -> None:
    kinds = find_game(game_name).decision_kinds()
    assert isinstance(kinds, frozenset) and kinds
    problems = [e.message for e in ORDERS.iter_errors({"auto_pass": dict.fromkeys(kinds, "always")})]
    assert not problems, problems


@pytest.mark.parametrize("game_name", game_names())
def test_every_awaited_kind_is_a_decision_kind_and_every_option_fits_a_move(game_name: str, game_count) -> None:
    game = find_game(game_name)
    kinds = game.decision_kinds()
    seen: set[str] = set()

    def check(game, state) -> None:
        for decision in game.awaiting(state):
            assert decision.kind in kinds, f"{game_name} awaits a {decision.kind!r} decision it does not declare"
            seen.add(decision.kind)
            for option in decision.options:
                assert CHOICE.is_valid(option.id), f"{game_name}: option id {option.id!r} does not fit a move"

    for _scenario_name, scenario, players in configurations(game):
        for seed in range(game_count(2)):
            play(game, players, seed, scenario=scenario, check=check)
    assert seen


@pytest.mark.parametrize("game_name", game_names())
def test_a_declared_pass_is_always_one_of_the_decisions_options(game_name: str, game_count) -> None:
    """A standing order to pass, and the referee at a deadline (default action "pass"), answer with the
    decision's ``pass_id``; one that is not offered would leave them to a bot's random choice."""
    game = find_game(game_name)

    def check(game, state) -> None:
        for decision in game.awaiting(state):
            if decision.pass_id is not None:
                assert decision.option(decision.pass_id) is not None, (
                    f"{game_name}: a {decision.kind} decision declares the pass {decision.pass_id!r} "
                    f"but offers {[o.id for o in decision.options]}")

    for _scenario_name, scenario, players in configurations(game):
        for seed in range(game_count(1)):
            play(game, players, seed, scenario=scenario, check=check)


@pytest.mark.parametrize("game_name", game_names())
def test_no_option_id_is_a_bare_number(game_name: str, game_count) -> None:
    """`pbem move --choose 3` means the third option: no game names an option ``3``."""
    game = find_game(game_name)

    def check(game, state) -> None:
        for decision in game.awaiting(state):
            for option in decision.options:
                assert not option.id.isdigit(), f"{game_name}: option id {option.id!r} reads as an option number"

    for _scenario_name, scenario, players in configurations(game):
        for seed in range(game_count(1)):
            play(game, players, seed, scenario=scenario, check=check)


@pytest.mark.parametrize("game_name", game_names())
def test_an_early_simultaneous_answer_asks_nothing_more_until_the_others_are_in(game_name: str, game_count) -> None:
    """A player who answers a simultaneous decision while another player is still awaited with a
    decision of that kind is not awaited after it: the choices are applied together when the last
    is in. So `pbem move` refuses later choices in such a move: the referee would drop them. A free
    action (an option marked ``free``) is no answer: it leaves the decision open."""
    game = find_game(game_name)
    for scenario_name, scenario, players in configurations(game):
        for seed in range(game_count(1)):
            key = hashlib.sha256(f"together-{game_name}-{scenario_name}-{seed}".encode()).digest()
            state = game.new_state(copy.deepcopy(scenario), players, step_rng(key, [], 0))
            bots = {p: RandomBot(Rng.from_seed(f"together-{seed}-{p}")) for p in players}
            for step in itertools.count(1):
                decisions = game.awaiting(state)
                if not decisions:
                    break
                answered = decisions[0]
                choice = bots[answered.player].choose(None, answered)
                game.begin_step(state)
                state = apply_choice(game, state, answered.player, choice, step_rng(key, [], step))
                together = [d for d in decisions[1:] if d.kind == answered.kind and d.player != answered.player]
                chosen = answered.option(choice)
                assert chosen is not None
                if answered.simultaneous and together and not chosen.free:
                    assert answered.player not in {d.player for d in game.awaiting(state)}, (
                        f"{game_name}: {answered.player} is awaited again before {together[0].player} "
                        f"answered the {answered.kind} decision")
