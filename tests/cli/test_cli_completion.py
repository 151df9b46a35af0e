"""Shell completion: ``pbem completion SHELL`` prints a script that bash, zsh and fish run on Tab.

The script asks pbem (``_PBEM_COMPLETE=SHELL_complete``, the line typed so
far in ``COMP_LINE``), which completes command names, options, the player
names of the game directory on the line, decision kinds, games, scenarios,
and leaves files and directories to the shell. Each shell is run for real,
in a terminal, with Tab pressed, as a person types.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers_referee import make_table
from typer.main import get_command

from pbem.cli import completion
from pbem.cli.app import COMPLETE_ENV, GAMES_ENV
from pbem.cli.main import app

TESTS = Path(__file__).resolve().parents[1]


def _answer(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str, shell: str = "bash",
            current: str | None = None) -> tuple[int, list[str]]:
    """What pbem answers a completion script that sends ``line``: its exit code and its lines."""
    monkeypatch.setenv("COMP_LINE", line)
    if current is not None:
        monkeypatch.setenv("COMP_CUR", current)
    capsys.readouterr()
    code = completion.complete(get_command(app), f"{shell}_complete")
    return code, capsys.readouterr().out.splitlines()


def _values(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str) -> list[str]:
    code, lines = _answer(monkeypatch, capsys, line)
    assert code == 0
    return [entry.partition(",")[2] for entry in lines if entry.startswith("plain,")]


@pytest.fixture
def in_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A toy game in ``game``, the current directory holding it; the toy game registered as PBEM_GAMES does."""
    make_table(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(GAMES_ENV, "toygame")
    return tmp_path


# --- the scripts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("shell", completion.SHELLS)
def test_pbem_completion_prints_the_script_of_each_shell(shell: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", "completion", shell], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == completion.script(shell)
    assert f"{COMPLETE_ENV}={shell}_complete" in done.stdout and "COMP_LINE" in done.stdout


def test_a_shell_pbem_has_no_script_for_is_a_usage_error() -> None:
    done = subprocess.run([sys.executable, "-m", "pbem", "completion", "tcsh"], capture_output=True, text=True)
    assert done.returncode == 2 and "give one of bash, zsh, fish" in done.stderr and not done.stdout


# --- what pbem answers ---------------------------------------------------------------------------------


def test_command_names_are_completed_from_their_registration_with_their_help(monkeypatch, capsys) -> None:
    assert _values(monkeypatch, capsys, "pbem st") == ["status"]
    assert {"keygen", "move", "completion", "mail", "git", "kit"} <= set(_values(monkeypatch, capsys, "pbem "))
    _, lines = _answer(monkeypatch, capsys, "pbem sta", shell="fish")
    assert lines == ["plain,status\tThe turn number, whose decision is awaited and of what kind, or the..."]
    _, lines = _answer(monkeypatch, capsys, "pbem mail se", shell="zsh")
    assert lines[:2] == ["plain", "serve"] and lines[3:5] == ["plain", "send"]


def test_a_commands_options_are_completed(monkeypatch, capsys) -> None:
    assert _values(monkeypatch, capsys, "pbem status --j") == ["--json"]
    assert set(_values(monkeypatch, capsys, "pbem move game --")) >= {"--as", "--key", "--choose", "--out"}
    assert _values(monkeypatch, capsys, "pbem --ver") == ["--version"]


def test_as_and_seat_complete_the_player_names_of_the_game_directory_on_the_line(in_table, monkeypatch,
                                                                                  capsys) -> None:
    assert _values(monkeypatch, capsys, "pbem view game --as ") == ["alice", "bob"]
    assert _values(monkeypatch, capsys, "pbem move game --as b") == ["bob"]
    assert _values(monkeypatch, capsys, "pbem takeover game --seat a") == ["alice"]
    assert _values(monkeypatch, capsys, "pbem view --as ") == []  # no game directory on the line yet


def test_auto_pass_completes_each_decision_kind_of_the_game_with_each_mode(in_table, monkeypatch, capsys) -> None:
    assert _values(monkeypatch, capsys, "pbem move game --auto-pass dr") == ["draw=always", "draw=off"]
    assert _values(monkeypatch, capsys, "pbem move game --order dr") == ["draw=pass", "draw=first", "draw=off"]
    # bash's word stops at '=': it is given what follows it
    _, lines = _answer(monkeypatch, capsys, "pbem move game --auto-pass draw=o", current="o")
    assert lines == ["plain,off"]


def test_games_scenarios_and_shells_are_completed(in_table, monkeypatch, capsys) -> None:
    assert {"nightfall", "nightlancer", "highcard"} <= set(_values(monkeypatch, capsys, "pbem new x --game "))
    assert _values(monkeypatch, capsys, "pbem demo nightl") == ["nightlancer"]
    assert "standard" in _values(monkeypatch, capsys, "pbem new x --game nightfall --scenario ")
    assert _values(monkeypatch, capsys, "pbem completion ") == ["bash", "zsh", "fish"]


def test_files_and_directories_are_left_to_the_shell(monkeypatch, capsys) -> None:
    assert _answer(monkeypatch, capsys, "pbem status ga")[1] == ["dir,ga"]
    assert _answer(monkeypatch, capsys, "pbem view game --key ali")[1] == ["file,ali"]
    assert _answer(monkeypatch, capsys, "pbem mail unpack ", shell="zsh")[1] == ["file", "", "_"]


def test_a_value_that_is_not_one_word_is_never_handed_to_the_shell(monkeypatch, capsys) -> None:
    given = ["bash", "two words", "new\nline", "clear\x1b[2J", "$(reboot)", "zsh"]
    monkeypatch.setitem(completion.VALUES, "SHELL", lambda ctx, incomplete: given)
    assert _values(monkeypatch, capsys, "pbem completion ") == ["bash", "zsh"]


@pytest.mark.parametrize("game_toml", [None, "not = [toml", 'game_id = "x"\n', "players = 5\n"])
def test_a_game_directory_that_cannot_be_read_completes_nothing_and_says_nothing(game_toml, tmp_path, monkeypatch,
                                                                                capsys) -> None:
    (tmp_path / "game").mkdir()
    if game_toml is not None:
        (tmp_path / "game" / "game.toml").write_text(game_toml)
    monkeypatch.chdir(tmp_path)
    assert _answer(monkeypatch, capsys, "pbem view game --as ") == (0, [])
    assert _answer(monkeypatch, capsys, "pbem move game --auto-pass ") == (0, [])
    assert capsys.readouterr().err == ""


def test_a_request_pbem_does_not_know_is_refused() -> None:
    env = {**os.environ, COMPLETE_ENV: "tcsh_complete", "COMP_LINE": "pbem st"}
    done = subprocess.run([sys.executable, "-m", "pbem"], env=env, capture_output=True, text=True)
    assert done.returncode == 2 and not done.stdout and "expected SHELL_complete" in done.stderr


def test_completion_runs_no_command(tmp_path: Path) -> None:
    env = {**os.environ, COMPLETE_ENV: "bash_complete", "COMP_LINE": "pbem keygen alice --out "}
    done = subprocess.run([sys.executable, "-m", "pbem", "keygen", "alice"], env=env, cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "dir,\n" and list(tmp_path.iterdir()) == []


# --- each shell, for real ------------------------------------------------------------------------------


class Terminal:
    """A shell run interactively in a pseudo-terminal, typed into as a person types."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # pragma: no cover - the child
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        self.seen = b""

    def _wait(self, found: re.Pattern[bytes], since: int, timeout: float = 60) -> re.Match[bytes] | None:
        deadline = time.monotonic() + timeout
        while (match := found.search(self.seen, since)) is None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return None
            if not chunk:
                return None
            self.seen += chunk
        return match

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def ready(self) -> None:
        since = len(self.seen)
        self.type("echo RE''ADY\n")  # the line typed shows RE''ADY, its output READY
        assert self._wait(re.compile(rb"READY\r?\n"), since), self.seen.decode(errors="replace")

    def tab(self, typed: str, expected: str) -> str:
        """The line after typing ``typed`` and Tab, as the shell then runs it."""
        since = len(self.seen)
        self.type(typed + "\t")
        self._wait(re.compile(re.escape(expected.rsplit(" ", 1)[-1].encode())), since)  # the shell completed
        since = len(self.seen)
        self.type("\x01echo '<<' \n")  # to the start of the line: what the line now holds is printed after <<
        match = self._wait(re.compile(rb"(?m)^(?:\x1b\[[0-9;?]*[A-Za-z])*<< (.*?)\s*$"), since)
        assert match, self.seen[since:].decode(errors="replace")
        return match.group(1).decode()

    def close(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


#: each way to install a script: the shell started in a terminal, where the script goes under $HOME, and what
#: is typed first (README's ways, and a script sourced from the shell's start-up file)
ROUTES = {
    "bash": (["bash", "--norc", "--noprofile", "-i"], ".local/share/bash-completion/completions/pbem",
             ["PS1='$ '", "source /usr/share/bash-completion/bash_completion"]),
    "bash-sourced": (["bash", "--norc", "--noprofile", "-i"], "pbem.bash", ["PS1='$ '", "source ~/pbem.bash"]),
    "zsh": (["zsh", "-f", "-i"], ".zfunc/_pbem",
            ["PS1='$ '", "unsetopt auto_remove_slash", "fpath+=~/.zfunc", "autoload -Uz compinit && compinit -u -D"]),
    "zsh-sourced": (["zsh", "-f", "-i"], "pbem.zsh",
                    ["PS1='$ '", "unsetopt auto_remove_slash", "autoload -Uz compinit && compinit -u -D",
                     "source ~/pbem.zsh"]),
    "fish": (["fish", "-i"], ".config/fish/completions/pbem.fish", ["set -g fish_autosuggestion_enabled 0"]),
}
#: what bash needs to load a script installed as README says (the Debian package)
BASH_COMPLETION = Path("/usr/share/bash-completion/bash_completion")

#: typed, then Tab: what the line then holds
TYPED = [
    ("pbem sta", "pbem status"),
    ("pbem status --js", "pbem status --json"),
    ("pbem view game --as al", "pbem view game --as alice"),
    ("pbem move game --auto-pass draw=o", "pbem move game --auto-pass draw=off"),
    ("pbem status ga", "pbem status game/"),
]


@pytest.mark.parametrize("route", list(ROUTES))
def test_each_shell_completes_commands_options_values_and_directories_on_tab(route: str, tmp_path: Path) -> None:
    """The script installed as README says (or sourced), in a new shell."""
    shell = route.partition("-")[0]
    package = "bash-completion" if shell == "bash" else shell
    missing = shutil.which(shell) is None or (route == "bash" and not BASH_COMPLETION.exists())
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI must run the {shell} completion test: .ci/run installs the Debian package {package}")
    if missing:
        pytest.skip(f"{package} is not installed (apt-get install {package}); CI installs it")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "pbem"  # the pbem of this interpreter, first on the shell's path
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m pbem "$@"\n')
    wrapper.chmod(0o755)
    argv, installed, setup = ROUTES[route]
    script = tmp_path / installed
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(completion.script(shell))
    table = tmp_path / "table"
    make_table(table)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "HOME": str(tmp_path), "TERM": "dumb",
           "LANG": "C.UTF-8", GAMES_ENV: "toygame",
           "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    terminal = Terminal(argv, env, table)
    try:
        for line in setup:
            terminal.type(line + "\n")
        terminal.ready()
        for typed, expected in TYPED:
            assert terminal.tab(typed, expected) == expected, (route, typed)
    finally:
        terminal.close()
