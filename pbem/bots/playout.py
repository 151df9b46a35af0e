"""Bots play a game in memory, without files or keys: for tests and benchmarks.

Each step gets its own generator keyed by the seed and the step number, as
the referee keys one per turn, so a simulated game is a pure function of its
seed and its bots' choices.

A step lists the awaited decisions once: the bot chooses from them and
:func:`~pbem.engine.protocol.apply_choice` checks the choice against the
same decision. A bot that does not read the private part
(``reads_private``, :class:`~pbem.bots.bot.Bot`) is not handed one, so
nobody computes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from pbem.bots.bot import Bot
from pbem.bots.random_bot import RandomBot
from pbem.digests import sha256
from pbem.engine.protocol import Game, GameState, Result, apply_choice
from pbem.engine.rng import Rng, StepRngs


@dataclass
class Playout(Generic[GameState]):
    """The record of a simulated game."""

    state: GameState
    result: Result | None
    steps: int
    choices: list[tuple[str, str]] = field(default_factory=list)


#: a check of every state of a playout (its game, the state)
Check = Callable[[Game[Any], Any], None]


def play(
    game: Game[GameState],
    players: Sequence[str],
    seed: int,
    scenario: object | None = None,
    max_steps: int = 100_000,
    check: Check | None = None,
) -> Playout[GameState]:
    """Play one game with random bots; ``check`` runs on every state (invariants)."""
    step_rngs = StepRngs(sha256(f"pbem-sim-{seed}".encode()))
    if scenario is None:
        scenario = game.load_scenario(game.scenarios()[0])
    state = game.new_state(scenario, list(players), step_rngs.rng([], 0))
    bots: Mapping[str, Bot] = {p: RandomBot(Rng.from_seed(f"{seed}-{p}")) for p in players}
    choices: list[tuple[str, str]] = []
    step = 0
    while True:
        if check is not None:
            check(game, state)
        decisions = game.awaiting(state)
        if not decisions:
            break
        step += 1
        if step > max_steps:
            raise RuntimeError(f"{game.name}: no end after {max_steps} steps (seed {seed})")
        decision = decisions[0]
        bot = bots[decision.player]
        private = game.private(state, decision.player) if bot.reads_private else None
        option_id = bot.choose(private, decision)
        choices.append((decision.player, option_id))
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, option_id, step_rngs.rng([], step),
                             decision=decision)
    return Playout(state=state, result=game.result(state), steps=step, choices=choices)
