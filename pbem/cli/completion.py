"""Shell completion for bash, zsh and fish: ``pbem completion SHELL`` prints the script, which asks pbem.

The script, loaded by the shell, runs ``pbem`` at each Tab with the line
typed so far (``COMP_LINE``, up to the cursor) and ``_PBEM_COMPLETE=SHELL_complete``;
the answer is the completions, one per line, and nothing else
runs (:meth:`pbem.cli.app._Group._main_shell_completion` hands the
request here before any command is parsed). Only the commands on the line
are built: a command's name is completed from its registration alone,
with its one-line help (zsh and fish show it), so a Tab after ``pbem``
costs pbem's start-up alone (``benchmarks/bench_cli.py`` times two Tabs),
and no command pays anything for completion when it runs (the script is
printed by a command of its own, built only when named).

What is completed:

* command names, and the options of the command on the line;
* the values a person would otherwise look up (:data:`VALUES`): the
  player names of the game directory on the line for ``--as`` and
  ``--seat``, the game's decision kinds for ``--auto-pass KIND=MODE`` and
  ``--order KIND=SPEC`` (with the one-word orders: pass, first, off), the
  installed games for ``--game`` and ``GAME``, a game's scenarios for
  ``--scenario``, the shells for ``SHELL``;
* file names for a ``FILE``, ``KEYFILE``... and directory names for a
  ``DIR`` or ``CLONE``, by the shell itself.

A completion never fails loudly: whatever goes wrong (a game directory
that cannot be read, a game that does not import) completes nothing, and
only a value that is one word (no space, no control character) is
handed to the shell; ``$PBEM_TRACEBACK`` shows an error's traceback.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, get_args

from typer._click import Command as ClickCommand
from typer._click import Context as ClickContext
from typer._click.shell_completion import CompletionItem, _resolve_context, _resolve_incomplete
from typer.core import TyperArgument, TyperGroup

from pbem.cli.output import terminal_safe
from pbem.referee.errors import UsageError

#: the shells, as ``pbem completion`` names them
SHELLS = ("bash", "zsh", "fish")
#: the metavars of a directory (every other path parameter takes a file)
DIRECTORY_METAVARS = ("DIR", "CLONE")
#: what a completed value may hold: it goes to the shell as one word
_WORD = re.compile(r"[\w.:=+@,/-]+")

_BASH = r"""# bash completion for pbem (pbem completion bash)
_pbem_completion() {
    local IFS=$'\n'
    local response completion
    response=$(env COMP_LINE="${COMP_LINE:0:COMP_POINT}" COMP_CUR="${COMP_WORDS[COMP_CWORD]}" \
        _PBEM_COMPLETE=bash_complete "$1" 2>/dev/null)
    COMPREPLY=()
    for completion in $response; do
        case ${completion%%,*} in
            dir) compopt -o dirnames 2>/dev/null ;;
            file) compopt -o default 2>/dev/null ;;
            plain) COMPREPLY+=("${completion#*,}") ;;
        esac
    done
    return 0
}
complete -o nosort -F _pbem_completion pbem
"""

_ZSH = r"""#compdef pbem
# zsh completion for pbem (pbem completion zsh)
_pbem() {
    local -a response plain described
    local type key descr
    (( $+commands[pbem] )) || return 1
    response=("${(@f)$(env COMP_LINE="${(j: :)words[1,CURRENT]}" _PBEM_COMPLETE=zsh_complete pbem 2>/dev/null)}")
    for type key descr in "${response[@]}"; do
        case $type in
            dir) _path_files -/ ;;
            file) _path_files -f ;;
            plain) if [[ $descr == _ ]]; then plain+=("$key"); else described+=("$key:$descr"); fi ;;
        esac
    done
    (( ${#described} )) && _describe -V unsorted described -U
    (( ${#plain} )) && compadd -U -V unsorted -a plain
    return 0
}
# autoloaded from $fpath, this file defines _pbem anew, then completes; sourced, it registers _pbem
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _pbem "$@"
else
    compdef _pbem pbem
fi
"""

_FISH = r"""# fish completion for pbem (pbem completion fish)
function __pbem_complete
    set -l response (env COMP_LINE=(commandline -cp) _PBEM_COMPLETE=fish_complete pbem 2>/dev/null)
    for completion in $response
        set -l found (string split -m 1 "," -- $completion)
        switch $found[1]
            case dir
                __fish_complete_directories $found[2]
            case file
                __fish_complete_path $found[2]
            case plain
                echo $found[2]
        end
    end
end
complete --command pbem --no-files --arguments "(__pbem_complete)"
"""

_SCRIPTS = {"bash": _BASH, "zsh": _ZSH, "fish": _FISH}


def script(shell: str) -> str:
    """The completion script of ``shell`` (one of :data:`SHELLS`)."""
    return _SCRIPTS[shell]


# --- the values of options and arguments -------------------------------------------------------------


def _game_dir_players(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    """The player names of the game directory given on the line (``game.toml``'s seats)."""
    from pbem.referee.gamefile import PLAYER_NAME, GameFile

    directory = ctx.params.get("directory")
    if not isinstance(directory, Path):
        return []
    names = GameFile.read(directory / "game.toml", schema=False).player_names
    return [name for name in names if PLAYER_NAME.fullmatch(name)]


def _registered_games() -> list[str]:
    from pbem.engine.registry import game_names

    return game_names()  # $PBEM_GAMES's among them: registered before (pbem.cli.app)


def _games(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    return _registered_games()


def _game_of(ctx: ClickContext) -> Any:
    """The game the line names: ``--game``, else that of the game directory on the line (None: neither)."""
    from pbem.engine.registry import find_game
    from pbem.referee.gamefile import GameFile

    name = ctx.params.get("game")
    directory = ctx.params.get("directory")
    if not isinstance(name, str) and isinstance(directory, Path):
        name = GameFile.read(directory / "game.toml", schema=False).game
    if not isinstance(name, str) or name not in _registered_games():
        return None
    return find_game(name)


def _scenarios(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    game = _game_of(ctx)
    return list(game.scenarios()) if game is not None else []


def _auto_pass_orders(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    """``KIND=MODE`` for each decision kind of the game directory's game and each mode of ``--auto-pass``."""
    from pbem.referee.orders import MODES

    game = _game_of(ctx)
    return [f"{kind}={mode}" for kind in sorted(game.decision_kinds()) for mode in MODES] if game is not None else []


def _orders(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    """``KIND=`` and the one-word orders (``KIND=pass``, ``KIND=first``, ``KIND=off``) for each decision kind of
    the game directory's game: the rules of an order are the player's to write."""
    from pbem.referee.orders import CHOICES, OFF

    game = _game_of(ctx)
    return [f"{kind}={spec}" for kind in sorted(game.decision_kinds()) for spec in (*CHOICES, OFF)] \
        if game is not None else []


def _shells(ctx: ClickContext, incomplete: str) -> Iterable[str]:
    return SHELLS


#: what completes the value of an option (by its name) or an argument (by its metavar)
VALUES: dict[str, Callable[[ClickContext, str], Iterable[str]]] = {
    "--as": _game_dir_players,
    "--seat": _game_dir_players,
    "--auto-pass": _auto_pass_orders,
    "--order": _orders,
    "--game": _games,
    "GAME": _games,
    "--scenario": _scenarios,
    "SHELL": _shells,
}


# --- answering the shell ---------------------------------------------------------------------------


#: the longest description of a completion (zsh and fish show them beside the values)
SUMMARY_MAX = 72


def _summary(text: str | None) -> str | None:
    """A help text as a completion's description: its first sentence on one line, cut at a word to
    :data:`SUMMARY_MAX` characters."""
    if not text:
        return None
    line = " ".join(terminal_safe(text).split())
    line = re.split(r"(?<=\.)\s", line, maxsplit=1)[0].rstrip(".")
    if len(line) <= SUMMARY_MAX:
        return line
    return line[:SUMMARY_MAX - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."


def _command_items(group: Any, ctx: ClickContext, incomplete: str) -> list[CompletionItem]:
    """A group's commands starting with ``incomplete``, with their one-line help, and its own options."""
    commands = group.commands
    summary = getattr(commands, "summary", None)  # pbem's own group: from the registrations, nothing built
    items = [CompletionItem(name, help=summary(name) if summary else commands[name].get_short_help_str(limit=300))
             for name in group.list_commands(ctx) if name.startswith(incomplete)]
    return items + ClickCommand.shell_complete(group, ctx, incomplete)


def completions(cli: Any, args: list[str], incomplete: str) -> list[CompletionItem]:
    """What completes ``incomplete`` after the words ``args`` (those after ``pbem``)."""
    ctx = _resolve_context(cli, {}, "pbem", args)
    found, incomplete = _resolve_incomplete(ctx, args, incomplete)
    if isinstance(found, TyperGroup):
        return _command_items(found, ctx, incomplete)
    if isinstance(found, ClickCommand):
        return found.shell_complete(ctx, incomplete)
    if found.param_type_name == "option" and args and args[-1] in found.opts:
        # the line parsed without the option whose value is wanted: a parse stops at an option without its value
        ctx = _resolve_context(cli, {}, "pbem", args[:-1])
    name = found.metavar if isinstance(found, TyperArgument) else found.opts[0]
    if name in VALUES:
        return [CompletionItem(value) for value in VALUES[name](ctx, incomplete) if value.startswith(incomplete)]
    if _takes_paths(found):
        return [CompletionItem(incomplete, type="dir" if found.metavar in DIRECTORY_METAVARS else "file")]
    return found.shell_complete(ctx, incomplete)


def _takes_paths(param: Any) -> bool:
    """Whether ``param``'s values are paths (``Path``, ``list[Path]``)."""
    annotation = param.type_descriptor.annotation
    return annotation is Path or get_args(annotation) == (Path,)


def _line_words(line: str) -> tuple[list[str], str]:
    """The complete words after ``pbem`` of the line typed up to the cursor, and the word being typed."""
    from typer._click.shell_completion import split_arg_string

    words = split_arg_string(line)[1:]
    if line[-1:].isspace() or not words:
        return words, ""
    return words[:-1], words[-1]


def _formatted(shell: str, item: CompletionItem, incomplete: str, current: str) -> str:
    help_text = _summary(item.help)
    if shell == "bash":
        value = item.value
        # bash replaces only its own current word, which stops at '=' and ':' ("--auto-pass claim=al")
        if item.type == "plain" and current != incomplete and incomplete.endswith(current):
            value = value[len(incomplete) - len(current):]
        return f"{item.type},{value}"
    if shell == "zsh":
        value = item.value.replace(":", r"\:") if help_text else item.value  # _describe splits at a colon
        return f"{item.type}\n{value}\n{help_text or '_'}"
    return f"{item.type},{item.value}" + (f"\t{help_text}" if help_text else "")


def complete(cli: Any, instruction: str) -> int:
    """Answer one request of a completion script (``instruction``: ``SHELL_complete``); the exit code."""
    from pbem.cli.exits import TRACEBACK_ENV
    from pbem.cli.output import say

    shell, _, action = instruction.partition("_")
    if shell not in SHELLS or action != "complete":
        say(f"pbem: a completion request {instruction!r}: expected SHELL_complete, SHELL one of "
            f"{', '.join(SHELLS)} (the script of `pbem completion SHELL` sends it)", err=True)
        return UsageError.exit_code
    try:
        line = os.environ.get("COMP_LINE", "")
        args, incomplete = _line_words(line)
        items = completions(cli, args, incomplete)
    except Exception:  # a completion completes nothing rather than print an error into the command line
        if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
            raise
        return 0
    current = os.environ.get("COMP_CUR", incomplete)
    lines = [_formatted(shell, item, incomplete, current) for item in items
             if item.type != "plain" or _WORD.fullmatch(str(item.value))]
    if lines:
        say("\n".join(lines))
    return 0
