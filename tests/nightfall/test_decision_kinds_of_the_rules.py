"""Nightfall declares exactly the kinds of decision its rules ask: the set (the kinds registered on its turn
machine) read off the rules' source, the kind of every ``ask``/``choose`` call."""

from __future__ import annotations

import ast
from pathlib import Path

from pbem.games import nightfall


def _asked_kinds(package: Path) -> set[str]:
    """The kind (third argument, or both kinds of a conditional one) of every ``ask(...)`` and ``choose(...)`` call under ``package``."""
    kinds = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("ask", "choose") and len(node.args) > 2:
                kind = node.args[2]
                # a kind chosen by a condition (``"claim" if left else "nothing-to-claim"``): both
                for value in (kind.body, kind.orelse) if isinstance(kind, ast.IfExp) else (kind,):
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        kinds.add(value.value)
    return kinds


def test_nightfall_declares_exactly_the_kinds_its_rules_ask() -> None:
    assert _asked_kinds(Path(nightfall.__file__).parent) == nightfall.GAME.decision_kinds()
