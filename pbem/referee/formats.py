"""The file formats of a game directory: their version strings and schemas.

Every document carries ``format`` (``pbem-turn/3`` and so on). A reader
checks the version first, so that a file from a newer pbem is refused with a
message that says so rather than a list of schema complaints.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from pbem.crypto.canonical import is_plain
from pbem.resources import schema_path

if TYPE_CHECKING:  # pragma: no cover
    import jsonschema
    from referencing import Registry

GAME = "pbem-game/1"
TURN = "pbem-turn/3"
MOVE = "pbem-move/1"
CHOICES = "pbem-choices/2"
VIEW = "pbem-view/1"
PLAYER_VIEW = "pbem-player-view/3"
REFEREE = "pbem-referee/3"
REJECTION = "pbem-rejection/2"
JOIN = "pbem-join/3"
PENDING = "pbem-pending/1"
SEED = "pbem-seed/1"
REVEAL = "pbem-reveal/1"
SEEN = "pbem-seen/2"
#: the record of the turns shown before it named the ones it could not check yet (read, never written)
SEEN_V1 = "pbem-seen/1"
JOIN_RECORD = "pbem-join-record/1"
TIMEOUT = "pbem-timeout/1"
SEAT = "pbem-seat/1"
HEAD = "pbem-head/1"
UNDO_CONSENT = "pbem-undo-consent/1"
ROLLBACK = "pbem-rollback/1"
COPY = "pbem-copy/1"
REQUEST = "pbem-request/1"
CLI_STATUS = "pbem-cli-status/2"
CLI_VIEW = "pbem-cli-view/3"
CLI_SUBMIT = "pbem-cli-submit/1"
CLI_VERIFY = "pbem-cli-verify/2"
CLI_PROVE = "pbem-cli-prove/1"
CLI_ERROR = "pbem-cli-error/1"
CLI_GAMES = "pbem-cli-games/1"
CLI_TICK = "pbem-cli-tick/1"
#: the referee's mail loop's own records, in its state directory (docs/mail.md)
MAIL_SET_ASIDE = "pbem-mail-set-aside/1"
MAIL_ANSWERS = "pbem-mail-answers/1"

#: the key of the referee's own section in a turn's ``sealed`` map (the players' are their names, which
#: may never be ``referee``)
REFEREE_SECTION = "referee"
#: the members of a move (``pbem-move/1``) that its sealed choices (``pbem-choices/2``) repeat, binding them to
#: that very move: anyone can copy a move's opaque ``sealed_choices`` into another, and the referee refuses a
#: payload that names another move
CHOICES_BINDING = ("game_id", "player", "turn", "base")

#: format string -> schema name under ``schemas/``
SCHEMAS: dict[str, str] = {
    GAME: "game",
    TURN: "turn",
    MOVE: "move",
    CHOICES: "choices",
    VIEW: "view",
    PLAYER_VIEW: "player-view",
    REFEREE: "referee-section",
    REJECTION: "rejection",
    JOIN: "join",
    PENDING: "pending",
    SEED: "seed-section",
    REVEAL: "reveal",
    SEEN: "seen",
    JOIN_RECORD: "join-record",
    TIMEOUT: "timeout",
    SEAT: "seat",
    HEAD: "head",
    UNDO_CONSENT: "undo-consent",
    ROLLBACK: "rollback",
    COPY: "copy",
    REQUEST: "request",
    CLI_STATUS: "cli-status",
    CLI_VIEW: "cli-view",
    CLI_SUBMIT: "cli-submit",
    CLI_VERIFY: "cli-verify",
    CLI_PROVE: "cli-prove",
    CLI_ERROR: "cli-error",
    CLI_GAMES: "cli-games",
    CLI_TICK: "cli-tick",
    MAIL_SET_ASIDE: "mail-set-aside",
    MAIL_ANSWERS: "mail-answers",
}


#: the formats checked on the way of ``pbem move`` and ``pbem submit``: a document of these that
#: :func:`~pbem.schema_subset.satisfies` its schema is valid without importing jsonschema, which
#: gives the verdict (and the message) for every other document
QUICK_FORMATS = frozenset({MOVE, CHOICES})

#: the ``$id`` of every shipped schema is this prefix and its name (``schemas/NAME.schema.json``)
SCHEMA_ID_PREFIX = "urn:pbem:schema:"


@cache
def _registry() -> Registry:
    """The shipped schemas under their ``$id``, so that ``$ref`` between them resolves offline.

    A schema is read when a ``$ref`` first names it. jsonschema is imported
    here, when a document is first checked, not with this module: a command
    that checks no document against a schema never imports it.
    """
    from referencing import Registry, Resource
    from referencing.exceptions import NoSuchResource
    from referencing.jsonschema import DRAFT202012

    def retrieve(uri: str) -> Resource:
        schema = _shipped_schema(uri)
        if schema is False:
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # an attrs class mypy's attrs plugin does not see
        return Resource.from_contents(schema, default_specification=DRAFT202012)

    return Registry(retrieve=retrieve)  # type: ignore[call-arg]


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    from pbem.schemas import validator

    return validator(_schema(name), registry=_registry())


@cache
def _schema(name: str) -> Any:
    with open(schema_path(name), encoding="utf-8") as handle:
        return json.load(handle)


def _shipped_schema(uri: str) -> Any:
    """The shipped schema whose ``$id`` is ``uri`` (``False``, which nothing satisfies, for another)."""
    name = uri.removeprefix(SCHEMA_ID_PREFIX)
    if not uri.startswith(SCHEMA_ID_PREFIX) or not schema_path(name).is_file():
        return False
    return _schema(name)


#: the longest piece of a document a problem's message quotes
QUOTE_MAX = 60


def _quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "..."


def format_problem(doc: Any, expected: str, quote: bool = True) -> str | None:
    """Why ``doc`` is not a document of format ``expected``, or ``None``.

    The version is checked before the schema, so that an unknown version
    gives one clear sentence. With ``quote=False`` the message quotes
    nothing of ``doc``, not even a member's name: it names the schema rule
    that fails and where it sits in the schema. That is the form for a
    sealed payload, whose content is its sender's secret while the message
    goes into a public rejection notice.
    """
    if not isinstance(doc, dict):
        return f"expected a JSON object of format {expected!r}, found {type(doc).__name__}"
    found = doc.get("format")
    if found != expected:
        family = expected.rsplit("/", 1)[0]
        if isinstance(found, str) and found.startswith(family + "/"):
            version = f" {_quoted(found)}" if quote else ""
            return f"unknown format version{version}: this pbem reads {expected!r}"
        return f"not a {expected!r} document" + (f" (format is {_quoted(found)})" if quote else "")
    if expected in QUICK_FORMATS:
        from pbem.schema_subset import compiled  # move and submit only

        if compiled(_schema(SCHEMAS[expected]), _shipped_schema)(doc):
            return None
    errors = sorted(_validator(SCHEMAS[expected]).iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        error = errors[0]
        if not quote:
            rule = "/".join(str(part) for part in error.relative_schema_path)
            return f"{expected} schema: the rule {rule} fails"
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
        return f"{expected} schema: at {where}: {message}"
    return None


def part_problem(doc: Any, name: str) -> str | None:
    """Why ``doc`` is not valid under the shipped schema ``schemas/NAME.schema.json`` of a part of a format
    (``standing-orders``, which has no version of its own), or ``None``."""
    errors = sorted(_validator(name).iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if not errors:
        return None
    error = errors[0]
    where = "/".join(str(part) for part in error.absolute_path) or "(top)"
    message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
    return f"{name} schema: at {where}: {message}"


def is_valid(doc: Any, expected: str) -> bool:
    return format_problem(doc, expected) is None


def signed_format_problem(doc: Any, expected: str, plain: bool | None = None) -> str | None:
    """:func:`format_problem` for a document the referee's signature covers (checked by the caller).

    The signature says who wrote the document, not that it is of its schema:
    a player's pbem reads files signed by a referee it need not trust to
    write only what pbem writes (a referee's bug, or its key in other
    hands), and must refuse a file it cannot read rather than fail on it. So
    the document is checked against its schema as any other is, by the
    quick check (:mod:`pbem.schema_subset`), which decides what the referee
    writes without jsonschema, in some tens of microseconds for a turn of
    Nightfall. A document it is not sure of, or one that is not plain (``1.0``
    where ``1`` was signed, which has the same canonical form, or a float in
    a member of any content), goes to :func:`format_problem` for the verdict
    and the message. ``plain`` is ``is_plain(doc)``, if the caller has found it.
    """
    if isinstance(doc, dict) and doc.get("format") == expected and (is_plain(doc) if plain is None else plain):
        from pbem.schema_subset import compiled

        if compiled(_schema(SCHEMAS[expected]), _shipped_schema)(doc):
            return None
    return format_problem(doc, expected)
