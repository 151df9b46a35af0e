"""Sealed sections: JSON encrypted with age to chosen recipients."""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from pbem.crypto import age
from pbem.crypto.errors import SealError
from pbem.crypto.keys import generate, load_private_key
from pbem.crypto.seal import open_sealed, seal
from pbem.engine.rng import Rng

ALICE, BOB, REFEREE = generate("alice"), generate("bob"), generate("referee")
HAND = {"hand": ["Bloodline", "Feed"], "deck": 31}


def stream(label: str):
    rng = Rng(hashlib.sha256(label.encode()).digest())
    return lambda n: rng.token(n, label="seal")


def test_each_recipient_opens_the_section():
    text = seal(HAND, [ALICE.public, REFEREE.public])
    assert text.startswith("-----BEGIN AGE ENCRYPTED FILE-----\n")
    assert text.endswith("-----END AGE ENCRYPTED FILE-----\n")
    assert open_sealed(text, ALICE) == HAND
    assert open_sealed(text, REFEREE) == HAND


def test_a_wrong_key_cannot_open_anothers_seal():
    text = seal(HAND, [ALICE.public])
    with pytest.raises(SealError, match="no identity matched"):
        open_sealed(text, BOB)


def test_tampered_sealed_text_fails():
    text = seal(HAND, [ALICE.public])
    lines = text.splitlines(keepends=True)
    for index in range(1, len(lines) - 1):
        line = lines[index]
        for position in (0, len(line) // 2, len(line) - 3):
            flipped = "B" if line[position] == "A" else "A"
            tampered = "".join(lines[:index]) + line[:position] + flipped + line[position + 1 :] + "".join(lines[index + 1 :])
            with pytest.raises(SealError):
                open_sealed(tampered, ALICE)


def test_a_truncated_seal_fails():
    text = seal({"big": "x" * 5000}, [ALICE.public])
    lines = text.splitlines(keepends=True)
    with pytest.raises(SealError):
        open_sealed("".join(lines[:-3] + lines[-1:]), ALICE)


def test_sealing_the_same_value_with_the_same_stream_gives_the_same_text():
    first = seal(HAND, [ALICE.public, REFEREE.public], rng=stream("turn 7 alice"))
    again = seal(HAND, [ALICE.public, REFEREE.public], rng=stream("turn 7 alice"))
    assert first == again
    assert open_sealed(first, ALICE) == HAND


def test_different_streams_or_no_stream_give_different_texts():
    base = seal(HAND, [ALICE.public], rng=stream("turn 7 alice"))
    assert seal(HAND, [ALICE.public], rng=stream("turn 8 alice")) != base
    assert seal(HAND, [ALICE.public]) != seal(HAND, [ALICE.public])


def test_deterministic_output_is_pinned():
    """Golden value: the same stream and value give these exact bytes in every version."""
    key = age.X25519Identity(bytes(range(32)))
    text = age.encrypt(b'{"a":1}', [str(key.recipient)], rng=stream("golden"))
    assert hashlib.sha256(text).hexdigest() == GOLDEN_SHA256
    assert age.decrypt(text, [key]) == b'{"a":1}'


GOLDEN_SHA256 = "15407dcebdd20cee914aeddac2fd03fe8277da0df1cc57cb3afe33f22502800b"


def test_the_plaintext_is_the_canonical_json():
    text = seal({"b": 1, "a": 2.0}, [ALICE.public])
    assert age.decrypt(text.encode(), [ALICE]) == b'{"a":2,"b":1}'


def test_a_section_that_is_not_json_fails_to_open():
    text = age.encrypt(b"not json", [ALICE.public.recipient]).decode()
    with pytest.raises(SealError, match="valid JSON"):
        open_sealed(text, ALICE)


def test_a_seal_needs_a_recipient_and_a_json_value():
    with pytest.raises(SealError):
        seal(HAND, [])
    with pytest.raises(SealError):
        seal({"x": float("nan")}, [ALICE.public])


def test_an_openssh_key_holder_opens_their_section(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "dora", "-f", str(path)], check=True)
    dora = load_private_key(path)
    text = seal(HAND, [dora.public, REFEREE.public], rng=stream("dora"))
    assert open_sealed(text, dora) == HAND
    with pytest.raises(SealError):
        open_sealed(text, ALICE)
