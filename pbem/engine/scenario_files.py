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


#: what a shipped TOML file's parsed form beside it is named: ``cards.toml`` -> ``cards.toml.json``
PARSED_SUFFIX = ".json"
#: the shipped files that have a parsed form: the card data and the option declarations, which every
#: ``pbem view`` and every step read (Nightfall's options took 1 ms to parse as TOML, 0.04 ms as JSON)
PARSED_NAMES = ("cards.toml", "options.toml")


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Parse the TOML file ``path`` (``what`` says what it is, for the message).

    A shipped card or options file is read from its parsed form (:func:`parsed_form`)
    when that was made from these very bytes: Python's TOML parser is pure
    Python and takes several milliseconds for a card file, the C JSON
    parser a fraction of one, for the same data.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {error}") from error
    parsed = _parsed_form_of(path, data)
    if parsed is not None:
        return parsed
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
    none (:class:`TypeError` from :mod:`json`). Written ahead of time for
    :data:`PARSED_NAMES` (:func:`write_parsed_forms`); the tests check that
    each is up to date.
    """
    return {"toml_sha256": sha256_hex(data), "data": tomllib.loads(data.decode("utf-8"))}


def write_parsed_forms() -> list[Path]:
    """(Re)write the parsed form beside every shipped file of :data:`PARSED_NAMES`; the paths written."""
    written = []
    for path in sorted(data_dir("scenarios").rglob("*.toml")):
        if path.name in PARSED_NAMES:
            twin = path.with_name(path.name + PARSED_SUFFIX)
            twin.write_text(json.dumps(parsed_form(path.read_bytes()), ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")
            written.append(twin)
    return written


def _parsed_form_of(path: Path, data: bytes) -> dict[str, Any] | None:
    """The data of ``path``'s parsed form, if it is a shipped file with one made from ``data``; else ``None``.

    Only a shipped file's: a game directory (where an owner's card file is
    kept) may come from players, who could put a parsed form beside it.
    """
    if path.name not in PARSED_NAMES or not is_shipped(path):
        return None
    try:
        with open(path.with_name(path.name + PARSED_SUFFIX), encoding="utf-8") as handle:
            twin = json.load(handle)
    except FileNotFoundError:
        return None
    if twin.get("toml_sha256") != sha256_hex(data):
        return None  # a card file edited since: read as TOML (the tests ask for the form to be rewritten)
    return twin["data"]  # type: ignore[no-any-return]


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    from pbem.schemas import validator

    return validator(json.loads(schema_path(name).read_text(encoding="utf-8")))


def is_shipped(where: str | Path) -> bool:
    """Whether ``where`` is a scenario or card file shipped with pbem (its tests check each against its schema)."""
    try:
        return Path(where).resolve().is_relative_to(_shipped_scenarios())
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
    """Validate ``data`` against ``schemas/SCHEMA.schema.json``; the message names the failing place.

    A file shipped with pbem is not checked at run time: the tests check
    every one (``tests/*/test_card_data.py``), and a game's ``game.toml``
    pins the data it was set up with by its hash. An owner's card file
    (``pbem new --cards``) is checked here.
    """
    if is_shipped(where):
        return
    import jsonschema

    error = jsonschema.exceptions.best_match(_validator(schema).iter_errors(data))
    if error is not None:
        location = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise ScenarioError(f"{where}: {location}: {error.message}")


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
