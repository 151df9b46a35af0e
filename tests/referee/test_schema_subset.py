"""The quick schema check of ``pbem move`` and ``pbem submit`` gives jsonschema's verdicts.

:func:`pbem.schema_subset.satisfies` says "valid" for a move file or a
choices payload without importing jsonschema; on any other answer the
reader asks jsonschema. It must never say "valid" where jsonschema (Draft
2020-12, exact integers) says invalid, and for the schemas it serves it
should decide every document itself, or the commands import jsonschema after
all. Checked over the documents of real games, the hostile corpus, and
documents generated around valid ones.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.bots.random_bot import RandomBot
from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.crypto.keys import generate
from pbem.engine.rng import Rng
from pbem.referee import formats, new_game, submit
from pbem.referee.demo import bot_move
from pbem.resources import schema_path
from pbem.schema_subset import compiled, satisfies
from pbem.schemas import validator

CORPUS = Path(__file__).parents[1] / "trust" / "corpus"


def _jsonschema_says(doc: Any, fmt: str) -> bool:
    return validator(formats._schema(formats.SCHEMAS[fmt]), registry=formats._registry()).is_valid(doc)


def _quick_says(doc: Any, fmt: str) -> bool:
    return satisfies(formats._schema(formats.SCHEMAS[fmt]), doc, formats._shipped_schema)


def _same_verdict(doc: Any, fmt: str) -> None:
    assert _quick_says(doc, fmt) == _jsonschema_says(doc, fmt), (fmt, doc)


@pytest.fixture(scope="module")
def real_documents(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Any, str]]:
    """Every move file and choices payload checked while random bots play Nightfall and Nightlancer."""
    seen: list[tuple[Any, str]] = []
    original = formats.format_problem

    def spy(doc: Any, expected: str, quote: bool = True) -> str | None:
        if expected in formats.QUICK_FORMATS:
            seen.append((json.loads(json.dumps(doc)), expected))
        return original(doc, expected, quote)

    patch = pytest.MonkeyPatch()
    patch.setattr(formats, "format_problem", spy)
    try:
        for game, players in [("nightfall", 3), ("nightlancer", 2)]:
            names = ["ann", "bob", "cyd"][:players]
            keys = {name: generate(name) for name in ["referee", *names]}
            directory = tmp_path_factory.mktemp(game) / "game"
            new_game(directory, game, [(p, keys[p].public) for p in names], keys["referee"], seed=bytes([7]) * 32)
            bots = {p: RandomBot(Rng.from_seed(f"subset-{p}")) for p in names}
            for _ in range(12):
                made = bot_move(directory, keys, bots)
                if made is None:
                    break
                submit(directory, made.data, keys["referee"])
    finally:
        patch.undo()
    return seen


def test_real_moves_and_choices_are_valid_for_both(real_documents: list[tuple[Any, str]]) -> None:
    """A game's own documents take the quick way: no jsonschema import on the way of move and submit."""
    assert {fmt for _, fmt in real_documents} == formats.QUICK_FORMATS
    for doc, fmt in real_documents:
        assert _quick_says(doc, fmt) and _jsonschema_says(doc, fmt), (fmt, doc)


@pytest.mark.parametrize("path", sorted(p for p in CORPUS.iterdir() if p.suffix in (".json", ".txt")),
                         ids=lambda p: p.name)
@pytest.mark.parametrize("fmt", sorted(formats.QUICK_FORMATS))
def test_the_hostile_corpus_gets_jsonschemas_verdict(path: Path, fmt: str) -> None:
    try:
        doc = parse_json_strict(path.read_bytes())
    except CryptoError:
        doc = None  # unreadable: checked as JSON null, which neither schema admits
    _same_verdict(doc, fmt)
    if isinstance(doc, dict):
        _same_verdict({**doc, "format": fmt}, fmt)


#: values of every JSON kind and the edges of the schemas' rules (patterns, bounds, the integer rule)
_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, -1.0, 2.5, 1e300]),
    st.integers(-(2 ** 60), 2 ** 60),
    st.sampled_from(["", "ann", "referee", "Referee", "a" * 32, "a" * 33, "0123456789abcdef", "0123456789abcdef\n",
                     "0123456789ABCDEF", "sha256:" + "a" * 64, "sha256:" + "a" * 63, "ed25519", "pbem-move/1",
                     "pbem-choices/2", "pbem-choices/1", "-----BEGIN AGE ENCRYPTED FILE-----\nxyz", "always",
                     "when-only-option", "off", "on", "link", "Link", "x" * 64, "x" * 65, "a b", "é", "1"]),
    st.text(max_size=8),
)
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                       max_leaves=6)

_MOVE = {"format": formats.MOVE, "game_id": "0123456789abcdef", "player": "ann", "turn": 3,
         "base": "sha256:" + "0" * 64, "sealed_choices": "-----BEGIN AGE ENCRYPTED FILE-----\nabc\n",
         "signature": {"alg": "ed25519", "signer": "ann", "value": "c2ln"}}
_CHOICES = {"format": formats.CHOICES, "game_id": "0123456789abcdef", "player": "ann", "turn": 3,
            "base": "sha256:" + "0" * 64, "choices": ["pass"]}


def _orders() -> st.SearchStrategy[Any]:
    kinds = st.one_of(st.sampled_from(["link", "kill-choice", "a", "A", "1x", "a" * 32, "a" * 33, ""]), st.text(max_size=4))
    modes = st.one_of(st.sampled_from(["always", "when-only-option", "off"]), _SCALARS)
    auto_pass = st.one_of(st.dictionaries(kinds, modes, max_size=4),
                          st.dictionaries(st.sampled_from([f"k{i}" for i in range(30)]), st.just("off"),
                                          min_size=22, max_size=26),
                          _VALUES)
    return st.one_of(st.fixed_dictionaries({}, optional={"auto_pass": auto_pass}),
                     st.dictionaries(st.sampled_from(["auto_pass", "other"]), auto_pass, max_size=2), _VALUES)


def _variants(base: dict[str, Any], extra: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """``base`` with members dropped, replaced by any value or an edge value, and members added."""
    fields = st.sampled_from(sorted(set(base) | set(extra) | {"extra"}))

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        doc = dict(base)
        for name, values in extra.items():
            if draw(st.booleans()):
                doc[name] = draw(values)
        for _ in range(draw(st.integers(0, 3))):
            name = draw(fields)
            action = draw(st.integers(0, 2))
            if action == 0:
                doc.pop(name, None)
            elif action == 1:
                doc[name] = draw(extra.get(name, _VALUES) if draw(st.booleans()) else _VALUES)
            else:
                doc[name] = draw(_SCALARS)
        return doc

    return st.one_of(build(), _VALUES)


_CHOICE_LISTS = st.one_of(
    st.lists(st.sampled_from(["pass", "1", "x" * 64, "x" * 65, "a b", "é", "", "~", "!"]), max_size=34),
    st.lists(st.just("pass"), min_size=31, max_size=34),
    st.just([]),
    st.lists(_SCALARS, max_size=3),
)
_SIGNATURES = st.fixed_dictionaries({}, optional={"alg": st.one_of(st.just("ed25519"), _SCALARS),
                                                  "signer": _SCALARS, "value": _SCALARS, "x": _SCALARS})


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variants(_MOVE, {"signature": _SIGNATURES}))
def test_generated_move_files_get_jsonschemas_verdict(doc: Any) -> None:
    _same_verdict(doc, formats.MOVE)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_variants(_CHOICES, {"choices": _CHOICE_LISTS, "standing_orders": _orders()}))
def test_generated_choices_get_jsonschemas_verdict(doc: Any) -> None:
    _same_verdict(doc, formats.CHOICES)


def test_an_integral_float_is_not_an_integer_for_the_quick_check() -> None:
    """The exact-integer rule of pbem.schemas: ``"turn": 3.0`` is refused, with jsonschema's message."""
    doc = {**_MOVE, "turn": 3.0}
    assert not _quick_says(doc, formats.MOVE)
    assert formats.format_problem(doc, formats.MOVE) == "pbem-move/1 schema: at turn: 3.0 is not of type 'integer'"


def test_a_keyword_the_quick_check_does_not_evaluate_is_left_to_jsonschema() -> None:
    """Not sure is not valid: a schema that gains a keyword stays checked in full."""
    schema = {"type": "string", "format": "date-time"}
    assert not satisfies(schema, "2026-01-01T00:00:00Z", lambda uri: False)
    assert not satisfies({"not": {"type": "string"}}, 1, lambda uri: False)
    assert not satisfies({"properties": {"a": {"uniqueItems": True}}}, {"a": [1, 1]}, lambda uri: False)


@pytest.mark.parametrize("name", ["move", "choices", "standing-orders"])
def test_the_quick_schemas_use_only_keywords_the_quick_check_evaluates(name: str) -> None:
    """So that a valid document never needs jsonschema (checked here for the keywords, above for documents)."""
    known = {"$schema", "$id", "title", "description", "$comment", "type", "const", "enum", "$ref", "not", "anyOf",
             "pattern", "minimum", "maximum", "items", "maxItems", "minItems", "required", "properties",
             "additionalProperties", "propertyNames", "maxProperties"}

    def keywords(schema: Any) -> set[str]:
        if not isinstance(schema, dict):
            return set()
        found = set(schema)
        for keyword, value in schema.items():
            if keyword == "properties":
                found |= set().union(*(keywords(v) for v in value.values()))
            elif keyword == "anyOf":
                found |= set().union(*(keywords(v) for v in value))
            elif keyword in ("not", "items", "additionalProperties", "propertyNames"):
                found |= keywords(value)
        return found

    assert keywords(json.loads(schema_path(name).read_text())) <= known


def test_checking_a_valid_move_and_its_choices_imports_no_jsonschema(real_documents: list[tuple[Any, str]]) -> None:
    """What the quick check is for: jsonschema and referencing cost more than the rest of the command."""
    docs = [[doc, fmt] for doc, fmt in real_documents[:20]]
    code = ("import json, sys; from pbem.referee import formats; "
            f"docs = json.loads({json.dumps(json.dumps(docs))}); "
            "assert all(formats.format_problem(d, f) is None for d, f in docs); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jsonschema', 'referencing')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


#: schemas in every form each keyword can take, well formed or not
_ODD_SCHEMAS = [
    True, False, {}, [], {"type": "string", "format": "date-time"}, {"not": {"type": "string"}}, {"not": {"const": 1}},
    {"not": {"const": [1]}}, {"type": "nothing"}, {"type": ["string"]}, {"const": {"a": 1}}, {"const": True},
    {"enum": [1, "a", None]}, {"enum": [1, [2]]}, {"enum": "a"}, {"anyOf": {}}, {"anyOf": [{"const": 1}, True]},
    {"pattern": "^a"}, {"pattern": 1}, {"pattern": "("}, {"minimum": 1, "maximum": 3}, {"minimum": "1"},
    {"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}, {"maxItems": "2"}, {"items": False},
    {"required": ["a"], "maxProperties": 1}, {"required": "a"}, {"maxProperties": 1.5},
    {"properties": {"a": {"type": "integer"}}, "additionalProperties": False},
    {"properties": ["a"]}, {"properties": ["a"], "additionalProperties": False},
    {"patternProperties": {"^a": True}, "additionalProperties": False},
    {"additionalProperties": {"type": "string"}}, {"propertyNames": {"pattern": "^[a-z]+$"}},
    {"uniqueItems": True}, {"$ref": "urn:pbem:schema:standing-orders"}, {"$ref": "urn:nowhere"}, {"$ref": 1},
    {"title": "only an annotation", "description": "x"},
    {"type": ["string", "null"]}, {"type": ["string", "nothing"]}, {"type": []}, {"minLength": 1, "maxLength": 1},
    {"maxLength": "1"}, {"oneOf": [{"type": "string"}, {"type": "null"}]},
    {"oneOf": [{"type": "number"}, {"type": "integer"}]}, {"oneOf": [{"const": 1}, {"const": 2}]},
    {"oneOf": [{"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}},
               {"type": "object", "required": ["a"], "properties": {"a": {"const": "y"}}}]},
    {"oneOf": [{"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}},
               {"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}}]},
]
#: instances of every JSON kind, the numbers equal across int and float among them
_ODD_INSTANCES: list[Any] = [None, True, False, 0, 1, 2, 3, 4, 1.0, 2.5, "", "a", "b", "é", [], [1], [1, 2, 3], ["a"], [[1]],
                  {}, {"a": 1}, {"a": "x"}, {"b": 1}, {"a": 1, "b": "c"}, {"A": 1}, {"standing_orders": {}},
                  {"auto_pass": {}}, "2026-01-01T00:00:00Z"]
#: the schemas above whose every keyword is one the quick check evaluates, in a form it evaluates
_DECIDED = [
    True, False, {}, {"not": {"const": 1}}, {"const": True}, {"enum": [1, "a", None]}, {"anyOf": {}},
    {"anyOf": [{"const": 1}, True]}, {"pattern": "^a"}, {"minimum": 1, "maximum": 3},
    {"items": {"type": "integer"}, "minItems": 1, "maxItems": 2}, {"items": False},
    {"required": ["a"], "maxProperties": 1}, {"properties": {"a": {"type": "integer"}}, "additionalProperties": False},
    {"additionalProperties": {"type": "string"}}, {"propertyNames": {"pattern": "^[a-z]+$"}},
    {"$ref": "urn:pbem:schema:standing-orders"}, {"title": "only an annotation", "description": "x"},
    {"type": ["string"]}, {"type": ["string", "null"]}, {"minLength": 1, "maxLength": 1},
    {"oneOf": [{"type": "string"}, {"type": "null"}]},
    {"oneOf": [{"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}},
               {"type": "object", "required": ["a"], "properties": {"a": {"const": "y"}}}]},
    {"type": []},  # no instance is valid: "not sure" is then the verdict
    {"oneOf": [{"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}},
               {"type": "object", "required": ["a"], "properties": {"a": {"const": "x"}}}]},
]


def _jsonschema_verdict(schema: Any, instance: Any) -> bool | str:
    """jsonschema's verdict, or the name of the error it raises on a schema it cannot use."""
    try:
        return validator(schema, registry=formats._registry()).is_valid(instance)
    except Exception as error:
        return type(error).__name__


@pytest.mark.parametrize("schema", _ODD_SCHEMAS, ids=repr)
def test_the_quick_check_never_says_valid_where_jsonschema_does_not(schema: Any) -> None:
    """"Valid" only where jsonschema says valid: any schema, any instance, and never an exception.

    A schema the quick check cannot read in full is "not sure" (``False``),
    which sends the document to jsonschema for its verdict and message.
    """
    for instance in _ODD_INSTANCES:
        if satisfies(schema, instance, formats._shipped_schema):
            assert _jsonschema_verdict(schema, instance) is True, (schema, instance)


@pytest.mark.parametrize("schema", _DECIDED, ids=repr)
def test_the_quick_check_decides_every_keyword_it_evaluates(schema: Any) -> None:
    """Where it reads every keyword, its verdict is jsonschema's both ways (``1.0`` equals ``1`` in ``const``)."""
    for instance in _ODD_INSTANCES:
        assert satisfies(schema, instance, formats._shipped_schema) == _jsonschema_verdict(schema, instance), (
            schema, instance)


@pytest.mark.parametrize("schema", [s for s in _ODD_SCHEMAS if s not in _DECIDED], ids=repr)
def test_a_keyword_in_a_form_the_quick_check_does_not_read_leaves_the_verdict_to_jsonschema(schema: Any) -> None:
    """Not sure, for some instance of the kind the keyword is about: never a guess either way."""
    verdicts = [satisfies(schema, instance, formats._shipped_schema) for instance in _ODD_INSTANCES]
    assert False in verdicts
    decided = {_jsonschema_verdict(schema, instance) for instance, verdict in zip(_ODD_INSTANCES, verdicts,
                                                                                  strict=True) if not verdict}
    assert decided - {False}, schema  # it said "not sure" where jsonschema says valid or cannot read the schema


def test_a_schema_is_compiled_once() -> None:
    schema = formats._schema(formats.SCHEMAS[formats.MOVE])
    assert compiled(schema, formats._shipped_schema) is compiled(schema, formats._shipped_schema)
