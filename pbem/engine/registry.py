"""The explicit list of games (like python-chess's ``VARIANTS``).

A new game is one subpackage under :mod:`pbem.games` exposing ``GAME`` and
one line here; and, for reading a view without importing its rules, a
module exposing ``SCREEN`` (:class:`~pbem.engine.protocol.GameScreen`) and
one line in :data:`SCREENS`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from pbem.engine.errors import UnknownGameError

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.protocol import Game, GameScreen

#: registry name -> module that defines ``GAME``
GAMES: dict[str, str] = {
    "nightfall": "pbem.games.nightfall",
    "nightlancer": "pbem.games.nightlancer",
}

#: registry name -> module that defines ``SCREEN``: what reading the game needs, without its rules
SCREENS: dict[str, str] = {
    "nightfall": "pbem.games.nightfall.screen",
    "nightlancer": "pbem.games.nightlancer.screen",
}

#: extra games registered at run time (tests register a toy game here)
_EXTRA: dict[str, Game] = {}


def register(game: Game) -> None:
    """Register a game object under its own name (tests, plug-ins)."""
    _EXTRA[game.name] = game


def register_modules(names: str, variable: str = "PBEM_GAMES") -> list[str]:
    """Import each module of the comma-separated ``names`` and register its ``GAME`` (what the
    ``PBEM_GAMES`` variable does for every command: test games, plug-ins); the games' names.

    A module that does not import, or defines no ``GAME``, is an
    :class:`UnknownGameError` naming it (``variable``: where the names came from).
    """
    registered = []
    for module_name in filter(None, (name.strip() for name in names.split(","))):
        try:
            game = importlib.import_module(module_name).GAME
        except ImportError as error:
            raise UnknownGameError(f"{variable}: cannot import {module_name}: {error}") from error
        except AttributeError:
            raise UnknownGameError(f"{variable}: {module_name} defines no GAME") from None
        register(game)
        registered.append(game.name)
    return registered


def game_names() -> list[str]:
    return sorted(set(GAMES) | set(_EXTRA))


def find_game(name: str) -> Game:
    """The game registered as ``name``."""
    if name in _EXTRA:
        return _EXTRA[name]
    module_name = GAMES.get(name)
    if module_name is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    module = importlib.import_module(module_name)
    return module.GAME


def find_screen(name: str) -> GameScreen:
    """The screen of the game registered as ``name``: its scenarios, card data and drawing, without its rules.

    A game registered at run time, or without a screen module, is its own
    screen (:func:`find_game`).
    """
    module_name = SCREENS.get(name) if name not in _EXTRA else None
    if module_name is None:
        return find_game(name)
    module = importlib.import_module(module_name)
    return module.SCREEN
