"""No module of pbem imports itself through others: the import graph of the whole package has no cycle.

The graph is read from the source (:mod:`helpers_imports`): deferred imports and a package's lazy names count,
imports for type checking alone do not. A cycle is named by its modules and the line of each import that
closes it.
"""

from __future__ import annotations

from pathlib import Path

from helpers_imports import PACKAGE, cycles_text


def test_no_module_of_pbem_imports_itself_through_others() -> None:
    assert cycles_text(PACKAGE) == []


def write_package(root: Path, modules: dict[str, str]) -> Path:
    for name, source in modules.items():
        path = root / Path(*name.split("."))
        if name.endswith("__init__"):
            path = root / Path(*name.split(".")[:-1]) / "__init__"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".py").write_text(source, encoding="utf-8")
    return root / "pkg"


def test_a_cycle_through_a_deferred_import_or_a_lazy_name_is_named_with_its_lines(tmp_path: Path) -> None:
    package = write_package(tmp_path, {
        "pkg.__init__": "from pbem.lazy import lazy_package\n_WHERE = {'run': 'runner'}\nlazy_package(__name__, _WHERE)\n",
        "pkg.runner": "from pkg import helpers\n\ndef run():\n    return helpers.help()\n",
        "pkg.helpers": "def help():\n    from pkg import run  # deferred, and a lazy name of the package\n    return run\n",
        "pkg.a": "from . import b\n",
        "pkg.b": "import pkg.c\n",
        "pkg.c": "from .a import something\n",
    })
    assert cycles_text(package) == [
        "pkg.a, pkg.b, pkg.c: pkg.a (line 1) -> pkg.b (line 1) -> pkg.c (line 1) -> pkg.a",
        "pkg.helpers, pkg.runner: pkg.helpers (line 2) -> pkg.runner (line 1) -> pkg.helpers",
    ]


def test_an_import_for_type_checking_alone_is_no_cycle(tmp_path: Path) -> None:
    package = write_package(tmp_path, {
        "pkg.__init__": "",
        "pkg.a": "from pkg import b\n",
        "pkg.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\nelse:\n    a = None\n",
    })
    assert cycles_text(package) == []
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n"
                                  "    from pkg import a\n", encoding="utf-8")
    assert cycles_text(package) == ["pkg.a, pkg.b: pkg.a (line 1) -> pkg.b (line 5) -> pkg.a"]
