"""Where the mail layer sits: cli -> mail -> referee; it never prints or exits, and knows no game."""

from __future__ import annotations

import ast
from pathlib import Path

PBEM = Path(__file__).resolve().parents[2] / "pbem"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}


def test_the_mail_layer_imports_neither_the_command_line_nor_any_game():
    for path in sorted((PBEM / "mail").glob("*.py")):
        for module in imports(path):
            assert not module.startswith(("pbem.cli", "pbem.games", "typer")), f"{path.name} imports {module}"


def test_the_referee_knows_nothing_of_mail():
    for path in sorted((PBEM / "referee").glob("*.py")):
        assert not any(m.startswith("pbem.mail") for m in imports(path)), path.name


def test_the_mail_library_never_prints_or_exits():
    for path in sorted((PBEM / "mail").glob("*.py")):
        used = calls(path)
        assert not used & {"print", "sys.exit", "exit", "quit"}, f"{path.name}: {used & {'print', 'sys.exit'}}"
