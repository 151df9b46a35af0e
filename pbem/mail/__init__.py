"""Play by e-mail: the referee reads move and join files from a mailbox and answers by SMTP.

The mail layer sits between the command line and the referee (cli -> mail
-> referee): it finds files in mails and hands them to
:func:`pbem.referee.submit`, and it mails what the referee wrote. It knows
nothing about any particular game, never prints and never exits. One module
per concern:

* :mod:`~pbem.mail.config` — the TOML configuration (servers, credentials, addresses, games);
* :mod:`~pbem.mail.mailboxes` — reading an IMAP folder, a Maildir or an mbox;
* :mod:`~pbem.mail.incoming` — reading a mail anybody sent, within bounds, its headers as text;
* :mod:`~pbem.mail.extract` — finding the move and join files in a mail;
* :mod:`~pbem.mail.compose` — the mails pbem writes;
* :mod:`~pbem.mail.sending` — SMTP and the referee's outbox;
* :mod:`~pbem.mail.record` — which mails are done, which turn each address was sent;
* :mod:`~pbem.mail.serve` — the referee's loop (``pbem mail serve``);
* :mod:`~pbem.mail.player` — the player's side (unpack a turn mail, mail a move).
"""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

#: each public name and the module that defines it, imported when first used
_WHERE = {
    "MailConfig": "config",
    "MailConfigError": "errors", "MailError": "errors", "MailFileError": "errors", "MailServerError": "errors",
    "Extracted": "extract", "PbemFile": "extract", "extract": "extract",
    "Unpacked": "player", "file_mail": "player", "unpack": "player",
    "ServeReport": "serve", "serve_once": "serve",
}

if TYPE_CHECKING:  # pragma: no cover
    from pbem.mail.config import MailConfig
    from pbem.mail.errors import MailConfigError, MailError, MailFileError, MailServerError
    from pbem.mail.extract import Extracted, PbemFile, extract
    from pbem.mail.player import Unpacked, file_mail, unpack
    from pbem.mail.serve import ServeReport, serve_once

lazy_package(__name__, _WHERE)

__all__ = [
    "Extracted",
    "MailConfig",
    "MailConfigError",
    "MailError",
    "MailFileError",
    "MailServerError",
    "PbemFile",
    "ServeReport",
    "Unpacked",
    "extract",
    "file_mail",
    "serve_once",
    "unpack",
]
