"""A schema ``pattern`` is an ECMA-262 regular expression: its ``$`` is the end of the text.

Python's ``re`` also lets ``$`` match before a line feed that ends the
text, so ``^[a-z0-9][a-z0-9_-]{0,31}$`` would take ``"ann\\n"`` for a
player's name. Both of pbem's schema checks (jsonschema through
:mod:`pbem.schemas`, and the quick check of moves and choices,
:mod:`pbem.schema_subset`) read patterns as JSON Schema means them.
"""

from __future__ import annotations

import json

import pytest

from pbem.patterns import compile_pattern
from pbem.referee import formats
from pbem.resources import schema_path
from pbem.schema_subset import satisfies
from pbem.schemas import validator

_MOVE = {"format": formats.MOVE, "game_id": "0123456789abcdef", "player": "ann", "turn": 3,
         "base": "sha256:" + "0" * 64, "sealed_choices": "-----BEGIN AGE ENCRYPTED FILE-----\nabc\n",
         "signature": {"alg": "ed25519", "signer": "ann", "value": "c2ln"}}


@pytest.mark.parametrize("member", ["player", "game_id", "base"])
def test_a_move_whose_name_ends_with_a_line_feed_is_refused_by_its_schema(member: str) -> None:
    assert formats.format_problem(_MOVE, formats.MOVE) is None
    doc = {**_MOVE, member: f"{_MOVE[member]}\n"}
    assert formats.format_problem(doc, formats.MOVE) == (
        f"pbem-move/1 schema: at {member}: {doc[member]!r} does not match "
        f"{json.loads(schema_path('move').read_text())['properties'][member]['pattern']!r}")


@pytest.mark.parametrize(("pattern", "text"), [("^[a-z]+$", "ann"), ("[a-z]$", "1b"), ("^(x|b$)", "b")])
def test_dollar_matches_only_at_the_end_of_the_text(pattern: str, text: str) -> None:
    schema = {"pattern": pattern}
    for check in (lambda text: validator(schema).is_valid(text),
                  lambda text: satisfies(schema, text, lambda uri: False)):
        assert check(text)
        assert not check(text + "\n")


def test_a_dollar_escaped_or_in_a_character_class_is_the_character() -> None:
    pattern = compile_pattern(r"^[$]\$[\]$]\\$")
    assert pattern.search("$$$\\") and pattern.search("$$]\\")
    assert not pattern.search("$$$\\\n")
    assert compile_pattern("^a$|^b$").search("b") and not compile_pattern("^a$|^b$").search("a\n")


def test_every_shipped_pattern_is_read_as_it_is_written_but_for_the_end() -> None:
    """Nothing else changes: in each shipped pattern every ``$`` ends the text and nothing else is rewritten."""
    patterns = set()

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for name, value in node.items():
                if name == "pattern" and isinstance(value, str):
                    patterns.add(value)
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for path in schema_path("move").parent.glob("*.schema.json"):
        collect(json.loads(path.read_text()))
    assert len(patterns) > 15
    for pattern in patterns:
        assert compile_pattern(pattern).pattern == pattern.replace("$", r"\Z")
