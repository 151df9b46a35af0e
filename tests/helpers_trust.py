"""Helpers for the trust tests: toy games that wait for joins, finished games, byte flips, random positions,
referee processes of the toy game."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from helpers_referee import Table, make_keys, make_table

from pbem.bots import RandomBot
from pbem.crypto.canonical import canonical_json
from pbem.crypto.signing import sign_document
from pbem.engine import Game, Rng, apply_choice, step_rng
from pbem.referee import formats, new_game, read_view, sealing, status, submit
from pbem.referee.joins import make_join
from pbem.referee.player import CHOICES_SIZE, choices_payload
from pbem.referee.storage import dump_json

PLAYERS = ("alice", "bob")
#: the tests' folder, where the toy game's module is
TESTS = Path(__file__).resolve().parent


def toy_game_env() -> dict[str, str]:
    """The environment of a referee process that plays the toy game (``tests/toygame.py``)."""
    path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PBEM_GAMES": "toygame", "PYTHONPATH": path}


def temp_files(directory: Path) -> list[Path]:
    """The temporary files of durable writes left in a game directory."""
    return list(directory.rglob(".tmp-*"))


def random_positions(game: Game, players: list[str], seed: int, every: int, scenario: Any = None) -> Iterator[Any]:
    """Yield positions of one random game (of ``scenario``, by default the standard set-up),
    every ``every`` steps, and its end."""
    key = hashlib.sha256(f"leak-{game.name}-{seed}".encode()).digest()
    if scenario is None:
        scenario = game.load_scenario(game.scenarios()[0])
    state = game.new_state(scenario, players, step_rng(key, [], 0))
    bots = {p: RandomBot(Rng.from_seed(f"leak-{seed}-{p}")) for p in players}
    step = 0
    while True:
        if step % every == 0:
            yield state
        decisions = game.awaiting(state)
        if not decisions:
            yield state
            return
        step += 1
        decision = decisions[0]
        choice = bots[decision.player].choose(None, decision)
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, choice, step_rng(key, [], step))


def joining_table(tmp: Path, players: tuple[str, ...] = PLAYERS, seed: bytes | None = None,
                  scenario: str | None = None) -> Table:
    """A toy game created with ``--wait-for-joins``; nobody has joined yet."""
    keys, files = make_keys(tmp / "keys", ["referee", *players])
    game = tmp / "game"
    new_game(game, "highcard", [(p, keys[p].public) for p in players], keys["referee"], seed=seed,
             scenario=scenario, wait_for_joins=True)
    return Table(dir=game, keys=keys, key_files=files)


def join(table: Table, player: str, nonce: bytes | None = None) -> bytes:
    """The join file ``player`` sends now (``pbem join``): the commitment, or the nonce once all have committed."""
    return make_join(table.dir, player, table.keys[player], nonce=nonce)


def join_all(table: Table, order: tuple[str, ...] = PLAYERS, nonces: dict[str, bytes] | None = None) -> None:
    """Both join rounds, each player in ``order``: every commitment, then every nonce (the last deals)."""
    for _round in ("commit", "reveal"):
        for player in order:
            submit(table.dir, join(table, player, (nonces or {}).get(player)), table.referee)


def joined_table(tmp: Path, players: tuple[str, ...] = PLAYERS, seed: bytes | None = None,
                 scenario: str | None = None) -> Table:
    """A toy game whose players have all joined (turn 0 dealt with their nonces)."""
    table = joining_table(tmp, players, seed, scenario)
    join_all(table, players)
    return table


def play(table: Table, steps: int | None = None, seed: str = "play") -> int:
    """Random legal moves until the game ends (or ``steps`` moves); returns the moves made."""
    rng = Rng.from_seed(seed)
    made = 0
    while steps is None or made < steps:
        now = status(table.dir)
        if now.over:
            break
        player = now.awaiting[0]["player"]
        decision = table.view(player).decision
        submit(table.dir, table.move(player, rng.choice(decision.options).id), table.referee)
        made += 1
    return made


def finished_table(tmp: Path, joins: bool = True, seed: bytes | None = None) -> Table:
    """A whole toy game played to its end, with a secret seed (published in the final turn)."""
    table = joined_table(tmp, seed=seed) if joins else make_table(tmp, seed=seed)
    play(table)
    assert status(table.dir).over
    return table


def flip(path: Path, position: int) -> None:
    """Change one byte of a file (XOR 0x01)."""
    data = bytearray(path.read_bytes())
    data[position] ^= 0x01
    path.write_bytes(bytes(data))


def forge_move(table: Table, player: str, choices: Sequence[str] = (), orders: dict[str, Any] | None = None,
               payload: dict[str, Any] | None = None, sealed: str | None = None) -> bytes:
    """A signed move answering the current turn, built by hand past every check ``pbem move`` makes.

    ``sealed`` is its ``sealed_choices`` as they are (anyone's, any bytes);
    else ``payload`` is sealed whole; else the payload holds ``choices`` and,
    when given, ``orders`` as its standing orders.
    """
    view = read_view(table.dir, player, table.keys[player])
    if payload is None:
        payload = choices_payload(view.gamefile.game_id, player, view.number, view.turn.hash, list(choices), orders)
    if sealed is None:
        # padded as pbem move pads; a payload beyond the padded size is sealed as it is, as a hostile
        # client might (its length is then only its sender's to give away)
        data = canonical_json(payload)
        sealed = sealing.seal_canonical(data, [view.gamefile.game_recipient], None, max(CHOICES_SIZE, len(data)))
    doc = {
        "format": formats.MOVE,
        "game_id": view.gamefile.game_id,
        "player": player,
        "turn": view.number,
        "base": view.turn.hash,
        "sealed_choices": sealed,
    }
    return dump_json(sign_document(doc, table.keys[player]))


def hostile_game_toml(table: Table, **changes: Any) -> None:
    """What anyone can make who knows alice's public key: a game of their own (their referee key) whose
    game.toml has ``changes`` (``game_id``, ``cards``...), turn 0 and alice's section re-signed and
    re-sealed so that every check of the chain passes."""
    import json

    import tomli_w

    from pbem.crypto.canonical import document_hash
    from pbem.crypto.seal import open_sealed, seal
    from pbem.referee.gamefile import GameFile

    toml_path = table.dir / "game.toml"
    doc = {**GameFile.read(toml_path).to_doc(), **changes}
    toml_path.write_bytes(tomli_w.dumps(doc).encode())
    turn_path = table.dir / "turns" / "000000.json"
    turn = json.loads(turn_path.read_text())
    section = open_sealed(turn["sealed"]["alice"], table.keys["alice"])
    section["game_id"] = doc["game_id"]
    turn["sealed"]["alice"] = seal(section, [table.keys["alice"].public])
    turn.pop("signature")
    turn.update(game_id=doc["game_id"], game=document_hash(doc))  # the hash every turn names
    turn_path.write_bytes(dump_json(sign_document(turn, table.referee)))


def record_reads(monkeypatch: Any) -> list[Path]:
    """The files read from now on, resolved: by ``Path.read_bytes``, or opened for reading alone with
    ``os.open`` (as :func:`pbem.referee.layout.read_file` does)."""
    read: list[Path] = []
    real_read_bytes, real_open = Path.read_bytes, os.open

    def read_bytes(self: Path) -> bytes:
        read.append(self.resolve())
        return real_read_bytes(self)

    def open_file(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if not flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            read.append(Path(path).resolve())
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(os, "open", open_file)
    return read
