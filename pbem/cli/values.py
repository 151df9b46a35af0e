"""Command-line values converted the way typer converts them, without pydantic when the value is plain.

typer (0.29 and later) converts every parameter's value with a pydantic
adapter it builds when the command runs: importing pydantic and building
the adapters cost more than Python and typer's own import. pbem's
parameters are of a few plain types (``str``, ``Path``, ``int``, ``float``,
``bool``, lists of these) and their values, as the command line gives them,
are strings: for those this module gives typer's result itself (a ``Path``
goes through typer's own path checks), and anything else (a number written
otherwise than in plain digits, a bound to check, another type) goes to
typer's pydantic conversion, so its result and its error message are
typer's. ``tests/cli/test_cli_values.py`` checks that both agree.

On a typer without this machinery (older versions convert with click
types, no pydantic) nothing is changed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

try:  # typer >= 0.29: the runtime conversion this module stands in for
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_path
except ImportError:  # pragma: no cover - an older typer: its click types convert without pydantic
    RuntimeParam = None  # type: ignore[assignment,misc]

#: a value typer's pydantic adapter would convert, not handled here
_OTHER = object()

#: what pydantic reads as these numbers, written the plain way (anything else goes to pydantic)
# compiled when first used (and kept by re): most commands take no number
_INT = r"-?(?:0|[1-9][0-9]*)"
_FLOAT = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"


def _plain(value: Any, annotation: Any, param: Any, ctx: Any) -> Any:
    """``value`` converted to ``annotation`` as typer would, or :data:`_OTHER`."""
    info = param.type_descriptor.parameter_info
    if annotation is str:
        return value if isinstance(value, str) else _OTHER
    if annotation is bool:
        return value if isinstance(value, bool) else _OTHER
    if annotation is Path:
        if info.path_type is not None or not isinstance(value, (str, Path)) or value == "":
            return _OTHER
        # a Path value skips pydantic in typer's own path checks (exists, readable, ...)
        return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if annotation in (int, float):
        if info.min is not None or info.max is not None:
            return _OTHER
        if type(value) is annotation:
            return value
        if isinstance(value, str) and re.fullmatch(_INT if annotation is int else _FLOAT, value):
            return annotation(value)
        return _OTHER
    if getattr(annotation, "__origin__", None) is list and isinstance(value, (list, tuple)):
        (item_type,) = annotation.__args__
        items = [_plain(item, item_type, param, ctx) for item in value]
        return _OTHER if any(item is _OTHER for item in items) else items
    return _OTHER


if RuntimeParam is not None:

    class PlainRuntimeParam(RuntimeParam):  # type: ignore[misc,valid-type]
        """typer's conversion of one parameter, done here when the value is plain (see the module)."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            plain = _plain(value, self.annotation, param, ctx)
            if plain is not _OTHER:
                return plain
            typers = build_runtime_param(param.type_descriptor)
            param._runtime_param = typers  # later values of this parameter go straight to typer's
            return typers._coerce_value(value, param=param, ctx=ctx)


def convert_param(param: Any) -> None:
    """Have ``param`` convert plain values without pydantic (nothing changes on a typer without the machinery,
    or for a parameter that has its conversion already)."""
    if RuntimeParam is None:  # pragma: no cover
        return
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and descriptor.file_annotation is None and getattr(param, "_runtime_param", 0) is None:
        param._runtime_param = PlainRuntimeParam(parameter_info=descriptor.parameter_info,
                                                 annotation=descriptor.annotation)
