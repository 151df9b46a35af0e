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

from pbem.engine.errors import ScenarioError
from pbem.resources import data_dir, schema_path

if TYPE_CHECKING:  # pragma: no cover
    import jsonschema


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """Parse the TOML file ``path`` (``what`` says what it is, for the message)."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ScenarioError(f"cannot read {what} {str(path)!r}: {error}") from error


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    from pbem.schemas import validator

    return validator(json.loads(schema_path(name).read_text(encoding="utf-8")))


def is_shipped(where: str | Path) -> bool:
    """Whether ``where`` is a scenario or card file shipped with pbem (its tests check each against its schema)."""
    try:
        return Path(where).resolve().is_relative_to(data_dir("scenarios").resolve())
    except (OSError, ValueError):
        return False


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
