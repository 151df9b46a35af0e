"""How a game ends: the outcome recorded, at the final scoring or at once (rulebook 4 and 6.1).

Both the final scoring (:mod:`.scoring`) and the loss of the last Ideal
(:mod:`.tokens`, Techshock) end a game, so this module depends on neither.
"""

from __future__ import annotations

from typing import Any

from pbem.games.nightlancer.events import say
from pbem.games.nightlancer.state import State


def game_over(state: State, winners: list[str], scores: dict[str, int], summary: str,
              details: dict[str, Any]) -> None:
    state["over"] = True
    state["phase"] = "over"
    state["pending"] = []
    state["outcome"] = {"winners": winners, "scores": scores, "summary": summary, "details": details}
    say(state, summary)


def techshock_defeat(state: State, player: str) -> None:
    """6.1: solitaire "If they enter Techshock they lose the game immediately";
    cooperative "If any player enters Techshock then the players all lose"."""
    if state["mode"] == "competitive" or state["over"]:
        return
    scores = {p: state["seats"][p]["prospects"] for p in state["players"]}
    game_over(state, [], scores, f"{player} enters Techshock: the game is lost.", {"techshock": player})
