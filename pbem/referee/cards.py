"""``pbem card NAME``: a card's full text, looked up in the games' static card data.

Card data is public and static (:meth:`Game.cards` of a scenario), so no key
is needed: the look-up reads a game directory's own card data (the set-up
``game.toml`` pins, an owner's ``--cards`` file included), one game's
scenario, or the standard scenario of every installed game, through each
game's screen (:func:`pbem.engine.registry.find_screen`: no rules). Matching
is :func:`pbem.engine.screen.find_cards`; a card is described by the game's
``card_text`` (:func:`pbem.engine.screen.describe_card`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.engine.errors import EngineError
from pbem.engine.protocol import GameScreen
from pbem.engine.registry import find_screen, game_names
from pbem.engine.screen import describe_card, find_cards
from pbem.referee.errors import SetupError, UsageError
from pbem.referee.public import game_cards


@dataclass(frozen=True)
class CardHit:
    """One card found: its game, key and full text."""

    game: str
    key: str
    text: str


@dataclass(frozen=True)
class CardLookup:
    """What a look-up found in the games it searched; with no hit, the names it may have meant."""

    query: str
    games: list[str]
    hits: list[CardHit] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    #: the query is part of several names (``suggestions``), rather than near one
    ambiguous: bool = False


def look_up_card(query: str, game: str | None = None, scenario: str | None = None,
                 directory: str | Path | None = None) -> CardLookup:
    """The cards ``query`` names: in ``directory``'s card data, or ``game``'s ``scenario`` (default:
    its standard one), or else every installed game's standard card data."""
    if directory is not None and (game is not None or scenario is not None):
        raise UsageError("--dir reads the game directory's own card data; give --dir, or --game (and --scenario)")
    if scenario is not None and game is None:
        raise UsageError("--scenario needs --game")
    sources = [game_cards(directory)] if directory is not None else _installed(game, scenario)
    hits: list[CardHit] = []
    suggestions: list[str] = []
    ambiguous = False
    for screen, cards in sources:
        found = find_cards(cards, query)
        hits += [CardHit(screen.name, key, describe_card(screen, key, cards[key])) for key in found.keys]
        suggestions += found.suggestions
        ambiguous = ambiguous or found.ambiguous
    return CardLookup(query=query, games=[screen.name for screen, _ in sources], hits=hits,
                      suggestions=[] if hits else list(dict.fromkeys(suggestions)), ambiguous=ambiguous and not hits)


def _installed(name: str | None, scenario: str | None) -> list[tuple[GameScreen, Any]]:
    """``(screen, card data)`` of the game named (its ``scenario``), or of every installed game."""
    sources = []
    for game_name in [name] if name is not None else game_names():
        try:
            screen = find_screen(game_name)
        except (ImportError, AttributeError, EngineError) as error:
            if name is not None:
                raise SetupError(str(error)) from error
            continue  # a registered game that is not installed has no cards to search
        if scenario is not None and scenario not in screen.scenarios():
            raise SetupError(f"{screen.name} has no scenario {scenario!r} (scenarios: {', '.join(screen.scenarios())})")
        try:
            setup = screen.load_scenario(scenario or screen.scenarios()[0])
        except EngineError as error:
            raise SetupError(f"{screen.name}: {error}") from error
        sources.append((screen, screen.cards(setup)))
    return sources
