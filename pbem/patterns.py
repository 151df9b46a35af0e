"""JSON Schema patterns read as ECMA-262 reads them, where Python's ``re`` reads them otherwise.

A JSON Schema ``pattern`` is an ECMA-262 regular expression. Python's
``re`` reads pbem's patterns the same way but for ``$``: outside multiline
mode ECMA-262's ``$`` matches only at the end of the text, Python's also
before a line feed that ends it, so ``^[a-z0-9][a-z0-9_-]{0,31}$`` would
take ``"ann\\n"`` for a player's name. :func:`compile_pattern` turns each
``$`` that is an assertion (neither escaped nor inside a character class)
into ``\\Z``, Python's end of the text.
"""

from __future__ import annotations

import re
from functools import cache


@cache
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled with ECMA-262's ``$`` (:class:`re.error` for one Python cannot read)."""
    return re.compile(_end_of_text(pattern))


def _end_of_text(pattern: str) -> str:
    written: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "$":
            char = r"\Z"
        written.append(char)
    return "".join(written)
