"""The replayable generator ``pbem-rng-v1``: its outputs for a key are pinned,
so a change of algorithm (or of Python version) cannot silently change games."""

from __future__ import annotations

import pytest

from pbem.engine.rng import Rng, StepRngs, step_rng


def test_golden_draws_for_a_seed_are_pinned() -> None:
    rng = Rng.from_seed(1)
    assert [rng.randbelow(10) for _ in range(10)] == [9, 2, 9, 3, 3, 8, 4, 9, 5, 6]


def test_golden_shuffle_is_pinned() -> None:
    cards = list(range(10))
    Rng.from_seed("pbem").shuffle(cards)
    assert cards == [1, 4, 3, 8, 9, 7, 5, 2, 0, 6]


def test_golden_bytes_and_labelled_stream_are_pinned() -> None:
    rng = Rng(bytes(32))
    assert rng.token(8).hex() == "59de631648e3a929"
    assert [rng.randbelow(1000, "dice"), rng.randbelow(1000, "dice")] == [1, 614]


def test_each_label_is_its_own_stream() -> None:
    """A draw for one purpose never shifts the draws of another."""
    plain = Rng(bytes(32))
    interleaved = Rng(bytes(32))
    interleaved.randbelow(50, "deck")
    interleaved.token(5, "salt")
    assert [interleaved.randbelow(6, "dice") for _ in range(20)] == [plain.randbelow(6, "dice") for _ in range(20)]


def test_step_rng_is_keyed_by_seed_every_entropy_part_and_the_step() -> None:
    seed = b"\x01" * 32
    base = step_rng(seed, [b"a", b"bc"], 7).token(8).hex()
    assert base == "2afc954846aa4e6f"
    assert step_rng(seed, [b"a", b"bc"], 8).token(8).hex() != base
    assert step_rng(b"\x02" * 32, [b"a", b"bc"], 7).token(8).hex() != base
    # length-prefixed parts: moving a byte between two players' nonces changes the stream
    assert step_rng(seed, [b"ab", b"c"], 7).token(8).hex() != base
    assert step_rng(seed, [b"bc", b"a"], 7).token(8).hex() != base


def test_step_rngs_of_one_seed_give_each_step_what_step_rng_gives() -> None:
    """One keyed context serves every step: what one step feeds it never reaches another."""
    seed = b"\x01" * 32
    rngs = StepRngs(seed)
    steps = [(entropy, step) for step in (7, 0, 8, 7) for entropy in ([b"a", b"bc"], [], [b"ab", b"c"])]
    drawn = [rngs.rng(entropy, step).token(8).hex() for entropy, step in steps]
    assert drawn[0] == "2afc954846aa4e6f"
    assert drawn == [step_rng(seed, entropy, step).token(8).hex() for entropy, step in steps]


def test_randbelow_is_in_range_and_reaches_every_value() -> None:
    rng = Rng.from_seed("range")
    counts = [0] * 7
    for _ in range(7000):
        counts[rng.randbelow(7)] += 1
    # 1000 expected per value; a fixed seed makes this exact, the bound only documents it
    assert all(850 < c < 1150 for c in counts), counts
    assert rng.randbelow(1) == 0
    assert 3 <= rng.randint(3, 5) <= 5


def test_bad_keys_and_bounds_are_refused() -> None:
    with pytest.raises(ValueError):
        Rng(b"short")
    with pytest.raises(ValueError):
        Rng.from_seed(0).randbelow(0)
