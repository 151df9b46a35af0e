"""A run builds only the command it runs, and converts its values as typer does, without pydantic.

typer converts each value with a pydantic adapter built at run time;
``pbem.cli.values`` converts pbem's plain values itself. For every
parameter of every command and a spread of values (plain and not), its
result is typer's own, and so is its refusal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers_referee import make_table
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

from pbem.cli.app import GROUPS
from pbem.cli.main import app, commands

coercion = pytest.importorskip("typer._coercion", reason="typer before 0.29 converts with click types, not pydantic")
from pbem.cli.values import PlainRuntimeParam  # noqa: E402  (only on a typer that has the machinery)

VALUES: list[Any] = [None, "x", "", "-", "5", "-3", "007", "0", "1.5", "-0.25", "1e3", " 5", "inf", "nan", "5_0",
                     "0x10", "true", "1.", 5, 5.0, True, False, ("a", "b"), ["5", "6"], ("1.5",), [], "/",
                     "/no/such/path", "a/b.json"]


def _parameters() -> list[tuple[str, Any, Any]]:
    group = get_command(app)
    assert isinstance(group, TyperGroup)
    found = []
    for name in group.list_commands(None):  # type: ignore[arg-type]
        command = group.commands[name]
        subcommands = [(f"{name} {sub}", c) for sub, c in command.commands.items()] if hasattr(command, "commands") \
            else [(name, command)]
        for label, sub in subcommands:
            found += [(f"{label} {p.name}", sub, p) for p in sub.params if hasattr(p, "type_descriptor")]
    return found


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        result = runtime.coerce(value, param=param, ctx=ctx)
    except Exception as error:
        return "refused", (type(error).__name__, str(error))
    return "converted", (type(result).__name__, repr(result))  # repr: nan is not nan


@pytest.mark.parametrize(("label", "command", "param"), _parameters(), ids=lambda x: x if isinstance(x, str) else "")
def test_every_parameter_converts_values_as_typer_does(label: str, command: Any, param: Any) -> None:
    ctx = command.context_class(command)
    descriptor = param.type_descriptor
    plain = PlainRuntimeParam(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
    for value in [*VALUES, param.default]:
        typers = coercion.build_runtime_param(descriptor)
        param._runtime_param = None
        assert _outcome(plain, value, param, ctx) == _outcome(typers, value, param, ctx), (label, value)


def test_a_run_builds_only_the_command_it_runs(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    group = get_command(app)
    with pytest.raises(SystemExit) as done:
        group.main(["status", str(table.dir)], prog_name="pbem")
    assert done.value.code == 0
    assert list(group.commands._built) == ["status"]  # type: ignore[attr-defined]


def test_help_lists_every_command() -> None:
    shown = CliRunner().invoke(app, ["--help"], terminal_width=200).output
    listed = [line.split()[1] for line in shown.splitlines()
              if line.startswith("│ ") and line[2] not in " -"]  # a command's row, not its help's next line
    assert listed == [info.name or getattr(info.callback, "__name__", "") for info in commands.registered_commands] + [
        *GROUPS]
