"""Nightfall: Martial Law — the deck-building chain game, refereed.

Modules, one concept each: :mod:`.cards` (card data), :mod:`.state` (the
typed state, zones and moves), :mod:`.flow` (asking decisions on the
engine's turn machine), :mod:`.setup`, :mod:`.drafts` and :mod:`.deal` (set-up),
:mod:`.turn` (phases, claim, cleanup), :mod:`.combat`, :mod:`.chain`,
:mod:`.damage`, :mod:`.effects` (the effect vocabulary of card texts),
:mod:`.abilities` (the in-play abilities), :mod:`.scoring`, :mod:`.view`
(hidden information), :mod:`.invariants` and :mod:`.game` (the protocol
object, which builds the turn machine). Without the rules: :mod:`.scenarios`
(a scenario as set up, its options), :mod:`.cards` and :mod:`.screen` (what
reading a view needs: the card data, the screen, the card texts).

``GAME`` and ``Nightfall`` are imported when first used, so that reading a
view imports :mod:`.screen` without the rules.
"""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

if TYPE_CHECKING:  # pragma: no cover
    from pbem.games.nightfall.game import GAME, Nightfall

lazy_package(__name__, {"GAME": "game", "Nightfall": "game"})

__all__ = ["GAME", "Nightfall"]
