"""``pbem`` ends its process at once when the command is done (:func:`pbem.__main__._exit_now`), as the
interpreter would have ended it: the exit handlers run once, every line printed arrives, the exit status
is the command's; and the interpreter's own exit is kept where it would do more (another thread runs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers_referee import make_table
from typer.testing import CliRunner

from pbem.cli.main import app

TESTS = Path(__file__).resolve().parents[1]
#: ``pbem`` as its console script runs it, with an exit handler and, when asked, a thread still running
RUNNER = (
    "import atexit, sys, threading\n"
    "from pbem.__main__ import run\n"
    "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
    "if sys.argv[1] == 'thread':\n"
    # the thread ends only once the main thread has ended, so it still runs when the command is done, however
    # long the command takes on a loaded machine
    "    threading.Thread(target=lambda: (threading.main_thread().join(), print('thread done', flush=True))).start()\n"
    "sys.argv = ['pbem', *sys.argv[2:]]\n"
    "run()\n"
)


def pbem(tmp_path: Path, *args: object, thread: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PBEM_GAMES": "toygame",
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", RUNNER, "thread" if thread else "-", *map(str, args)], env=env,
                          cwd=tmp_path, capture_output=True, text=True)


def test_a_command_prints_all_it_says_runs_the_exit_handlers_once_and_exits_with_its_status(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    for args in (["status", table.dir], ["status", table.dir, "--json"], ["log", table.dir], ["--help"],
                 ["status", tmp_path / "nowhere"], ["submit", table.dir, tmp_path / "no-move.json",
                                                    "--referee-key", table.key_files["referee"]]):
        done = pbem(tmp_path, *args)
        expected = CliRunner().invoke(app, list(map(str, args)), prog_name="pbem")
        assert (done.returncode, done.stdout) == (expected.exit_code, expected.stdout)
        assert done.stderr.count("exit handler ran") == 1
        assert done.stderr.endswith("exit handler ran\n")  # after what the command printed
    assert pbem(tmp_path, "status", tmp_path / "nowhere").returncode != 0


def test_the_interpreter_ends_the_process_when_another_thread_still_runs(tmp_path: Path) -> None:
    table = make_table(tmp_path)
    done = pbem(tmp_path, "status", table.dir, thread=True)
    assert done.returncode == 0
    assert done.stdout.endswith("thread done\n")  # waited for, as the interpreter does
    assert done.stderr.count("exit handler ran") == 1
