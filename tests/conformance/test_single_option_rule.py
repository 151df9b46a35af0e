"""Decisions with one option: taken without asking only where that reveals nothing hidden.

docs/trust.md "Decisions with one option" (DESIGN: "A decision with one legal
option is taken automatically only where that cannot reveal hidden
information"). What an opponent Q observes of a step is the turn it writes:
who is awaited next and for which kind of decision (the public
``awaiting``, which also fixes the sealed sections' sizes), and whether the
game is over; the number of turns follows from them. The property: over
random positions of every game, for every player Q and a redraw of what Q may
not know (``Game.conceal``), the same choice gives the same observation, so
the decisions the machine took inside the step did not depend on anything Q
could not know. CI samples a few hundred positions per game; ``--games N``
samples N.
"""

from __future__ import annotations

import copy
import hashlib

import pytest

from pbem.bots import RandomBot
from pbem.engine import Rng, apply_choice, find_game, game_names, step_rng
from pbem.games.nightfall import flow
from pbem.games.nightfall.game import Nightfall


def _observed(game, state, player: str, choice: str, rng_key: bytes, step: int):
    """What every other player sees of the step in which ``player`` chooses ``choice``: who is
    awaited next, for which kind, and whether the game is over."""
    state = copy.deepcopy(state)
    game.begin_step(state)
    state = apply_choice(game, state, player, choice, step_rng(rng_key, [], step))
    return [(d.player, d.kind) for d in game.awaiting(state)], game.result(state) is not None


def _positions(game, seed: int, every: int):
    """Positions of one random 2-player game of the standard set-up, every ``every`` steps."""
    key = hashlib.sha256(f"one-option-{game.name}-{seed}".encode()).digest()
    players = ["p0", "p1"]
    state = game.new_state(game.load_scenario(game.scenarios()[0]), players, step_rng(key, [], 0))
    bots = {p: RandomBot(Rng.from_seed(f"one-option-{seed}-{p}")) for p in players}
    step = 0
    while decisions := game.awaiting(state):
        step += 1
        if step % every == 0:
            yield state, players, key, step
        decision = decisions[0]
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, bots[decision.player].choose(None, decision),
                             step_rng(key, [], step))


def _differences(game, wanted: int) -> tuple[int, list[str]]:
    """Positions checked, and the steps whose observation changed with what an observer may not know."""
    checked, found, seed = 0, [], 0
    while checked < wanted:
        for state, players, key, step in _positions(game, seed, every=3):
            decision = game.awaiting(state)[0]
            for observer in players:
                hidden = game.conceal(copy.deepcopy(state), observer, Rng.from_seed(f"redraw-{seed}-{step}"))
                redrawn = next(d for d in game.awaiting(hidden) if d.player == decision.player)
                common = [o.id for o in decision.options if redrawn.option(o.id) is not None]
                for choice in common[:3]:
                    if _observed(game, state, decision.player, choice, key, step) != \
                            _observed(game, hidden, decision.player, choice, key, step):
                        found.append(f"seed {seed} step {step}: {decision.player} chooses {choice}, "
                                     f"observer {observer}")
            checked += 1
            if checked >= wanted:
                break
        seed += 1
    return checked, found


@pytest.mark.parametrize("game_name", game_names())
def test_what_an_opponent_observes_of_a_step_is_unchanged_by_what_they_may_not_know(game_name: str,
                                                                                    game_count) -> None:
    game = find_game(game_name)
    checked, found = _differences(game, game_count(300))
    assert not found, f"{game_name}: a step's turn structure followed hidden information: {found[:5]}"
    assert checked


def test_taking_a_single_option_that_a_hand_decides_would_be_seen(monkeypatch, game_count) -> None:
    """The property can fail: a rule that took an opponent's link opportunity whenever it offers
    only the pass (whether you can link is in your hand) is caught."""
    monkeypatch.setitem(flow.PUBLIC_COUNTS, "link", lambda state, decision: True)
    checked, found = _differences(Nightfall(), game_count(300))
    assert found, f"an unsafe rule went unseen over {checked} positions"
