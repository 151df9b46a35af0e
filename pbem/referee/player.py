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

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from pbem.crypto.keys import PrivateKey
from pbem.crypto.signing import sign_document
from pbem.engine.errors import EngineError
from pbem.engine.protocol import Decision
from pbem.engine.registry import find_game
from pbem.referee import formats, orders
from pbem.referee.deal import card_data
from pbem.referee.errors import (
    GameDirError,
    IllegalMove,
    KeyMismatch,
    NotYourDecisionMove,
    SchemaInvalidMove,
    UsageError,
)
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, current_turn, decision_from_json
from pbem.referee.sealing import open_with_key, seal_json
from pbem.referee.storage import dump_json
from pbem.referee.turns import REFEREE_SECTION

#: the padded size of a move's sealed choices: it holds the largest payload within the bounds
#: (``schemas/choices.schema.json``: 32 choices of 64 printable ASCII characters, 24 standing orders;
#: with the binding 3,691 bytes), so that every move seals to one length whatever it chose (docs/formats.md)
CHOICES_SIZE = 4096


@dataclass(frozen=True)
class PlayerView:
    """A player's opened section of the current turn."""

    gamefile: GameFile
    turn: Record
    doc: dict[str, Any]

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
        raise KeyMismatch(
            f"this key ({key.public.fingerprint}) is not {player}'s key in game {gamefile.game_id} ({seat.fingerprint})"
        )


def read_view(directory: str | Path, player: str, key: PrivateKey) -> PlayerView:
    """Open ``player``'s section of the current turn with their private key."""
    gamedir = GameDir.at(directory)
    gamedir.refuse_symlinks()
    # the current turn names the hash of game.toml: it vouches for the file (GameFile.read)
    gamefile = GameFile.read(gamedir.game_toml, schema=not gamedir.has_turns())
    if player == REFEREE_SECTION:
        raise KeyMismatch("'referee' is not a player")
    _check_seat(gamefile, player, key)
    if gamefile.waits_for_joins and not gamedir.has_turns():
        raise NotYourDecisionMove(
            f"game {gamefile.game_id} is not dealt yet: it waits for every player's join file "
            f"(pbem join {gamedir.root} --as NAME --key KEYFILE)"
        )
    turn = current_turn(gamedir, gamefile)
    doc = open_with_key(turn.doc["sealed"][player], key, f"{turn.path} ({player}'s section)")
    problem = formats.signed_format_problem(doc, formats.PLAYER_VIEW)  # the turn's signature covers the section
    if problem:
        raise GameDirError(f"{turn.path}: {player}'s section: {problem}")
    if doc["player"] != player or doc["turn"] != turn.doc["turn"] or doc["game_id"] != gamefile.game_id:
        raise GameDirError(f"{turn.path}: {player}'s section belongs to another player, turn or game")
    view = PlayerView(gamefile=gamefile, turn=turn, doc=doc)
    if (doc["decision"] is None) != (view.awaiting is None):
        raise GameDirError(f"{turn.path}: {player}'s section and the turn's awaiting disagree on {player}'s decision")
    return view


def view_cards(directory: str | Path, view: PlayerView) -> Any:
    """The game's static card data (``cards(scenario)``), which names the card ids of a view.

    Read from the set-up that ``game.toml`` pins, as the referee does; it is
    public and the same for every turn, so no turn file carries it.
    """
    try:
        game = find_game(view.gamefile.game)
    except EngineError as error:
        raise GameDirError(f"game.toml: {error}") from error
    return card_data(game, GameDir.at(directory), view.gamefile)


def resolve_choice(decision: Decision, text: str) -> str:
    """An option id from what the player typed: the id itself, or its number as ``view`` shows it."""
    if decision.option(text) is not None:
        return text
    if text.isdigit() and 1 <= int(text) <= len(decision.options):
        return decision.options[int(text) - 1].id
    raise IllegalMove(
        f"{text!r} is not among the options of your {decision.kind} decision; "
        f"choose an id or a number from 1 to {len(decision.options)} (see `pbem view`)"
    )


#: the members of a move that its sealed payload repeats, binding the payload to that move
BINDING = ("game_id", "player", "turn", "base")


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
    """A signed move file answering the current turn, as bytes to write or mail.

    The first choice is checked here against the open decision (an id, or an
    option number as ``view`` shows it) so a typo is caught before sending;
    later choices answer decisions that only the referee can see coming.
    Standing orders are checked as the referee checks them: only the game's
    decision kinds (:class:`UsageError` lists them), and, without choices,
    only from the awaited player and only when they answer the open decision.
    """
    choices = list(choices)
    decision = view.decision
    # the game (its rules module) is loaded only to check standing orders against its decision kinds
    game = find_game(view.gamefile.game) if standing_orders else None
    unknown = orders.unknown_kinds(game, standing_orders) if game is not None else []
    if unknown:
        raise UsageError(
            f"{view.gamefile.game} has no decision kind {', '.join(map(repr, unknown))} for a standing order; "
            f"its kinds: {orders.kinds_text(game)}"
        )
    if choices:
        if decision is None:
            raise NotYourDecisionMove(f"no decision of {view.player} is awaited at turn {view.number}")
        choices[0] = resolve_choice(decision, choices[0])
    elif not standing_orders:
        raise SchemaInvalidMove("a move needs at least one choice or a standing order")
    elif decision is None:
        raise NotYourDecisionMove(f"no decision of {view.player} is awaited at turn {view.number}; "
                                  f"{orders.NOT_AWAITED}")
    elif not orders.answers(decision, orders.merge({view.player: view.doc["standing_orders"]}, view.player,
                                                   standing_orders).get(view.player)):
        raise IllegalMove(orders.ANSWER_NOTHING.format(kind=decision.kind))
    payload = choices_payload(view.gamefile.game_id, view.player, view.number, view.turn.hash, choices,
                              standing_orders)
    problem = formats.format_problem(payload, formats.CHOICES)
    if problem:
        raise SchemaInvalidMove(problem)
    move = {
        "format": formats.MOVE,
        "game_id": view.gamefile.game_id,
        "player": view.player,
        "turn": view.number,
        "base": view.turn.hash,
        "sealed_choices": seal_json(payload, [view.gamefile.game_recipient], rng, CHOICES_SIZE),
    }
    return dump_json(sign_document(move, key))
