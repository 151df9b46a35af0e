"""Nightlancer: underworld operatives, missions and the black market (1-4 players).

Modules by concept: :mod:`.cards` (data), :mod:`.effects` (the effect
vocabulary), :mod:`.tokens` (status), :mod:`.zones` (decks), :mod:`.crews`,
:mod:`.flow` (the turn machine), :mod:`.setup`, :mod:`.prep`,
:mod:`.streets`, :mod:`.missions`, :mod:`.challenges`, :mod:`.agendas`,
:mod:`.actions` (free actions), :mod:`.scoring`, :mod:`.view`,
:mod:`.invariants`, :mod:`.game`.
"""

from pbem.games.nightlancer.game import Nightlancer

GAME = Nightlancer()

__all__ = ["GAME", "Nightlancer"]
