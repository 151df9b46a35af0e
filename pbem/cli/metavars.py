"""How ``--help`` names what a command takes: as a person writes it.

* A flag (``--json``, ``--once``, ``--help``) takes no value and shows
  none: typer's rich help would show ``<bool>``.
* Every other parameter shows the metavar its declaration gives, in the
  words of README's table of commands: ``DIR``, ``FILE``, ``KEYFILE``,
  ``NAME``, ``ID|NUMBER``, ``KIND=MODE``, ``SECONDS`` (typer's own would
  be ``<path>``, ``<str>``, ``<list[str]>``). An argument taking several
  values is written ``FILE...``, an optional one ``[GAME]``, in the usage
  line (typer's wraps a required one in braces: ``{DIR}``) and in the
  list of arguments alike; the type column of an argument is left empty,
  its name says it.

:func:`show_as_written` gives a built command's parameters these ways
(:mod:`pbem.cli.app` calls it on every command it builds);
``tests/cli/test_cli_help.py`` walks every command's help and checks them.
"""

from __future__ import annotations

from typing import Any

from typer._click import Context
from typer.core import TyperArgument, TyperOption


class _Flag(TyperOption):
    """An option that takes no value: nothing shown after its name."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


class _Argument(TyperArgument):
    """An argument shown by its metavar, ``...`` after it when it takes several, ``[...]`` when optional."""

    @property
    def display_name_raw(self) -> str:  # the list of arguments, the usage line, the errors: 'FILE...'
        return (self.metavar or self.name or "") + ("..." if self.nargs != 1 else "")

    def _rich_display_name(self) -> str:
        return self.display_name_raw

    def _usage_display_name(self) -> str:
        return self.display_name_raw if self.required else f"[{self.display_name_raw}]"

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


def show_as_written(param: Any) -> None:
    """Have ``param`` shown in help as the module says (once is enough; again changes nothing)."""
    if isinstance(param, TyperArgument):
        param.__class__ = _Argument
    elif isinstance(param, TyperOption) and (param.is_flag or param.count):
        param.__class__ = _Flag
