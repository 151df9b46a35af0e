"""``pbem undo``: roll a game back to an earlier turn, only with every seat's signed consent (a Typer sub-app).

* ``pbem undo consent DIR --to N --key KEYFILE [--as NAME]`` — a player signs their consent to return the
  game to turn N, abandoning the latest turn of DIR, and sends the file to the referee like a move;
* ``pbem undo apply DIR CONSENT... --referee-key KEYFILE [--state-dir DIR]`` — the referee, holding one
  consent of every seat, rolls the game back; the abandoned turns are kept in ``abandoned/NNNNNN/``.

The library is :mod:`pbem.referee.undo`; the records and their checks, :mod:`pbem.referee.rollback`.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").

from pathlib import Path

import typer

from pbem.cli.exits import guard as _guard
from pbem.cli.output import say
from pbem.referee.lock import DEFAULT_WAIT

app = typer.Typer(
    name="undo",
    help="Roll a game back to an earlier turn, only with every seat's signed consent: each player signs one "
         "(consent), the referee applies them (apply).",
    no_args_is_help=True,
)


@app.command()
def consent(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory (or your copy of it)."),
    to: int = typer.Option(..., "--to", metavar="N", help="The turn to return to."),
    key: Path = typer.Option(..., "--key", metavar="KEYFILE", help="Your private key file (pbem or OpenSSH ed25519)."),
    player: str | None = typer.Option(None, "--as", metavar="NAME", help="Your player name (default: the seat your "
                                      "key holds)."),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE", help="Where to write the consent (default ./undo-TO-NAME.json)."),
) -> None:
    """Sign your consent to return the game to turn N: the turns after it are abandoned (kept, not deleted).

    The consent names the game, turn N (by number and hash) and the latest
    turn of DIR, the head it abandons: it is good for that head only. The
    seed and every step's draws stay as they were: the decks are as they
    were at turn N, nothing is drawn again. Send the file to the referee
    like a move (by mail, push it, or hand it over); the referee rolls
    back once it holds one from every seat.
    """
    from pbem.crypto.keys import load_private_key
    from pbem.referee.storage import atomic_write
    from pbem.referee.undo import sign_consent

    private = _guard(lambda: load_private_key(key, name=player), key)
    seat, data = _guard(lambda: sign_consent(directory, private, to, player))
    target = out or Path(f"undo-{to:06d}-{seat}.json")
    _guard(lambda: atomic_write(target.resolve(), data))
    say(f"consent written: {target} ({seat} consents to return the game to turn {to}; send it to the referee, "
        "who rolls back once every seat has sent one)")


def _read(path: Path) -> bytes:
    data: bytes = _guard(path.read_bytes, path)
    return data


@app.command()
def apply(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    consents: list[Path] = typer.Argument(..., metavar="CONSENT", help="Every seat's consent file."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    state_dir: Path | None = typer.Option(
        None, "--state-dir", metavar="DIR",
        help="The referee's state directory (its anchor of the game moves to the turn returned to)."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for another referee's lock."),
) -> None:
    """Roll the game back as every seat's consent asks; refused, with nothing changed, without all of them.

    The turns after the one returned to, with their moves and notices, go to
    abandoned/NNNNNN/ beside the consents and the referee's signed record;
    the next turn names the rollback. Refused (exit 29): a seat without a
    consent, a forged one, one of another game or for another head, a turn
    not in the chain, a finished or revealed game, a seat handed over since.
    """
    from pbem.crypto.keys import load_private_key
    from pbem.referee.head import Anchors
    from pbem.referee.undo import apply_rollback

    key = _guard(lambda: load_private_key(referee_key), referee_key)
    given = [(path, _read(path)) for path in consents]
    anchors = Anchors(state_dir) if state_dir is not None else None
    applied = _guard(lambda: apply_rollback(directory, given, key, anchors=anchors, wait=wait))
    if applied.completed:
        say("an earlier pbem undo apply was cut short; it is completed now (the consents given were not read)")
    say(f"rolled back to turn {applied.to}: turns {applied.to + 1} to {applied.head} are kept in {applied.folder}; "
        f"the game goes on from turn {applied.to}, and its next turn names rollback {applied.number}")
