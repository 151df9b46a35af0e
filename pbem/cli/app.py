"""The ``pbem`` application: its commands built one at a time, when named.

A run pays only for the command it runs (a command's cost is mostly its
start-up: docs/performance.md, "Deferred imports"). The commands of
:mod:`pbem.cli.main` register on :data:`commands` and are built into click
commands when named (:class:`_Group`, :class:`_Commands`); ``pbem --help``
builds them all for their one-line help, and a group (:data:`GROUPS`:
``pbem mail``, ``pbem git``, ``pbem kit``) builds its own commands alone.
Values are converted without pydantic (:mod:`pbem.cli.values`); help names
them as a person writes them (:mod:`pbem.cli.metavars`).
"""

# No ``from __future__ import annotations`` here: typer evaluates each annotation of the command it runs
# twice when it is a string (docs/performance.md, "Annotations evaluated at import"). The annotations
# below name only what is imported or defined above them.

import importlib
import os
from collections.abc import Iterator, MutableMapping
from typing import Any

# typer vendors click from 0.26 on (pyproject asks for it): its commands, contexts and usage errors
# are typer._click's, whether or not a click of its own is installed beside it
import typer
from typer._click import Command as ClickCommand
from typer._click import Context as ClickContext
from typer._click.exceptions import ClickException
from typer._click.exceptions import UsageError as ClickUsageError
from typer.core import TyperGroup

from pbem import __version__
from pbem.cli.exits import fail, json_output, print_error, unexpected
from pbem.cli.metavars import show_as_written
from pbem.cli.output import say
from pbem.cli.values import convert_param
from pbem.referee.errors import SetupError

#: extra game modules to import before running (tests, plug-ins): each
#: module named here is imported and its ``GAME`` registered
GAMES_ENV = "PBEM_GAMES"
#: set by the scripts of ``pbem completion SHELL`` (:mod:`pbem.cli.completion`) to ``SHELL_complete``: pbem then
#: answers with the completions of the line typed so far, and runs nothing else
COMPLETE_ENV = "_PBEM_COMPLETE"

#: the commands of ``pbem``, in the order ``pbem --help`` lists them (the groups last); each is built
#: into a click command only when named (:class:`_Group`)
commands = typer.Typer()
#: the groups of commands, each a Typer app of its own module: name -> module
GROUPS = {"mail": "pbem.cli.mail", "git": "pbem.cli.git", "kit": "pbem.cli.kit", "undo": "pbem.cli.undo"}


class _Commands(MutableMapping[str, ClickCommand]):
    """``pbem``'s commands by name, each built from its registration (typer's own build) when first looked up.

    Building a typer command resolves every parameter of it; building all
    of them for every run would cost more than the command run.
    """

    def __init__(self, pretty_exceptions_short: bool, rich_markup_mode: Any) -> None:
        from typer.main import get_command_name

        self._style = {"pretty_exceptions_short": pretty_exceptions_short, "rich_markup_mode": rich_markup_mode}
        self._registered = {info.name or get_command_name(info.callback.__name__): info
                            for info in commands.registered_commands if info.callback is not None}
        self._names = [*self._registered, *GROUPS]
        self._built: dict[str, ClickCommand] = {}

    def _build(self, name: str) -> ClickCommand:
        from typer import main as typer_main

        if name in GROUPS:
            group = importlib.import_module(GROUPS[name]).app
            return typer_main.get_group_from_info(
                typer_main.TyperInfo(group, name=name), suggest_commands=group.suggest_commands, **self._style)
        return typer_main.get_command_from_info(self._registered[name], **self._style)

    def summary(self, name: str) -> str | None:
        """The help of command ``name`` as its registration gives it, nothing built (for shell completion)."""
        if name in GROUPS:
            return importlib.import_module(GROUPS[name]).app.info.help  # type: ignore[no-any-return]
        info = self._registered[name]
        return info.help or (info.callback.__doc__ if info.callback is not None else None)

    def __getitem__(self, name: str) -> ClickCommand:
        if name not in self._built:
            if name not in self._names:
                raise KeyError(name)
            self._built[name] = _prepared(self._build(name))
        return self._built[name]

    def __setitem__(self, name: str, command: ClickCommand) -> None:
        if name not in self._names:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


def _prepare(param: Any) -> None:
    convert_param(param)
    show_as_written(param)


def _prepared(command: Any) -> Any:
    """``command`` ready to run: its parameters, its ``--help`` (made when first asked for) and its subcommands
    (those of a group built whole, ``pbem mail``; not pbem's lazy ones) convert plain values without pydantic
    (:mod:`pbem.cli.values`) and show in help as written (:mod:`pbem.cli.metavars`)."""
    for param in command.params:
        _prepare(param)
    typers_help_option = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = typers_help_option(ctx)
        if option is not None:
            _prepare(option)
        return option

    command.get_help_option = get_help_option
    subcommands = getattr(command, "commands", None)
    if isinstance(subcommands, dict):
        for sub in subcommands.values():
            _prepared(sub)
    return command


def _asks_for_json(ctx: ClickContext) -> bool:
    """Whether the command line names ``--json`` after the command (its own option is not parsed yet)."""
    return "--json" in (*getattr(ctx, "_protected_args", ()), *ctx.args)


class _Group(TyperGroup):
    """The ``pbem`` command group: its commands are built when named (:class:`_Commands`), a
    usage error of a command given ``--json`` is reported as JSON too, and an error no command
    expects ends in one line and its own code (:func:`~pbem.cli.exits.unexpected`), never a traceback."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.commands = _Commands(app.pretty_exceptions_short, app.rich_markup_mode)
        _prepared(self)

    def list_commands(self, ctx: ClickContext) -> list[str]:
        return list(self.commands)  # the names only: typer's own builds every command to list them

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        """A request of a completion script (``pbem completion SHELL``): answered, and nothing else runs."""
        instruction = os.environ.get(COMPLETE_ENV)
        if instruction:
            from pbem.cli.completion import complete

            _load_games_from_env()  # the games a run knows: $PBEM_GAMES's too
            raise SystemExit(complete(self, instruction))

    def invoke(self, ctx: ClickContext) -> Any:
        wants_json = _asks_for_json(ctx)  # read before click consumes the arguments
        try:
            return super().invoke(ctx)
        except ClickUsageError as error:
            if not wants_json:
                raise
            print_error(error.format_message(), error.exit_code, "usage", None)
            raise typer.Exit(error.exit_code) from None
        except (ClickException, typer.Exit, typer.Abort):  # the command line's own ends, each with its code
            raise
        except Exception as error:
            unexpected(error)


app = typer.Typer(
    name="pbem",
    help="Referee for asynchronous hidden-information card games played by e-mail, shared folder or git.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=_Group,
)

def _load_games_from_env() -> None:
    names = os.environ.get(GAMES_ENV, "")
    if names.strip():
        from pbem.engine.errors import EngineError
        from pbem.engine.registry import register_modules  # only when a game is named: status needs no registry

        try:
            register_modules(names, GAMES_ENV)
        except EngineError as error:
            fail(str(error), SetupError.exit_code, SetupError.reason)


def _print_version(ctx: typer.Context, asked: bool) -> None:
    if asked and not ctx.resilient_parsing:  # not while a shell completes the line
        say(f"pbem {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", callback=_print_version, is_eager=True, help="Print the pbem version and exit."
    ),
) -> None:
    """Referee for asynchronous hidden-information card games played by e-mail, shared folder or git.

    Players make keys (keygen), the referee creates a game (new); players read
    their view (view) and write signed moves (move); the referee applies them
    (submit); anyone checks the record (status, log, verify).
    """
    # the command's own option is parsed later; a failure before that (a game
    # module that does not import) must already speak JSON
    json_output(_asks_for_json(ctx))
    _load_games_from_env()

