"""Whole games by e-mail, as players play them, on a mail system that loses, repeats and delays mail.

A 2-player Nightfall game, and a 4-player Nightlancer game in which a seat
is handed to a new holder in the middle. The referee reads a folder of a
real IMAP server (Dovecot) and sends through a real SMTP server (aiosmtpd),
which files each mail for its recipient through a :class:`Network` that
drops, duplicates and holds back a random part of the mails, both ways.

Each player keeps only the ``.eml`` files that reached their own address
and plays with the command line alone (tests/helpers_mail_players.py):
``pbem mail unpack``, ``pbem view --json`` (all a player decides from),
``pbem move --mail``, ``pbem mail send``; and, when nothing comes for a
round, as people do when a game seems to stand still, ``pbem mail
request`` and the move that got no answer sent again. Nobody reads the
referee's directory on a player's behalf: the test reads it only to know
when to hand a seat over, and, at the end, to check it.

At the end: every view succeeded and never warned; every move in the
referee's directory is one a player wrote, applied once; ``pbem verify
--replay`` of the referee's directory rebuilds the whole game; each
player's copy verifies, saying what it could not check; and no mail was
larger than the bound of a mail.

CI plays one game of each (seeds that give games of ordinary length);
``pytest tests/mail/test_whole_games_by_mail.py --mail-games N`` plays N
seeds of each.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

from helpers_mail import REFEREE, Dovecot, Post, SmtpServer, body, make_post
from helpers_mail_players import MailPlayer, invoke, ok, serve
from helpers_referee import make_table

from pbem.crypto.keys import generate, write_keypair
from pbem.mail.catchup import TURN_BYTES
from pbem.referee import status

#: the seeds CI plays, one game each: their games are of an ordinary length for random players
#: (Nightfall, 2 players: about 200 turns; Nightlancer, 4 players: about 300)
CI_SEEDS = {"nightfall": 1, "nightlancer": 1}
#: the rounds of mail a game may take at most before the test gives up
MAX_ROUNDS = 2000


def address(name: str) -> str:
    return f"{name}@pbem.test"


class Network:
    """The mail system between the SMTP server and each mailbox: every mail is carried, dropped, duplicated or
    held back a few rounds (and so overtaken by later ones), at random."""

    def __init__(self, rng: random.Random, drop: float = 0.05, duplicate: float = 0.05, delay: float = 0.1) -> None:
        self.rng, self.drop, self.duplicate, self.delay = rng, drop, duplicate, delay
        self.round = 0
        self.pending: dict[str, list[tuple[int, int, bytes]]] = defaultdict(list)
        self.counts: Counter[str] = Counter()
        self.largest = 0
        self._order = 0

    def carry(self, to: str, raw: bytes) -> None:
        self.largest = max(self.largest, len(raw))
        if self.rng.random() < self.drop:
            self.counts["dropped"] += 1
            return
        copies = 2 if self.rng.random() < self.duplicate else 1
        self.counts["duplicated"] += copies - 1
        for _ in range(copies):
            held = self.rng.randint(1, 2) if self.rng.random() < self.delay else 0
            self.counts["delayed"] += 1 if held else 0
            self._order += 1
            self.pending[to.lower()].append((self.round + held, self._order, raw))

    def deliver(self, to: str) -> list[bytes]:
        """The mails that reach ``to`` this round, in the order they arrive."""
        due = sorted(item for item in self.pending[to.lower()] if item[0] <= self.round)
        self.pending[to.lower()] = [item for item in self.pending[to.lower()] if item[0] > self.round]
        return [raw for _, _, raw in due]


@dataclass
class Seat:
    """A player at the table: their mail player, their own random choices, and what they have sent."""

    player: MailPlayer
    rng: random.Random
    #: the decisions answered, by the turn they opened (``since``) and kind
    answered: set[tuple[int, str]] = field(default_factory=set)
    #: the .eml of each move sent whose answer has not come, by the move file's name
    unanswered: dict[str, Path] = field(default_factory=dict)
    #: the game id, which the referee tells the new holder of a seat when it hands it over
    game_id: str | None = None
    views: int = 0
    result: dict | None = None


def read_mails(seat: Seat, raws: list[bytes]) -> bool:
    """File the mails that came; note the answers to the moves sent; whether any came."""
    if not raws:
        return False
    paths = [seat.player.save(raw) for raw in raws]
    result = seat.player.unpack(*paths)
    assert result.exit_code == 0, result.output
    for raw in raws:
        headers = raw[:raw.find(b"\r\n\r\n")]
        if b"\r\nAuto-Submitted: auto-replied" in headers:  # an answer (small): which of our moves it answers
            text = body(message_from_bytes(raw, policy=policy.default))
            for name in list(seat.unanswered):
                if name in text:
                    assert "REFUSED" not in text or "stale" in text, text  # only a copy behind is refused
                    del seat.unanswered[name]
    return True


def act(seat: Seat, orders: tuple[str, ...], written: set[bytes]) -> None:
    """View the copy, and answer the decision it shows open, once per decision, with a random option."""
    seen = seat.player.view()
    seat.views += 1
    assert seen["history_warning"] is None, seen["history_warning"]
    seat.result = seen["result"]
    if not seen["awaited"] or (seen["since"], seen["kind"]) in seat.answered:
        return
    seat.answered.add((seen["since"], seen["kind"]))
    choice = seat.rng.choice(seen["options"])["id"]
    first = not seat.unanswered and len(seat.answered) == 1
    eml = seat.player.move(choice, turn=seen["turn"], orders=orders if first else ())
    seat.player.send(eml)
    seat.unanswered[eml.with_suffix(".json").name] = eml
    written.add(eml.with_suffix(".json").read_bytes())


def ask_again(seat: Seat) -> None:
    """Nothing came for a round: send again the moves that got no answer, and ask for the turns the copy lacks."""
    for eml in seat.unanswered.values():
        seat.player.send(eml)
    holds_nothing = not (seat.player.copy / "game.toml").exists()
    seat.player.send(seat.player.request(game=seat.game_id if holds_nothing else None))


@dataclass
class Game:
    post: Post
    network: Network
    seats: dict[str, Seat]
    #: every move file a player wrote, by its bytes
    written: set[bytes] = field(default_factory=set)
    retired: list[Seat] = field(default_factory=list)


def carrier(network: Network, to: str):
    """What the SMTP server does with a mail for ``to``: hand it to the network."""
    return lambda raw: network.carry(to, raw)


def set_up(tmp: Path, smtp: SmtpServer, dovecot: Dovecot, game_name: str, names: tuple[str, ...], seed: int) -> Game:
    table = make_table(tmp, names, seed=seed.to_bytes(32, "big"), game_name=game_name)
    post = make_post(tmp, smtp, "imap", imap=dovecot, players=("alice", "bob"), table=table)
    post.addresses = {name: address(name) for name in names}
    rng = random.Random(f"network-{game_name}-{seed}")
    network = Network(rng)
    smtp.post.deliver[REFEREE] = carrier(network, REFEREE)
    seats = {}
    for name in names:
        smtp.post.deliver[address(name)] = carrier(network, address(name))
        player = MailPlayer(name, address(name), table.key_files[name], tmp / "home" / name, smtp)
        seats[name] = Seat(player, random.Random(f"choices-{game_name}-{seed}-{name}"))
    return Game(post, network, seats)


def hand_over(game: Game, name: str) -> None:
    """The referee hands ``name``'s seat to a new holder, at a new address (pbem takeover --config --address)."""
    new_name = f"{name}2"
    key_file, pub_file = write_keypair(generate(name), game.post.tmp / "keys" / new_name)
    ok("takeover", game.post.table.dir, "--seat", name, "--key", pub_file, "--referee-key",
       game.post.table.key_files["referee"], "--config", game.post.write_config(), "--address", address(new_name))
    game.post.smtp.post.deliver[address(new_name)] = carrier(game.network, address(new_name))
    old = game.seats[name]
    game.retired.append(old)
    new = MailPlayer(name, address(new_name), key_file, game.post.tmp / "home" / new_name, game.post.smtp)
    game.seats[name] = Seat(new, random.Random(f"choices-{new_name}"),
                            game_id=status(game.post.table.dir).gamefile.game_id)


def play_whole_game(game: Game, orders: tuple[str, ...] = (), takeover_at: int | None = None,
                    takeover_seat: str | None = None) -> int:
    """Rounds of mail until the game is over and every player's copy shows it; the rounds played."""
    post, network = game.post, game.network
    for played in range(1, MAX_ROUNDS + 1):
        network.round += 1
        for raw in network.deliver(REFEREE):
            post.deliver_to_referee(raw)
        serve(post)
        if takeover_at is not None and takeover_seat is not None and status(post.table.dir).turn >= takeover_at:
            hand_over(game, takeover_seat)
            takeover_at = None
        came = False
        for seat in game.seats.values():
            if read_mails(seat, network.deliver(seat.player.address)):
                came = True
                act(seat, orders, game.written)
        for seat in game.retired:  # the previous holder of a seat still reads what comes (a notice)
            read_mails(seat, network.deliver(seat.player.address))
        if status(post.table.dir).over and all(seat.result is not None for seat in game.seats.values()):
            return played
        if not came:
            for seat in game.seats.values():
                ask_again(seat)
    raise AssertionError(f"the game did not end in {MAX_ROUNDS} rounds of mail")


def check_the_end(game: Game, rounds: int) -> dict[str, Any]:
    """What holds at the end of a whole game; the figures worth reporting."""
    post = game.post
    replay = invoke("verify", post.table.dir, "--replay")
    assert replay.exit_code == 0 and "replayed from the revealed seed" in replay.output, replay.output
    applied = sorted((post.table.dir / "moves").iterdir())
    assert applied and all(path.read_bytes() in game.written for path in applied)
    assert len({path.read_bytes() for path in applied}) == len(applied)  # each move applied once
    for kind in ("dropped", "duplicated", "delayed"):
        assert game.network.counts[kind] > 0, game.network.counts  # the mail system did its worst
    # a turn mail carries at most TURN_BYTES of turn files; with game.toml, the card data, the seat records,
    # the view and the base64 of the mail, a mail is well within twice that
    assert game.network.largest < 2 * TURN_BYTES, game.network.largest
    not_checked: dict[str, list[str]] = {}
    for seat in [*game.seats.values(), *game.retired]:
        result = invoke("verify", seat.player.copy, "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["ok"] and report["copy"] is not None
        assert any("move" in item for item in report["copy"]["not_checked"])
        not_checked[seat.player.address] = report["copy"]["not_checked"]
    for seat in game.retired:  # the previous holder's copy stops at the takeover: it says it is behind
        assert json.loads(invoke("verify", seat.player.copy, "--json").stdout)["copy"]["behind"]
    return {"rounds": rounds, "turns": status(post.table.dir).turn, "mails": dict(game.network.counts),
            "largest_mail": game.network.largest, "not_checked": not_checked}


def seeds(mail_games, game_name: str) -> list[int]:
    """CI's seed of ``game_name``, or ``--mail-games N`` seeds from 1."""
    count = mail_games(0)
    return [CI_SEEDS[game_name]] if count == 0 else list(range(1, count + 1))


def test_a_whole_two_player_nightfall_game_by_mail_with_mails_lost_repeated_and_late(
        tmp_path_factory, smtp_server, dovecot, mail_games):
    for seed in seeds(mail_games, "nightfall"):
        game = set_up(tmp_path_factory.mktemp(f"nightfall-{seed}"), smtp_server, dovecot, "nightfall",
                      ("alice", "bob"), seed)
        print(f"nightfall seed {seed}:", check_the_end(game, play_whole_game(game)))


def test_a_whole_four_player_nightlancer_game_by_mail_with_a_seat_handed_over_in_the_middle(
        tmp_path_factory, smtp_server, dovecot, mail_games):
    for seed in seeds(mail_games, "nightlancer"):
        game = set_up(tmp_path_factory.mktemp(f"nightlancer-{seed}"), smtp_server, dovecot, "nightlancer",
                      ("alice", "bob", "carol", "dave"), seed)
        figures = check_the_end(game, play_whole_game(game, orders=("reaction=always",), takeover_at=60,
                                                      takeover_seat="carol"))
        assert game.retired and figures["turns"] > 60
        print(f"nightlancer seed {seed}:", figures)
