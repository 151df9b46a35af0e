"""Reading a configuration file of pbem's (TOML): every error names the file and the key at fault.

The mail transport's (:mod:`pbem.mail.config`) and the git transport's
(:mod:`pbem.git.config`) readers are :class:`ConfigReader`\\ s, each raising
its own transport's configuration error.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, ClassVar


def read_document(path: Path, error: type[Exception], what: str) -> dict[str, Any]:
    """The TOML document of the configuration file ``path`` (``what``: "mail configuration"), or ``error``."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such {what} file") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as problem:
        raise error(f"{path}: not a readable TOML file: {problem}") from problem
    except RecursionError:  # tomllib recurses once per nested array or table
        raise error(f"{path}: not a readable TOML file: nested too deep") from None


class ConfigReader:
    """Reads one configuration document, naming the key at fault in every error; relative paths are
    relative to the file's folder."""

    #: the error this reader raises (a transport's configuration error, whose exit code it has)
    error: ClassVar[type[Exception]] = ValueError

    def __init__(self, path: Path) -> None:
        self.file = path
        self.base = path.parent

    def fail(self, where: str, message: str) -> Exception:
        return self.error(f"{self.file}: {where}: {message}")

    def keys(self, table: dict[str, Any], where: str, allowed: set[str]) -> None:
        """Refuse a key not in ``allowed`` by name, so that a typo is not silently ignored."""
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise self.fail(where or "top level", f"unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")

    def text(self, table: dict[str, Any], key: str, where: str = "") -> str | None:
        """A string on one line, or ``None`` when the key is absent."""
        value = table.get(key)
        if value is not None and (not isinstance(value, str) or not value or "\n" in value or "\0" in value):
            raise self.fail(f"{where}{key}", "expected a non-empty string on one line")
        return value

    def path(self, table: dict[str, Any], key: str, where: str = "") -> Path | None:
        """A path (``~`` expanded, relative to the file's folder), or ``None`` when the key is absent."""
        value = self.text(table, key, where)
        return None if value is None else self.base / Path(value).expanduser()
