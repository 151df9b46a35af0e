"""One referee step against its cryptographic floor, measured in the same run.

    python benchmarks/bench_step.py [--games G] [--steps N] [--profile] [CONFIG ...]

A configuration is ``GAME:PLAYERS`` (default: ``nightfall:2 nightfall:5
nightlancer:4``). Random bots play G games (default 2) through the real
referee, N steps each (default 40): the awaited player's view is opened, a
bot picks an option and the move file is signed (not timed), then one
``submit`` is timed alone (lock, read and check the current turn, parse and
check the move, apply it, seal every section, sign, write).

Right after each step, its **cryptographic floor** is timed: what no
referee can skip, done with ``cryptography`` directly on byte strings of the
sizes that very step had: verify the move's Ed25519 signature; open the
referee section (X25519, HKDF, unwrap the file key, the header HMAC, then
ChaCha20-Poly1305 over the section); seal each of the P+1 sections of the new
turn (per recipient an ephemeral X25519 key, the exchange, HKDF and the
wrapped file key; the header HMAC; ChaCha20-Poly1305 over the padded
section); sign the new turn with Ed25519.

Also timed after each step, the **design floor**: what this referee's trust
model adds to that floor, which no step of this design can skip either, again
with ``cryptography``, ``zlib`` and ``hashlib`` directly on that step's sizes
(the state's own text for zlib): verify the current turn's Ed25519 signature
(a turn file travels by e-mail and git, and is read back as anyone's file
is); open the move's sealed choices (sealed to the game identity: one X25519
exchange, HKDF, the file key unwrapped, the header HMAC, the payload);
sign each player's view; compress the new state (zlib level 9) and inflate
the current one; hash the move file, the move and the new turn (SHA-256);
salt (HMAC-SHA256) and hash every commitment, one a section and one a
hidden zone.

And the **file floor**: writing files of the sizes
the step wrote, each to a new file renamed into place, in the same file
system: the move and the turn as new files, flushed to disk with their
folder; each view over the one the floor wrote a step before, not flushed
(as a step's view replaces the view of the turn before: on ext4, replacing
a file written a step ago costs some 50 µs more than replacing one made
just before, which is what the floor did until it kept its folder for the
whole game). No referee that keeps these files can write less; on a
machine where creating and replacing a file is slow it is much of a step.

A step and its floors are timed alternately: in every other step the floors
go first, timed on the sizes of the same step made beforehand on a copy of
the game directory (the referee writes the same bytes from the same
directory and move), then the step itself; so that neither is always timed
right after the other's work.

Prints the machine's speed first; then, per configuration, the medians of
the step, of each floor and of the time the step spent inside the game's
own methods (``apply``, ``awaiting``, ``public``, ``private``,
``result``...), by wall time and by CPU time; the step against the three
floors together, and against the crypto floor alone, as ratios taken step
by step (each step against its own floors), then their median. With
``--profile``, where the referee's time goes (cProfile, own time by part;
the profiler slows pure Python more than C, so the shares are rough).

The target is a step within 2x the sum of its three floors (README,
"Performance").
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import hmac
import json
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from machine import Times, print_speed

from pbem.bots.random_bot import RandomBot
from pbem.crypto.keys import generate
from pbem.crypto.seal import open_plaintext
from pbem.crypto.signing import signed_bytes
from pbem.engine.registry import find_game
from pbem.engine.rng import Rng
from pbem.referee import new_game, submit
from pbem.referee.demo import bot_move
from pbem.referee.sealing import open_with_seed_raw

NAMES = ["ann", "bob", "cyd", "dee", "eve"]
DEFAULT_CONFIGS = ["nightfall:2", "nightfall:5", "nightlancer:4"]
#: the methods of the game protocol a step calls: their time is the game's own
GAME_METHODS = ("apply", "awaiting", "public", "private", "result", "hidden_zones", "sealed_sizes",
                "static_state", "decision_kinds", "load_scenario", "new_state", "cards")
CHUNK = 64 * 1024


class GameClock:
    """Time spent inside a game's methods while :attr:`running` (outermost calls only)."""

    def __init__(self) -> None:
        self.running = False
        self.spent = 0.0
        self.cpu = 0.0
        self._depth = 0

    def wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not self.running or self._depth:
                return method(*args, **kwargs)
            self._depth += 1
            start, used = time.perf_counter(), time.process_time()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start
                self.cpu += time.process_time() - used
                self._depth -= 1
        return timed

    def install(self, game_name: str) -> None:
        game = find_game(game_name)
        if getattr(game, "_bench_clock", None) is self:
            return
        for name in GAME_METHODS:
            method = getattr(game, name, None)
            if method is not None:
                setattr(game, name, self.wrap(method))
        game._bench_clock = self  # type: ignore[attr-defined]


# --- the floor ------------------------------------------------------------------


def _hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


class Floor:
    """The cryptographic floor of one step, on byte strings of that step's sizes."""

    def __init__(self) -> None:
        self.signer = Ed25519PrivateKey.generate()
        self.verifier = self.signer.public_key()
        self.identity = X25519PrivateKey.generate()
        self.recipient = self.identity.public_key()

    def sealed(self, plaintext: bytes, header_size: int) -> dict[str, bytes]:
        """``plaintext`` sealed to the floor's identity as age seals it: what :meth:`opened` opens (not timed)."""
        file_key = os.urandom(16)
        ephemeral = X25519PrivateKey.generate()
        share = ephemeral.public_key().public_bytes_raw()
        wrapped = ChaCha20Poly1305(_hkdf(ephemeral.exchange(self.recipient), share, b"X25519")).encrypt(
            bytes(12), file_key, None)
        header = os.urandom(header_size)
        nonce = os.urandom(16)
        return {"share": share, "wrapped": wrapped, "header": header, "nonce": nonce,
                "mac": hmac.new(_hkdf(file_key, b"", b"header"), header, hashlib.sha256).digest(),
                "payload": _stream(_hkdf(file_key, nonce, b"payload"), plaintext, encrypt=True)}

    def opened(self, sealed: dict[str, bytes]) -> bytes:
        """Open what :meth:`sealed` made: X25519, HKDF, unwrap the file key, the header HMAC, the payload."""
        share = sealed["share"]
        shared = self.identity.exchange(X25519PublicKey.from_public_bytes(share))
        file_key = ChaCha20Poly1305(_hkdf(shared, share, b"X25519")).decrypt(bytes(12), sealed["wrapped"], None)
        mac = hmac.new(_hkdf(file_key, b"", b"header"), sealed["header"], hashlib.sha256).digest()
        assert hmac.compare_digest(mac, sealed["mac"])
        return _stream(_hkdf(file_key, sealed["nonce"], b"payload"), sealed["payload"], encrypt=False)

    def prepare(self, sizes: dict[str, Any]) -> dict[str, Any]:
        """Inputs of the timed part: a signed move, a sealed referee section, plaintexts (not timed)."""
        move_body = os.urandom(sizes["move"])
        return {
            "move_body": move_body, "move_signature": self.signer.sign(move_body),
            "referee": self.sealed(os.urandom(sizes["referee_opened"]), sizes["header"]),
            "sections": [(os.urandom(size), recipients) for size, recipients in sizes["sealed"]],
            "turn_body": os.urandom(sizes["turn"]),
        }

    def run(self, inputs: dict[str, Any]) -> Times:
        start, used = time.perf_counter(), time.process_time()
        # verify the move
        self.verifier.verify(inputs["move_signature"], inputs["move_body"])
        # open the referee section
        self.opened(inputs["referee"])
        # seal every section of the new turn
        for plaintext, recipients in inputs["sections"]:
            file_key = os.urandom(16)
            stanzas = []
            for _ in range(recipients):
                ephemeral = X25519PrivateKey.generate()
                share = ephemeral.public_key().public_bytes_raw()
                key = _hkdf(ephemeral.exchange(self.recipient), share, b"X25519")
                stanzas.append(share + ChaCha20Poly1305(key).encrypt(bytes(12), file_key, None))
            header = b"".join(stanzas)
            hmac.new(_hkdf(file_key, b"", b"header"), header, hashlib.sha256).digest()
            nonce = os.urandom(16)
            _stream(_hkdf(file_key, nonce, b"payload"), plaintext, encrypt=True)
        # sign the new turn
        self.signer.sign(inputs["turn_body"])
        return Times(time.perf_counter() - start, time.process_time() - used)

    def prepare_design(self, sizes: dict[str, Any]) -> dict[str, Any]:
        """Inputs of :meth:`run_design` (not timed): what the trust model adds, on this step's sizes."""
        before_body = os.urandom(sizes["before"])
        return {
            "before_body": before_body, "before_signature": self.signer.sign(before_body),
            "choices": self.sealed(os.urandom(sizes["choices"]), sizes["header"]),
            "views": [os.urandom(size) for size in sizes["views"]],
            "state": sizes["state"], "packed": sizes["packed"],
            "hashed": [os.urandom(size) for size in sizes["hashed"]],
            "committed": [os.urandom(size) for size in sizes["committed"]],
        }

    def run_design(self, inputs: dict[str, Any]) -> Times:
        """What the trust model adds to :meth:`run`: verify the current turn's signature; open the move's
        sealed choices; sign every view; compress the new state and inflate the current one (zlib); hash
        the move file, the move and the new turn (SHA-256); salt and hash every commitment."""
        start, used = time.perf_counter(), time.process_time()
        self.verifier.verify(inputs["before_signature"], inputs["before_body"])
        self.opened(inputs["choices"])
        for body in inputs["views"]:
            self.signer.sign(body)
        zlib.compress(inputs["state"], 9)
        zlib.decompressobj().decompress(inputs["packed"])
        for data in inputs["hashed"]:
            hashlib.sha256(data).digest()
        keyed = hmac.new(os.urandom(32), digestmod=hashlib.sha256)  # keyed once, copied per salt
        for index, data in enumerate(inputs["committed"]):
            salter = keyed.copy()
            salter.update(b"commit %d" % index)
            hashlib.sha256(salter.digest() + data).digest()
        return Times(time.perf_counter() - start, time.process_time() - used)


def _stream(key: bytes, data: bytes, encrypt: bool) -> bytes:
    aead = ChaCha20Poly1305(key)
    size = CHUNK if encrypt else CHUNK + 16
    chunks = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
    out = []
    for index, chunk in enumerate(chunks):
        nonce = index.to_bytes(11, "big") + (b"\x01" if index == len(chunks) - 1 else b"\x00")
        out.append(aead.encrypt(nonce, chunk, None) if encrypt else aead.decrypt(nonce, chunk, None))
    return b"".join(out)


def write_files(where: Path, files: list[tuple[int, bool]], step: int) -> Times:
    """Write files of these sizes as new files renamed into place: when ``True``, under a new name, flushed
    to disk with its folder; else over the file the floor of the step before wrote there (as a view replaces
    the view of the turn before)."""
    payloads = [(os.urandom(size), sync) for size, sync in files]
    for index, (data, sync) in enumerate(payloads):
        if not sync and not (where / f"view-{index}").exists():
            (where / f"view-{index}").write_bytes(os.urandom(len(data)))  # the views of the deal
    start, used = time.perf_counter(), time.process_time()
    for index, (data, sync) in enumerate(payloads):
        temp, final = where / f".tmp-{index}", where / (f"new-{step}-{index}" if sync else f"view-{index}")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        if sync:
            os.fsync(fd)
        os.close(fd)
        os.replace(temp, final)
        if sync:
            folder = os.open(where, os.O_RDONLY)
            os.fsync(folder)
            os.close(folder)
    return Times(time.perf_counter() - start, time.process_time() - used)


def step_sizes(directory: Path, number: int, move: bytes, keys: dict[str, Any], players: list[str],
               seed: bytes) -> dict[str, Any]:
    """The sizes the floor of the step that wrote turn ``number`` works on."""
    turn = json.loads((directory / "turns" / f"{number:06d}.json").read_bytes())
    before = json.loads((directory / "turns" / f"{number - 1:06d}.json").read_bytes())
    move_doc = json.loads(move)
    sealed, committed, state = [], [], b""
    for name, text in turn["sealed"].items():
        if name == "referee":
            opened = open_plaintext(text, [keys["referee"]])
            state = zlib.decompressobj().decompress(opened)
            sealed.append((len(opened), 2))
            committed.append(len(state))
        else:
            opened = open_plaintext(text, [keys[name]])
            sealed.append((len(opened), 1))
            committed.append(len(opened.rstrip()))
    committed += [64] * len(turn["commitments"]["zones"])  # a zone's cards: some dozens of bytes
    move_body, turn_body = signed_bytes(move_doc), signed_bytes(turn)
    views = [json.loads((directory / "views" / p / "latest.json").read_bytes()) for p in players]
    packed = open_plaintext(before["sealed"]["referee"], [keys["referee"]])  # the current state, sealed
    return {
        "move": len(move_body),
        "referee_opened": len(packed),
        "header": 120,
        "sealed": sealed,
        "turn": len(turn_body),
        # the design floor's (Floor.run_design)
        "before": len(signed_bytes(before)),
        "choices": len(open_with_seed_raw(move_doc["sealed_choices"], seed)),
        "views": [len(signed_bytes(view)) for view in views],
        # the real texts, for zlib: what the state compresses to depends on what it holds
        "state": state,
        "packed": packed,
        "hashed": [len(move), len(move_body), len(turn_body)],
        "committed": committed,
        "files": [(len(move), True), ((directory / "turns" / f"{number:06d}.json").stat().st_size, True)]
        + [((directory / "views" / p / name).stat().st_size, False) for p in players
           for name in ("latest.json", "latest.age")],
    }


# --- the run ----------------------------------------------------------------------


def measure(game: str, count: int, games: int, steps: int, profiler: cProfile.Profile | None) -> dict[str, list[Times]]:
    """Per step timed: the step, the game's time in it, and its three floors."""
    clock = GameClock()
    clock.install(game)
    floor = Floor()
    found: dict[str, list[Times]] = defaultdict(list)

    def floors(sizes: dict[str, Any], turn: int, scratch: Path) -> None:
        inputs, design = floor.prepare(sizes), floor.prepare_design(sizes)
        found["floor"].append(floor.run(inputs))
        found["design"].append(floor.run_design(design))
        found["files"].append(write_files(scratch, sizes["files"], turn))

    players = NAMES[:count]
    for index in range(games):
        keys = {name: generate(name) for name in ["referee", *players]}
        bots = {p: RandomBot(Rng.from_seed(f"bench-step-{game}-{count}-{index}-{p}")) for p in players}
        with tempfile.TemporaryDirectory() as tmp:
            directory = Path(tmp) / "game"
            scratch = Path(tmp) / "files"  # the file floor's, kept for the whole game as the game directory is
            scratch.mkdir()
            seed = bytes([index + 1]) * 32
            new_game(directory, game, [(p, keys[p].public) for p in players], keys["referee"], seed=seed)
            for index in range(steps):
                made = bot_move(directory, keys, bots)
                if made is None:
                    break
                data = made.data
                if index % 2:  # the floors first, on the sizes of this very step made on a copy (not timed)
                    rehearsal = Path(tmp) / "rehearsal"
                    shutil.rmtree(rehearsal, ignore_errors=True)
                    shutil.copytree(directory, rehearsal, symlinks=True)
                    turn = submit(rehearsal, data, keys["referee"]).turn
                    floors(step_sizes(rehearsal, turn, data, keys, players, seed), turn, scratch)
                clock.spent = clock.cpu = 0.0
                clock.running = True
                if profiler is not None:
                    profiler.enable()
                start, used = time.perf_counter(), time.process_time()
                step = submit(directory, data, keys["referee"])
                elapsed = Times(time.perf_counter() - start, time.process_time() - used)
                if profiler is not None:
                    profiler.disable()
                clock.running = False
                found["step"].append(elapsed)
                found["game"].append(Times(clock.spent, clock.cpu))
                if not index % 2:
                    floors(step_sizes(directory, step.turn, data, keys, players, seed), step.turn, scratch)
    return found


#: parts of the referee's time, by where the function lives (first match wins)
PARTS = [
    ("game rules (pbem/games, engine)", ("pbem/games/", "pbem/engine/", "tests/")),
    ("JSON written for people (the files' indented layout)", ("json/encoder.py",)),
    ("canonical JSON", ("pbem/crypto/canonical.py", "_json.encode", "c_make_encoder")),
    ("JSON parsing", ("json/decoder.py", "json/__init__.py", "_json", "JSONDecoder")),
    ("JSON Schema checks", ("jsonschema", "referencing", "pbem/referee/formats.py", "pbem/schemas.py")),
    ("age, armor, keys (pbem/crypto)", ("pbem/crypto/",)),
    ("cryptography primitives", ("cryptography", "x25519", "ed25519", "ChaCha20", "HKDF", "hmac.py", "openssl",
                                 "_hashlib", "built-in method builtins.pow")),
    ("files (open, read, fsync, rename, listing)", ("posix.", "io.open", "pathlib", "pbem/durable.py", "scandir",
                                                     "method 'read'", "method 'write'", "os.py", "FileIO")),
    ("zlib", ("zlib",)),
]


def where_the_time_goes(profiler: cProfile.Profile) -> list[tuple[str, float]]:
    stats = pstats.Stats(profiler)
    totals: dict[str, float] = defaultdict(float)
    for (filename, _line, function), (_cc, _nc, own, _cum, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{filename} {function}"
        part = next((name for name, marks in PARTS if any(m in where for m in marks)), "the referee's own Python")
        totals[part] += own
    whole = sum(totals.values()) or 1.0
    return sorted(((part, share / whole) for part, share in totals.items()), key=lambda item: -item[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("configs", nargs="*", default=DEFAULT_CONFIGS, help="GAME:PLAYERS")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--steps", type=int, default=40, help="steps timed per game")
    parser.add_argument("--profile", action="store_true", help="also say where the step's time goes")
    args = parser.parse_args()
    print_speed()
    for config in args.configs:
        game, _, count = config.partition(":")
        profiler = cProfile.Profile() if args.profile else None
        found = measure(game, int(count), args.games, args.steps, profiler)
        print(f"{config}: {len(found['step'])} steps; medians in ms (wall / CPU)")
        for label, key in (("the step", "step"), ("  in the game's own methods", "game"),
                           ("crypto floor", "floor"), ("design floor", "design"), ("file floor", "files")):
            wall = statistics.median(t.wall for t in found[key]) * 1000
            cpu = statistics.median(t.cpu for t in found[key]) * 1000
            print(f"  {label:28} {wall:7.2f} / {cpu:7.2f}")
        # ratios step by step (each step against the floors timed beside it), then their median: steadier
        # than a ratio of medians on a machine whose load changes
        for clock in ("wall", "cpu"):
            rows = [[getattr(t, clock) for t in times]
                    for times in zip(found["step"], found["floor"], found["design"], found["files"], strict=True)]
            whole = statistics.median(s / (f + d + w) for s, f, d, w in rows)
            crypto = statistics.median(s / f for s, f, _, _ in rows)
            floors = statistics.median((f + d + w) / f for _, f, d, w in rows)
            print(f"  by {'wall' if clock == 'wall' else 'CPU'} time: the step is {whole:.2f}x the three floors "
                  f"together (target <= 2x), {crypto:.1f}x the crypto floor; the floors together are "
                  f"{floors:.1f}x the crypto floor")
        if profiler is not None:
            for part, share in where_the_time_goes(profiler):
                print(f"    {share * 100:5.1f}%  {part}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
