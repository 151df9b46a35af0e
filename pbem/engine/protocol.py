"""The small protocol every game implements.

Shaped like OpenSpiel's Python games: a game says which decisions are
awaited, applies one chosen option, and gives the public state, one player's
view and the result. The referee (files, keys, e-mail) knows only this
protocol; a game knows nothing of files or keys.

Rules of the protocol:

* **State is plain data**: a ``dict`` that survives ``json.dumps`` /
  ``json.loads`` unchanged (str keys; str, int, bool, None, list, dict
  values; no floats, no tuples, no sets). The referee stores it whole, sealed
  to the referee.
* **Transitions are deterministic** given the state, the choice and the
  injected :class:`~pbem.engine.rng.Rng`. No global state, no clock, no
  :mod:`random`.
* **Decisions are data.** :meth:`Game.awaiting` lists every decision open
  now. Usually one; several when players choose at once (a draft pick, the
  crew deciding to assist). A game holds an early simultaneous choice in its
  own state, hidden from the others' views, and applies all of them together
  when the last arrives.
* **Options** carry ids that are stable (the same situation gives the same
  ids, so a player can send several choices in one move file) and that
  reveal nothing a player may not know. Labels are readable: card names,
  targets.
* **Legality** is owned by the framework: :func:`apply_choice` refuses an id
  that is not among the awaited player's options before the game sees it, so
  :meth:`Game.apply` may assume the choice is legal.
* **Steps**: a referee step applies one move: the framework calls
  :meth:`Game.begin_step`, then :meth:`Game.apply` once per choice of the
  move and once per decision a standing order answers. What a game reports
  as having happened (its events) covers the whole step, in order; only
  ``begin_step`` forgets the last step's.
* **Information**: :meth:`Game.public` is what everyone may know;
  :meth:`Game.private` what one player knows besides (it never repeats the
  public part). Both name cards by id: names and texts are static, public
  card data (:meth:`Game.cards`), which :meth:`Game.render` joins to them.
  Two states that differ only in what player P may not know give P the same
  public and private parts. :meth:`Game.hidden_zones` names what some
  player may not see, for the referee's per-zone commitments.
* **Static members**: the members of a state that are a pure function of the
  scenario as set up (the card catalogue) are named by
  :meth:`Game.static_state`. The referee leaves them out of its sealed
  section and restores them from the set-up (pinned by ``setup`` in
  ``game.toml``) when it opens the section, so turn files stay small.
* **Sealed sizes**: the referee pads every sealed section to the sizes
  :meth:`Game.sealed_sizes` declares, so that a section's length depends on
  public facts only (the seat count, the kind of decision awaited), never on
  what it hides.
* **Default actions** (optional method ``default_action(kind) -> "pass" |
  "bot"``): what the referee does for a player whose decision of that kind
  passed its deadline (``pbem tick``). ``"pass"`` answers with the
  decision's ``pass_id`` when it offers one, and otherwise falls back to
  ``"bot"``: an option drawn uniformly from the step's generator. A game
  without the method gets ``"pass"`` for every kind. The referee applies
  the answer through :func:`apply_choice` like any other. A game on the
  turn machine declares it with each decision kind
  (``machine.kind(name, default_action=...)``).
* **Order tests** (optional methods ``order_tests(kind)`` and
  ``order_value(state, player, test, option_id=None)``): what a player's
  orders for a decision kind may test besides the generic tests (an
  option's id, a card it names, its label), and the value of one on the
  player's open decision (:mod:`pbem.engine.ordertests`). A test reads
  only what that player may know. A game without them offers the generic
  tests alone; a game on the turn machine declares them with each decision
  kind (``machine.kind(name, tests=...)``).

Games build their rules on the turn machine of :mod:`pbem.engine.machine`
(tasks, pending decisions, decision kinds); the protocol does not require it.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from pbem.engine.errors import IllegalMoveError, NotAwaitedError

if TYPE_CHECKING:  # pragma: no cover
    from pbem.engine.rng import Rng

#: a game's state as the referee holds it: a JSON object (see "State is plain data" above)
State = dict[str, Any]
#: the type a game gives its own states (usually a ``TypedDict``): :class:`Game` is generic in it, so that a
#: type checker holds a game to the protocol (``GAME: Game[State] = Nightfall()``) with its own state type
GameState = TypeVar("GameState")
JSON = Any

#: what a game may declare for a decision kind whose deadline passed (``Game.default_action``):
#: answer with the decision's pass option, or draw one of its options at random
DEFAULT_ACTIONS = ("pass", "bot")

#: the default of a mapping member left out: empty, and read-only, as it is shared
_EMPTY: Mapping[str, Any] = MappingProxyType({})

# The protocol's records are NamedTuples, not dataclasses: every command that reads a decision defines them
# when it starts (docs/performance.md, "Records without dataclasses").


class Option(NamedTuple):
    """One thing a player may choose: a stable ``id`` and a readable ``label``.

    ``free`` marks a free action offered inside the decision (selling an
    Item "at any time"): taking it leaves the decision open, so the player
    is asked it again at once.
    """

    id: str
    label: str
    free: bool = False

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "label": self.label}
        if self.free:
            data["free"] = True
        return data


class Decision(NamedTuple):
    """A decision awaited from one player.

    ``kind`` names the decision in the rulebook's words (``"link"``,
    ``"block"``, ``"draft-pick"``, ``"assist"``, ``"reaction"``).
    ``prompt`` says what is being decided. ``pass_id``, when set, is the
    option that declines (pass, no link, no reaction); the referee uses it to
    carry out a player's standing order to pass decisions of this kind, and
    to answer for a player whose decision passed its deadline.
    ``simultaneous`` is true when other players decide at the same time and
    the choices are applied together.
    """

    player: str
    kind: str
    options: tuple[Option, ...]
    prompt: str = ""
    pass_id: str | None = None
    simultaneous: bool = False

    def option(self, option_id: str) -> Option | None:
        for option in self.options:
            if option.id == option_id:
                return option
        return None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "player": self.player,
            "kind": self.kind,
            "prompt": self.prompt,
            "options": [o.to_json() for o in self.options],
            "simultaneous": self.simultaneous,
        }
        if self.pass_id is not None:
            data["pass_id"] = self.pass_id
        return data


class Result(NamedTuple):
    """How a finished game ended.

    ``winners`` lists the winning players (several for a shared victory, all
    of them for a cooperative win, none when everybody loses). ``scores``
    maps each player to the figure the rules rank by; ``summary`` is one
    readable line; ``details`` holds anything else the rules print at the end
    (tie-breaks used, series totals).
    """

    winners: tuple[str, ...]
    scores: Mapping[str, int] = _EMPTY
    summary: str = ""
    details: Mapping[str, Any] = _EMPTY

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": dict(self.scores),
            "summary": self.summary,
            "details": dict(self.details),
        }


class SealedSizes(NamedTuple):
    """The sizes, in bytes, to which the referee pads the sealed plaintexts of one seat count.

    ``player`` is the size of a player's section when no decision of theirs
    is awaited; while one is, ``decisions[kind]`` (or ``decision`` for a kind
    not listed) is added. The kind of each awaited decision is public, so
    the size says nothing hidden. ``referee`` is the size of the referee's
    section (its compressed state). A section larger than its size is padded
    to the size doubled as often as needed (see ``docs/engine.md``): the
    declared sizes should hold every position the game can reach.
    """

    player: int
    decision: int
    referee: int
    decisions: Mapping[str, int] = _EMPTY

    def player_section(self, kind: str | None) -> int:
        """The padded size of a player's section while a decision of ``kind`` (``None``: none) is awaited."""
        if kind is None:
            return self.player
        return self.player + self.decisions.get(kind, self.decision)


@runtime_checkable
class Game(Protocol[GameState]):
    """A game the referee can run. One module-level instance per game."""

    #: registry name, e.g. ``"nightfall"``
    name: str
    #: smallest and largest number of seats
    min_players: int
    max_players: int

    def scenarios(self) -> Sequence[str]:
        """Names of the shipped scenarios; the first is the standard set-up."""
        ...

    def load_scenario(self, name: str, cards: str | None = None) -> JSON:
        """The scenario as plain data (from ``scenarios/GAME/NAME.toml``).

        ``cards`` is an optional path to a card file that replaces the
        shipped card data (for owners who enter the printed cards).
        """
        ...

    def new_state(self, scenario: JSON, players: Sequence[str], rng: "Rng") -> GameState:
        """Set up a game for the players in seat order."""
        ...

    def awaiting(self, state: GameState) -> list[Decision]:
        """The decisions open now; empty exactly when the game is over."""
        ...

    def decision_kinds(self) -> frozenset[str]:
        """Every ``kind`` that :meth:`awaiting` can ever return, in any scenario.

        Standing orders name decisions by kind, and the referee refuses an
        order for a kind outside this set, so a player cannot fill the
        game's records with made-up kinds. At most 32 kinds of at most 32
        characters each (lower-case letters, digits, ``-``), as
        ``schemas/standing-orders.schema.json`` allows.
        """
        ...

    def begin_step(self, state: GameState) -> None:
        """A referee step begins: forget what the last step reported (its public
        and private events), in place. Called once per step, before the first
        :meth:`apply` of the step, by the framework; never by the game."""
        ...

    def apply(self, state: GameState, player: str, option_id: str, rng: "Rng") -> GameState:
        """Apply one legal choice and return the next state.

        May change ``state`` in place and return it. Runs on until the next
        decision that needs a player (or the end). What happens is added to
        the step's events after what earlier choices of the step reported.
        """
        ...

    def static_state(self, scenario: JSON) -> dict[str, JSON]:
        """The members of every state set up from ``scenario`` that are a pure function of it.

        Typically the card catalogue. They never change during a game; the
        referee keeps them out of its sealed section and puts them back from
        the set-up when it opens the section. A game without such members
        returns ``{}``.
        """
        ...

    def cards(self, scenario: JSON) -> JSON:
        """The card data players read, from the scenario: names, texts, costs... by card id.

        Public and static: the same for every game set up from ``scenario``,
        so no turn file carries it.
        """
        ...

    def public(self, state: GameState) -> JSON:
        """What every player and every onlooker may know; cards named by id.

        What happened in the last step goes under ``events``, lines of text
        that name cards by name: ``pbem view`` and ``pbem log`` read them from
        each turn, so no part repeats an earlier step.
        """
        ...

    def private(self, state: GameState, player: str) -> JSON:
        """What ``player`` knows besides the public part (their hand, their own picks); cards by id.

        It never repeats the public part: the referee seals it to the player
        next to the public part of the same turn. The player's own lines of
        the last step go under ``events``, as in :meth:`public`.
        """
        ...

    def sealed_sizes(self, seats: int) -> SealedSizes:
        """The padded sizes of the sealed sections for ``seats`` players."""
        ...

    def result(self, state: GameState) -> Result | None:
        """The result when the game is over, else ``None``."""
        ...

    def render(self, public: JSON, private: JSON | None, cards: JSON) -> str:
        """The position as a player sees it, as text for an 80-column terminal: the public
        part, their private part (``None`` for an onlooker) and the card data they name.

        Cards by their names, never ids (:mod:`pbem.engine.screen`). What
        happened, the result and the numbered options are printed by the
        CLI around this text, not by it. A game may also describe one card
        of :meth:`cards` in full with an optional ``card_text(facts) -> str``
        (``pbem card``, ``pbem view --cards``).
        """
        ...

    def hidden_zones(self, state: GameState) -> Mapping[str, list[Any]]:
        """Every zone some player may not see, by name, in order (a deck top
        first or last, as the game keeps it; sealed picks): the referee commits
        to each in every turn file, so that after the game a player can prove
        what a zone held (``pbem prove``). Empty for a game that commits per
        sealed section only."""
        ...

    # --- for the test suite (leak property, random playouts) -------------

    def conceal(self, state: GameState, player: str, rng: "Rng") -> GameState:
        """A copy of ``state`` with everything ``player`` may not know redrawn.

        Shuffle every deck, swap the other players' hidden cards among
        themselves keeping zone sizes, redraw the other players' pending
        simultaneous choices: all that ``player`` cannot see. The leak test
        requires ``private(conceal(s, p, rng), p) == private(s, p)``, the same
        of ``public``, and sealed sections of one length for every redraw.
        """
        ...

    def check_invariants(self, state: GameState) -> None:
        """Raise :class:`~pbem.engine.errors.InvariantError` if the state breaks a
        conservation rule (cards conserved across zones, tokens never negative, ...)."""
        ...


class GameScreen(Protocol):
    """What reading a game needs of it, without its rules: its scenarios as set up, their card data, the
    drawing of a view (``pbem view``, ``pbem card``).

    Each method is the :class:`Game` method of the same name, and gives what
    it gives; every :class:`Game` is a screen. A game offers its screen from
    a module that imports none of its rules
    (:func:`pbem.engine.registry.find_screen`), so that a reader does not load
    the turn machine to draw a screen. Its :meth:`load_scenario` may leave out
    a check only the rules can make (whether a card file's effects are ones
    the rules know), since a game directory's set-up was checked by the rules
    when it was dealt, and ``game.toml`` pins it by its hash, which the reader
    checks. Optional, as for a :class:`Game`: ``declared_options()``,
    ``card_text(facts)``.
    """

    name: str

    def scenarios(self) -> Sequence[str]:
        """:meth:`Game.scenarios`."""
        ...

    def load_scenario(self, name: str, cards: str | None = None) -> JSON:
        """:meth:`Game.load_scenario`."""
        ...

    def cards(self, scenario: JSON) -> JSON:
        """:meth:`Game.cards`."""
        ...

    def render(self, public: JSON, private: JSON | None, cards: JSON) -> str:
        """:meth:`Game.render`."""
        ...


def decision_for(game: Game[GameState], state: GameState, player: str) -> Decision:
    """The decision awaited from ``player``; raise if none is."""
    for decision in game.awaiting(state):
        if decision.player == player:
            return decision
    raise NotAwaitedError(f"no decision of {player!r} is awaited")


def apply_choice(
    game: Game[GameState], state: GameState, player: str, option_id: str, rng: "Rng", *,
    decision: Decision | None = None,
) -> GameState:
    """Check that ``option_id`` is legal for ``player`` now, then apply it.

    Raises :class:`NotAwaitedError` or :class:`IllegalMoveError` before the
    game sees the choice, so the state is unchanged when either is raised
    (a game's :meth:`Game.apply` never raises them itself).

    ``decision``: the decision of ``player`` that :meth:`Game.awaiting`
    returned for this very state, when the caller has it at hand, so that
    the options are not listed a second time (a bot's playout); without it,
    the decision is looked up.
    """
    if decision is None:
        decision = decision_for(game, state, player)
    elif decision.player != player:
        raise NotAwaitedError(f"the decision given is {decision.player!r}'s, not {player!r}'s")
    if decision.option(option_id) is None:
        raise IllegalMoveError(
            f"{option_id!r} is not an option of {player!r} in this {decision.kind} decision"
        )
    return game.apply(state, player, option_id, rng)
