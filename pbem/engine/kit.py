"""The game kit: what every game on the turn machine has in common, so that a game is its rules, its view and its data.

A game supplies

* its **data** (:class:`~pbem.engine.gamedata.GameData`): a folder of
  scenarios, options, card data and sealed sizes, read as every game reads
  them;
* its **rules** on a :class:`~pbem.engine.machine.TurnMachine`:
  ``set_up(scenario, players, rng)`` (the state before the first task
  runs), ``result``, ``check_invariants`` and, if the state holds members
  that are a pure function of the scenario, ``static_state``;
* its **view** (:class:`View`), declared once: what everyone may know
  (``public``), what one player knows besides (``private``), every hidden
  zone with the players who see it (``zones``: :class:`Zone`), and how to
  redraw what one player may not know (``conceal``, for the leak tests);
* its **screen**: the card facts a player reads (``cards``), the drawing
  of a view (``render``) and a card in full (``card_text``); each has a
  default (:class:`KitScreen`).

The kit gives the rest of :class:`~pbem.engine.protocol.Game`: scenarios,
options and card data from the data folder; awaiting, applying and the
decision kinds from the machine (:class:`~pbem.engine.machine.MachineGame`);
the step's events kept by the framework (:class:`~pbem.engine.events.Events`:
forgotten when a step begins, put under ``events`` in both parts);
``hidden_zones`` from the declared zones; the sealed sizes from the data;
the seat count checked at set-up. What reading a game needs without its rules
is :class:`~pbem.engine.kitscreen.KitScreen`, which imports no turn machine.
"""

# No ``from __future__ import annotations`` here: the NamedTuples below would compile their annotations at each
# import (docs/performance.md, "Annotations evaluated at import"); they name only what is defined above them.

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, NamedTuple, TypeVar

from pbem.engine.errors import ScenarioError
from pbem.engine.events import Events
from pbem.engine.kitscreen import KitScreen
from pbem.engine.machine import MachineGame, MachineState
from pbem.engine.protocol import SealedSizes
from pbem.engine.rng import Rng
from pbem.engine.watch import Place

S = TypeVar("S", bound=MachineState)


class Zone(NamedTuple):
    """A zone some player may not see: its name, its cards in order, the players who see all of it, and
    where its cards lie in the state.

    ``seen_by`` names each player who sees the whole zone (their own hand;
    ``()``: nobody, a deck). The referee commits to every zone in each turn
    file (:meth:`~pbem.engine.protocol.Game.hidden_zones`); the leak tests
    hold ``conceal`` to the declaration: a redraw for a player keeps every
    zone they see and redraws every zone they do not.

    ``places`` are where the zone's cards lie in the state, each the keys
    from the state's root (member names, list positions) to a list or dict
    holding them, or to the member of a dict that holds one card (a sealed
    pick): ``(("zones", "p1", "deck"),)``. Foresight
    (:mod:`pbem.engine.foresight`) watches them for every player who does
    not see the zone, so a zone holding cards must name them: a rule that
    reads one is what makes the next decision depend on the zone. A place
    may hold more than the zone (a pile whose top card is public, a box of
    which only some cards are the zone's): a read of the rest is then taken
    for a read of the zone, which is safe (it only stops foresight early).
    """

    name: str
    cards: list[Any]
    seen_by: tuple[str, ...] = ()
    places: tuple[Place, ...] = ()


class View(NamedTuple, Generic[S]):
    """What each player may know, declared once.

    ``public(state)`` and ``private(state, player)`` are the two parts
    without the step's events (the kit adds them under ``events``);
    ``zones(state)`` every hidden zone (:class:`Zone`); ``conceal(state,
    player, rng)`` a copy of the state with everything ``player`` may not
    know redrawn.
    """

    public: Callable[[S], dict[str, Any]]
    private: Callable[[S, str], dict[str, Any]]
    zones: Callable[[S], Iterable[Zone]]
    conceal: Callable[[S, str, Rng], S]


class KitGame(KitScreen, MachineGame[S], Generic[S]):
    """A game on the kit: set ``data`` (which names it), ``view``, ``events`` (unless its state names the
    step's lines ``events`` and ``private``), ``min_players``, ``max_players`` and ``self.machine``, and write
    ``set_up``, ``result`` and ``check_invariants``.

    ``set_up(scenario, players, rng)`` makes the state of a new game for
    players checked to be distinct and as many as the game seats; the kit
    then runs the machine to the first decision.
    """

    min_players: int
    max_players: int
    view: View[S]
    events: Events = Events()

    def load_scenario(self, name: str, cards: str | None = None) -> dict[str, Any]:
        """The scenario as set up, its card data checked by the rules too (:meth:`check_card_data`)."""
        return self.data.load_scenario(name, cards, self.check_card_data)

    def check_card_data(self, data: dict[str, Any], where: str) -> None:
        """Refuse card data that names what the rules do not know (an effect); by default, nothing to check."""

    def new_state(self, scenario: Any, players: Sequence[str], rng: Rng) -> S:
        if not self.min_players <= len(players) <= self.max_players:
            seats = (f"{self.min_players}" if self.min_players == self.max_players
                     else f"{self.min_players} to {self.max_players}")
            raise ScenarioError(f"{self.name} seats {seats} players, not {len(players)}")
        if len(set(players)) != len(players):
            raise ScenarioError(f"player names must be distinct, not {list(players)!r}")
        state = self.set_up(scenario, list(players), rng)
        self.machine.run(state, rng)
        return state

    def set_up(self, scenario: Any, players: list[str], rng: Rng) -> S:
        """The state of a new game, before the machine runs."""
        raise NotImplementedError(f"{type(self).__name__} sets up no game")

    def static_state(self, scenario: Any) -> dict[str, Any]:
        """The members of every state set up from ``scenario`` that are a pure function of it: none by default."""
        return {}

    def begin_step(self, state: S) -> None:
        self.events.begin_step(state)

    def public(self, state: S) -> Any:
        data = self.view.public(state)
        data["events"] = self.events.public_lines(state)
        return data

    def private(self, state: S, player: str) -> Any:
        data = self.view.private(state, player)
        data["events"] = self.events.private_lines(state, player)
        return data

    def zones(self, state: S) -> list[Zone]:
        """Every hidden zone, with the players who see it (the view's declaration)."""
        return list(self.view.zones(state))

    def hidden_zones(self, state: S) -> Mapping[str, list[Any]]:
        return {zone.name: zone.cards for zone in self.view.zones(state)}

    def conceal(self, state: S, player: str, rng: Rng) -> S:
        return self.view.conceal(state, player, rng)

    def sealed_sizes(self, seats: int) -> SealedSizes:
        return self.data.sealed_sizes(seats)
