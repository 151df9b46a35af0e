"""What happened: the public and private lines of a step, kept by the kit (:class:`~pbem.engine.events.Events`).

A step's lines (``state["events"]``, and ``state["private"]`` per player)
cover everything from the step's first choice to its last, standing orders
included; the kit forgets them when the next step begins. What happened
since a player's last move the view reads back from the turns
(:mod:`pbem.referee.since`), so the state keeps no log.
"""

from __future__ import annotations

from pbem.engine.events import Events

EVENTS = Events(public="events", private="private")
#: ``say(state, line)``: a public line about what happened
say = EVENTS.say
#: ``tell(state, player, line)``: a line only ``player`` reads (the cards they draw)
tell = EVENTS.tell
