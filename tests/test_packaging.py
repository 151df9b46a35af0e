"""The wheel carries the schemas and scenarios (a non-editable install must find them), and its
``py.typed`` marker: a program that imports the installed package is type-checked against pbem's annotations."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip install .`` installs, built once for this module."""
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools")
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(REPO)],
        check=True,
        cwd=out,
    )
    (built,) = out.glob("pbem-*.whl")
    return built


def test_wheel_ships_schemas_and_scenarios(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for schema in (REPO / "schemas").glob("*.json"):
        assert f"pbem/_data/schemas/{schema.name}" in names
    for scenario in (REPO / "scenarios").rglob("*.toml"):
        assert f"pbem/_data/scenarios/{scenario.relative_to(REPO / 'scenarios').as_posix()}" in names
    for data in (REPO / "scenarios").rglob("*.json"):  # parsed copies and sealed sizes, not the golden traces
        shipped = f"pbem/_data/scenarios/{data.relative_to(REPO / 'scenarios').as_posix()}" in names
        assert shipped == (data.name != "playout-traces.json"), data
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


#: a program using the public API of pbem.referee and pbem.engine as a referee's script would
TYPED_PROGRAM = """
from pathlib import Path

import pbem.engine as engine
import pbem.referee as referee
from pbem.crypto.keys import generate


def play_first_options(directory: Path, game_name: str) -> tuple[int, bool]:
    referee_key = generate("referee")
    alice, bob = generate("alice"), generate("bob")
    game = engine.find_game(game_name)
    assert game_name in engine.game_names()
    referee.new_game(directory, game_name, [("alice", alice.public), ("bob", bob.public)], referee_key,
                     seed=bytes(32), options=None)
    view = referee.read_view(directory, "alice", alice)
    decision: engine.Decision | None = view.decision
    if decision is not None:
        first: engine.Option = decision.options[0]
        step: referee.Step = referee.submit(directory, referee.make_move(view, alice, [first.id]), referee_key)
        assert step.turn == view.number + 1
    status: referee.Status = referee.status(directory)
    report: referee.VerifyReport = referee.verify(directory)
    return report.turns, status.over and game.max_players >= 2
"""


def test_the_installed_package_is_typed_for_the_programs_that_import_it(wheel: Path, tmp_path: Path) -> None:
    """``py.typed`` means something: mypy --strict checks a program that uses pbem.referee and pbem.engine
    against the installed wheel's annotations (no Any where a type is promised), and finds a misuse."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    assert (site / "pbem" / "py.typed").is_file()
    program = tmp_path / "referee_script.py"
    program.write_text(TYPED_PROGRAM)
    misuse = tmp_path / "misuse.py"
    misuse.write_text("import pbem.referee as referee\n\nturns: str = referee.verify('g').turns\n")
    # PEP 561: mypy looks for installed packages on the interpreter's search path; the editable install
    # of the working tree (an import hook mypy cannot follow) must not stand in for the wheel
    env = {**{k: v for k, v in os.environ.items() if k != "MYPYPATH"}, "PYTHONPATH": str(site)}
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
         str(program), str(misuse)],
        capture_output=True, text=True, cwd=tmp_path, env=env,
    )
    lines = [line for line in checked.stdout.splitlines() if ": error:" in line]
    assert [line for line in lines if "referee_script.py" in line] == [], checked.stdout
    assert any("misuse.py:3" in line and 'Incompatible types in assignment (expression has type "int"' in line
               for line in lines), checked.stdout
