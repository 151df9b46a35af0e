"""The engine's errors, split by meaning (as python-chess splits them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class EngineError(Exception):
    """Base of every error a game or the engine raises on a player's input."""


class NotAwaitedError(EngineError):
    """The player has no decision awaited now."""


class IllegalMoveError(EngineError):
    """The choice is not among the options of the awaited decision."""


class ScenarioError(EngineError, ValueError):
    """A scenario or card file is malformed or does not fit the game (a bad value, hence also a ValueError)."""


class UnknownGameError(EngineError):
    """No game of that name is registered."""


class RulesError(Exception):
    """A game's rules broke their own contract: a task or decision with no
    handler, a decision without options, a state no rule allows. A bug in a
    game, never a player's fault, so not an :class:`EngineError` (which the
    referee reports as a refused move)."""


class InvariantError(RulesError):
    """A state breaks a conservation rule of its game (cards conserved, tokens never negative)."""


def present(value: T | None, what: str) -> T:
    """``value``, which the rules know is there (a mission still in play, a chosen target);
    a :class:`RulesError` naming ``what`` if it is not."""
    if value is None:
        raise RulesError(f"{what} is missing")
    return value


def invariant(holds: bool, message: str | Callable[[], str]) -> None:
    """A conservation rule of a game's state: an :class:`InvariantError` saying ``message`` if it does not hold.

    A message that takes work to write (what is missing, what is extra) is given as a function, so that
    the work is done only when the rule is broken: playouts check every rule at every step.
    """
    if not holds:
        raise InvariantError(message if isinstance(message, str) else message())
