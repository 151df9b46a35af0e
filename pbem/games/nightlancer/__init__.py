"""Nightlancer: underworld operatives, missions and the black market (1-4 players).

Modules by concept: :mod:`.state` (the typed state), :mod:`.cards` (data),
:mod:`.effects` (the effect vocabulary), :mod:`.tokens` (status),
:mod:`.events` (what happened), :mod:`.zones` (decks), :mod:`.crews`,
:mod:`.flow` (asking decisions on the engine's turn machine),
:mod:`.setup`, :mod:`.prep`, :mod:`.streets`, :mod:`.missions`,
:mod:`.challenges`, :mod:`.agendas`, :mod:`.actions` (free actions),
:mod:`.scoring`, :mod:`.outcome` (how a game ends), :mod:`.view`, :mod:`.invariants`, :mod:`.game` (the
protocol object, which builds the turn machine). Without the rules:
:mod:`.scenarios` (a scenario as set up, its options), :mod:`.cards`,
:mod:`.texts` (card texts in words) and :mod:`.screen` (what reading a view
needs: the card data, the screen, the card texts).

``GAME`` and ``Nightlancer`` are imported when first used, so that reading a
view imports :mod:`.screen` without the rules.
"""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

if TYPE_CHECKING:  # pragma: no cover
    from pbem.games.nightlancer.game import GAME, Nightlancer

lazy_package(__name__, {"GAME": "game", "Nightlancer": "game"})

__all__ = ["GAME", "Nightlancer"]
