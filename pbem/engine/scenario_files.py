"""Reading a game's TOML files (scenarios and card data) as plain data.

Owners hand pbem their own card files (``pbem new --cards FILE``), so every
way such a file can be wrong — missing, not TOML, not the game's format —
is a :class:`~pbem.engine.errors.ScenarioError` naming the file and the place.
"""

from __future__ import annotations

import json
import tomllib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.digests import sha256_hex
from pbem.engine.errors import ScenarioError
from pbem.resources import data_dir, schema_path

if TYPE_CHECKING:  # pragma: no cover
    import jsonschema


#: what a trusted TOML file's parsed copy beside it is named: ``cards.toml`` -> ``cards.toml.json``
PARSED_SUFFIX = ".json"
#: the files read through a parsed copy whoever reads them: the card data and the option declarations, which
#: every ``pbem view`` and every step read (Nightfall's options took 1 ms to parse as TOML, 0.04 ms as JSON);
#: a game's card file of another name is read through its copy by :class:`pbem.engine.gamedata.GameData`
PARSED_NAMES = ("cards.toml", "options.toml")


def read_toml(path: str | Path, what: str, *, parsed: bool = False) -> dict[str, Any]:
    """Parse the TOML file ``path`` (``what`` says what it is, for the message).

    A trusted card or options file (``parsed``, or named as in
    :data:`PARSED_NAMES`) is read from its parsed copy (:func:`parsed_form`)
    when that was made from these very bytes: Python's TOML parser is pure
    Python and takes several milliseconds for a card file, the C JSON
    parser a fraction of one, for the same data.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {error}") from error
    parsed_copy = _parsed_form_of(path, data) if parsed or path.name in PARSED_NAMES else None
    if parsed_copy is not None:
        return parsed_copy
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {error}") from error
    except RecursionError:  # tomllib recurses once per nested array or table (an owner's card file)
        raise ScenarioError(f"cannot read {what} {str(path)!r}: nested too deep") from None


def parsed_form(data: bytes) -> dict[str, Any]:
    """The parsed form of the TOML ``data``: its SHA-256 and what :mod:`tomllib` makes of it.

    JSON keeps every value a card file holds (strings, integers, floats,
    booleans, arrays, tables) as it is; a file with a TOML date or time has
    none (:class:`TypeError` from :mod:`json`). Written ahead of time beside
    each file a game reads through it (:func:`write_parsed_form`, ``pbem kit
    data --write``); the conformance tests check that each is up to date.
    """
    return {"toml_sha256": sha256_hex(data), "data": tomllib.loads(data.decode("utf-8"))}


def parsed_copy_of(path: Path) -> Path:
    """Where the parsed copy of ``path`` is kept: beside it (``cards.toml`` -> ``cards.toml.json``)."""
    return path.with_name(path.name + PARSED_SUFFIX)


def write_parsed_form(path: Path) -> Path:
    """(Re)write the parsed copy beside ``path``; the path written."""
    copy = parsed_copy_of(path)
    copy.write_text(json.dumps(parsed_form(path.read_bytes()), ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")
    return copy


def _parsed_form_of(path: Path, data: bytes) -> dict[str, Any] | None:
    """The data of ``path``'s parsed copy, if it is a trusted file with one made from ``data``; else ``None``.

    Only a trusted file's (:func:`is_shipped`): a game directory (where an
    owner's card file is kept) may come from players, who could put a
    parsed copy beside it.
    """
    if not is_shipped(path):
        return None
    try:
        with open(parsed_copy_of(path), encoding="utf-8") as handle:
            twin = json.load(handle)
    except FileNotFoundError:
        return None
    if twin.get("toml_sha256") != sha256_hex(data):
        return None  # a card file edited since: read as TOML (the tests ask for the copy to be written again)
    return twin["data"]  # type: ignore[no-any-return]


@cache
def _validator(schema: str) -> jsonschema.protocols.Validator:
    from pbem.schemas import validator

    path = Path(schema) if schema.endswith(".json") else schema_path(schema)
    return validator(json.loads(path.read_text(encoding="utf-8")))


#: the folders of trusted data besides pbem's own ``scenarios/``, resolved: the data a game's code names
#: (:class:`pbem.engine.gamedata.GameData`)
_TRUSTED: list[Path] = []


def trust(folder: Path) -> None:
    """Trust ``folder`` as pbem's shipped scenarios are trusted: the data folder a game's code names (never a
    game directory, which players may write to)."""
    resolved = Path(folder).resolve()
    if not resolved.is_relative_to(_shipped_scenarios()) and resolved not in _TRUSTED:
        _TRUSTED.append(resolved)


def is_shipped(where: str | Path) -> bool:
    """Whether ``where`` is a file of pbem's shipped scenarios, or of a game's trusted data folder
    (:func:`trust`): the conformance tests check each against its schema."""
    try:
        resolved = Path(where).resolve()
        return resolved.is_relative_to(_shipped_scenarios()) or any(resolved.is_relative_to(f) for f in _TRUSTED)
    except (OSError, ValueError):
        return False


@cache
def _shipped_scenarios() -> Path:
    """The shipped scenarios' directory, resolved: where pbem is installed does not change while it runs,
    and a step asks for each file it reads."""
    return data_dir("scenarios").resolve()


def check_format(data: Any, expected: str, where: str, since: str) -> None:
    """Refuse a file of another version of its format than ``expected``, saying what changed (``since``).

    Its schema would refuse it too, at some member deep inside; a file
    written for an older pbem deserves the reason instead.
    """
    found = data.get("format") if isinstance(data, dict) else None
    if isinstance(found, str) and found != expected:
        raise ScenarioError(f"{where}: a {found} file; this pbem reads {expected} ({since})")


def check_schema(data: Any, schema: str, where: str) -> None:
    """Validate ``data`` against ``schemas/SCHEMA.schema.json`` (or the schema file ``schema``, a path
    ending in ``.json``); the message names the failing place.

    A trusted file (:func:`is_shipped`) is not checked at run time: the
    conformance tests check every one, and a game's ``game.toml`` pins the
    data it was set up with by its hash. An owner's card file (``pbem new
    --cards``) is checked here.
    """
    if is_shipped(where):
        return
    problem = schema_problem(data, schema)
    if problem is not None:
        raise ScenarioError(f"{where}: {problem}")


def schema_problem(data: Any, schema: str) -> str | None:
    """What is wrong with ``data`` by the schema ``schema`` (as :func:`check_schema` names it), at which place;
    ``None`` when nothing is. Whatever the file, trusted or not: for the tests and ``pbem kit data``."""
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(schema).iter_errors(data))
    if error is None:
        return None
    return f"{'/'.join(str(p) for p in error.absolute_path) or '(top level)'}: {error.message}"


@cache
def scenario_names(directory: Path, scenario_format: str) -> tuple[str, ...]:
    """The scenarios a game ships in ``directory``: every ``*.toml`` of the
    game's scenario format that is not a worked example (``example = true``),
    in the order the files give (``order``; the first is the standard set-up)."""
    listed: list[tuple[int, str]] = []
    for path in sorted(Path(directory).glob("*.toml")):
        data = read_toml(path, "scenario")
        if data.get("format") == scenario_format and not data.get("example", False):
            listed.append((data.get("order", 0), data["name"]))
    if not listed:
        raise ScenarioError(f"no {scenario_format} scenario in {directory}")
    return tuple(name for _, name in sorted(listed, key=lambda item: (item[0] == 0, item)))
