"""The git transport's errors, each with the exit code the command line returns.

A refused *move* is not an error here: the referee's refusal becomes its
signed notice in ``rejected/`` and a line of the answer the referee commits.
These are the failures of the transport itself: a configuration that does
not make sense, a remote that cannot be reached or refuses a fetch or a
push, git itself failing on the referee's own repository.
"""

from __future__ import annotations

from pbem.referee.errors import FileError


class GitError(Exception):
    """Base of every error the git transport raises."""

    exit_code = 1
    reason = "git-error"


class GitConfigError(GitError):
    """The git configuration is missing, not TOML or wrong (the key at fault is named), git is not installed, or a folder given is not a git clone."""

    exit_code = 40
    reason = "git-config"


class GitRemoteError(GitError):
    """The shared repository cannot be reached, or refuses a fetch or a push (the referee's commits stay for the next run)."""

    exit_code = 41
    reason = "git-remote"


class GitRepositoryError(GitError, FileError):
    """git failed on a repository of this machine (the referee's own, or a player's clone): an unexpected error."""

    exit_code = FileError.exit_code
    reason = FileError.reason
