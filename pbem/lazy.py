"""Packages whose public names are imported when first used.

``pbem.referee`` and ``pbem.crypto`` offer their main functions at the top
(``from pbem.referee import submit``) without importing every module of the
package up front: a command line run imports only what it uses, which is
most of its cost (docs/performance.md, "Deferred imports").
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


def lazy_package(name: str, where: dict[str, str]) -> None:
    """Make package ``name`` import each public name of ``where`` (name -> its module) when first used.

    A function named like its own module (``pbem.referee.verify``,
    ``pbem.crypto.seal``) keeps the name on the package when that module is
    imported: the import system binds a submodule to the package's attribute
    of the same name, which here stays the function, as it was when the
    package imported everything at once.
    """
    package = sys.modules[name]

    def __getattr__(attribute: str) -> Any:
        module = where.get(attribute)
        if module is None:
            raise AttributeError(f"module {name!r} has no attribute {attribute!r}")
        return getattr(importlib.import_module(f"{name}.{module}"), attribute)

    class LazyPackage(types.ModuleType):
        def __setattr__(self, attribute: str, value: Any) -> None:
            if isinstance(value, types.ModuleType) and where.get(attribute) == attribute:
                value = getattr(value, attribute)
            super().__setattr__(attribute, value)

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    package.__class__ = LazyPackage
