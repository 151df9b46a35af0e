"""The deterministic random generator every game draws from.

A game never imports :mod:`random`. The referee hands each step a
:class:`Rng` keyed by the game's committed seed, the players' entropy and
the step number (see :func:`step_rng`); tests and bots key one from a plain
seed. The output for a key is fixed by this module's algorithm, not by the
Python version, and is pinned by golden values in ``tests/engine``.

Algorithm (``pbem-rng-v1``): an HMAC-SHA256 counter-mode stream. Block *i*
of the stream for purpose ``label`` is ``HMAC-SHA256(key, "pbem-rng-v1" ||
0x00 || label || 0x00 || i as 8 bytes big-endian)``. Integers below *n* are
drawn by rejection sampling from the smallest number of whole bytes that
covers *n*, so every value is exactly equally likely. Each label has its own
stream and counter, so a draw for one purpose never shifts another.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from pbem.digests import hmac_sha256_context, sha256

if TYPE_CHECKING:  # pragma: no cover
    from cryptography.hazmat.primitives.hmac import HMAC

T = TypeVar("T")

ALGORITHM = "pbem-rng-v1"
_PREFIX = ALGORITHM.encode() + b"\x00"
#: the mask of a draw below n, for n up to 256 (one byte a try): the bits of the smallest width that covers n
_BYTE_MASKS = [0, 0] + [(1 << (n - 1).bit_length()) - 1 for n in range(2, 257)]
#: a label's stream before its first draw: its counter and unread bytes
_NEW_STREAM: tuple[int, bytes] = (0, b"")


class Rng:
    """A replayable stream of random numbers, keyed by 32 bytes."""

    __slots__ = ("_key", "_mac", "_streams")

    def __init__(self, key: bytes) -> None:
        if not isinstance(key, (bytes, bytearray)) or len(key) < 16:
            raise ValueError("an Rng key must be at least 16 bytes")
        #: the key, or what makes it at the first draw (:meth:`keyed_later`)
        self._key: bytes | Callable[[], bytes] = bytes(key)
        # the HMAC context keyed once, at the first draw, and copied for each block: keying costs more than a
        # block's HMAC itself (pbem.digests)
        self._mac: HMAC | None = None
        # label -> (counter, unread bytes)
        self._streams: dict[str, tuple[int, bytes]] = {}

    def __getstate__(self) -> tuple[bytes, dict[str, tuple[int, bytes]]]:
        """The key and the streams, for :mod:`copy` and :mod:`pickle`: the keyed HMAC context, which neither
        can copy, is made again at the next draw."""
        return self._key_bytes(), self._streams

    def __setstate__(self, state: tuple[bytes, dict[str, tuple[int, bytes]]]) -> None:
        self._key, self._streams = state
        self._mac = None

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> Rng:
        """An Rng for tests, bots and simulations, from any small seed."""
        if isinstance(seed, int):
            seed = seed.to_bytes(16, "big", signed=True)
        elif isinstance(seed, str):
            seed = seed.encode()
        return cls(sha256(b"pbem-seed\x00" + seed))

    @classmethod
    def keyed_later(cls, make_key: Callable[[], bytes]) -> Rng:
        """An Rng keyed by what ``make_key()`` returns (at least 16 bytes), called at the first draw only:
        most steps of a game draw nothing, and each step has its own generator, whose key is an HMAC."""
        rng = cls.__new__(cls)
        rng._key, rng._mac, rng._streams = make_key, None, {}
        return rng

    def _key_bytes(self) -> bytes:
        key = self._key
        if not isinstance(key, bytes):
            key = self._key = key()
        return key

    def _bytes(self, count: int, label: str) -> bytes:
        counter, buffer = self._streams.get(label, _NEW_STREAM)
        if len(buffer) < count:
            counter, buffer = self._extend(label, counter, buffer, count)
        self._streams[label] = (counter, buffer[count:])
        return buffer[:count]

    def _extend(self, label: str, counter: int, buffer: bytes, count: int) -> tuple[int, bytes]:
        """The stream of ``label`` (its counter and unread bytes) extended by its next blocks to ``count`` bytes."""
        keyed = self._mac
        if keyed is None:
            keyed = self._mac = hmac_sha256_context(self._key_bytes())
        head = _PREFIX + label.encode() + b"\x00"
        while len(buffer) < count:
            mac = keyed.copy()
            mac.update(head + counter.to_bytes(8, "big"))
            buffer += mac.finalize()
            counter += 1
        return counter, buffer

    def randbelow(self, n: int, label: str = "") -> int:
        """A uniformly random integer in ``range(n)``."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        if n <= 256:
            # one byte a try, as nearly every draw of a game is: the byte _bytes(1, label) would give, read in
            # place, under the mask of the smallest width that covers n, as a game draws some thousand times
            mask = _BYTE_MASKS[n]
            streams = self._streams
            while True:
                counter, buffer = streams.get(label, _NEW_STREAM)
                if not buffer:
                    counter, buffer = self._extend(label, counter, buffer, 1)
                streams[label] = (counter, buffer[1:])
                value = buffer[0] & mask
                if value < n:
                    return value
        width = (n - 1).bit_length()
        nbytes = (width + 7) // 8
        mask = (1 << width) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes, label), "big") & mask
            if value < n:
                return value

    def randint(self, low: int, high: int, label: str = "") -> int:
        """A uniformly random integer with ``low <= x <= high``."""
        return low + self.randbelow(high - low + 1, label)

    def choice(self, items: Sequence[T], label: str = "") -> T:
        """One item of a non-empty sequence, uniformly."""
        return items[self.randbelow(len(items), label)]

    def shuffle(self, items: MutableSequence[T], label: str = "") -> None:
        """Shuffle in place (Fisher-Yates, from the last position down)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1, label)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T], label: str = "") -> list[T]:
        """A shuffled copy."""
        copy = list(items)
        self.shuffle(copy, label)
        return copy

    def token(self, nbytes: int = 16, label: str = "token") -> bytes:
        """Raw random bytes (salts for commitments, nonces)."""
        return self._bytes(nbytes, label)


def step_rng(seed: bytes, entropy: Sequence[bytes], step: int) -> Rng:
    """The generator for one referee step.

    Keyed by the secret seed, every player's entropy (in seat order) and the
    step number, so that nobody who lacks the seed can predict a draw and the
    referee, committed to the seed before the entropy arrives, cannot steer one.
    """
    return StepRngs(seed).rng(entropy, step)


_new_rng = object.__new__


class StepRngs:
    """The generators of many steps of one game (:func:`step_rng`), for a caller that runs them all (a bot's
    playout): the HMAC context is keyed with the seed once and copied for each step, as keying it costs
    more than the step's own HMAC (:mod:`pbem.digests`), and only for a step that draws: copying it costs
    more than the rest of a step that draws nothing, as most do."""

    __slots__ = ("_keyed",)

    def __init__(self, seed: bytes) -> None:
        # keyed with the seed and fed the message's first part, which every step shares
        self._keyed = hmac_sha256_context(seed)
        self._keyed.update(b"pbem-step\x00")

    def rng(self, entropy: Sequence[bytes], step: int) -> Rng:
        """:func:`step_rng` ``(seed, entropy, step)``, keyed at its first draw."""
        # Rng.keyed_later inline: a playout makes one generator a step
        rng = _new_rng(Rng)
        rng._key, rng._mac, rng._streams = partial(self._key, tuple(entropy), step), None, {}
        return rng

    def _key(self, entropy: tuple[bytes, ...], step: int) -> bytes:
        """The key of the generator of one step: HMAC-SHA256 of the step's entropy and number under the seed."""
        h = self._keyed.copy()
        for part in entropy:
            h.update(len(part).to_bytes(4, "big") + part)
        h.update(step.to_bytes(8, "big"))
        return h.finalize()
