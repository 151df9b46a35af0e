"""What the commands print, made safe for a terminal.

Text a command prints comes in part from a game directory that others
wrote: labels and card names from the referee's files, messages that quote
a file, notices. A control character in it would reach the player's
terminal as a command of its own (``ESC [ 2 J`` clears the screen, a
carriage return overwrites a line, a bidirectional override reorders what
follows), so every one is printed as its escape, ``\\u001b``, instead.
Line breaks and tabs are kept. Inside a JSON document the escape is JSON's
own, so printed JSON stays the same document. A lone surrogate (what
Python makes of a byte of a file name or an argument that is not UTF-8)
is written as its escape too: no terminal could be given it.
"""

from __future__ import annotations

from functools import cache

import typer

#: C0 controls but tab and line feed, DEL, C1 controls, the bidirectional embeddings, overrides and
#: isolates (U+202A-U+202E, U+2066-U+2069), and the surrogates (U+D800-U+DFFF), which no text can hold
_UNSAFE = [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A),
           *range(0xD800, 0xE000)]


@cache
def _escapes() -> dict[int, str]:
    return {code: f"\\u{code:04x}" for code in _UNSAFE}


def terminal_safe(text: str) -> str:
    """``text`` with every control character written as its escape (see the module docstring)."""
    return text.translate(_escapes())


def say(message: str = "", err: bool = False) -> None:
    """Print one line of a command's output (to stderr with ``err``), made :func:`terminal_safe`."""
    typer.echo(terminal_safe(message), err=err)
