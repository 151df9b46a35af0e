"""Nightlancer: underworld operatives, missions and the black market (1-4 players).

Modules by concept: :mod:`.state` (the typed state), :mod:`.cards` (data),
:mod:`.effects` (the effect vocabulary), :mod:`.tokens` (status),
:mod:`.events` (what happened), :mod:`.zones` (decks), :mod:`.crews`,
:mod:`.flow` (asking decisions on the engine's turn machine),
:mod:`.setup`, :mod:`.prep`, :mod:`.streets`, :mod:`.missions`,
:mod:`.challenges`, :mod:`.agendas`, :mod:`.actions` (free actions),
:mod:`.scoring`, :mod:`.view`, :mod:`.invariants`, :mod:`.game` (the
protocol object, which builds the turn machine).
"""

from pbem.games.nightlancer.game import Nightlancer

GAME = Nightlancer()

__all__ = ["GAME", "Nightlancer"]
