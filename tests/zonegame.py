"""High Card with named hidden zones: ``hidden_zones(state)`` of the game protocol, not empty.

A game that names its hidden zones gets one salted commitment per zone in
every turn file (``commitments.zones``), besides one per sealed section. It
declares who sees each (``zones``), which the leak tests hold ``conceal`` to.
"""

from __future__ import annotations

from typing import Any

from toygame import HighCard

from pbem.engine.kit import Zone


class HighCardZones(HighCard):
    name = "highcard-zones"

    def zones(self, state: dict[str, Any]) -> list[Zone]:
        """The deck, in order, and the picks not yet revealed: nobody's; each player's hand: theirs; each
        where it lies in the state."""
        picks = [state["picks"][p] for p in sorted(state["picks"])]
        return [Zone("deck", list(state["deck"]), (), (("deck",),)), Zone("picks", picks, (), (("picks",),)),
                *(Zone(f"hand:{p}", list(state["hands"][p]), (p,), (("hands", p),)) for p in state["players"])]

    def hidden_zones(self, state: dict[str, Any]) -> dict[str, list[int]]:
        return {zone.name: zone.cards for zone in self.zones(state)}


GAME = HighCardZones()
