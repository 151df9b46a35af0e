"""Fuzzing the move-file reader and the referee pipeline (hypothesis, bounded for CI).

Properties: the strict reader raises nothing but ``MalformedError``; the
pipeline, given any bytes (random, JSON of any shape, mutated or re-signed
valid moves, join files), either applies the move or raises one of the
documented refusals (:data:`pbem.referee.errors.REFUSALS`) and then has changed
nothing but ``rejected/``. CI runs a few dozen examples per property; run
more with ``PBEM_FUZZ_EXAMPLES=5000 pytest tests/trust/test_fuzz_pipeline.py``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot
from helpers_trust import join, joining_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import MalformedError
from pbem.crypto.signing import sign_document
from pbem.referee import sealing, submit
from pbem.referee.errors import REFUSALS, Refusal
from pbem.referee.gamefile import GameFile
from pbem.referee.player import CHOICES_SIZE, choices_payload
from pbem.referee.storage import dump_json

EXAMPLES = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "30"))
#: the reader is fast; every pipeline example copies a game directory and runs a referee step
READER = settings(max_examples=8 * EXAMPLES, deadline=None, derandomize=True)
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                derandomize=True)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1) | st.text(max_size=20)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Table:
    return make_table(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(scope="module")
def moved(tmp_path_factory) -> Table:
    """A game at turn 1: alice has picked, bob's pick still answers turn 0 (his decision opened there)."""
    table = make_table(tmp_path_factory.mktemp("fuzz-moved"))
    submit(table.dir, table.move("alice", f"card-{table.view('alice').private['hand'][0]}"), table.referee)
    return table


@pytest.fixture(scope="module")
def joining(tmp_path_factory) -> Table:
    table = joining_table(tmp_path_factory.mktemp("fuzz-join"))
    submit(table.dir, join(table, "alice"), table.referee)
    return table


def only_documented_refusals(template: Table, data: bytes) -> None:
    """Submit ``data`` to a fresh copy of the game: applied, or a documented refusal that changed nothing."""
    with tempfile.TemporaryDirectory() as scratch:
        game = Path(scratch) / "game"
        shutil.copytree(template.dir, game)
        before = snapshot(game)
        try:
            submit(game, data, template.referee, wait=0)
        except Refusal as refusal:
            assert type(refusal) in REFUSALS
            assert snapshot(game) == before


def valid_move(template: Table) -> dict:
    return json.loads(template.move("alice", f"card-{template.view('alice').private['hand'][0]}"))


@READER
@given(st.binary(max_size=2000))
def test_the_strict_reader_raises_nothing_but_malformed(data: bytes) -> None:
    with contextlib.suppress(MalformedError):
        parse_json_strict(data, max_bytes=1 << 20, max_depth=64)


@READER
@given(st.text(alphabet="[]{}\":,0123456789.eE+-truefalsn \\u", max_size=300))
def test_the_strict_reader_survives_json_shaped_garbage(text: str) -> None:
    with contextlib.suppress(MalformedError):
        parse_json_strict(text.encode(), max_bytes=1 << 20, max_depth=64)


@FAST
@given(st.binary(max_size=600))
def test_any_bytes_are_applied_or_refused(template: Table, data: bytes) -> None:
    only_documented_refusals(template, data)


@FAST
@given(json_values)
def test_any_json_document_is_refused(template: Table, value) -> None:
    only_documented_refusals(template, json.dumps(value).encode())


@FAST
@given(st.data())
def test_a_valid_move_with_one_field_replaced_is_refused(template: Table, data) -> None:
    doc = valid_move(template)
    field = data.draw(st.sampled_from(sorted(doc)))
    doc[field] = data.draw(json_values)
    only_documented_refusals(template, dump_json(doc))


@FAST
@given(st.data())
def test_a_valid_move_with_one_field_replaced_and_signed_again_is_applied_or_refused(moved: Table, data) -> None:
    """Past the signature, any value in any field (``"turn": 0.0`` keeps the canonical form of 0)."""
    doc = json.loads(moved.move("bob", f"card-{moved.view('bob').private['hand'][0]}"))
    doc["turn"] = 0  # the turn bob's open decision opened at, older than the current one
    field = data.draw(st.sampled_from(sorted(set(doc) - {"signature", "player"})))
    doc[field] = data.draw(json_values | st.sampled_from([0.0, 1.0, -0.0, True, False, 1e300, 2**53 + 1.0]))
    del doc["signature"]
    only_documented_refusals(moved, dump_json(sign_document(doc, moved.keys["bob"])))


@FAST
@given(st.data())
def test_a_valid_move_with_bytes_flipped_is_applied_or_refused(template: Table, data) -> None:
    raw = bytearray(template.move("alice", f"card-{template.view('alice').private['hand'][0]}"))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] ^= data.draw(st.integers(1, 255))
    only_documented_refusals(template, bytes(raw))


@FAST
@given(choices=st.lists(st.text(max_size=30), max_size=5), orders=st.none() | json_values)
def test_signed_moves_with_any_sealed_payload_are_applied_or_refused(template: Table, choices, orders) -> None:
    """Past the signature: the sealed payload and the engine get arbitrary choices."""
    gamefile = GameFile.read(template.dir / "game.toml")
    doc = valid_move(template)
    payload = choices_payload(doc["game_id"], doc["player"], doc["turn"], doc["base"], choices)
    if orders is not None:
        payload["standing_orders"] = orders
    doc["sealed_choices"] = sealing.seal_json(payload, [gamefile.game_recipient], None, CHOICES_SIZE)
    del doc["signature"]
    only_documented_refusals(template, dump_json(sign_document(doc, template.keys["alice"])))


@FAST
@given(st.data())
def test_join_files_with_a_field_replaced_are_applied_or_refused(joining: Table, data) -> None:
    doc = json.loads(join(joining, "bob"))
    field = data.draw(st.sampled_from(sorted(doc)))
    doc[field] = data.draw(json_values | st.text(alphabet="0123456789abcdef", min_size=64, max_size=64))
    if data.draw(st.booleans()):
        del doc["signature"]
        doc = sign_document(doc, joining.keys["bob"]) if isinstance(doc.get("player"), str) else doc
    only_documented_refusals(joining, dump_json(doc))
