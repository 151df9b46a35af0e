"""Helpers for the tests of pbem's import graph: the graph read from the source, its cycles, what a module imports.

The graph is read statically: every ``import`` and ``from ... import`` of every module, at the top or inside a
function (an import deferred for start-up is still a dependency), but not those under ``if TYPE_CHECKING:``,
which never run. A name that a package offers lazily (:func:`pbem.lazy.lazy_package`, its ``_WHERE`` table) is
an edge to the module that defines it.
"""

from __future__ import annotations

import ast
from collections import deque
from itertools import pairwise
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pbem"


def module_files(package: Path) -> dict[str, Path]:
    """Every module under ``package`` by its dotted name (a package by its own name)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def lazy_names(tree: ast.Module) -> dict[str, str]:
    """A package's ``_WHERE`` table (public name -> the submodule that defines it), or nothing."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_WHERE" for t in node.targets):
            return ast.literal_eval(node.value)
    return {}


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_statements(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: anywhere in the module, but under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _type_checking(node.test):
            pending.extend(node.orelse)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        else:
            pending.extend(ast.iter_child_nodes(node))
    return found


def import_graph(package: Path) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of the first such import}, within ``package``."""
    files = module_files(package)
    trees = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in files.items()}
    lazy = {name: lazy_names(tree) for name, tree in trees.items() if files[name].name == "__init__.py"}
    graph: dict[str, dict[str, int]] = {name: {} for name in files}
    for name, tree in trees.items():
        here = name if files[name].name == "__init__.py" else name.rpartition(".")[0]
        for node in import_statements(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    parts = here.split(".")
                    base = ".".join([*parts[:len(parts) - node.level + 1], *([node.module] if node.module else [])])
                targets = []
                for alias in node.names:
                    if f"{base}.{alias.name}" in files:
                        targets.append(f"{base}.{alias.name}")
                    elif alias.name in lazy.get(base, {}):
                        targets.append(f"{base}.{lazy[base][alias.name]}")
                    else:
                        targets.append(base)
            for target in targets:
                if target in files and target != name:
                    graph[name].setdefault(target, node.lineno)
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The groups of modules that import one another, each of more than one module (Tarjan's algorithm,
    without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def shortest_cycle(graph: dict[str, dict[str, int]], group: list[str]) -> list[str]:
    """A shortest cycle through the first module of ``group``, as the modules in import order."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for successor in sorted(graph[node]):
            if successor not in members:
                continue
            if successor == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if successor not in came_from:
                came_from[successor] = node
                queue.append(successor)
    raise AssertionError(f"{group} is not strongly connected")


def cycles_text(package: Path) -> list[str]:
    """One line per group of modules that import one another: a cycle through it, with each import's line."""
    graph = import_graph(package)
    lines = []
    for group in strongly_connected(graph):
        cycle = shortest_cycle(graph, group)
        steps = " -> ".join(f"{a} (line {graph[a][b]})" for a, b in pairwise(cycle))
        lines.append(f"{', '.join(group)}: {steps} -> {cycle[-1]}")
    return lines


def imported_by(graph: dict[str, dict[str, int]], module: str) -> set[str]:
    """Every module ``module`` imports, directly or through others (itself not included)."""
    found: set[str] = set()
    pending = [module]
    while pending:
        for target in graph[pending.pop()]:
            if target not in found:
                found.add(target)
                pending.append(target)
    found.discard(module)
    return found
