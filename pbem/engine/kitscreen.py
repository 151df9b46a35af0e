"""The screen of a game on the kit: what reading a game needs, from its data folder alone, without its rules.

``pbem view`` and ``pbem card`` read a game through its screen
(:func:`pbem.engine.registry.find_screen`), which imports none of the
rules: no turn machine, no effect. :class:`KitScreen` gives the scenarios,
the options and the card data from the game's
:class:`~pbem.engine.gamedata.GameData`, and a default for the card facts
and the drawing, which a game replaces with its own where they do not suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.engine.gamedata import GameData
from pbem.engine.options import OptionTable
from pbem.engine.screen import generic_card_facts, generic_render


class KitScreen:
    """What reading a game needs (:class:`~pbem.engine.protocol.GameScreen`), from its data folder alone.

    A game's screen module subclasses it with ``data`` and, where the
    defaults do not suit, its own ``cards`` (the card facts a player reads,
    by card key), ``render`` and ``card_text``. Without a screen module, the
    game itself is its screen (:func:`pbem.engine.registry.find_screen`).
    """

    data: GameData
    #: the game's registry name: its data's
    name: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "data" in cls.__dict__:
            cls.name = cls.data.game

    def scenarios(self) -> Sequence[str]:
        return self.data.scenarios()

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        """The scenario as set up, its card file checked by its data alone (the rules' own check of the
        card data is made when a game is set up: :meth:`KitGame.load_scenario`)."""
        return self.data.load_scenario(name, cards)

    def declared_options(self) -> OptionTable:
        return self.data.option_table()

    def cards(self, setup: Any) -> dict[str, dict[str, Any]]:
        """The card facts of the scenario's card data, by card key: by default each ``[[card]]`` of the card
        file, its ``key`` left out (:func:`pbem.engine.screen.generic_card_facts`)."""
        return generic_card_facts(setup["card_data"])

    def render(self, public: Any, private: Any, cards: Any) -> str:
        """By default every member of both parts, one line each, cards by name
        (:func:`pbem.engine.screen.generic_render`)."""
        return generic_render(public, private, cards)
