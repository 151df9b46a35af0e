"""Bech32 (BIP 173), as age uses it for ``age1…`` recipients and ``AGE-SECRET-KEY-1…`` identities.

age uses the original Bech32 checksum (not Bech32m) and lifts BIP 173's
90-character limit. A string must be all lower case or all upper case.
"""

from __future__ import annotations

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
#: each character's value
_VALUES = {c: value for value, c in enumerate(CHARSET)}
_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


def _generators_of(top: int) -> int:
    """What BIP 173's checksum adds when the five bits ``top`` are shifted out: the generators of its set bits."""
    added = 0
    for bit, generator in enumerate(_GENERATOR):
        if top >> bit & 1:
            added ^= generator
    return added


_SHIFTED_OUT = tuple(_generators_of(top) for top in range(32))


class Bech32Error(ValueError):
    """A string is not valid Bech32."""


def _polymod(values: list[int]) -> int:
    """BIP 173's checksum polynomial, five bits a step, the generators of each step from a table (every
    command decodes the recipients of ``game.toml``'s keys)."""
    chk = 1
    for value in values:
        chk = (chk & 0x1FFFFFF) << 5 ^ value ^ _SHIFTED_OUT[chk >> 25]
    return chk


def _hrp_expand(hrp: str) -> list[int]:
    return [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]


def _convert_bits(data: bytes | list[int], from_bits: int, to_bits: int, pad: bool) -> list[int]:
    acc = bits = 0
    out: list[int] = []
    maxv = (1 << to_bits) - 1
    for value in data:
        acc = (acc << from_bits) | value
        bits += from_bits
        while bits >= to_bits:
            bits -= to_bits
            out.append((acc >> bits) & maxv)
    if pad:
        if bits:
            out.append((acc << (to_bits - bits)) & maxv)
    elif bits >= from_bits or (acc << (to_bits - bits)) & maxv:
        raise Bech32Error("invalid padding in Bech32 data")
    return out


def encode(hrp: str, data: bytes) -> str:
    """Bech32-encode ``data`` under human-readable part ``hrp``; upper case if ``hrp`` is."""
    lower = hrp.lower()
    values = _convert_bits(data, 8, 5, True)
    polymod = _polymod(_hrp_expand(lower) + values + [0] * 6) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    text = lower + "1" + "".join(CHARSET[v] for v in values + checksum)
    return text.upper() if hrp.isupper() else text


def decode(text: str) -> tuple[str, bytes]:
    """Return ``(hrp, data)``; the hrp keeps the case it was written in."""
    if text.lower() != text and text.upper() != text:
        raise Bech32Error("mixed case in Bech32 string")
    if not (text.isascii() and text.isprintable()) or " " in text:  # every character in 33-126
        raise Bech32Error("invalid character in Bech32 string")
    pos = text.rfind("1")
    if pos < 1 or pos + 7 > len(text):
        raise Bech32Error("Bech32 separator misplaced")
    hrp, rest = text[:pos], text[pos + 1 :].lower()
    try:
        values = [_VALUES[c] for c in rest]
    except KeyError:
        raise Bech32Error("invalid data character in Bech32 string") from None
    if _polymod(_hrp_expand(hrp.lower()) + values) != 1:
        raise Bech32Error("invalid Bech32 checksum")
    return hrp, bytes(_convert_bits(values[:-6], 5, 8, False))
