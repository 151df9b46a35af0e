"""Nightfall: Martial Law — the deck-building chain game, refereed.

Modules, one concept each: :mod:`.cards` (card data), :mod:`.state` (zones
and moves), :mod:`.flow` (tasks and pending decisions), :mod:`.setup`
and :mod:`.drafts` (set-up), :mod:`.turn` (phases, claim, cleanup),
:mod:`.combat`, :mod:`.chain`, :mod:`.damage`, :mod:`.effects` (the named
card effects), :mod:`.scoring`, :mod:`.view` (hidden information) and
:mod:`.invariants`.
"""

from pbem.games.nightfall.game import Nightfall

GAME = Nightfall()

__all__ = ["GAME", "Nightfall"]
