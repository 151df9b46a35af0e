"""What a command prints reaches a terminal: text from a game directory (labels, card names, notices,
messages that quote a file) must never carry control sequences to it (found by a red-team review).

A hostile referee or game directory could otherwise put ``ESC [ 2 J`` (clear the screen), a carriage
return that overwrites a line, or a bidirectional override into a label that ``pbem view`` prints, and
show the player something other than what the signed files say.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.cli.output import terminal_safe

CLI = Path(__file__).resolve().parents[2] / "pbem" / "cli"


@pytest.mark.parametrize("control", ["\x1b", "\r", "\x07", "\x08", "\x00", "\x7f", "\x9b", "\u202e", "\u2066"])
def test_a_control_character_is_shown_as_its_escape_never_sent(control):
    shown = terminal_safe(f"Bad Smoke{control}[2J")
    assert control not in shown
    assert shown == f"Bad Smoke\\u{ord(control):04x}[2J"


def test_line_breaks_tabs_and_letters_are_printed_as_they_are():
    text = "alice: \"Bad Smoke\" #1\n\tcost 2 — Ärger, 日本, 🂡"
    assert terminal_safe(text) == text


def test_json_output_stays_the_same_document():
    doc = {"label": "x\x1b[2J\x9b\u202ey", "n": 1}
    printed = terminal_safe(json.dumps(doc, ensure_ascii=False))
    assert json.loads(printed) == doc
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", printed)


def test_every_command_prints_through_the_filter():
    """No module of the CLI writes to the terminal but through :func:`pbem.cli.output.say`."""
    for path in CLI.glob("*.py"):
        if path.name == "output.py":
            continue
        source = path.read_text()
        assert not re.search(r"\btyper\.echo\(|\bprint\(|\bsys\.std(out|err)\.write\(", source), path.name
