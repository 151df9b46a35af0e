"""High Card with named hidden zones: ``hidden_zones(state)`` of the game protocol, not empty.

A game that names its hidden zones gets one salted commitment per zone in
every turn file (``commitments.zones``), besides one per sealed section.
"""

from __future__ import annotations

from typing import Any

from toygame import HighCard


class HighCardZones(HighCard):
    name = "highcard-zones"

    def hidden_zones(self, state: dict[str, Any]) -> dict[str, list[int]]:
        """The deck, in order, each player's hand, and the picks not yet revealed."""
        zones = {"deck": list(state["deck"]), "picks": [state["picks"][p] for p in sorted(state["picks"])]}
        for player in state["players"]:
            zones[f"hand:{player}"] = list(state["hands"][player])
        return zones


GAME = HighCardZones()
