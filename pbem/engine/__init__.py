"""The game protocol, decisions and options, the random generator, errors."""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

#: each public name and the module that defines it, imported when first used
_WHERE = {
    "EngineError": "errors", "IllegalMoveError": "errors", "NotAwaitedError": "errors", "ScenarioError": "errors",
    "UnknownGameError": "errors",
    "Decision": "protocol", "Game": "protocol", "Option": "protocol", "Result": "protocol",
    "SealedSizes": "protocol", "State": "protocol", "apply_choice": "protocol", "decision_for": "protocol",
    "find_game": "registry", "game_names": "registry", "register": "registry",
    "Rng": "rng", "step_rng": "rng",
}

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.errors import EngineError, IllegalMoveError, NotAwaitedError, ScenarioError, UnknownGameError
    from pbem.engine.protocol import Decision, Game, Option, Result, SealedSizes, State, apply_choice, decision_for
    from pbem.engine.registry import find_game, game_names, register
    from pbem.engine.rng import Rng, step_rng

lazy_package(__name__, _WHERE)

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
