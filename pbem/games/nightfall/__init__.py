"""Nightfall: Martial Law — the deck-building chain game, refereed.

Modules, one concept each: :mod:`.cards` (card data), :mod:`.state` (the
typed state, zones and moves), :mod:`.flow` (asking decisions on the
engine's turn machine), :mod:`.setup` and :mod:`.drafts` (set-up),
:mod:`.turn` (phases, claim, cleanup), :mod:`.combat`, :mod:`.chain`,
:mod:`.damage`, :mod:`.effects` (the effect vocabulary of card texts),
:mod:`.abilities` (the in-play abilities), :mod:`.scoring`, :mod:`.view`
(hidden information), :mod:`.invariants` and :mod:`.game` (the protocol
object, which builds the turn machine).
"""

from pbem.games.nightfall.game import Nightfall

GAME = Nightfall()

__all__ = ["GAME", "Nightfall"]
