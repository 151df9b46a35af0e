"""The wheel carries the schemas and scenarios (a non-editable install must find them)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_wheel_ships_schemas_and_scenarios(tmp_path: Path) -> None:
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path), str(REPO)],
        check=True,
        cwd=tmp_path,
    )
    (wheel,) = tmp_path.glob("pbem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in (REPO / "schemas").glob("*.json"):
        assert f"pbem/_data/schemas/{schema.name}" in names
    for scenario in (REPO / "scenarios").rglob("*.toml"):
        assert f"pbem/_data/scenarios/{scenario.relative_to(REPO / 'scenarios').as_posix()}" in names
    assert "pbem/engine/protocol.py" in names


def test_test_modules_have_unique_basenames() -> None:
    """pytest's default import mode needs one basename per test module outside packages."""
    tests = REPO / "tests"
    seen: dict[str, Path] = {}
    for path in sorted(tests.rglob("test_*.py")):
        if (path.parent / "__init__.py").exists():
            continue
        assert path.name not in seen, f"{path} and {seen[path.name]} share a basename"
        seen[path.name] = path
