"""The mail layer's errors, each with the exit code the command line returns.

A refused *move* is not an error here: the referee's refusal becomes the
answer to the mail that carried it. These are the failures of the mail
layer itself: a configuration that does not make sense, a mail server that
cannot be reached or refuses the login, a message that cannot be built.
"""

from __future__ import annotations


class MailError(Exception):
    """Base of every error the mail layer raises."""

    exit_code = 1
    reason = "mail-error"


class MailConfigError(MailError):
    """The mail configuration file is missing, not TOML, or lacks what the command needs."""

    exit_code = 30
    reason = "mail-config"


class MailServerError(MailError):
    """A mail server (IMAP or SMTP) cannot be reached, refuses the login, or fails a command."""

    exit_code = 31
    reason = "mail-server"


class MailFileError(MailError):
    """A mail file or attachment given to ``pbem mail unpack`` holds nothing pbem can use."""

    exit_code = 32
    reason = "mail-file"
