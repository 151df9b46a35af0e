"""Where the shipped data lives: JSON Schemas and scenarios.

A wheel carries them in ``pbem/_data/``; a source checkout or editable
install reads them from the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the directory ``schemas`` or ``scenarios``."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"pbem data directory {name!r} is missing from this installation")


def schema_path(name: str) -> Path:
    """Path of ``schemas/NAME.schema.json``."""
    return data_dir("schemas") / f"{name}.schema.json"


def scenario_dir(game: str) -> Path:
    """Directory of the scenarios and card sets of one game."""
    return data_dir("scenarios") / game
