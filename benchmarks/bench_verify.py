"""``pbem verify`` and ``pbem verify --replay`` on a finished game, against their crypto floor, in one run.

    python benchmarks/bench_verify.py [--game GAME] [--players P] [--runs N] [--baseline DIR]

Plays a whole game with the demo's bots (joins, a secret seed published in
the final turn), then times, N rounds, alternately (each round in the
reverse order of the one before, so that a change in the machine's load
touches all alike and none is always first):

* ``pbem verify DIR`` and ``pbem verify --replay DIR`` as whole processes,
  as a person runs them (Python's start, the imports, the checks), of this
  tree (``--baseline DIR``: also of that pbem source tree, e.g. an export
  of an older commit, first on the path);
* ``verify(DIR)`` and ``verify(DIR, replay=True)`` **warm**, each in a fresh
  process warmed by one call that is not timed (imports, compiled schemas):
  the checks alone;
* the **crypto floor** of each, with ``cryptography`` directly on byte
  strings prepared beforehand: for ``verify``, checking the Ed25519
  signature of every signed file it checks; for ``--replay``, that and,
  for every sealed section of every turn, what checking it byte for byte
  cannot do without (per stanza the two X25519 operations that give its
  share and its shared secret, and unwrapping its file key; opening the
  payload) and opening every move's sealed choices (one X25519 exchange,
  the file key, the payload).

Prints the machine's speed first; then files/s (plain ``verify``) and
moves/s (``verify --replay``, all of it: the plain checks and the replay),
of the whole process and warm, each median's ratio to its floor, and the
replay alone (the difference of the two, warm), by wall time and by CPU
time (on a machine whose cores other work shares, wall time also counts the
time spent waiting for a core).
"""

from __future__ import annotations

import argparse
import base64
import compileall
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from machine import Times, alternated, median, print_speed, run_child, timed

#: what a worker process prints: the median seconds of its timed calls
WORKER = """
import statistics, sys, time
from pbem.referee.verify import verify
directory, replay, calls = sys.argv[1], sys.argv[2] == "replay", int(sys.argv[3])
report = verify(directory, replay=replay)
assert report.replayed == replay, report
wall, cpu = [], []
for _ in range(calls):
    start, used = time.perf_counter(), time.process_time()
    verify(directory, replay=replay)
    wall.append(time.perf_counter() - start)
    cpu.append(time.process_time() - used)
print(statistics.median(wall), statistics.median(cpu), report.files, report.moves)
"""

def worker(directory: Path, mode: str, calls: int, env: dict[str, str]) -> tuple[Times, int, int]:
    """The median wall and CPU seconds of a warm ``verify`` in a fresh process, and the files and moves it counted."""
    done = subprocess.run([sys.executable, "-c", WORKER, str(directory), mode, str(calls)], env=env,
                          capture_output=True, text=True, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"verify ({mode}) failed: {done.stderr[-800:]}")
    wall, cpu, files, moves = done.stdout.split()
    return Times(float(wall), float(cpu)), int(files), int(moves)


def command(directory: Path, mode: str, env: dict[str, str]) -> Times:
    """The wall and CPU seconds of ``pbem verify [--replay] DIR`` as a whole process."""
    replay = ["--replay"] if mode == "replay" else []
    done = run_child([sys.executable, "-m", "pbem", "verify", *replay, str(directory)], env=env, cwd="/")
    if done.returncode != 0:
        raise SystemExit(f"pbem verify {' '.join(replay)} exited {done.returncode}: {done.stderr[-800:]}")
    return done.times


def signature_floor(directory: Path) -> Callable[[], None]:
    """Verify the Ed25519 signature of every signed JSON file of the game, as prepared byte strings."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from pbem.crypto.canonical import canonical_json
    from pbem.crypto.keys import load_public_key

    keys = {}
    for pub in (directory.parent / "keys").glob("*.pub"):
        public = load_public_key(pub, name=pub.stem)
        keys[public.fingerprint] = public.ed25519
    checks = []
    for path in sorted(directory.rglob("*.json")):
        doc = json.loads(path.read_bytes())
        if not isinstance(doc, dict) or "signature" not in doc:
            continue
        signature = doc.pop("signature")
        checks.append((keys[signature["signer"]], base64.b64decode(signature["value"]),
                       canonical_json(doc)))

    def run() -> None:
        for public, value, message in checks:
            Ed25519PublicKey.from_public_bytes(public).verify(value, message)

    return run


def sealed_floor(directory: Path) -> Callable[[], None]:
    """Per sealed section of every turn and every move's choices, the X25519 and ChaCha20-Poly1305 work."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from pbem.crypto import age, armor

    def shape(text: str) -> tuple[int, int]:
        header, offset = age.parse_header(armor.dearmor(text.encode("ascii")))
        return len(header.stanzas), len(armor.dearmor(text.encode("ascii"))) - offset - age.NONCE_SIZE

    sections = []  # (stanzas, payload size, sealer's side: True for a turn's section, False for a move)
    for path in sorted((directory / "turns").glob("*.json")):
        for text in json.loads(path.read_bytes())["sealed"].values():
            sections.append((*shape(text), True))
    for path in sorted((directory / "moves").glob("*.json")):
        sections.append((*shape(json.loads(path.read_bytes())["sealed_choices"]), False))
    key, nonce = os.urandom(32), bytes(12)
    peer = X25519PrivateKey.generate().public_key()
    prepared = [(stanzas, ChaCha20Poly1305(key).encrypt(nonce, os.urandom(size - 16), None), sealer)
                for stanzas, size, sealer in sections]
    wrapped = ChaCha20Poly1305(key).encrypt(nonce, os.urandom(16), None)

    def run() -> None:
        for stanzas, payload, sealer in prepared:
            for _ in range(stanzas if sealer else 1):
                ephemeral = X25519PrivateKey.from_private_bytes(os.urandom(32))
                if sealer:
                    ephemeral.public_key().public_bytes_raw()
                ephemeral.exchange(peer)
                ChaCha20Poly1305(key).decrypt(nonce, wrapped, None)
            ChaCha20Poly1305(key).decrypt(nonce, payload, None)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="nightfall")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5, help="rounds; each times every tree and floor")
    parser.add_argument("--calls", type=int, default=3, help="timed calls per worker process")
    parser.add_argument("--baseline", type=Path, default=None, help="another pbem source tree to compare with")
    args = parser.parse_args()

    print_speed()
    from pbem.referee.demo import run_demo

    with tempfile.TemporaryDirectory() as where:
        demo = run_demo(where, args.game, args.players)
        directory = demo.directory / "game"
        print(f"{args.game}, {args.players} players: {demo.turns} turns, {demo.verified.files} files, "
              f"{demo.verified.moves} moves; medians of {args.runs} rounds")
        here = Path(__file__).resolve().parent.parent
        trees = {"this tree": {**os.environ, "PYTHONPATH": str(here)}}
        if args.baseline is not None:
            trees["baseline"] = {**os.environ, "PYTHONPATH": str(args.baseline.resolve())}
        for tree in [here, *([args.baseline] if args.baseline is not None else [])]:
            compileall.compile_dir(str(tree / "pbem"), quiet=1)  # as installed: no process compiles it again
        signatures, sealed = signature_floor(directory), sealed_floor(directory)
        times: dict[str, list[Times]] = {}
        counts = (0, 0)

        def measure(what: str) -> None:
            nonlocal counts
            if what == "floor plain":
                found = timed(signatures)[1]
            elif what == "floor replay":
                plain, rest = timed(signatures)[1], timed(sealed)[1]
                found = Times(plain.wall + rest.wall, plain.cpu + rest.cpu)
            else:
                name, kind, mode = what.split("/")
                if kind == "process":
                    found = command(directory, mode, trees[name])
                else:
                    found, *count = worker(directory, mode, args.calls, trees[name])
                    counts = (count[0], count[1])
            times.setdefault(what, []).append(found)

        items = [f"{name}/{kind}/{mode}" for name in trees for kind in ("process", "warm") for mode in ("plain", "replay")]
        for what in alternated([*items, "floor plain", "floor replay"], args.runs):
            measure(what)
        files, moves = counts
        of = {what: median(found) for what, found in times.items()}
        for clock in ("wall", "cpu"):
            def ms(what: str, clock: str = clock) -> float:
                return float(getattr(of[what], clock))

            print(f"{'wall' if clock == 'wall' else 'CPU'} time; crypto floor: verify {ms('floor plain') * 1000:.0f} ms, "
                  f"verify --replay {ms('floor replay') * 1000:.0f} ms")
            for name in trees:
                for kind, label in (("process", "whole process"), ("warm", "warm in process")):
                    plain, replay = ms(f"{name}/{kind}/plain"), ms(f"{name}/{kind}/replay")
                    print(f"  {name}, {label}: verify {plain * 1000:.0f} ms = {files / plain:,.0f} files/s "
                          f"({plain / ms('floor plain'):.1f}x the floor); verify --replay {replay * 1000:.0f} ms = "
                          f"{moves / replay:,.0f} moves/s ({replay / ms('floor replay'):.1f}x the floor)")
                plain, replay = ms(f"{name}/warm/plain"), ms(f"{name}/warm/replay")
                alone, alone_floor = replay - plain, ms("floor replay") - ms("floor plain")
                print(f"  {name}, the replay alone (warm): {alone * 1000:.0f} ms = {moves / alone:,.0f} moves/s "
                      f"({alone / alone_floor:.1f}x its floor)")


if __name__ == "__main__":
    main()
