"""The git configuration file: what it may say, and every mistake named (docs/git.md)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.git.config import GitConfig
from pbem.git.errors import GitConfigError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "git"


def config(tmp_path: Path, text: str) -> GitConfig:
    path = tmp_path / "referee.toml"
    path.write_text(text)
    return GitConfig.read(path)


def test_the_example_configuration_reads() -> None:
    referee = GitConfig.read(EXAMPLES / "referee.toml")
    assert referee.remote == "git@git.example.org:friends/table.git"  # a URL, as it is
    assert referee.branch_ref == "refs/heads/game"
    assert [inbox.pattern for inbox in referee.inboxes] == ["refs/heads/inbox/*"]
    assert referee.key == EXAMPLES / "referee.key" and referee.state == EXAMPLES / "git-state"  # relative to the file
    assert referee.committer == ("pbem referee", "referee@example.org")
    assert [(game.dir, game.path) for game in referee.games] == [(EXAMPLES / "games" / "first", "game")]
    assert referee.mail is None  # the turn notices are optional


def test_the_example_systemd_service_runs_a_valid_serve_command(tmp_path: Path) -> None:
    line = next(line for line in (EXAMPLES / "pbem-git.service").read_text().splitlines()
                if line.startswith("ExecStart="))
    args = shlex.split(line[line.index("git serve"):])
    args[args.index("--config") + 1] = str(tmp_path / "absent.toml")
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 40, result.output  # the arguments parse; the configuration is missing
    assert "no such git configuration file" in result.output


def test_defaults_and_a_remote_that_is_a_path(tmp_path: Path) -> None:
    read = config(tmp_path, 'remote = "../table.git"\n')
    assert read.remote == str((tmp_path / ".." / "table.git").resolve())
    assert read.branch == "game" and [i.pattern for i in read.inboxes] == ["refs/heads/inbox/*"]
    assert config(tmp_path, 'remote = "https://github.com/friends/table.git"').remote == \
        "https://github.com/friends/table.git"
    assert config(tmp_path, 'mail = "referee-mail.toml"').mail == tmp_path / "referee-mail.toml"


def test_an_inbox_pattern_says_which_refs_are_inboxes(tmp_path: Path) -> None:
    pulls, heads = config(tmp_path, 'inboxes = ["refs/pull/*/head", "refs/heads/moves-*"]').inboxes
    assert pulls.name_of("refs/pull/12/head") == "12" and pulls.name_of("refs/pull/12/merge") is None
    assert heads.name_of("refs/heads/moves-alice") == "alice" and heads.name_of("refs/heads/moves-") is None
    assert pulls.ref("7") == "refs/pull/7/head"


@pytest.mark.parametrize("text, message", [
    ('remotes = "x"', "unknown key 'remotes'"),
    ('remote = "--upload-pack=touch x"', "would be read as an option of git"),
    ('remote = ""', "expected a non-empty string"),
    ('branch = "../main"', "not a plain branch name"),
    ('branch = "game.lock"', "not a plain branch name"),
    ('inboxes = ["refs/heads/*"]', "matches the game branch 'game'"),
    ('branch = "inbox/x"', "matches the game branch"),
    ('inboxes = ["refs/heads/inbox/**"]', "not a ref pattern with one '*'"),
    ('inboxes = ["heads/inbox/*"]', "not a ref pattern with one '*'"),
    ('inboxes = ["refs/heads/.inbox/*"]', "not a ref pattern with one '*'"),
    ('inboxes = "refs/heads/inbox/*"', "inboxes: expected a list of strings"),
    ('committer = "referee"', "is not 'Name <address>'"),
    ('[[games]]\npath = "game"', "games[0].dir: missing"),
    ('[[games]]\ndir = "a"\npath = "../x"', "games[0].path: '../x' is not a plain relative path"),
    ('[[games]]\ndir = "a"\nspectators = []', "games[0]: unknown key 'spectators'"),
    ('[[games]]\ndir = "a"\npath = "g"\n[[games]]\ndir = "b"\npath = "g/h"', "two games lie at 'g' and 'g/h'"),
    ('key = "a\\nb"', "key: expected a non-empty string on one line"),
])
def test_every_mistake_is_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(GitConfigError) as caught:
        config(tmp_path, text)
    assert message in str(caught.value) and str(tmp_path / "referee.toml") in str(caught.value)


def test_a_file_that_is_not_toml_is_named(tmp_path: Path) -> None:
    with pytest.raises(GitConfigError, match="not a readable TOML file"):
        config(tmp_path, "remote = ")


def test_serve_names_what_the_configuration_lacks(tmp_path: Path) -> None:
    path = tmp_path / "referee.toml"
    path.write_text('remote = "x"\n')
    result = CliRunner().invoke(app, ["git", "serve", "--config", str(path), "--once"])
    assert result.exit_code == 40 and "needs key, state, games" in result.output
    assert CliRunner().invoke(app, ["git", "serve", "--config", str(path)]).exit_code == 2
