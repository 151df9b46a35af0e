"""``game.toml``: the set-up of a game, fixed when the game is created.

It names the game and scenario, the options and card file used, the players
in seat order with their public keys, the referee's public key, the public
recipient of the game identity, the commitment to the secret seed and, for a
game with deadlines, the ``[deadlines]`` table. Its hash (of the parsed
document, RFC 8785) is written into every turn file, so the referee's
signatures cover it too.

``game.toml`` is never rewritten. When the referee hands a seat to a new key
(``pbem takeover``), a signed seat record says so (:mod:`pbem.referee.seats`);
a :class:`GameFile` read with the seat records in force carries them as
:attr:`GameFile.handovers`, which are not part of ``game.toml`` or its hash.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import re
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import document_hash
from pbem.crypto.keys import PublicKey
from pbem.immutable import Immutable
from pbem.referee import formats
from pbem.referee.errors import GameDirError, KeyMismatch
from pbem.referee.layout import read_file

if TYPE_CHECKING:  # pragma: no cover
    from pbem.crypto.keys import PrivateKey
    from pbem.referee.deadlines import DeadlineRules

REFEREE_ONLY = "referee-only"
PLAYER_JOINS = "player-joins"


#: a seat's name (``schemas/game.schema.json``); it names files: ``views/NAME``, the player's record of
#: the turns they saw
PLAYER_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
#: a game id (the schema's pattern); it names the player's record file too
GAME_ID = re.compile(r"[0-9a-f]{16}")
#: a scenario's name (the schema's pattern): a game loads the scenario of that name from pbem's own files, and
#: some loaders take a path too, which game.toml must never give them
SCENARIO_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


class Handover(NamedTuple):
    """A seat handed to a new key by the referee: ``key`` holds ``player``'s seat from turn ``turn`` on."""

    player: str
    turn: int
    key: PublicKey
    previous: PublicKey


#: the members of a :class:`GameFile`, in the order its constructor takes them
_MEMBERS = ("game_id", "game", "scenario", "players", "referee", "game_recipient", "commitment", "options", "cards",
            "test_seed", "entropy", "setup", "deadlines", "handovers")


class GameFile(Immutable):
    """The parsed ``game.toml``.

    Immutable, and equal to another of the same members; :meth:`replace`
    makes a changed copy. A plain class rather than a frozen dataclass,
    whose definition cost more when a command starts than the command's use
    of it (docs/performance.md, "Records without dataclasses").
    """

    __slots__ = ("_hash", "cards", "commitment", "deadlines", "entropy", "game", "game_id", "game_recipient",
                 "handovers", "options", "players", "referee", "scenario", "setup", "test_seed")
    _key = _MEMBERS
    game_id: str
    game: str
    scenario: str
    players: tuple[tuple[str, PublicKey], ...]
    referee: PublicKey
    game_recipient: str
    commitment: str
    options: dict[str, Any]
    cards: dict[str, str] | None
    test_seed: bytes | None
    #: ``referee-only`` (the deal happens at ``new``) or ``player-joins``
    #: (the deal waits for every player's signed join file and its nonce)
    entropy: str
    #: ``sha256:`` of the canonical JSON of the scenario as set up (card data and options
    #: included): the deal and the replay refuse scenario data that differs
    setup: str | None
    #: the ``[deadlines]`` table, or ``None``: a game without deadlines, whose turns record no time
    deadlines: dict[str, Any] | None
    #: not part of ``game.toml``: the seat records in force, in turn order (:mod:`pbem.referee.seats`)
    handovers: tuple[Handover, ...]
    #: :meth:`hash`, once computed
    _hash: str

    def __init__(self, game_id: str, game: str, scenario: str, players: tuple[tuple[str, PublicKey], ...],
                 referee: PublicKey, game_recipient: str, commitment: str, options: dict[str, Any] | None = None,
                 cards: dict[str, str] | None = None, test_seed: bytes | None = None, entropy: str = REFEREE_ONLY,
                 setup: str | None = None, deadlines: dict[str, Any] | None = None,
                 handovers: tuple[Handover, ...] = ()) -> None:
        values = (game_id, game, scenario, players, referee, game_recipient, commitment,
                  {} if options is None else options, cards, test_seed, entropy, setup, deadlines, handovers)
        self._set(**dict(zip(_MEMBERS, values, strict=True)))

    __hash__ = None  # type: ignore[assignment]  # equal by members, some of them dicts: unhashable, as they are

    def __reduce__(self) -> "tuple[type[GameFile], tuple[Any, ...]]":
        return GameFile, self._members()

    def replace(self, **changes: Any) -> "GameFile":
        """This ``game.toml`` with the members named changed (as :func:`dataclasses.replace`)."""
        return GameFile(**{**{member: getattr(self, member) for member in _MEMBERS}, **changes})

    @property
    def player_names(self) -> list[str]:
        return [name for name, _ in self.players]

    def player_key(self, name: str) -> PublicKey | None:
        """The key that holds ``name``'s seat now: the latest handover's, else the one in ``game.toml``."""
        for handover in reversed(self.handovers):
            if handover.player == name:
                return handover.key
        for seat, key in self.players:
            if seat == name:
                return key
        return None

    @property
    def seat_keys(self) -> list[tuple[str, PublicKey]]:
        """Every seat in order with the key that holds it now (sections are sealed to these)."""
        return [(name, self.player_key(name)) for name, _ in self.players]  # type: ignore[misc]

    def handovers_of(self, name: str) -> list[Handover]:
        return [h for h in self.handovers if h.player == name]

    def with_handover(self, handover: Handover) -> "GameFile":
        """The same ``game.toml`` with one more seat record in force."""
        return self.replace(handovers=(*self.handovers, handover))

    @property
    def deadline_rules(self) -> "DeadlineRules | None":
        from pbem.referee.deadlines import DeadlineRules  # a game with deadlines: tick, submit

        return DeadlineRules.from_doc(self.deadlines) if self.deadlines is not None else None

    def to_doc(self) -> dict[str, Any]:
        """The document as TOML parses it (what the schema describes and the hash covers)."""
        rng: dict[str, Any] = {"commitment": self.commitment, "entropy": self.entropy}
        if self.test_seed is not None:
            rng["test_seed"] = True
            rng["seed"] = self.test_seed.hex()
        doc: dict[str, Any] = {
            "format": formats.GAME,
            "game_id": self.game_id,
            "game": self.game,
            "scenario": self.scenario,
            "options": dict(self.options),
            "players": [{"name": name, "key": key.to_json()} for name, key in self.players],
            "referee": {"key": self.referee.to_json()},
            "game_recipient": self.game_recipient,
            "rng": rng,
        }
        if self.cards is not None:
            doc["cards"] = dict(self.cards)
        if self.setup is not None:
            doc["setup"] = self.setup
        if self.deadlines is not None:
            doc["deadlines"] = dict(self.deadlines)
        return doc

    @property
    def waits_for_joins(self) -> bool:
        return self.entropy == PLAYER_JOINS

    def to_toml(self) -> bytes:
        import tomli_w  # writing game.toml: new, takeover

        return tomli_w.dumps(self.to_doc()).encode("utf-8")

    def hash(self) -> str:
        """The hash every turn names. Memoised on this object, which is immutable
        and lives for one command (each command reads ``game.toml`` afresh)."""
        try:
            return self._hash
        except AttributeError:
            object.__setattr__(self, "_hash", document_hash(self.to_doc()))
            return self._hash

    @classmethod
    def from_doc(cls, doc: Any, where: str = "game.toml", schema: bool = True) -> "GameFile":
        """The ``game.toml`` that TOML parsed as ``doc``, checked against its schema and every key checked.

        ``schema=False``: the schema check is left out when the document is
        exactly what :meth:`to_doc` rebuilds from the fields read (nothing
        more, nothing less), for a caller that then checks a record the
        referee signed against :meth:`hash` (see :meth:`read`). Anything
        else is checked against the schema, whose message says what is wrong.
        """
        if not schema:
            try:
                found = cls._fields(doc, where)
                # the names are file names on the player's machine too: whoever signed the turns,
                # a game id, scenario or seat name that the schema refuses is never taken unchecked
                if found.to_doc() == doc and GAME_ID.fullmatch(found.game_id) and SCENARIO_NAME.fullmatch(
                        found.scenario) and all(PLAYER_NAME.fullmatch(name) for name in found.player_names):
                    return found
            except Exception:  # not the shape of a game.toml, or a bad key: the checks below say why
                pass
        problem = formats.format_problem(doc, formats.GAME)
        if problem:
            raise GameDirError(f"{where}: {problem}")
        return cls._fields(doc, where)

    @classmethod
    def _fields(cls, doc: Any, where: str) -> "GameFile":
        try:
            players = tuple((p["name"], PublicKey.from_json(p["key"])) for p in doc["players"])
            referee = PublicKey.from_json(doc["referee"]["key"])
        except Exception as error:  # a key table that the key format refuses
            raise GameDirError(f"{where}: bad public key: {error}") from error
        seed = doc["rng"].get("seed")
        return cls(
            game_id=doc["game_id"],
            game=doc["game"],
            scenario=doc["scenario"],
            players=players,
            referee=referee,
            game_recipient=doc["game_recipient"],
            commitment=doc["rng"]["commitment"],
            options=dict(doc["options"]),
            cards=dict(doc["cards"]) if "cards" in doc else None,
            test_seed=bytes.fromhex(seed) if seed is not None else None,
            entropy=doc["rng"]["entropy"],
            setup=doc.get("setup"),
            deadlines=dict(doc["deadlines"]) if "deadlines" in doc else None,
        )

    @classmethod
    def read(cls, path: Path, schema: bool = True) -> "GameFile":
        """Read and check ``game.toml``. The file is read every time; what its bytes
        give (parsed, checked, every key checked) is kept for the process.

        ``schema=False`` is for a caller that goes on to check the current
        turn, which names the hash of the ``game.toml`` the referee signed it
        for (:func:`~pbem.referee.records.check_turn`): a file with that hash
        holds exactly what the referee checked when it created the game, so
        it is not checked against the schema again (see :meth:`from_doc`).
        That spares ``pbem status``, ``view`` and ``move`` the JSON Schema
        library altogether.
        """
        try:
            data = read_file(path)
        except FileNotFoundError:
            raise GameDirError(f"{path}: no game.toml here; is this a pbem game directory?") from None
        found, checked = _READ.get(data, (None, False))
        if found is None or (schema and not checked):
            try:
                doc = tomllib.loads(data.decode("utf-8"))
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
                raise GameDirError(f"{path}: not valid TOML: {error}") from error
            except RecursionError:  # tomllib recurses once per nested array or table
                raise GameDirError(f"{path}: not valid TOML: nested deeper than a game.toml goes") from None
            found = cls.from_doc(doc, str(path), schema=schema)
            if len(_READ) >= _READ_KEPT:
                _READ.clear()
            _READ[data] = (found, schema)
        return found


#: the game.toml files read in this process, by their bytes (a GameFile is immutable),
#: and whether each was checked against the schema
_READ: dict[bytes, tuple[GameFile, bool]] = {}
_READ_KEPT = 64


def check_referee_key(gamefile: GameFile, referee_key: "PrivateKey") -> None:
    """The referee's private key is the one ``game.toml`` names (:class:`KeyMismatch` if not)."""
    if referee_key.public.fingerprint != gamefile.referee.fingerprint:
        raise KeyMismatch(
            f"this is not the referee key of game {gamefile.game_id} "
            f"(game.toml names {gamefile.referee.fingerprint}, the key is {referee_key.public.fingerprint})"
        )
