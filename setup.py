"""Ship the top-level ``schemas/`` and ``scenarios/`` inside the wheel.

They live at the top of the repository so that people find and edit them
there; a non-editable install copies them to ``pbem/_data/`` where
:mod:`pbem.resources` looks first.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
DATA_DIRS = ("schemas", "scenarios")


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        for name in DATA_DIRS:
            source = HERE / name
            target = Path(self.build_lib) / "pbem" / "_data" / name
            if target.exists():
                shutil.rmtree(target)
            # a game's golden traces are for its tests, not for an installation
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "playout-traces.json"))


setup(cmdclass={"build_py": BuildPyWithData})
