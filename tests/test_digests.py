"""pbem.digests gives hashlib's and hmac's very digests, from cryptography's primitives."""

from __future__ import annotations

import copy
import hashlib
import hmac
import pickle
import random

import pytest

from pbem import digests
from pbem.engine.rng import Rng, step_rng

#: lengths around SHA-256's and SHA-512's block sizes (64 and 128 bytes), HMAC keys longer than a block (which
#: HMAC hashes first) among them, and a message of several blocks
LENGTHS = [0, 1, 31, 32, 33, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 1000, 70_000]


def random_inputs(label: str, count: int = 200) -> list[bytes]:
    rng = random.Random(label)  # the inputs only: the digests are checked against hashlib's, not pinned
    return [rng.randbytes(length) for length in LENGTHS] + [rng.randbytes(rng.randrange(300)) for _ in range(count)]


def test_sha256_and_its_hex_are_hashlibs() -> None:
    for data in random_inputs("sha256"):
        assert digests.sha256(data) == hashlib.sha256(data).digest()
        assert digests.sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_sha256_of_one_input_does_not_touch_the_next() -> None:
    """Each digest copies the one empty context: hashing ``a`` then ``b`` gives SHA-256(b), not SHA-256(a || b)."""
    first, second = b"first", b"second"
    digests.sha256(first)
    assert digests.sha256(second) == hashlib.sha256(second).digest()
    assert digests.sha256_hex(second) == hashlib.sha256(second).hexdigest()


def test_sha512_is_hashlibs() -> None:
    for data in random_inputs("sha512"):
        assert digests.sha512(data) == hashlib.sha512(data).digest()


def test_hmac_sha256_is_hmacs() -> None:
    keys = random_inputs("hmac keys", count=50)
    for key, data in zip(keys, random_inputs("hmac data", count=50), strict=True):
        expected = hmac.new(key, data, hashlib.sha256).digest()
        assert digests.hmac_sha256(key, data) == expected
        context = digests.hmac_sha256_context(key)
        context.update(data)
        assert context.finalize() == expected


def test_a_keyed_context_copied_per_message_gives_each_messages_hmac() -> None:
    """The random generator keys one context and copies it per block: the copies do not share their input."""
    key = bytes(range(32))
    keyed = digests.hmac_sha256_context(key)
    for data in random_inputs("copies", count=20):
        mac = keyed.copy()
        mac.update(data)
        assert mac.finalize() == hmac.new(key, data, hashlib.sha256).digest()


def test_hmac_sha256_matches_only_the_right_mac() -> None:
    rng = random.Random("matches")
    for _ in range(100):
        key, data = rng.randbytes(32), rng.randbytes(rng.randrange(200))
        mac = hmac.new(key, data, hashlib.sha256).digest()
        assert digests.hmac_sha256_matches(key, data, mac)
        flipped = bytearray(mac)
        flipped[rng.randrange(len(mac))] ^= 1 << rng.randrange(8)
        assert not digests.hmac_sha256_matches(key, data, bytes(flipped))
        assert not digests.hmac_sha256_matches(key, data, mac[:-1])  # a shorter MAC, even of the right prefix
        assert not digests.hmac_sha256_matches(key, data, mac + b"\x00")
        assert not digests.hmac_sha256_matches(key, data, b"")


@pytest.mark.parametrize("label", ["", "deal", "shuffle:deck", "ünïcode"])
def test_rng_blocks_are_the_hmacs_its_docstring_states(label: str) -> None:
    """pbem-rng-v1 block i is HMAC-SHA256(key, "pbem-rng-v1" 0 label 0 i), whatever computes it."""
    key = hashlib.sha256(label.encode()).digest()
    expected = b"".join(
        hmac.new(key, b"pbem-rng-v1\x00" + label.encode() + b"\x00" + i.to_bytes(8, "big"), hashlib.sha256).digest()
        for i in range(5)
    )
    rng = Rng(key)
    drawn = rng.token(7, label) + rng.token(32, label) + rng.token(1, label) + rng.token(120, label)
    assert drawn == expected[: len(drawn)]


def test_step_rng_key_and_from_seed_are_the_hmacs_and_hashes_they_state() -> None:
    seed, entropy, step = bytes(range(32)), [b"alice's", b"", b"cyd" * 30], 41
    mac = hmac.new(seed, b"pbem-step\x00", hashlib.sha256)
    for part in entropy:
        mac.update(len(part).to_bytes(4, "big") + part)
    mac.update(step.to_bytes(8, "big"))
    assert step_rng(seed, entropy, step).token(64) == Rng(mac.digest()).token(64)
    assert Rng.from_seed("x").token(16) == Rng(hashlib.sha256(b"pbem-seed\x00x").digest()).token(16)


def test_an_rng_that_has_drawn_still_copies_and_pickles_and_goes_on_alike() -> None:
    """The keyed HMAC context an Rng keeps cannot be pickled; a copy or a pickle carries the key and the streams."""
    rng = Rng.from_seed("copies")
    rng.randbelow(1000, "deal")
    twins = [copy.deepcopy(rng), pickle.loads(pickle.dumps(rng))]
    expected = [rng.randbelow(1000, "deal") for _ in range(40)] + [rng.randbelow(7, "other")]
    for twin in twins:
        assert [twin.randbelow(1000, "deal") for _ in range(40)] + [twin.randbelow(7, "other")] == expected


def test_a_step_rng_copies_and_pickles_before_and_after_its_first_draw() -> None:
    """A step's generator takes its key from the HMAC at its first draw; a copy or a pickle made before that
    carries the key all the same."""
    seed = b"\x05" * 32
    expected = step_rng(seed, [b"n"], 3).token(64)
    fresh = step_rng(seed, [b"n"], 3)
    for twin in (copy.deepcopy(fresh), pickle.loads(pickle.dumps(fresh))):
        assert twin.token(64) == expected
    assert fresh.token(64) == expected
