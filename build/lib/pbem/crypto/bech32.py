"""Bech32 (BIP 173), as age uses it for ``age1…`` recipients and ``AGE-SECRET-KEY-1…`` identities.

age uses the original Bech32 checksum (not Bech32m) and lifts BIP 173's
90-character limit. A string must be all lower case or all upper case.
"""

from __future__ import annotations

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_GENERATOR = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)


class Bech32Error(ValueError):
    """A string is not valid Bech32."""


def _polymod(values: list[int]) -> int:
    chk = 1
    for value in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ value
        for i in range(5):
            if (top >> i) & 1:
                chk ^= _GENERATOR[i]
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
    if any(ord(c) < 33 or ord(c) > 126 for c in text):
        raise Bech32Error("invalid character in Bech32 string")
    pos = text.rfind("1")
    if pos < 1 or pos + 7 > len(text):
        raise Bech32Error("Bech32 separator misplaced")
    hrp, rest = text[:pos], text[pos + 1 :].lower()
    try:
        values = [CHARSET.index(c) for c in rest]
    except ValueError:
        raise Bech32Error("invalid data character in Bech32 string") from None
    if _polymod(_hrp_expand(hrp.lower()) + values) != 1:
        raise Bech32Error("invalid Bech32 checksum")
    return hrp, bytes(_convert_bits(values[:-6], 5, 8, False))
