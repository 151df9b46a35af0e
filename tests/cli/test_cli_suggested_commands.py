"""Every command a message or a document suggests exists, with the options it names.

"pbem key new" was suggested where the command is ``pbem keygen``. This test
reads every string of the code that talks to people (``pbem/cli``,
``pbem/referee``, ``pbem/mail``, ``pbem/crypto``: messages, help texts,
docstrings) and every command line of the README, ``docs/`` and
``examples/``, finds each ``pbem COMMAND ...`` in them, runs ``COMMAND
--help`` through the CLI, and checks that each ``--option`` it names is an
option of that command. Where "pbem" is a word of a sentence instead ("pbem
cannot prompt for it"), :data:`PROSE` says so.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

from pbem.cli.main import app

REPO = Path(__file__).resolve().parents[2]
#: the packages whose strings reach people
SOURCES = ("pbem/cli", "pbem/referee", "pbem/mail", "pbem/crypto")
#: "pbem WORD ..." where pbem is the program's name in a sentence, not a command line ("a pbem key
#: file", "pbem never overwrites"); "pbem key" only before "file", "with" or "**", so that a
#: suggested "pbem key new" is caught
PROSE = re.compile(
    r"pbem (?:can|cannot|command|does|file|files|game|is|key(?=\*\*| file| with|[,:.])|keys|knows|neither|never|or|"
    r"reads|referee|remembers|seals|sends|signs|takes|version|writes|wrote)\b"
)


def _root_group() -> TyperGroup:
    group = get_command(app)
    assert isinstance(group, TyperGroup)
    return group


GROUP = _root_group()
runner = CliRunner()


def _strings(path: Path) -> list[str]:
    """Every string constant of a module; an f-string with ``VALUE`` for each placeholder."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            found.append("".join(str(part.value) if isinstance(part, ast.Constant) else "VALUE" for part in node.values))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.append(node.value)
    return found


def _code_of_markdown(text: str) -> list[str]:
    """The command lines of a Markdown file: fenced code blocks (continuation lines joined) and `code spans`."""
    pieces = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        pieces.extend(block.replace("\\\n", " ").splitlines())
    outside = re.sub(r"^```[a-z]*\n.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)
    pieces.extend(re.findall(r"`([^`\n]+)`", outside))
    return pieces


def _texts() -> list[tuple[str, str]]:
    """(where, text) for every text this test reads."""
    texts = []
    for package in SOURCES:
        for path in sorted((REPO / package).rglob("*.py")):
            texts += [(str(path.relative_to(REPO)), s) for s in _strings(path)]
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "examples").rglob("*"))]:
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        pieces = _code_of_markdown(text) if path.suffix == ".md" else text.replace("\\\n", " ").splitlines()
        texts += [(str(path.relative_to(REPO)), piece) for piece in pieces]
    return texts


#: ``pbem`` as a word, then what follows it up to the end of the clause
MENTION = re.compile(r"(?<![\w./-])pbem ([a-z][\w-]*)((?:[ \t]+[^\s`'\";,()]+)*)")


def suggestions() -> dict[tuple[str, ...], set[str]]:
    """Each suggested command (its words) -> the options named with it; prose mentions checked against PROSE."""
    found: dict[tuple[str, ...], set[str]] = {}
    unknown = []
    for where, text in _texts():
        for match in MENTION.finditer(text):
            word, rest = match.group(1), match.group(2).split()
            if word not in GROUP.commands:
                if not PROSE.match(text, match.start()):
                    unknown.append(f"{where}: {match.group(0)!r}")
                continue
            commands: list[tuple[str, ...]] = [(word,)]
            if _is_group(GROUP.commands[word]) and rest:
                # "pbem mail serve|unpack|send ...": one suggestion per alternative
                commands, rest = [(word, sub) for sub in rest[0].rstrip(":.").split("|")], rest[1:]
            options = {o for token in rest for o in re.findall(r"--[a-z][a-z-]*", token)}
            for command in commands:
                found.setdefault(command, set()).update(options)
    assert not unknown, "not a pbem command (nor listed as prose):\n" + "\n".join(unknown)
    return found


def _is_group(command: Any) -> bool:
    return hasattr(command, "commands")


def _command(words: tuple[str, ...]) -> Any:
    command: Any = GROUP
    for word in words:
        assert _is_group(command) and word in command.commands, f"no command `pbem {' '.join(words)}`"
        command = command.commands[word]
    return command


def test_the_messages_and_documents_suggest_commands() -> None:
    found = suggestions()
    assert {("keygen",), ("move",), ("submit",), ("mail", "send"), ("view",), ("verify",)} <= set(found)


@pytest.mark.parametrize("words", sorted(suggestions()), ids=" ".join)
def test_every_suggested_command_and_option_exists(words: tuple[str, ...]) -> None:
    result = runner.invoke(app, [*words, "--help"])
    assert result.exit_code == 0, f"`pbem {' '.join(words)} --help` fails: {result.output}"
    command = _command(words)
    known = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)} | {"--help"}
    if _is_group(command):
        return
    missing = suggestions()[words] - known
    assert not missing, f"`pbem {' '.join(words)}` has no option {', '.join(sorted(missing))}"
