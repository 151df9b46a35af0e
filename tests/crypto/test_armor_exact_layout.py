"""``dearmor_exact`` reads only armor laid out exactly as ``armor`` writes it (the replay's fast path).

Every line but the last holds 64 characters, the last 1 to 64, each ends
with one line feed; any other layout (which the line-by-line reader may
still accept, or refuse with a reason) is ``None`` here.
"""

from __future__ import annotations

import pytest

from pbem.crypto.armor import BEGIN, COLUMNS_PER_LINE, END, armor, dearmor_exact


@pytest.mark.parametrize("size", [1, 47, 48, 49, 95, 96, 97, 1000])
def test_armor_as_written_is_read_back(size):
    data = bytes(range(256)) * 4
    assert dearmor_exact(armor(data[:size])) == data[:size]


def _body(text: bytes) -> bytes:
    return text[len(BEGIN) + 1 : len(text) - len(END) - 1]


def _rewrap(body: bytes) -> bytes:
    return BEGIN + b"\n" + body + END + b"\n"


@pytest.mark.parametrize("change", [
    lambda body: body + b"\n",                                         # an empty last line
    lambda body: body[:-1],                                            # the last line feed missing
    lambda body: body[:COLUMNS_PER_LINE] + body[COLUMNS_PER_LINE + 1:],  # two lines joined
    lambda body: body[:10] + b"\n" + body[10:],                        # a short first line
    lambda body: body.replace(b"\n", b"\r\n"),                         # CRLF
    lambda body: body[:-1] + b"\n\n",                                  # a blank line before the end
    lambda body: b"",                                                  # nothing inside
])
def test_armor_laid_out_otherwise_is_not_read(change):
    text = armor(bytes(range(200)))
    assert dearmor_exact(_rewrap(change(_body(text)))) is None
