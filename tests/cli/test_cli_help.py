"""``--help`` names what each command takes as a person writes it, and as README's table of commands does.

A flag (``--json``, ``--once``, ``--help``) shows no metavar; every other
parameter shows one in capitals (``DIR``, ``KEYFILE``, ``ID|NUMBER``,
``KIND=MODE``), never a type (``<path>``, ``<str>``, ``<list[str]>``);
the usage line writes arguments as ``DIR FILE...`` and ``[GAME]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.core import TyperArgument, TyperGroup, TyperOption
from typer.main import get_command
from typer.testing import CliRunner

from pbem.cli.main import app

README = Path(__file__).resolve().parents[2] / "README.md"
#: a metavar as README writes one: words in capitals, joined by ``=`` (NAME=VALUE) or ``|`` (one or the other)
WRITTEN = re.compile(r"[A-Z][A-Z0-9]*(?:[=|][A-Z][A-Z0-9]*)*")
#: a type where a metavar should be: typer's ``<path>``, ``<list[str]>``, ``<float range>``...
TYPE_TAG = re.compile(r"<[a-z][\w\[\]|, .]*>")


def _commands() -> Iterator[tuple[str, Any]]:
    """Every command of ``pbem``, the groups and ``pbem`` itself included, with its words after ``pbem``."""
    def walk(words: str, command: Any) -> Iterator[tuple[str, Any]]:
        yield words, command
        if isinstance(command, TyperGroup):
            for name in command.list_commands(command.context_class(command)):
                yield from walk(f"{words} {name}".strip(), command.commands[name])

    yield from walk("", get_command(app))


COMMANDS = list(_commands())


def _params(command: Any) -> list[Any]:
    return command.get_params(command.context_class(command))  # the help option included


def _help(words: str) -> str:
    result = CliRunner().invoke(app, [*words.split(), "--help"], prog_name="pbem", terminal_width=200)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("words", "command"), COMMANDS, ids=[w or "pbem" for w, _ in COMMANDS])
def test_help_shows_no_type_where_a_value_goes(words: str, command: Any) -> None:
    text = _help(words)
    assert not TYPE_TAG.findall(text), text
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage


@pytest.mark.parametrize(("words", "command"), COMMANDS, ids=[w or "pbem" for w, _ in COMMANDS])
def test_a_flag_shows_no_metavar_and_every_other_parameter_one_written_in_capitals(words: str, command: Any) -> None:
    ctx = command.context_class(command)
    for param in _params(command):
        if isinstance(param, TyperOption) and param.is_flag:
            assert param.display_type_rich(ctx) is None, (words, param.opts)
            continue
        assert param.metavar is not None and WRITTEN.fullmatch(param.metavar), (words, param.name, param.metavar)
        if isinstance(param, TyperArgument):
            written = param.metavar + ("..." if param.nargs != 1 else "")
            assert param.get_usage_pieces(ctx) == [written if param.required else f"[{written}]"]
        else:
            assert param.display_type_rich(ctx) == param.metavar


def test_the_usage_line_names_the_arguments_as_written() -> None:
    assert "Usage: pbem submit [OPTIONS] DIR FILE..." in _help("submit")
    assert "Usage: pbem demo [OPTIONS] [GAME]" in _help("demo")


def _readme_rows() -> dict[str, str]:
    """README's table of commands: each row's synopsis by its command's words (``mail serve``)."""
    known = sorted((words for words, _ in COMMANDS if words), key=len, reverse=True)
    rows = {}
    for line in README.read_text().splitlines():
        found = re.match(r"\| `pbem ([^`]*)` \|", line)
        words = next((w for w in known if found and f"{found.group(1)} ".startswith(f"{w} ")), None)
        if found and words:
            rows[words] = found.group(1).removeprefix(words).replace("\\|", "|")
    return rows


def test_readme_names_every_option_value_as_help_does() -> None:
    rows = _readme_rows()
    by_words = dict(COMMANDS)
    assert len(rows) >= 20, sorted(rows)
    for words, synopsis in rows.items():
        metavars = {opt: param.metavar for param in _params(by_words[words]) if isinstance(param, TyperOption)
                    for opt in param.opts}
        for option, value in re.findall(r"(--[a-z-]+) ([A-Z][A-Z0-9=|]*)", synopsis):
            assert option in metavars, (words, option)
            assert metavars[option] == value, (words, option, value, metavars[option])
