"""Helpers for Nightlancer rule tests: pinned set-ups and a scripted table."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, cast

from pbem.engine.protocol import Result, apply_choice
from pbem.engine.rng import Rng
from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.state import State

_STANDARD = GAME.load_scenario("standard")
_CARDS = GAME.cards(_STANDARD)

#: what a player does when a test does not care (the "quiet" answer of each decision)
QUIET = {
    "pick": None, "take-mission": "pass", "stay": "stay", "consent": "refuse", "streets": "pass",
    "interest": "pay", "repay": "keep", "gear-up": None, "abandon": "continue", "choose-option": "option:1",
    "assist": "assist", "attempt": "roll", "reaction": "pass", "skill": "none", "discard": None,
    "final": "done", "face-off": "fight:marksman", "accept-fight": "fight", "event": "go-on",
}


def screen(state: State, player: str | None = None) -> str:
    """What ``pbem view`` shows ``player`` (an onlooker when ``None``): public and private parts with the card data."""
    return GAME.render(GAME.public(state), GAME.private(state, player) if player else None, _CARDS)


def final_result(state: State) -> Result:
    """The result of a game that has ended."""
    result = GAME.result(state)
    assert result is not None, "the game has not ended"
    return result


def scenario(mode: str = "competitive", hardened: int = 0, **pin: Any) -> dict[str, Any]:
    data = copy.deepcopy(_STANDARD)
    data.update(options={"mode": mode, "hardened": hardened}, pin=pin)
    return data


def new_game(players=("ana", "ben"), mode: str = "competitive", seed: int = 1, hardened: int = 0,
             nightlancers=None, **pin: Any) -> State:
    """A game with pinned Nightlancers (Assassin, Guard, Sniper, Veteran by seat) and turn order = seats."""
    players = list(players)
    pin.setdefault("nightlancers", nightlancers or ["assassin", "guard", "sniper", "veteran"][: len(players)])
    pin.setdefault("turn_order", list(range(len(players))))
    return GAME.new_state(scenario(mode, hardened, **pin), players, Rng.from_seed(seed))


class Table:
    """Drives a game: answers decisions, with quiet defaults for what a test does not care about."""

    def __init__(self, state: State, seed: int = 7) -> None:
        self.state = state
        self.rng = Rng.from_seed(seed)
        self.log: list[str] = list(state["events"])

    @property
    def awaiting(self):
        return GAME.awaiting(self.state)

    def decision(self, player: str | None = None):
        for d in self.awaiting:
            if player is None or d.player == player:
                return d
        raise AssertionError(f"no decision of {player!r}: {[(d.player, d.kind) for d in self.awaiting]}")

    def kinds(self) -> list[tuple[str, str]]:
        return [(d.player, d.kind) for d in self.awaiting]

    def options(self, player: str | None = None) -> list[str]:
        return [o.id for o in self.decision(player).options]

    def choose(self, player: str, option: str) -> None:
        GAME.begin_step(self.state)
        self.state = apply_choice(GAME, self.state, player, option, self.rng)
        self.log.extend(self.state["events"])

    def quiet(self, decision) -> str:
        wanted = QUIET.get(decision.kind)
        ids = [o.id for o in decision.options]
        return wanted if wanted is not None and wanted in ids else ids[0]

    def until(self, stop: Callable[[Table], bool], script: dict | None = None, limit: int = 2000) -> None:
        """Answer decisions (``script`` maps (player, kind) or kind to an option or a function) until ``stop``."""
        script = script or {}
        for _ in range(limit):
            if stop(self) or not self.awaiting:
                return
            d = self.awaiting[0]
            answer = script.get((d.player, d.kind), script.get(d.kind))
            if callable(answer):
                answer = answer(self, d)
            ids = [o.id for o in d.options]
            self.choose(d.player, answer if isinstance(answer, str) and answer in ids else self.quiet(d))
        raise AssertionError("the game did not reach the expected point")

    def stay(self) -> None:
        """Everyone asked whether to leave their mission (Take missions, R6) stays."""
        while self.awaiting and self.awaiting[0].kind == "stay":
            self.choose(self.awaiting[0].player, "stay")

    def until_kind(self, kind: str, player: str | None = None, script: dict | None = None) -> None:
        self.until(lambda t: any(d.kind == kind and (player is None or d.player == player) for d in t.awaiting), script)

    def seat(self, player: str) -> dict[str, Any]:
        """A seat, as a plain dict that a test may set any member of."""
        return cast(dict[str, Any], self.state["seats"][player])

    def events(self) -> str:
        """Every public event line since the table was set."""
        return "\n".join(self.log)


def mission_table(players=("ana", "ben"), mission="low-courier-run", crew=("ana",), second=(), dice=(),
                  events=("quiet-night", "payday", "street-market"), script=None, **pin: Any) -> Table:
    """A table whose Missions phase is about to attempt ``mission`` with the given Crews.

    Players are seated (and in turn order) as given; Bosses must come before their joiners.
    """
    decks = pin.pop("decks", {})
    low = [m for m in ("low-courier-run", "low-gang-truce", "low-debt-collection") if m != mission]
    decks.setdefault("low", [mission] + low[:2] if mission.startswith("low") else low[:2])
    if mission.startswith("high"):
        decks.setdefault("high", [mission])
        events = ("payday",) + tuple(e for e in events if e != "payday")
    t = Table(new_game(tuple(players), events=list(events), decks=decks, dice=list(dice), **pin))

    def take(table, d):
        p = d.player
        if crew and p == crew[0]:
            return f"first:{mission}"
        if p in crew[1:]:
            return f"join:{mission}:first"
        if second and p == second[0]:
            return f"second:{mission}"
        if p in second[1:]:
            return f"join:{mission}:second"
        return "pass"

    base = {"take-mission": take, "consent": "accept"}
    base.update(script or {})
    t.until(lambda t: t.state["phase"] == "missions", base)
    return t
