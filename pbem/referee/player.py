"""The player's side: open one's own view, write a signed move file.

Both work from the game directory and the player's private key alone; the
referee is not involved. The view is read from the latest turn file (the
authoritative record; ``views/`` holds copies for e-mail), after checking
the referee's signature on it. A view is three parts: the turn's public
part, the player's opened section (their private part, their decision, their
standing orders) and the game's static card data (:func:`view_cards`),
which names and explains the card ids of the other two.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pbem.crypto.canonical import canonical_json
from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.engine.protocol import Decision, Option
from pbem.engine.registry import find_game
from pbem.referee import copies, formats, orders, seats
from pbem.referee.errors import (
    GameDirError,
    GameOverMove,
    IllegalMove,
    KeyMismatch,
    NotYourDecisionMove,
    SchemaInvalidMove,
    UsageError,
    awaiting_text,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, current_turn, decision_from_json, read_game_file
from pbem.referee.sealing import open_with_key, seal_json
from pbem.referee.storage import dump_json

#: the padded size of a move's sealed choices, so that every move seals to one length whatever it chose
#: (docs/formats.md): it holds 32 choices of 64 printable ASCII characters, the most a payload may have
#: (``schemas/choices.schema.json``), with 24 orders in the form before orders (with the binding 3,691
#: bytes); ``pbem move`` writes no payload larger, and orders that do not fit one move go with the next
CHOICES_SIZE = 4096


class PlayerView(NamedTuple):
    """A player's opened section of the current turn."""

    gamefile: GameFile
    turn: Record
    doc: dict[str, Any]
    #: the directory is a player's copy (``copy.json``), which may lack turns (:mod:`pbem.referee.copies`)
    partial: bool = False

    @property
    def player(self) -> str:
        return self.doc["player"]

    @property
    def number(self) -> int:
        return self.doc["turn"]

    @property
    def public(self) -> Any:
        """The public part of the turn (the game's ``public(state)``)."""
        return self.turn.doc["public"]

    @property
    def private(self) -> Any:
        """What only this player knows (the game's ``private(state, player)``)."""
        return self.doc["private"]

    @property
    def awaiting(self) -> dict[str, Any] | None:
        """This player's entry of the turn's public ``awaiting`` (kind, since), if a decision of theirs is open."""
        return next((a for a in self.turn.doc["awaiting"] if a["player"] == self.player), None)

    @property
    def decision(self) -> Decision | None:
        data, public = self.doc["decision"], self.awaiting
        if data is None or public is None:
            return None
        return decision_from_json({**data, "player": self.player, "kind": public["kind"]})

    @property
    def since(self) -> int | None:
        public = self.awaiting
        return public["since"] if public is not None else None

    @property
    def deadline(self) -> str | None:
        """The deadline of this player's open decision (a game with deadlines), else ``None``."""
        public = self.awaiting
        return public.get("deadline") if public is not None else None

    @property
    def standing_orders(self) -> dict[str, Any]:
        return self.doc["standing_orders"]

    @property
    def result(self) -> dict[str, Any] | None:
        return self.turn.doc["result"]


def _check_seat(gamefile: GameFile, player: str, key: PrivateKey) -> None:
    seat = gamefile.player_key(player)
    if seat is None:
        raise KeyMismatch(
            f"{player!r} is not seated in game {gamefile.game_id} (players: {', '.join(gamefile.player_names)})"
        )
    if seat.fingerprint != key.public.fingerprint:
        handed = next((h for h in reversed(gamefile.handovers_of(player))
                       if h.previous.fingerprint == key.public.fingerprint), None)
        since = (f"; the referee handed {player}'s seat to that key at turn {handed.turn} (pbem takeover), "
                 "and this key reads no turn since" if handed is not None else "")
        raise KeyMismatch(
            f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id} "
            f"({seat.fingerprint}){since}"
        )


def read_view(directory: str | Path, player: str, key: PrivateKey) -> PlayerView:
    """Open ``player``'s section of the current turn with their private key.

    The current turn is the latest the directory holds: in a player's copy
    fed by mail, the latest one its mails carried (newer ones may exist).
    """
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    gamefile = read_game_file(gamedir)
    if player == formats.REFEREE_SECTION:
        raise KeyMismatch("'referee' is not a player")
    if gamefile.waits_for_joins and not gamedir.has_turns():
        _check_seat(gamefile, player, key)
        raise NotYourDecisionMove(
            f"game {gamefile.game_id} is not dealt yet: it waits for every player's join file "
            f"(pbem join {gamedir.root} --as NAME --key KEYFILE)"
        )
    turn = current_turn(gamedir, gamefile)
    partial = copies.is_marked(gamedir, gamefile)
    gamefile = seats.in_force(gamedir, gamefile, turn.doc, partial)  # a seat handed over takes its new key
    _check_seat(gamefile, player, key)
    view = PlayerView(gamefile=gamefile, turn=turn, doc=open_section(gamefile, turn, player, key), partial=partial)
    if (view.doc["decision"] is None) != (view.awaiting is None):
        raise GameDirError(f"{turn.path}: {player}'s section and the turn's awaiting disagree on {player}'s decision")
    return view


def open_section(gamefile: GameFile, turn: Record, player: str, key: PrivateKey) -> dict[str, Any]:
    """``player``'s section of a checked turn, opened with their key and checked to be theirs, of that turn."""
    doc = open_with_key(turn.doc["sealed"][player], key, f"{turn.path} ({player}'s section)")
    problem = formats.signed_format_problem(doc, formats.PLAYER_VIEW)  # the turn's signature covers the section
    if problem:
        raise GameDirError(f"{turn.path}: {player}'s section: {problem}")
    if doc["player"] != player or doc["turn"] != turn.doc["turn"] or doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{turn.path}: {player}'s section belongs to another player, turn or game")
    return doc


def view_cards(directory: str | Path, view: PlayerView) -> Any:
    """The game's static card data (``cards(scenario)``), which names the card ids of a view.

    Read from the set-up that ``game.toml`` pins, as the referee does; it is
    public and the same for every turn, so no turn file carries it.
    """
    from pbem.referee.deal import screen_and_cards  # the game's screen and set-up: for the screen only

    return screen_and_cards(GameDir.at(directory), view.gamefile)[1]


#: how ``pbem move`` tells an option number from an option id (no game names an option by a bare number)
OPTION_NUMBER = re.compile(r"[0-9]+")


class Choice(NamedTuple):
    """One choice of a move file: the option id, and its label when the player's view shows the option.

    Only the first choice answers the decision the player sees; a later one
    answers a decision that opens after it, whose options the view does not
    show (``label`` is then ``None``).
    """

    id: str
    label: str | None = None


class SignedMove(NamedTuple):
    """A signed move file's bytes, and its choices as :func:`resolve_choices` read them."""

    data: bytes
    choices: tuple[Choice, ...]


def chosen_option(decision: Decision, text: str) -> Option:
    """The option the player typed: its id, or its number as ``view`` shows it (else :class:`IllegalMove`)."""
    option = decision.option(text)
    if option is not None:
        return option
    if OPTION_NUMBER.fullmatch(text) and 1 <= int(text) <= len(decision.options):
        return decision.options[int(text) - 1]
    raise IllegalMove(
        f"{text!r} is not among the options of your {decision.kind} decision; "
        f"choose an id or a number from 1 to {len(decision.options)} (see `pbem view`)"
    )


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def answering_together(view: PlayerView, decision: Decision) -> list[str]:
    """The other players still awaited with a decision of the same kind as the player's simultaneous one.

    While any is, answering the decision asks nothing more of the player:
    the choices are applied together once the last is in (a rule of the
    engine protocol that ``tests/conformance/test_decision_kinds.py`` checks on
    every game).
    """
    if not decision.simultaneous:
        return []
    return [a["player"] for a in view.turn.doc["awaiting"]
            if a["player"] != view.player and a["kind"] == decision.kind]


def resolve_choices(view: PlayerView, texts: list[str]) -> list[Choice]:
    """The choices of a move as option ids, refusing what the referee would refuse or drop.

    The first choice answers the decision open now: an option id, or its
    number as ``pbem view`` shows it (else :class:`IllegalMove`). A later
    choice answers a decision that opens only after the choices before it,
    and what it offers depends on what only the referee sees (a card drawn,
    an opponent's hand): pbem does not guess, so a later choice must be an
    option id, and a number is refused (:class:`UsageError`, naming that
    ``--choose``). When the first choice answers a simultaneous decision
    that others have still to make, no later choice can be applied (see
    :func:`answering_together`): refused as well.
    """
    decision = view.decision
    assert decision is not None
    first = chosen_option(decision, texts[0])
    chosen = [Choice(first.id, first.label)]
    later = texts[1:]
    # a free action (selling an Item "at any time") leaves the decision open: later choices then count
    together = answering_together(view, decision) if later and not first.free else []
    if together:
        span = f"choice 2 of {len(texts)} would" if len(texts) == 2 else f"choices 2-{len(texts)} of {len(texts)} would"
        raise UsageError(
            f"your first choice answers your {decision.kind} decision, which {', '.join(together)} "
            f"{'has' if len(together) == 1 else 'have'} still to make: nothing more is asked of you until "
            f"{'they have' if len(together) > 1 else 'then'}, so {span} be dropped; send the first choice "
            "alone, and the others once your next decision opens"
        )
    for position, text in enumerate(later, start=2):
        if OPTION_NUMBER.fullmatch(text):
            examples = ", ".join(repr(o.id) for o in decision.options[:3])
            raise UsageError(
                f"the {_ordinal(position)} --choose, {text!r}, is a number, but a number counts the options of "
                f"the decision open now, which only your first choice answers; what you will be offered after it "
                f"depends on what only the referee sees. Give it as an option id instead: the name in brackets "
                f"that `pbem view` shows beside each option (like {examples} now), which names the same card or "
                "action in every decision that offers it"
            )
        chosen.append(Choice(text))
    return chosen


#: the members of a move that its sealed payload repeats, binding the payload to that move (one list, in
#: formats, which the referee checks without importing this module)
BINDING = formats.CHOICES_BINDING


def choices_payload(game_id: str, player: str, turn: int, base: str, choices: list[str],
                    standing_orders: dict[str, Any] | None = None) -> dict[str, Any]:
    """The sealed payload of a move (``pbem-choices/2``), bound to its game, player, turn and base.

    The binding stops a payload being pasted into another move: anyone can
    copy the opaque ``sealed_choices`` of a move file, and the referee
    refuses a payload that names another move (:data:`BINDING`).
    """
    payload: dict[str, Any] = {"format": formats.CHOICES, "game_id": game_id, "player": player, "turn": turn,
                               "base": base, "choices": list(choices)}
    if standing_orders:
        payload["standing_orders"] = standing_orders
    return payload


def make_move(
    view: PlayerView,
    key: PrivateKey,
    choices: list[str],
    standing_orders: dict[str, Any] | None = None,
    rng: Callable[[int], bytes] | None = None,
) -> bytes:
    """A signed move file answering the current turn, as bytes to write or mail (see :func:`sign_move`)."""
    return sign_move(view, key, choices, standing_orders, rng).data


def sign_move(
    view: PlayerView,
    key: PrivateKey,
    choices: list[str],
    standing_orders: dict[str, Any] | None = None,
    rng: Callable[[int], bytes] | None = None,
) -> SignedMove:
    """A signed move file answering the current turn, and its choices as resolved.

    The choices are checked here as far as the player's view allows
    (:func:`resolve_choices`), so that a typo is caught before sending and no
    file is written that the referee would refuse or drop for what the
    player could know. Orders are checked as the referee checks them: only
    the game's decision kinds and what each kind's orders may test
    (:class:`UsageError` says what does not fit), and, without choices, only
    from the awaited player and only when they answer the open decision; and
    the choices and orders must fit the one padded size of a move
    (:data:`CHOICES_SIZE`).
    """
    decision = view.decision
    # the game (its rules module) is loaded only to check orders against its decision kinds and their tests
    if standing_orders:
        problem = formats.part_problem(standing_orders, "standing-orders")
        found = [problem] if problem else orders.problems(find_game(view.gamefile.game), standing_orders)
        if found:
            raise UsageError("; ".join(found))
    if view.result is not None:
        raise GameOverMove(f"game {view.gamefile.game_id} is over; no move is taken")
    if not choices and not standing_orders:
        raise SchemaInvalidMove("a move needs at least one choice or an order")
    if decision is None:
        also = "" if choices else f"; {orders.NOT_AWAITED}"
        raise NotYourDecisionMove(f"no decision of {view.player} is awaited at turn {view.number} "
                                  f"(awaited: {awaiting_text(view.turn.doc['awaiting'])}){also}")
    resolved: list[Choice] = []
    if choices:
        resolved = resolve_choices(view, list(choices))
    elif not orders.answers(decision, orders.merge({view.player: view.doc["standing_orders"]}, view.player,
                                                   standing_orders).get(view.player)):
        raise IllegalMove(orders.ANSWER_NOTHING.format(kind=decision.kind))
    payload = choices_payload(view.gamefile.game_id, view.player, view.number, view.turn.hash,
                              [c.id for c in resolved], standing_orders)
    problem = formats.format_problem(payload, formats.CHOICES)
    if problem:
        raise SchemaInvalidMove(problem)
    size = len(canonical_json(payload))
    if size > CHOICES_SIZE:
        # a larger payload would seal to a longer move, which would tell the table that it holds much
        raise UsageError(f"these choices and orders take {size} bytes, and a move holds {CHOICES_SIZE}: "
                         "send some of the orders with your next move (orders stay until you change them)")
    move = {
        "format": formats.MOVE,
        "game_id": view.gamefile.game_id,
        "player": view.player,
        "turn": view.number,
        "base": view.turn.hash,
        "sealed_choices": seal_json(payload, [view.gamefile.game_recipient], rng, CHOICES_SIZE),
    }
    return SignedMove(data=dump_json(sign_document(move, key)), choices=tuple(resolved))
