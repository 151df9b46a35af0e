"""The value classes that replace frozen dataclasses keep their promises: set once, equal and hashed
by the members that make them, shown by them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.crypto.keys import generate
from pbem.referee.layout import GameDir
from pbem.referee.turns import StaticMembers


def test_a_game_directory_is_equal_to_another_of_the_same_root_and_cannot_change() -> None:
    here, again, other = GameDir.at("/tmp/a"), GameDir(Path("/tmp/a")), GameDir.at("/tmp/b")
    assert here == again and hash(here) == hash(again) and here != other
    assert repr(here) == "GameDir(root=PosixPath('/tmp/a'))"
    with pytest.raises(AttributeError, match="immutable"):
        here.root = Path("/tmp/b")  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del here.root


def test_a_public_key_is_equal_by_name_key_and_recipient_not_by_what_is_derived_from_them() -> None:
    key = generate("alice").public
    copy = type(key)(key.name, key.ed25519, key.recipient)
    assert copy == key and hash(copy) == hash(key) and copy is not key
    assert repr(key).startswith("PublicKey(name='alice', ed25519=")
    assert "fingerprint" not in repr(key)
    with pytest.raises(AttributeError, match="immutable"):
        key.name = "mallory"  # type: ignore[misc]


def test_static_members_are_equal_by_their_canonical_json_and_never_equal_another_class() -> None:
    one, two = StaticMembers(b'{"a":1}'), StaticMembers(b'{"a":1}')
    assert one == two and hash(one) == hash(two) and one != StaticMembers(b'{"a":2}')
    assert one != GameDir.at("/tmp/a") and one != (b'{"a":1}',)
