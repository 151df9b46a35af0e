"""The game protocol, decisions and options, the random generator, errors."""

from pbem.engine.errors import (
    EngineError,
    IllegalMoveError,
    NotAwaitedError,
    ScenarioError,
    UnknownGameError,
)
from pbem.engine.protocol import Decision, Game, Option, Result, SealedSizes, State, apply_choice, decision_for
from pbem.engine.registry import find_game, game_names, register
from pbem.engine.rng import Rng, step_rng

__all__ = [
    "Decision",
    "EngineError",
    "Game",
    "IllegalMoveError",
    "NotAwaitedError",
    "Option",
    "Result",
    "Rng",
    "ScenarioError",
    "SealedSizes",
    "State",
    "UnknownGameError",
    "apply_choice",
    "decision_for",
    "find_game",
    "game_names",
    "register",
    "step_rng",
]
