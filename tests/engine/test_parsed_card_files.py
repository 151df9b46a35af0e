"""A trusted card or options file is read from its parsed copy, which gives exactly what parsing its TOML gives.

``pbem view`` reads the game's card data on every run; Python's TOML parser
took 6 ms for Nightfall's and 19 ms for Nightlancer's. The parsed form
beside each (``cards.toml.json``) is used only for a trusted file (a game's
data folder) and only when it was made from the file's very bytes, so that
the card data, and the set-up hash ``game.toml`` pins it by, are what the
TOML says. That every game's copies are up to date is the conformance
suite's (``tests/conformance/test_game_data.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.engine import scenario_files
from pbem.engine.scenario_files import parsed_form, read_toml


def _exact(value: object) -> str:
    """JSON text that tells 1 from 1.0 and from true, as Python's == does not."""
    return json.dumps(value, sort_keys=True)


def _shipped_here(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(scenario_files, "is_shipped", lambda where: Path(where).is_relative_to(tmp_path))
    path = tmp_path / "cards.toml"
    path.write_text('format = "x"\ncount = 1\n')
    return path


def test_the_parsed_form_of_these_very_bytes_is_what_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = _shipped_here(monkeypatch, tmp_path)
    form = parsed_form(path.read_bytes())
    form["data"]["marker"] = "from the parsed form"  # so that the test sees which was read
    path.with_name("cards.toml.json").write_text(json.dumps(form))
    assert read_toml(path, "card file")["marker"] == "from the parsed form"


def test_a_card_file_edited_since_its_parsed_form_is_read_as_toml(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    path = _shipped_here(monkeypatch, tmp_path)
    stale = parsed_form(path.read_bytes())
    path.write_text('format = "x"\ncount = 2\n')
    path.with_name("cards.toml.json").write_text(json.dumps(stale))
    assert read_toml(path, "card file") == {"format": "x", "count": 2}


def test_a_parsed_form_beside_a_file_not_shipped_is_ignored(tmp_path: Path) -> None:
    """An owner's card file is kept in the game directory, which players may write to (play by git)."""
    path = tmp_path / "cards.toml"
    path.write_text('format = "x"\n')
    planted = parsed_form(path.read_bytes())
    planted["data"]["format"] = "planted"
    path.with_name("cards.toml.json").write_text(json.dumps(planted))
    assert read_toml(path, "card file") == {"format": "x"}


def test_a_card_file_not_in_utf_8_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_bytes(b'format = "\xff"\n')
    with pytest.raises(scenario_files.ScenarioError, match="cannot read card file"):
        read_toml(path, "card file")
