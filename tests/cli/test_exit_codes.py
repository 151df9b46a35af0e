"""Exit codes are owned in one place: :data:`pbem.cli.exits.EXIT_ERRORS`, the error classes, each with its code.

Every code is numbered once, every error class that carries a code agrees with the table, no command
exits with a number written anywhere else, and the documented tables list exactly the codes of the table.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pbem
from pbem.cli.app import ClickUsageError
from pbem.cli.exits import EXIT_CODES, EXIT_ERRORS
from pbem.crypto.errors import CryptoError
from pbem.git.errors import GitError
from pbem.mail.errors import MailError
from pbem.referee.errors import RefereeError, Refusal, UsageError

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "pbem"

#: the modules that number the codes: an ``exit_code = N`` in an error class's body is the numbering itself
NUMBERING_MODULES = {PACKAGE / "referee" / "errors.py", PACKAGE / "mail" / "errors.py", PACKAGE / "crypto" / "errors.py",
                     PACKAGE / "git" / "errors.py"}

#: the bases of the error families, never raised themselves: their code is the fallback of code 1
BASES = (RefereeError, MailError, GitError, Refusal)


def all_subclasses(cls: type) -> set[type]:
    found: set[type] = set(cls.__subclasses__())
    for sub in list(found):
        found |= all_subclasses(sub)
    return found


def import_every_module() -> None:
    """Import all of pbem, so that every error class is defined (``__main__`` would run the command line)."""
    for module in pkgutil.walk_packages(pbem.__path__, "pbem."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)


def literal_exit_codes(source: str, numbering: bool = False) -> list[int]:
    """The lines of ``source`` where an exit code other than 0 is written as a number.

    That is: a number given to ``_fail`` (or ``fail``), to ``Exit``/``SystemExit``/``sys.exit``, as the
    keyword ``exit_code`` or the dict key ``"exit_code"``, assigned to ``exit_code`` (outside the bodies
    of the error classes of ``numbering`` modules), or returned by a function whose name ends in ``_code``.
    """
    tree = ast.parse(source)
    lines: list[int] = []

    def numbers(node: ast.AST | None) -> list[int]:
        if node is None:
            return []
        return [n.lineno for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is int and n.value]

    class_bodies = {id(stmt) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for stmt in cls.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("_fail", "fail"):
                lines += [line for arg in node.args[1:] for line in numbers(arg)]
                lines += [line for kw in node.keywords if kw.arg == "code" for line in numbers(kw.value)]
            if name in ("Exit", "SystemExit", "exit"):
                lines += [line for arg in node.args for line in numbers(arg)]
                lines += [line for kw in node.keywords if kw.arg == "code" for line in numbers(kw.value)]
            lines += [line for kw in node.keywords if kw.arg == "exit_code" for line in numbers(kw.value)]
        elif isinstance(node, ast.Dict):
            lines += [line for key, value in zip(node.keys, node.values, strict=True)
                      if isinstance(key, ast.Constant) and key.value == "exit_code" for line in numbers(value)]
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = any((isinstance(t, ast.Name) and t.id == "exit_code")
                        or (isinstance(t, ast.Attribute) and t.attr == "exit_code") for t in targets)
            if named and not (numbering and id(node) in class_bodies):
                lines += numbers(node.value)
        elif isinstance(node, ast.FunctionDef) and node.name.endswith("_code"):
            lines += [line for ret in ast.walk(node) if isinstance(ret, ast.Return) for line in numbers(ret.value)]
    return sorted(set(lines))


def documented_codes(text: str, heading: str) -> set[int]:
    """The codes of the table under ``heading`` (a markdown table of ``| code | meaning |`` rows)."""
    section = text.split(heading, 1)[1]
    table = re.split(r"\n#", section, maxsplit=1)[0]
    return {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.MULTILINE)}


def test_every_exit_code_is_numbered_once() -> None:
    codes = [error.exit_code for error in EXIT_ERRORS]
    assert len(codes) == len(set(codes)), sorted(code for code in codes if codes.count(code) > 1)
    assert 0 not in codes
    assert len({error.reason for error in EXIT_ERRORS}) == len(EXIT_ERRORS)
    assert set(EXIT_CODES) == {0, *codes}


def test_a_usage_error_of_the_command_line_has_the_code_of_a_usage_error() -> None:
    assert ClickUsageError.exit_code == UsageError.exit_code


def test_every_error_class_with_an_exit_code_agrees_with_the_table() -> None:
    """A new error class cannot take a code that means something else (nor a code the table lacks)."""
    import_every_module()
    reason_of = {error.exit_code: error.reason for error in EXIT_ERRORS}
    families = (RefereeError, MailError, GitError, CryptoError)
    coded = {cls for family in families for cls in {family, *all_subclasses(family)} if hasattr(cls, "exit_code")}
    for cls in sorted(coded - set(BASES), key=lambda c: c.__qualname__):
        code, reason = getattr(cls, "exit_code"), getattr(cls, "reason")  # noqa: B009 - not every class has them
        assert code in reason_of, f"{cls.__qualname__}: exit code {code} is not in EXIT_ERRORS"
        assert reason == reason_of[code], (
            f"{cls.__qualname__} ({reason}) shares exit code {code} with {reason_of[code]}")


def test_the_bases_of_the_error_families_are_never_raised_themselves() -> None:
    """Their code (1) and reason are a fallback only: every error pbem raises is of a class in the table."""
    names = {base.__name__ for base in BASES}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in names, f"{path}:{node.lineno}: {node.func.id}(...) raised as such"


def test_no_command_exits_with_a_number_written_outside_the_table() -> None:
    found = {
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in literal_exit_codes(path.read_text(encoding="utf-8"), numbering=path in NUMBERING_MODULES)
    }
    assert found == set()


def test_the_literal_exit_code_check_finds_what_it_looks_for() -> None:
    source = (
        "def _report_code(r):\n    return 20 if r else 0\n"
        "_fail('no', 2)\n_fail('no', code=6)\nraise typer.Exit(3)\nsys.exit(4)\n"
        "entry.update(exit_code=5)\ndoc = {'exit_code': 7}\nexit_code = 9\n"
        "class Fine(Exception):\n    exit_code = 10\n"
        "_fail('fine', UsageError.exit_code)\nraise typer.Exit(0)\nentry.update(exit_code=0)\n"
    )
    assert literal_exit_codes(source) == [2, 3, 4, 5, 6, 7, 8, 9, 11]
    assert literal_exit_codes(source, numbering=True) == [2, 3, 4, 5, 6, 7, 8, 9]


def test_the_documented_exit_code_tables_list_exactly_the_codes_of_the_table() -> None:
    assert documented_codes((REPO / "docs" / "referee.md").read_text(encoding="utf-8"), "## Exit codes") == set(
        EXIT_CODES)
    assert documented_codes((REPO / "README.md").read_text(encoding="utf-8"), "### Exit codes") == set(EXIT_CODES)
    for transport in ("mail", "git"):
        codes = documented_codes((REPO / "docs" / f"{transport}.md").read_text(encoding="utf-8"), "| exit code | meaning |")
        assert codes and codes <= set(EXIT_CODES), transport
