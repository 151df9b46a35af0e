"""How many mails a whole game by mail takes, per player and per spectator: this tree's mail loop, and an older one's.

    python benchmarks/mail_counts.py [--seed N] [--before REF] [--game GAME] [--turns T]

One whole 2-player game (default Nightfall) is played by mail, from the
players' public keys to the result: the referee's loop (``pbem mail serve
--once``, :func:`pbem.mail.serve.serve_once`) reads a Maildir and sends
through an SMTP server on this machine (aiosmtpd), which files each mail
for its recipient; one run a round, the referee's clock one hour later each
round. Each player's first mail is their public key (the referee's host has
created the game from it, ``pbem new --wait-for-joins``); then each player
files every mail they get into their own copy (:func:`pbem.mail.player.unpack`)
and answers from it alone, as ``pbem join`` and ``pbem move --mail`` do: a
join file for each round their copy shows waiting for them, a random bot's
move for each decision of theirs it shows open. Nothing is lost on the way.
Three spectators watch: one a digest after every step, one daily, one at the end.

The same game (same seed, same keys, so the same deal, same bots) is played by the older tree
``REF`` (default ``be377f6``, main before the answer and the turn mail were
one mail and spectators chose a schedule), taken with ``git archive`` into a
temporary folder and run in a process of its own with that tree first on
``PYTHONPATH``; its spectators all get a mail per step, which is all it has.

Prints the machine's speed first (``benchmarks/machine.py``: counts do not
depend on it, but every script prints it); then, for each tree, the mails
each player received and sent, in the whole game and up to their first turn
mail (the set-up: key, joins), and each spectator's. ``--turns T`` stops
the game at turn T (a smoke run: the figures are of a whole game only
without it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

PLAYERS = ["ann", "bob"]
SPECTATORS = {"step": "sue@example.org", "daily": "dan@example.org", "end": "eve@example.org"}
REFEREE = "referee@example.org"
DEFAULT_BEFORE = "be377f6"
#: rounds of mail a game may take at most
MAX_ROUNDS = 3000


def address(name: str) -> str:
    return f"{name}@example.org"


class _Post:
    """The SMTP server's handler: each recipient's mails, in the order they came."""

    def __init__(self, referee_box: Path) -> None:
        import mailbox

        self.box = mailbox.Maildir(referee_box, create=True)
        self.inboxes: dict[str, list[bytes]] = {}

    async def handle_DATA(self, server, session, envelope):
        for rcpt in envelope.rcpt_tos:
            self.inboxes.setdefault(rcpt.lower(), []).append(envelope.original_content or envelope.content)
        return "250 OK"


def play(game: str, seed: int, schedules: bool, keys_file: Path, turns: int | None = None) -> dict[str, object]:
    """One whole game by mail; the mails each address received and sent (see the module docstring). The keys
    are read from ``keys_file`` (:func:`_write_keys`): each tree plays the very same game."""
    import socket

    from aiosmtpd.controller import Controller

    import pbem
    from pbem.bots.random_bot import RandomBot
    from pbem.crypto.keys import PrivateKey, write_public_key
    from pbem.engine.rng import Rng
    from pbem.mail.compose import attach, message_bytes, new_message
    from pbem.mail.config import MailConfig
    from pbem.mail.player import file_mail, unpack
    from pbem.mail.serve import serve_once
    from pbem.referee import make_move, new_game, read_view, status
    from pbem.referee.joins import make_join

    with tempfile.TemporaryDirectory() as tmp, socket.socket() as probe:
        root = Path(tmp)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        post = _Post(root / "referee-Maildir")
        controller = Controller(post, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            keys = {name: PrivateKey.from_json(doc) for name, doc in json.loads(keys_file.read_text()).items()}
            directory = root / "game"
            new_game(directory, game, [(p, keys[p].public) for p in PLAYERS], keys["referee"],
                     seed=bytes([seed]) * 32, wait_for_joins=True)
            seats = ", ".join(f'{p} = "{address(p)}"' for p in PLAYERS)
            spectators = ", ".join(f'{{ address = "{a}", digest = "{s}" }}' if schedules else f'"{a}"'
                                   for s, a in SPECTATORS.items())
            (root / "referee.toml").write_text(
                f'address = "{REFEREE}"\nstate = "state"\n[mailbox]\nkind = "maildir"\npath = "referee-Maildir"\n'
                f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nsecurity = "none"\n'
                f'[[games]]\ndir = "{directory}"\nplayers = {{ {seats} }}\nspectators = [{spectators}]\n')
            config = MailConfig.read(root / "referee.toml")
            bots = {p: RandomBot(Rng.from_seed(f"mail-counts-{game}-{seed}-{p}")) for p in PLAYERS}
            sent: Counter[str] = Counter()
            read = dict.fromkeys(PLAYERS, 0)
            setup: dict[str, tuple[int, int]] = {}
            joined: set[tuple[str, str]] = set()
            answered: set[tuple[str, int, str]] = set()
            copies = {p: root / "home" / p / "game" for p in PLAYERS}

            def mail_referee(player: str, data: bytes, name: str) -> None:
                if name.endswith(".pub"):  # the key, attached to a mail as any mail client does
                    message = new_message(address(player), [REFEREE], f"{player}'s key", "My key.\n")
                    attach(message, name, data)
                else:
                    message = file_mail(data, name, REFEREE, address(player))
                post.box.add(message_bytes(message))
                sent[player] += 1

            for player in PLAYERS:  # the public key, as the player's first mail
                pub = write_public_key(keys[player].public, root / "keys" / player)
                mail_referee(player, pub.read_bytes(), pub.name)
            clock = datetime(2026, 12, 1, 9, tzinfo=UTC)
            for _ in range(MAX_ROUNDS):
                serve_once(config, keys["referee"], now=clock)
                clock += timedelta(hours=1)
                over = status(directory).over or (turns is not None and status(directory).turn >= turns)
                for player in PLAYERS:
                    mails = post.inboxes.get(address(player), [])[read[player]:]
                    read[player] += len(mails)
                    if not mails:
                        continue
                    home = root / "home" / player
                    home.mkdir(parents=True, exist_ok=True)
                    paths = []
                    for raw in mails:
                        path = home / f"mail-{len(list(home.glob('mail-*.eml'))):05d}.eml"
                        path.write_bytes(raw)
                        paths.append(path)
                    unpack(paths, copies[player])
                    if player not in setup and (copies[player] / "turns" / "000000.json").exists():
                        setup[player] = (read[player], sent[player])
                    if not (copies[player] / "turns").is_dir():  # the joins: one file a round, once
                        joins = copies[player] / "joins"
                        commits = len(list(joins.glob("*.commit.json"))) if joins.is_dir() else 0
                        kind = "reveal" if commits == len(PLAYERS) else "commit"
                        if (player, kind) not in joined:
                            joined.add((player, kind))
                            mail_referee(player, make_join(copies[player], player, keys[player]),
                                         f"join-{player}.json")
                        continue
                    view = read_view(copies[player], player, keys[player])
                    awaiting = view.awaiting
                    if awaiting is None or (player, awaiting["since"], awaiting["kind"]) in answered:
                        continue
                    answered.add((player, awaiting["since"], awaiting["kind"]))
                    decision = view.decision
                    assert decision is not None
                    data = make_move(view, keys[player], [bots[player].choose(view.private, decision)])
                    mail_referee(player, data, f"move-{view.number:06d}-{player}.json")
                if over:  # the result went to everyone in the run that ended the game
                    break
            else:
                raise SystemExit(f"the game did not end in {MAX_ROUNDS} rounds")
            return {
                "pbem": str(Path(pbem.__file__).parent.parent),
                "turns": status(directory).turn,
                "received": {p: len(post.inboxes.get(address(p), [])) for p in PLAYERS},
                "sent": dict(sent),
                "setup": setup,
                "spectators": {s: len(post.inboxes.get(a, [])) for s, a in SPECTATORS.items()},
            }
        finally:
            controller.stop()


def _write_keys(path: Path) -> Path:
    """Fresh keys of the referee and the players, in one file, for both trees to play with."""
    from pbem.crypto.keys import generate

    path.write_text(json.dumps({name: generate(name).to_json() for name in ["referee", *PLAYERS]}))
    return path


def _older(ref: str, game: str, seed: int, keys_file: Path, turns: int | None) -> dict[str, object]:
    """:func:`play` by the tree ``ref``, in a process of its own."""
    repo = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(repo), "archive", ref], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([tmp, os.environ.get("PYTHONPATH", "")])}
        more = ["--turns", str(turns)] if turns is not None else []
        child = subprocess.run([sys.executable, __file__, "--child", "--game", game, "--seed", str(seed),
                                "--keys", str(keys_file), *more],
                               check=True, capture_output=True, text=True, env=env, cwd=tmp)
        result = json.loads(child.stdout)
        assert Path(result["pbem"]).resolve() == Path(tmp).resolve(), result["pbem"]  # the older tree was played
        return result


def _print(label: str, result: dict[str, object]) -> None:
    received, sent, setup = result["received"], result["sent"], result["setup"]
    assert isinstance(received, dict) and isinstance(sent, dict) and isinstance(setup, dict)
    print(f"{label}: {result['turns']} turns")
    for player in PLAYERS:
        first_in, first_out = setup.get(player, (0, 0))
        print(f"  {player}: received {received[player]}, sent {sent[player]} "
              f"(up to the first turn mail: received {first_in}, sent {first_out})")
    spectators = result["spectators"]
    assert isinstance(spectators, dict)
    for schedule, count in spectators.items():
        print(f"  spectator {SPECTATORS[schedule]} ({schedule if label.startswith('after') else 'step'}): "
              f"received {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nightfall")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default=DEFAULT_BEFORE, help="the older tree: a git commit")
    parser.add_argument("--turns", type=int, default=None, help="stop at this turn (default: the whole game)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--keys", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # a run of the older tree: it has no schedules
        print(json.dumps(play(args.game, args.seed, schedules=False, keys_file=args.keys, turns=args.turns)))
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from machine import print_speed

    print_speed()
    print(f"one whole 2-player {args.game} game by mail, seed {args.seed}, from the public keys to the result")
    with tempfile.TemporaryDirectory() as tmp:
        keys = _write_keys(Path(tmp) / "keys.json")
        _print(f"before ({args.before})", _older(args.before, args.game, args.seed, keys, args.turns))
        _print("after (this tree)", play(args.game, args.seed, schedules=True, keys_file=keys, turns=args.turns))


if __name__ == "__main__":
    main()
