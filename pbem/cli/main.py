"""``pbem``: the command line of the referee.

Every command is thin: arguments in, one library call, output out. Only
the command line turns errors into messages and exit codes
(:mod:`pbem.cli.exits`, whose table is in ``docs/referee.md``). The
commands register on :data:`pbem.cli.app.commands`, which builds each one
only when it is named. Each command imports the library modules it calls
when it runs, so that ``pbem status`` does not pay for the modules of
``pbem verify`` or ``pbem mail`` (docs/performance.md, "Deferred imports").
At the top are only what every command needs: typer, the error classes.
"""

# No ``from __future__ import annotations`` here: typer evaluates each annotation of the command it runs
# twice when it is a string (docs/performance.md, "Annotations evaluated at import"). The annotations
# below name only what is imported or defined above them.

import json
import re
from collections.abc import Callable, Iterator
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from pbem.cli.app import app, commands
from pbem.cli.exits import emit_json as _emit_json
from pbem.cli.exits import exit_for as _exit_for
from pbem.cli.exits import fail as _fail
from pbem.cli.exits import guard as _guard
from pbem.cli.exits import json_output as _json_output
from pbem.cli.output import say
from pbem.crypto.errors import CryptoError
from pbem.engine.errors import EngineError
from pbem.referee import clock
from pbem.referee.errors import (
    AlreadyApplied,
    FileError,
    GameDirError,
    RefereeError,
    Refusal,
    SetupError,
    VerificationFailed,
)
from pbem.referee.lock import DEFAULT_WAIT
from pbem.referee.seen import STATE_ENV

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.head import Anchors


# --- keys -------------------------------------------------------------------


def _seed_bytes(seed: str | None) -> bytes | None:
    """The bytes of a ``--seed HEX`` option (None when not given): 32 bytes, as 64 hex digits."""
    if seed is None:
        return None
    if not re.fullmatch(r"[0-9a-fA-F]{64}", seed):
        _fail(f"--seed {seed!r}: a test seed is 32 bytes, written as 64 hex digits")
    return bytes.fromhex(seed)


def _now(text: str | None, force: bool = False) -> datetime | None:
    """The referee's clock from ``--now`` (``None``: ``$PBEM_NOW``, else the system clock); one far ahead of
    the system clock is refused unless ``force`` (``--force-now``)."""
    if text is None:
        return None
    moment = _guard(lambda: clock.parse_time(text, "--now"))
    if not force:
        _guard(lambda: clock.check_not_ahead(moment))
    return moment


#: the help of every referee command's ``--now``
NOW_HELP = (f"The referee's clock, ISO-8601 with its zone (2025-03-01T12:00:00Z); default ${clock.NOW_ENV}, "
            "else the system clock. Recorded in the turns of a game with deadlines.")
#: the help of every referee command's ``--force-now``
FORCE_NOW_HELP = (f"Take a --now more than {clock.AHEAD_MAX.seconds // 60} minutes ahead of this machine's clock "
                  "(refused otherwise: later runs at the real clock would refuse the game until then).")


@commands.command()
def keygen(
    name: str = typer.Argument(..., metavar="NAME", help="Name of the key's owner (a player name or 'referee')."),
    out: Path = typer.Option(
        Path("."), "--out", metavar="DIR", help="Directory to write NAME.key (mode 0600) and NAME.pub into."),
) -> None:
    """Make a key pair: an Ed25519 signing key and an X25519 encryption key.

    Keep NAME.key private; give NAME.pub to the referee (players) or to the
    players (the referee).
    """
    from pbem.crypto.keys import generate, write_keypair

    key = _guard(lambda: generate(name))
    _guard(lambda: out.mkdir(parents=True, exist_ok=True))
    if (out / f"{name}.key").exists():
        _fail(f"{out / (name + '.key')} exists; refusing to overwrite a private key", SetupError.exit_code,
              SetupError.reason)
    key_path, pub_path = _guard(lambda: write_keypair(key, out))
    say(f"private key: {key_path} (keep it secret)")
    say(f"public key:  {pub_path}")
    say(f"fingerprint: {key.public.fingerprint}")
    say(f"age recipient: {key.public.recipient}")


# --- the referee ------------------------------------------------------------


def _split_pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name or not value:
        _fail(f"{what} {text!r}: expected NAME=VALUE")
    return name, value


@commands.command()
def new(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory to create (must be new or empty)."),
    game: str = typer.Option(
        ..., "--game", metavar="GAME", help="Which game: nightfall, nightlancer (see `pbem games`)."),
    player: list[str] = typer.Option(
        ..., "--player", metavar="NAME=PUBFILE", help="NAME=PUBFILE, once per seat, in seat order."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    scenario: str | None = typer.Option(
        None, "--scenario", metavar="NAME", help="Scenario name; default: the game's standard set-up."),
    seed: str | None = typer.Option(
        None, "--seed", metavar="HEX", help="Secret seed as hex, FOR TEST GAMES ONLY: it is published in game.toml."
    ),
    cards: Path | None = typer.Option(
        None, "--cards", metavar="FILE", help="A card file replacing the shipped card data."),
    option: list[str] = typer.Option(
        [], "--option", metavar="KEY=VALUE", help="KEY=VALUE: change one setting of the scenario."),
    wait_for_joins: bool = typer.Option(
        False, "--wait-for-joins",
        help="Deal only once every player has sent a signed join file (pbem join) adding their entropy.",
    ),
    deadline: list[str] = typer.Option(
        [], "--deadline", metavar="DURATION|KIND=DURATION",
        help="DURATION (48h: every decision) or KIND=DURATION|off (a kind of its own): after it, pbem tick "
             "answers the decision with the game's default action.",
    ),
    remind: list[str] = typer.Option(
        [], "--remind", metavar="DURATION", help="DURATION before a deadline to remind the player (24h)."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    force_now: bool = typer.Option(False, "--force-now", help=FORCE_NOW_HELP),
) -> None:
    """Create a game directory and deal turn 0 (or wait for every player's join file)."""
    from pbem.cli import text
    from pbem.crypto.keys import load_private_key, load_public_key
    from pbem.engine.options import format_value
    from pbem.referee.setup import new_game

    seed_bytes = _seed_bytes(seed)  # a usage error, before any file is read
    moment = _now(now, force_now)
    seats = []
    for item in player:
        name, pub_file = _split_pair(item, "--player")
        seats.append((name, _guard(partial(load_public_key, Path(pub_file), name=name))))
    options = dict(_split_pair(item, "--option") for item in option)
    key = _guard(lambda: load_private_key(referee_key))
    gamefile = _guard(
        lambda: new_game(directory, game, seats, key, scenario=scenario, seed=seed_bytes, cards=cards,
                         options=options, wait_for_joins=wait_for_joins, deadlines=deadline, remind=remind,
                         now=moment)
    )
    say(f"game {gamefile.game_id} ({gamefile.game}, scenario {gamefile.scenario}) created in {directory}")
    if gamefile.options:
        say("options: " + ", ".join(f"{k}={format_value(v)}" for k, v in gamefile.options.items()))
    say(f"seed commitment: {gamefile.commitment}")
    if seed_bytes is not None:
        say("test game: the seed is published in game.toml")
    if wait_for_joins:
        say("the deal waits for every player's join files (a commitment, then the nonce): "
                   "pbem join DIR --as NAME --key KEYFILE")
    else:
        say("entropy: referee-only (no player entropy; use --wait-for-joins to add it)")
    if gamefile.deadlines is not None:
        say(f"deadlines: {text.deadlines_line(gamefile.deadlines)}; run pbem tick (or pbem mail serve) "
                   "regularly to enforce them")
    say(text.awaiting_line(game_status_doc(directory)["decisions"]))


def game_status_doc(directory: Path) -> dict[str, Any]:
    from pbem.referee.public import status as game_status

    return _guard(lambda: game_status(directory)).to_json()


#: the referee's ``--state-dir`` (``submit``, ``tick``, ``takeover``): where it anchors the games it steps
REFEREE_STATE_HELP = ("The referee's state directory, where no player writes: the referee keeps there the latest turn "
                      "it wrote of this game (its anchor) and refuses a game directory that lost it (exit 26). "
                      "The referee's mail and git loops always anchor in their own.")


def _anchors(state_dir: Path | None) -> "Anchors | None":
    if state_dir is None:
        return None
    from pbem.referee.head import Anchors

    return Anchors(state_dir)


@commands.command()
def submit(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    move_files: list[Path] = typer.Argument(..., metavar="FILE", help="Move files to apply, in order."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for another referee's lock."),
    as_json: bool = typer.Option(False, "--json", help="Print the outcome as JSON (schemas/cli-submit.schema.json)."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    force_now: bool = typer.Option(False, "--force-now", help=FORCE_NOW_HELP),
    state_dir: Path | None = typer.Option(None, "--state-dir", metavar="DIR", help=REFEREE_STATE_HELP),
) -> None:
    """Check and apply move files (one referee step each); refusals go to rejected/."""
    from pbem.cli import text
    from pbem.crypto.keys import load_private_key
    from pbem.referee import formats
    from pbem.referee.pipeline import submit as submit_move

    _json_output(as_json)
    moment = _now(now, force_now)
    key = _guard(lambda: load_private_key(referee_key), referee_key)
    results: list[dict[str, Any]] = []
    exit_code = 0
    after: dict[str, Any] | None = None  # the status the last applied step wrote, if it was the last file
    for path in move_files:
        after = None
        entry: dict[str, Any] = {"file": str(path), "turn": None, "move": None, "player": None, "rejection": None,
                                 "unapplied": None}
        try:
            data = path.read_bytes()
        except OSError as error:
            _fail(f"{path}: {error}", FileError.exit_code, FileError.reason, path)
        try:
            step = submit_move(directory, data, key, wait=wait, now=moment, anchors=_anchors(state_dir))
        except AlreadyApplied as error:
            entry.update(status="already-applied", exit_code=error.exit_code, reason=error.reason,
                         message=error.message, move=error.move_hash, player=error.player)
        except Refusal as error:
            entry.update(status="refused", exit_code=error.exit_code, reason=error.reason, message=error.message,
                         move=error.move_hash, player=error.player, rejection=error.rejection)
        except (RefereeError, CryptoError, EngineError, OSError) as error:
            _exit_for(error, path)
        else:
            after = step.status.to_json() if step.status is not None else None
            if step.kind == "join":
                message = f"{step.player}'s join file applied; " + (
                    "every player has sent their nonce: turn 0 dealt" if step.dealt
                    else text.awaiting_line(step.status.awaiting if step.status is not None else [])
                )
                entry.update(status="applied", exit_code=0, reason=None, turn=0 if step.dealt else None,
                             move=step.move_hash, player=step.player, message=message)
            else:
                auto = f"; orders answered {len(step.auto_choices)}" if step.auto_choices else ""
                dropped = f"; {text.unapplied_line(step.unapplied)}" if step.unapplied else ""
                entry.update(status="applied", exit_code=0, reason=None, turn=step.turn, move=step.move_hash,
                             player=step.player, unapplied=step.unapplied,
                             message=f"{step.player}'s move applied: turn {step.turn}{dropped}{auto}")
        results.append(entry)
        if entry["exit_code"] and not exit_code:
            exit_code = entry["exit_code"]
        if not as_json:
            stream_err = entry["status"] != "applied"
            line = f"{path}: {entry['message']}"
            if entry["rejection"]:
                line += f" (notice: {entry['rejection']})"
            say(line, err=stream_err)
    current = after if after is not None else game_status_doc(directory)
    if as_json:
        _emit_json({
            "format": formats.CLI_SUBMIT,
            "game_id": current["game_id"],
            "turn": current["turn"],
            "exit_code": exit_code,
            "results": results,
            "awaiting": current["awaiting"],
            "result": current["result"],
        })
    else:
        say(text.result_text(current["result"]) if current["result"] else text.awaiting_line(current["decisions"]))
    raise typer.Exit(exit_code)


@commands.command()
def tick(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    force_now: bool = typer.Option(False, "--force-now", help=FORCE_NOW_HELP),
    config: Path | None = typer.Option(
        None, "--config", metavar="FILE",
        help="The referee's mail configuration (as pbem mail serve): mail each reminder due "
                               "once, and the turn mails of the timeouts."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for another referee's lock."),
    as_json: bool = typer.Option(False, "--json", help="Print the outcome as JSON (schemas/cli-tick.schema.json)."),
    state_dir: Path | None = typer.Option(None, "--state-dir", metavar="DIR", help=REFEREE_STATE_HELP),
) -> None:
    """Enforce the deadlines: answer every decision past its deadline with the game's default action.

    Each such answer is a step of the referee's, recorded in a signed
    timeout record and shown by pbem log. Also lists the reminders due; with
    --config they are mailed, each once. Run it from cron (or let pbem mail
    serve run it every round).
    """
    from pbem.cli import text
    from pbem.cli.mail import tick_mail
    from pbem.crypto.keys import load_private_key
    from pbem.referee import formats
    from pbem.referee.tick import tick as tick_game

    _json_output(as_json)
    moment = _now(now, force_now)
    key = _guard(lambda: load_private_key(referee_key), referee_key)
    mailed: list[str] | None = None
    if config is not None:
        report, mailed = tick_mail(config, key, directory, moment, wait, quiet=as_json)
    else:
        report = _guard(lambda: tick_game(directory, key, now=moment, wait=wait, anchors=_anchors(state_dir)))
    if as_json:
        _emit_json({"format": formats.CLI_TICK, "game_id": report.game_id, "now": report.now, "turn": report.turn,
                    "idle": report.idle, "timeouts": [t.to_json() for t in report.timeouts],
                    "reminders": [r.to_json() for r in report.reminders], "awaiting": report.awaiting,
                    "mailed": mailed})
        return
    say(text.tick_text(report))


@commands.command()
def takeover(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    seat: str = typer.Option(..., "--seat", metavar="NAME", help="The seat to hand over (a player name of the game)."),
    key: Path = typer.Option(
        ..., "--key", metavar="PUBFILE", help="The new holder's public key file (NAME.pub, named after the seat)."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    now: str | None = typer.Option(None, "--now", metavar="TIME", help=NOW_HELP),
    force_now: bool = typer.Option(False, "--force-now", help=FORCE_NOW_HELP),
    config: Path | None = typer.Option(
        None, "--config", metavar="FILE", help="The referee's mail configuration, with --address."),
    address: str | None = typer.Option(
        None, "--address", metavar="ADDRESS",
        help="The new holder's e-mail address (recorded in the mail state of --config)."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for another referee's lock."),
    state_dir: Path | None = typer.Option(None, "--state-dir", metavar="DIR", help=REFEREE_STATE_HELP),
) -> None:
    """Hand a seat to a new key: a seat record signed by the referee, and a turn sealed to the new key.

    From that turn on the old key reads no new turn and its moves are
    refused; pbem log and pbem status show the takeover.
    """
    from pbem.cli.mail import mail_state, record_seat_address
    from pbem.crypto.keys import load_private_key, load_public_key
    from pbem.referee.takeover import take_over

    moment = _now(now, force_now)
    if (config is None) != (address is None):
        _fail("--address and --config go together: the address is recorded in the mail state of --config")
    referee = _guard(lambda: load_private_key(referee_key), referee_key)
    public = _guard(lambda: load_public_key(key, name=seat), key)
    if config is not None and address is not None:
        record_seat_address(config, directory, seat, public.fingerprint, address)
    # a game served by mail is anchored where the mail loop anchors it: in its state directory
    anchors = _anchors(state_dir if state_dir is not None or config is None else mail_state(config))
    done = _guard(lambda: take_over(directory, seat, public, referee, now=moment, wait=wait, anchors=anchors))
    say(f"game {done.game_id}: {seat}'s seat is held by {done.key} from turn {done.turn} on "
               f"(it was {done.previous}); seat record: {done.record}")
    if address is not None:
        say(f"{seat}'s mail goes to {address} from now on (pbem mail serve mails the new holder)")


# --- for anyone ---------------------------------------------------------------


@commands.command()
def status(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    as_json: bool = typer.Option(False, "--json", help="Print as JSON (schemas/cli-status.schema.json)."),
) -> None:
    """The turn number, whose decision is awaited and of what kind, or the result.

    Of a player's copy fed by mail: its latest turn, when the referee wrote
    it, and the turns it lacks (newer ones may exist).
    """
    from pbem.cli import text
    from pbem.referee.copies import standing
    from pbem.referee.public import status as game_status

    _json_output(as_json)
    current = _guard(lambda: game_status(directory))
    copy = _guard(lambda: standing(directory))
    if as_json:
        _emit_json({**current.to_json(), "copy": copy.to_json() if copy is not None else None})
    else:
        say(text.status_text(current))
        for sentence in copy.sentences() if copy is not None else ():
            say("\n".join(text.wrap(sentence, "", "")))


@commands.command()
def verify(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    replay: bool = typer.Option(
        False, "--replay", help="Also rebuild every turn from the revealed seed and compare it byte for byte."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print as JSON (schemas/cli-verify.schema.json)."),
) -> None:
    """Check every signature, the hash chain and the move files; name the first bad file.

    With --replay, once the seed is revealed (the game is over, or `pbem
    reveal`), rebuild the whole game from game.toml, the seed, the joins and
    the moves and compare every turn file byte for byte.

    A player's copy fed by mail (copy.json) is checked file by file as far
    as it goes, and the report lists what a copy cannot hold and so was not
    checked: the turns it lacks, the moves, the referee's newer turns.
    """
    from pbem.cli import text
    from pbem.cli.progress import progress_line
    from pbem.referee import formats
    from pbem.referee.verify import verify as verify_game

    _json_output(as_json)
    try:
        with progress_line() as progress:
            report = verify_game(directory, replay=replay, progress=progress)
    except VerificationFailed as error:
        if as_json:
            _emit_json({"format": formats.CLI_VERIFY, "ok": False, "game_id": None, "turns": 0, "moves": 0,
                        "files": 0, "replayed": False, "note": None, "test_seed": None, "copy": None,
                        "error": {"path": error.path, "message": str(error)}})
        else:
            say(f"pbem: verification FAILED: {error}", err=True)
        raise typer.Exit(error.exit_code) from None
    except (RefereeError, CryptoError, EngineError, OSError) as error:
        _exit_for(error)
    if as_json:
        _emit_json({"format": formats.CLI_VERIFY, "ok": True, "game_id": report.game_id, "turns": report.turns,
                    "moves": report.moves, "files": report.files, "replayed": report.replayed,
                    "note": report.note, "test_seed": report.test_seed,
                    "copy": report.copy.to_json() if report.copy is not None else None, "error": None})
        return
    if report.test_seed:
        say(text.TEST_GAME_LINE)
    if report.copy is not None:
        say(text.copy_verify_text(report))
        return
    say(
        f"game {report.game_id}: OK ({report.turns} turns, {report.moves} moves, {report.files} files checked)"
    )
    if report.replayed:
        say("replayed from the revealed seed: every turn file is byte for byte the rebuilt one")
    elif report.note:
        say(f"not replayed: {report.note}")


@commands.command()
def reveal(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    referee_key: Path = typer.Option(..., "--referee-key", metavar="KEYFILE", help="The referee's private key file."),
    force: bool = typer.Option(False, "--force", help="Reveal a running game's seed: the game is ABANDONED."),
    wait: float = typer.Option(
        DEFAULT_WAIT, "--wait", metavar="SECONDS", help="Seconds to wait for another referee's lock."),
) -> None:
    """Publish the game's secret seed (reveal.json), so that anyone can replay the game.

    A finished game publishes its seed by itself in the final turn. A running
    game is refused unless --force, which abandons it: no move is taken after.
    """
    from pbem.crypto.keys import load_private_key
    from pbem.referee.reveal import reveal as reveal_seed

    key = _guard(lambda: load_private_key(referee_key))
    doc = _guard(lambda: reveal_seed(directory, key, force=force, wait=wait))
    state = "abandoned at" if doc["abandoned"] else "finished at"
    where = f"turn {doc['turn']}" if doc["turn"] is not None else "the deal"
    say(f"game {doc['game_id']} {state} {where}: seed {doc['seed']} published in {directory / 'reveal.json'}")
    say(f"replay it: pbem verify {directory} --replay")


@commands.command()
def prove(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    turn: int = typer.Option(..., "--turn", metavar="N", help="The turn whose commitments to open."),
    name: str | None = typer.Option(
        None, "--name", metavar="SECTION|ZONE", help="Only this section (a player, or 'referee') or zone; default: all."
    ),
) -> None:
    """After the reveal: open the commitments of one turn (what each hand, deck and section held).

    Replays the game up to that turn from the revealed seed, then prints, as
    JSON, each commitment with its salt and the value it commits to.
    """
    from pbem.referee import formats
    from pbem.referee.gamefile import GameFile
    from pbem.referee.replay import prove as prove_turn

    try:
        opened = prove_turn(directory, turn)
    except (RefereeError, CryptoError, EngineError, OSError) as error:
        _exit_for(error)
    sections, zones = opened["sections"], opened["zones"]
    if name is not None:
        if name not in sections and name not in zones:
            _fail(f"turn {turn} has no section or zone {name!r} (sections: {', '.join(sections)}; "
                  f"zones: {', '.join(zones) or 'none'})")
        sections = {k: v for k, v in sections.items() if k == name}
        zones = {k: v for k, v in zones.items() if k == name}
    gamefile = _guard(lambda: GameFile.read(directory / "game.toml"))
    _emit_json({"format": formats.CLI_PROVE, "game_id": gamefile.game_id, "turn": turn,
                "turn_hash": opened["turn_hash"], "sections": sections, "zones": zones})


@commands.command()
def log(directory: Path = typer.Argument(..., metavar="DIR", help="The game directory.")) -> None:
    """The public record of the game, turn by turn (of a player's copy: the turns it holds, and which it lacks)."""
    from pbem.cli import text
    from pbem.referee.copies import standing
    from pbem.referee.gamefile import GameFile
    from pbem.referee.public import public_log

    entries = _guard(lambda: list(public_log(directory)))
    gamefile = _guard(lambda: GameFile.read(directory / "game.toml"))
    copy = _guard(lambda: standing(directory)) if entries else None
    say(text.log_text(entries, test_seed=gamefile.test_seed is not None))
    for sentence in copy.sentences() if copy is not None else ():
        say("\n".join(text.wrap(sentence, "", "")))


@commands.command()
def card(
    name: list[str] = typer.Argument(..., metavar="NAME",
                                     help="The card's name, in any case, without quotes if you like; "
                                              "a part of it will do; or its key."),
    game: str | None = typer.Option(None, "--game", metavar="GAME", help="Only this game's cards (see `pbem games`)."),
    scenario: str | None = typer.Option(
        None, "--scenario", metavar="NAME", help="That game's scenario; default: its standard set-up."),
    directory: Path | None = typer.Option(
        None, "--dir", metavar="DIR",
        help="A game directory: the card data it was set up with (an owner's --cards file included)."),
) -> None:
    """A card's full text and facts, from the game's static card data.

    Without --game or --dir, every installed game's standard card data is
    searched. A name that matches no card, or several, gets the names it
    may have meant.
    """
    from pbem.referee.cards import look_up_card

    found = _guard(lambda: look_up_card(" ".join(name), game, scenario, directory))
    if not found.hits:
        where = " or ".join(found.games) or "no installed game"
        lead = (f"{found.query!r} is part of several card names" if found.ambiguous
                else f"no card named {found.query!r} in {where}")
        _fail(lead + (f"; did you mean: {'; '.join(found.suggestions)}?" if found.suggestions else ""))
    several = len({hit.game for hit in found.hits}) > 1
    say("\n\n".join((f"{hit.game}:\n" if several else "") + hit.text for hit in found.hits))


# --- the player ----------------------------------------------------------------


@commands.command()
def view(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    player: str = typer.Option(..., "--as", metavar="NAME", help="Your player name."),
    key: Path = typer.Option(..., "--key", metavar="KEYFILE", help="Your private key file (pbem or OpenSSH ed25519)."),
    as_json: bool = typer.Option(False, "--json", help="Print as JSON (schemas/cli-view.schema.json)."),
    with_cards: bool = typer.Option(False, "--cards", help="Also print the full text of every card on the screen."),
    state_dir: Path | None = typer.Option(
        None, "--state-dir", metavar="DIR", envvar=STATE_ENV,
        help="Where pbem remembers the latest turn it showed you, to notice dropped turns "
             "(default: $XDG_STATE_HOME/pbem, ~/.local/state/pbem).",
    ),
) -> None:
    """Your view of the game: what happened since your last move, the table, your hand, and your
    options when it is your decision.

    pbem remembers the latest turn it showed you (outside the game directory)
    and warns loudly if the game directory no longer holds it: turns dropped
    or rewritten, which `pbem verify` alone cannot see.

    A copy fed by mail shows its latest turn, says when the referee wrote
    it and that newer turns may exist (behind, when the referee's head in a
    later mail names a newer one), and names the turns it lacks.
    """
    from pbem.cli import text
    from pbem.crypto.keys import load_private_key
    from pbem.engine.registry import find_screen
    from pbem.engine.screen import cards_on_screen, describe_card
    from pbem.referee import copies, formats
    from pbem.referee.layout import GameDir
    from pbem.referee.player import read_view, view_cards
    from pbem.referee.seen import check_and_remember, default_state_dir
    from pbem.referee.since import since_last_move

    _json_output(as_json)
    private = _guard(lambda: load_private_key(key, name=player), key)
    seen = _guard(lambda: read_view(directory, player, private))
    history = _guard(lambda: check_and_remember(state_dir or default_state_dir(), seen, partial=seen.partial))
    warning = history.warning
    if warning is not None and not as_json:
        say(f"pbem: WARNING: {warning.message}", err=True)
    unchecked = history.note()
    if unchecked is not None and not as_json:
        say(f"pbem: note: {unchecked}", err=True)
    standing = _guard(lambda: copies.standing_of(GameDir.at(directory), seen.gamefile, seen.turn))
    cards = _guard(lambda: view_cards(directory, seen))
    since = _guard(lambda: since_last_move(directory, seen, private, partial=seen.partial))
    decision = seen.decision
    if as_json:
        _emit_json({
            "format": formats.CLI_VIEW,
            "game_id": seen.gamefile.game_id,
            "turn": seen.number,
            "player": player,
            "public": seen.public,
            "private": seen.private,
            "cards": cards,
            "awaited": decision is not None,
            "kind": decision.kind if decision else None,
            "prompt": decision.prompt if decision else None,
            "pass_id": decision.pass_id if decision else None,
            "options": [o.to_json() for o in decision.options] if decision else [],
            "since": seen.since,
            "deadline": seen.deadline,
            "since_last_move": since.to_json(),
            "standing_orders": seen.standing_orders,
            "unapplied": seen.doc["unapplied"],
            "result": seen.result,
            "history_warning": warning.to_json() if warning is not None else None,
            "history_unchecked": [u.to_json() for u in history.unchecked],
            "copy": standing.to_json() if standing is not None else None,
            "test_seed": seen.gamefile.test_seed is not None,
        })
        return
    game = find_screen(seen.gamefile.game)  # the drawing of the screen, without the rules
    rendered = _guard(lambda: _drawn(lambda: game.render(seen.public, seen.private, cards), seen.turn.path))
    notes = standing.sentences() if standing is not None else []
    screen = text.view_text(seen, rendered, seen.turn.doc["awaiting"], since, cards, notes=notes)
    if with_cards:
        shown = cards_on_screen(screen, cards)
        screen = text.view_text(seen, rendered, seen.turn.doc["awaiting"], since, cards,
                                [describe_card(game, k, cards[k]) for k in shown], notes=notes)
    say(screen)


@commands.command()
def replay(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory (or any copy of its archive)."),
    seat: str = typer.Option(..., "--as", metavar="NAME",
                             help="The seat whose screens to show, or spectator for the public part alone."),
    start: int = typer.Option(0, "--turn", metavar="N", help="The first turn to show (default: the deal)."),
    with_cards: bool = typer.Option(False, "--cards", help="Also print the full text of every card on each screen."),
) -> None:
    """After the game: every turn as one seat saw it (hand, options, events) or as a spectator.

    Needs no key: once the game is over (or `pbem reveal`), the seed rebuilds
    every seat's view of every turn, checked as `pbem verify --replay`
    checks it. On a terminal, step through the turns (n, p, a turn number,
    q); otherwise every screen from --turn on is printed. Refused while the
    game is running (exit 28).
    """
    import sys

    from pbem.cli.pager import Pager
    from pbem.referee.deal import screen_and_cards
    from pbem.referee.gamefile import GameFile
    from pbem.referee.layout import GameDir
    from pbem.referee.lookback import look_back

    gamedir = _guard(lambda: GameDir.at(directory))
    game, cards = _guard(lambda: screen_and_cards(gamedir, GameFile.read(gamedir.game_toml)))
    turns = look_back(directory, seat, start)

    def screens() -> Iterator[tuple[int, str]]:
        while (looked := _guard(lambda: next(turns, None))) is not None:
            yield looked.number, _guard(lambda: _replay_screen(game, cards, looked, with_cards))

    if sys.stdin.isatty() and sys.stdout.isatty():
        Pager(screens()).run(input)
        return
    for index, (_, screen) in enumerate(screens()):
        say(("\n" if index else "") + screen)


def _replay_screen(game: Any, cards: Any, looked: Any, with_cards: bool) -> str:
    """One turn's screen of ``pbem replay``: the seat's, as ``pbem view`` drew it then, or the spectator's."""
    from pbem.cli import text
    from pbem.engine.screen import cards_on_screen, describe_card

    view, turn = looked.view, looked.turn
    rendered = _drawn(lambda: game.render(turn.doc["public"], view.private if view is not None else None, cards),
                      turn.path)
    if view is None:
        screen: str = text.spectator_text(looked.gamefile, turn.doc, rendered)
        shown = [describe_card(game, k, cards[k]) for k in cards_on_screen(screen, cards)] if with_cards else []
        return screen + ("\n\nCards on this screen:\n" + "\n".join(shown) if shown else "")
    screen = text.view_text(view, rendered, turn.doc["awaiting"], looked.since, cards)
    if with_cards:
        shown = [describe_card(game, k, cards[k]) for k in cards_on_screen(screen, cards)]
        screen = text.view_text(view, rendered, turn.doc["awaiting"], looked.since, cards, shown)
    return screen


def _drawn(draw: Callable[[], Any], turn: Path) -> Any:
    """A game's screen drawn from a turn read from the game directory: a state the game's code fails on is
    not one that game writes, so the turn file is to blame (its signature says who wrote it, not that it is
    what the game writes), not the game."""
    try:
        return draw()
    except (RefereeError, CryptoError, EngineError, OSError):
        raise
    except Exception as error:
        raise GameDirError(f"{turn}: the game cannot show this turn ({type(error).__name__}): its state is not one "
                           "the game writes (a referee's fault, or a file signed with its key by someone else)",
                           path=turn) from error


@commands.command()
def move(
    directory: Path = typer.Argument(..., metavar="DIR", help="The game directory."),
    player: str = typer.Option(..., "--as", metavar="NAME", help="Your player name."),
    key: Path = typer.Option(..., "--key", metavar="KEYFILE", help="Your private key file (pbem or OpenSSH ed25519)."),
    choose: list[str] = typer.Option(
        [], "--choose", metavar="ID|NUMBER",
        help="An option id, or its number as `pbem view` shows it; repeat for several choices in order.",
    ),
    order: list[str] = typer.Option(
        [], "--order", metavar="KIND=SPEC",
        help="KIND=SPEC: an order answering every decision of that kind for you, in advance (KIND: a decision "
             "kind of the game, `pbem games --orders` lists them and what their orders may test). SPEC: rules "
             "tried in order, then the fallback: 'card=koi-jiang, chain-colour=red -> colour=blue, pass'; "
             "KIND=off cancels it. Alone, only when it answers your open decision now.",
    ),
    orders_file: Path | None = typer.Option(
        None, "--orders", metavar="FILE", help="A JSON (or .toml) file of orders by decision kind, as schemas/order.schema.json "
                               "has each (or \"off\"); --order and --auto-pass go over it.",
    ),
    auto_pass: list[str] = typer.Option(
        [], "--auto-pass", metavar="KIND=MODE",
        help="KIND=always: the order KIND=pass (pass every decision of that kind); KIND=off cancels.",
    ),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE", help="Where to write the move file (default ./move-TURN-NAME.json)."),
    mail: str | None = typer.Option(
        None, "--mail", metavar="ADDRESS", help="Also write FILE.eml, a mail carrying the move to this address."),
    sender: str | None = typer.Option(None, "--from", metavar="ADDRESS", help="The From address of the --mail file."),
) -> None:
    """Write a signed move file answering the current turn; send it to the referee."""
    from pbem.cli import text
    from pbem.crypto.keys import load_private_key
    from pbem.referee.layout import GameDir
    from pbem.referee.player import read_view, sign_move
    from pbem.referee.storage import atomic_write

    passes = [_split_pair(item, "--auto-pass") for item in auto_pass]
    if not choose and not order and not passes and orders_file is None:
        _fail("give at least one --choose (or an order: --order, --orders, --auto-pass)")
    private = _guard(lambda: load_private_key(key, name=player))
    seen = _guard(lambda: read_view(directory, player, private))
    standing: dict[str, Any] = {}
    if order or passes or orders_file is not None:
        from pbem.engine.registry import find_game
        from pbem.referee import ordertext

        given = _guard(lambda: ordertext.read_orders_file(orders_file)) if orders_file is not None else None
        parsed = _guard(lambda: ordertext.parse_orders(find_game(seen.gamefile.game), order, passes, given))
        standing = {"orders": parsed} if parsed else {}
    signed = _guard(lambda: sign_move(seen, private, list(choose), standing_orders=standing or None))
    if seen.partial:
        from pbem.referee.head import read_head

        head = _guard(lambda: read_head(GameDir.at(directory), seen.gamefile))
        if head is not None and head.turn > seen.number:
            say(f"pbem: note: your copy is behind: this move answers turn {seen.number}, and the referee's head "
                f"says it had written turn {head.turn} at {head.time}. If your decision was answered since, the "
                "referee refuses the move as stale and its answer carries the turns your copy lacks; unpack the "
                "newer mails first if you have them", err=True)
    target = out or Path(f"move-{seen.number:06d}-{player}.json")
    _guard(lambda: atomic_write(target.resolve(), signed.data))
    say(f"move file written: {target} (answers turn {seen.number} of game {seen.gamefile.game_id})")
    for line in text.chosen_lines(signed.choices, standing):
        say(f"  {line}")
    if mail is not None:
        from pbem.cli.mail import write_mail_file

        write_mail_file(target, signed.data, mail, sender)
    else:
        say(text.submit_hint(directory, target))


@commands.command()
def join(
    directory: Path = typer.Argument(
        ..., metavar="DIR", help="The game directory (game.toml and joins/ are all that is read)."),
    player: str = typer.Option(..., "--as", metavar="NAME", help="Your player name."),
    key: Path = typer.Option(..., "--key", metavar="KEYFILE", help="Your private key file (pbem or OpenSSH ed25519)."),
    out: Path | None = typer.Option(
        None, "--out", metavar="FILE", help="Where to write the join file (default ./join-NAME-ROUND.json)."
    ),
    mail: str | None = typer.Option(
        None, "--mail", metavar="ADDRESS", help="Also write FILE.eml, a mail carrying the join file to this address."),
    sender: str | None = typer.Option(None, "--from", metavar="ADDRESS", help="The From address of the --mail file."),
    state_dir: Path | None = typer.Option(
        None, "--state-dir", metavar="DIR", envvar=STATE_ENV,
        help="Where pbem remembers the commitments it sent your nonce after, to send it after one set only "
             "(default: $XDG_STATE_HOME/pbem, ~/.local/state/pbem).",
    ),
) -> None:
    """Write the signed join file the game waits for from you; send it to the referee.

    Joining takes two rounds. First your commitment to a nonce (a hash of
    it); once every seated player's commitment is in the game directory,
    run `pbem join` again for the nonce itself. The nonce comes from your key
    and game.toml, so running it twice writes the same file. The last nonce
    the referee submits deals the game.
    """
    from pbem.cli import text
    from pbem.crypto.keys import load_private_key
    from pbem.referee.joins import make_join
    from pbem.referee.storage import atomic_write

    private = _guard(lambda: load_private_key(key, name=player))
    from pbem.referee.seen import default_state_dir

    data = _guard(lambda: make_join(directory, player, private, state_dir=state_dir or default_state_dir()))
    round_name = json.loads(data)["round"]
    target = out or Path(f"join-{player}-{round_name}.json")
    _guard(lambda: atomic_write(target.resolve(), data))
    which = ("round 1 of 2, your commitment to your nonce" if round_name == "commit"
             else "round 2 of 2, your nonce; every commitment is in")
    say(f"join file written: {target} ({which})")
    if mail is not None:
        from pbem.cli.mail import write_mail_file

        write_mail_file(target, data, mail, sender)
    else:
        say(text.submit_hint(directory, target))


# --- the demo ------------------------------------------------------------------


@commands.command()
def demo(
    game: str | None = typer.Argument(
        None, metavar="GAME", help="Which game; default: the first installed (Nightfall when present)."),
    players: int | None = typer.Option(
        None, "--players", metavar="N", help="Number of seats; default: the game's smallest."),
    directory: Path | None = typer.Option(
        None, "--dir", metavar="DIR", help="Where to play; default: a new temporary directory."),
    seed: str | None = typer.Option(
        None, "--seed", metavar="HEX", help="Hex seed for a reproducible test game: the same seed plays the same game, "
                                            "file for file (the demo's keys are derived from it: test keys only)."),
) -> None:
    """Random bots play a whole game through the real files, then verify it."""
    import tempfile

    from pbem.cli import text
    from pbem.cli.progress import progress_line
    from pbem.referee.demo import default_game, run_demo

    seed_bytes = _seed_bytes(seed)
    root = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
    name = game or _guard(default_game)
    say(f"demo: {name} in {root}")
    if seed_bytes is not None:
        say(text.TEST_GAME_LINE)
    with progress_line() as progress:
        report = _guard(lambda: run_demo(root, name, players, seed_bytes, progress=progress))
    say(f"players: {', '.join(report.players)}; {report.turns} turns")
    say(text.result_text(report.result) if report.result else "the game did not finish")
    say(
        f"verified: {report.verified.turns} turns, {report.verified.moves} moves, {report.verified.files} files OK"
    )
    if report.verified.replayed:
        say("replayed from the revealed seed: every turn file rebuilt byte for byte")
    say(f"game directory: {report.directory / 'game'}; keys: {report.directory / 'keys'}")


@commands.command()
def games(
    options: bool = typer.Option(
        False, "--options", help="Also list each game's options (pbem new --option KEY=VALUE)."),
    with_orders: bool = typer.Option(
        False, "--orders", help="Also list, for each decision kind, what an order for it may test (pbem move --order)."),
    as_json: bool = typer.Option(
        False, "--json", help="Print as JSON, options included (schemas/cli-games.schema.json)."),
) -> None:
    """List the games this pbem knows, their scenarios and (--options) the options of each, (--orders) what
    orders may test."""
    from pbem.cli import text
    from pbem.engine.options import options_of
    from pbem.engine.registry import find_game, game_names
    from pbem.referee import formats

    _json_output(as_json)
    known: list[dict[str, Any]] = []
    for name in game_names():
        try:
            game = find_game(name)
            table = options_of(game)
        except (ImportError, AttributeError, EngineError):
            known.append({"name": name, "installed": False, "min_players": None, "max_players": None,
                          "scenarios": [], "options": []})
            continue
        known.append({"name": name, "installed": True, "min_players": game.min_players,
                      "max_players": game.max_players, "scenarios": list(game.scenarios()), "options": table})
        if with_orders:
            from pbem.referee.orders import tests_of

            known[-1]["orders"] = {kind: [test.to_json() for test in tests_of(game, kind).values()]
                                   for kind in sorted(game.decision_kinds())}
    if as_json:
        _emit_json({"format": formats.CLI_GAMES,
                    "games": [{**g, "options": g["options"].to_json() if g["installed"] else []} for g in known]})
        return
    for entry in known:
        say(text.game_line(entry, with_options=options, with_orders=with_orders))


@commands.command()
def completion(
    shell: str = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish."),
) -> None:
    """Print the shell completion script of SHELL: commands, options, player names, games and files on Tab.

    Install it once where the shell loads it, then open a new shell:

    bash: pbem completion bash > ~/.local/share/bash-completion/completions/pbem
    (needs the bash-completion package; or source the file from ~/.bashrc)

    zsh: pbem completion zsh > ~/.zfunc/_pbem, with fpath+=~/.zfunc before
    compinit in ~/.zshrc

    fish: pbem completion fish > ~/.config/fish/completions/pbem.fish
    """
    from pbem.cli.completion import SHELLS, script

    if shell not in SHELLS:
        _fail(f"no completion for the shell {shell!r}: give one of {', '.join(SHELLS)}")
    say(script(shell).rstrip("\n"))


def main() -> None:
    """Console-script entry point."""
    app(prog_name="pbem")


if __name__ == "__main__":  # pragma: no cover
    main()
