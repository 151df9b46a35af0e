"""The benchmark scripts (benchmarks/) are not run by the suite, which must stay fast; each must still compile."""

from __future__ import annotations

import py_compile
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py"))


def test_there_are_benchmark_scripts():
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_benchmark_script_compiles(script: Path, tmp_path: Path):
    py_compile.compile(str(script), cfile=str(tmp_path / "out.pyc"), doraise=True)
