"""What a turn mail weighs with the turns it carries: random bots play through the real referee, and the referee's
mail loop composes every turn mail the game calls for.

    python benchmarks/mail_sizes.py [--games N] [--turns T] [CONFIG ...]

A configuration is ``GAME:PLAYERS`` (default: ``nightfall:2 nightfall:5
nightlancer:4``). For each, N games (default 2) are played from a fresh
directory (``pbem new``); the awaited player's view is opened with their
key, a random bot picks an option, the move is signed and submitted with the
mail loop's anchors, and after every step ``pbem.mail.serve.notify`` queues
the turn mails the state calls for, exactly as ``pbem mail serve`` does
(every player has an address). Each mail is measured as it goes on the wire
(``.eml`` bytes, CRLF, base64 attachments). At the end of each game, the
answer to a request for every turn (a copy that holds nothing, the largest
answer there is) is composed and measured too. At most T turns are played
per game (default: the whole game).

Prints the machine's speed first (``benchmarks/machine.py``: sizes do not
depend on it, but every script prints it); then, per configuration: the turn mails (how many, the median, 90th
percentile and largest size in bytes), the turn files each carries (median,
largest), how many the bound of a mail (``pbem.mail.catchup.TURN_BYTES`` of
turn files) cut, and the answer to a request for every turn.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import defaultdict
from email import message_from_bytes, policy
from pathlib import Path

from machine import print_speed

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import generate
from pbem.engine.rng import Rng
from pbem.mail import catchup, compose
from pbem.mail.config import MailConfig
from pbem.mail.record import MailRecord
from pbem.mail.sending import Outbox
from pbem.mail.serve import notify
from pbem.mail.served import served_games
from pbem.referee import make_move, new_game, read_view, submit
from pbem.referee.head import Anchors
from pbem.referee.public import status

NAMES = ["ann", "bob", "cyd", "dee", "eve"]
DEFAULT_CONFIGS = ["nightfall:2", "nightfall:5", "nightlancer:4"]


def _config(root: Path, game: Path, players: list[str]) -> MailConfig:
    """A referee's mail configuration for one game (its servers are never reached: nothing is sent)."""
    path = root / "referee.toml"
    seats = ", ".join(f'{p} = "{p}@example.org"' for p in players)
    path.write_text(f'address = "referee@example.org"\nstate = "state"\n[smtp]\nhost = "localhost"\n'
                    f'security = "none"\n[[games]]\ndir = "{game}"\nplayers = {{ {seats} }}\n')
    return MailConfig.read(path)


def _carried(raw: bytes) -> tuple[int, bool]:
    """The turn files a mail carries, and whether the bound of a mail left some out (its body says so)."""
    message = message_from_bytes(raw, policy=policy.default)
    text = message.get_body(("plain",))
    left_out = text is not None and "Not attached" in text.get_content()
    return sum(1 for part in message.iter_attachments() if compose.is_turn_file(part.get_filename() or "")), left_out


def measure(game: str, count: int, games: int, turns: int | None = None) -> dict[str, list[int]]:
    """Sizes of every turn mail and the turns each carries, over ``games`` games; and the request answers."""
    sizes: dict[str, list[int]] = defaultdict(list)
    players = NAMES[:count]
    for index in range(games):
        keys = {name: generate(name) for name in ["referee", *players]}
        bots = {p: RandomBot(Rng.from_seed(f"mail-sizes-{game}-{count}-{index}-{p}")) for p in players}
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            directory = root / "game"
            new_game(directory, game, [(p, keys[p].public) for p in players], keys["referee"],
                     seed=bytes([index + 1]) * 32)
            config = _config(root, directory, players)
            assert config.state is not None
            record = MailRecord(config.state)
            record.create()
            outbox = Outbox(record.outbox)
            anchors = Anchors(config.state)
            served = next(iter(served_games(config).values()))
            while True:
                notify(served, config, record, outbox, keys["referee"])
                for path in outbox.pending():
                    raw = path.read_bytes()
                    carried, left_out = _carried(raw)
                    sizes["turn mail"].append(len(raw))
                    sizes["turns carried"].append(carried)
                    sizes["cut by the bound"].append(int(left_out))
                    path.unlink()
                now = status(directory)
                if now.over or (turns is not None and now.turn >= turns):
                    break
                player = now.awaiting[0]["player"]
                view = read_view(directory, player, keys[player])
                assert view.decision is not None
                data = make_move(view, keys[player], [bots[player].choose(view.private, view.decision)])
                submit(directory, data, keys["referee"], anchors=anchors)
            head = catchup.referee_head(directory, served.gamefile, keys["referee"], anchors)
            everything = catchup.carried(directory, served.gamefile, now.turn, [], [(0, now.turn)], head, players[0])
            message = compose.new_message(config.address, [f"{players[0]}@example.org"], "request", "the turns")
            for name, data in everything.files.items():
                compose.attach(message, name, data)
            sizes["request answer"].append(len(compose.message_bytes(message)))
            sizes["request answer turns"].append(len(everything.turns))
            sizes["game turns"].append(now.turn + 1)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="*", default=DEFAULT_CONFIGS, help="GAME:PLAYERS")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--turns", type=int, default=None, help="turns played per game at most (default: all)")
    args = parser.parse_args()
    print_speed()
    for config in args.configs:
        game, _, count = config.partition(":")
        sizes = measure(game, int(count), args.games, args.turns)
        mails, turns = sizes["turn mail"], sizes["turns carried"]
        tenth = statistics.quantiles(mails, n=10)[-1] if len(mails) > 1 else mails[0]
        most, cut = max(turns), sum(sizes["cut by the bound"])
        print(f"{game} {count} players: {len(mails)} turn mails over {args.games} games of "
              f"{min(sizes['game turns'])}-{max(sizes['game turns'])} turns")
        print(f"  turn mail bytes: median {int(statistics.median(mails))}, 90th percentile {int(tenth)}, "
              f"largest {max(mails)}")
        print(f"  turn files carried: median {int(statistics.median(turns))}, largest {most}; "
              f"{cut} mails cut by the bound")
        print(f"  the answer to a request for every turn: {max(sizes['request answer'])} bytes, "
              f"{max(sizes['request answer turns'])} turns (bound: {catchup.TURN_BYTES} bytes of turn files)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
