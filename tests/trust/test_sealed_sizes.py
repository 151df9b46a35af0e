"""Sealed sizes: nothing a sealed text hides shows in its length.

age's ciphertext is exactly as long as its plaintext plus a constant, so
the referee pads every sealed plaintext to a size fixed by public facts
(the game, the seat count, the kind of decision awaited): the players'
sections, the referee's section, the seed in ``pending.json`` and the
choices of a move. The conformance suite checks the sections over random
positions of every game and the sizes each declares against random games
of every scenario and seat count (``tests/conformance/test_hidden_information.py``);
here: moves, the padding and compression scheme, and the static members
kept out of the referee's section.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import toygame
import zonegame
from helpers_referee import make_keys
from helpers_trust import joining_table

from pbem.crypto import age
from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import SealError
from pbem.crypto.keys import generate
from pbem.engine import find_game, game_names, register
from pbem.referee import formats, make_move, new_game, read_view, sealing, status, submit
from pbem.referee.core import StaticMembers, dynamic_state
from pbem.referee.deal import static_of
from pbem.referee.errors import GameDirError, UsageError
from pbem.referee.gamefile import GameFile
from pbem.referee.joins import SEED_SECTION_SIZE
from pbem.referee.layout import GameDir
from pbem.referee.player import CHOICES_SIZE, choices_payload, sign_move
from pbem.referee.records import read_turn
from pbem.referee.turns import open_position

register(toygame.GAME)
register(zonegame.GAME)

SEAT_KEYS = {name: generate(name) for name in ("referee", "p0", "p1", "p2", "p3", "p4")}


@pytest.mark.parametrize("game_name", game_names())
def test_a_moves_sealed_length_does_not_depend_on_the_option_chosen(game_name: str, tmp_path: Path) -> None:
    """Every option of every decision met in the first turns of a game gives a move whose
    sealed choices are as long as any other's (one size for every move)."""
    game = find_game(game_name)
    players = [f"p{i}" for i in range(max(2, game.min_players))]
    keys, _ = make_keys(tmp_path / "keys", ["referee", *players])
    directory = tmp_path / "game"
    new_game(directory, game_name, [(p, keys[p].public) for p in players], keys["referee"], seed=bytes(32))
    lengths: set[int] = set()
    for _ in range(12):
        now = status(directory)
        if now.over:
            break
        player = now.awaiting[0]["player"]
        view = read_view(directory, player, keys[player])
        assert view.decision is not None
        moves = [make_move(view, keys[player], [option.id]) for option in view.decision.options]
        lengths |= {len(json.loads(move)["sealed_choices"]) for move in moves}
        assert len(lengths) == 1, f"{game_name}: sealed choices of {sorted(lengths)} bytes at turn {view.number}"
        submit(directory, moves[-1], keys["referee"])


def test_the_largest_move_of_choices_within_the_bounds_fits_the_choices_size() -> None:
    """Every move of choices (and orders in the form before orders) that the schema's bounds admit seals
    to the one size (ids are ASCII in every game)."""
    payload = choices_payload("0" * 16, "p" * 32, 2**53 - 1, "sha256:" + "0" * 64, ["x" * 64] * 32,
                              {"auto_pass": {f"k{i:02d}".ljust(32, "-"): "always" for i in range(24)}})
    assert formats.format_problem(payload, formats.CHOICES) is None
    assert len(canonical_json(payload)) <= CHOICES_SIZE
    # one choice more, a longer id, a non-ASCII id or one order more is out of bounds
    assert formats.format_problem({**payload, "choices": payload["choices"] + ["x"]}, formats.CHOICES) is not None
    assert formats.format_problem({**payload, "choices": ["x" * 65]}, formats.CHOICES) is not None
    assert formats.format_problem({**payload, "choices": ["\u00e9"]}, formats.CHOICES) is not None
    orders = {"auto_pass": {**payload["standing_orders"]["auto_pass"], "extra": "always"}}
    assert formats.format_problem({**payload, "standing_orders": orders}, formats.CHOICES) is not None


def test_pbem_move_writes_no_move_whose_orders_would_outgrow_the_choices_size(tmp_path: Path) -> None:
    """Orders may fill more than one move can hold: pbem move refuses to seal a longer move (its length
    would tell the table it holds much), and the orders go with the next move instead."""
    keys, _ = make_keys(tmp_path / "keys", ["referee", "alice", "bob"])
    new_game(tmp_path / "game", "nightfall", [(p, keys[p].public) for p in ("alice", "bob")], keys["referee"],
             seed=bytes(32))
    view = read_view(tmp_path / "game", "alice", keys["alice"])
    assert view.decision is not None
    order = {"rules": [{"choose": {"label": "*" + "x" * 60 + "*"}}] * 3, "fallback": "first"}
    kinds = sorted(find_game("nightfall").decision_kinds())
    first = [view.decision.options[0].id]
    with pytest.raises(UsageError, match="a move holds 4096"):
        sign_move(view, keys["alice"], first, {"orders": dict.fromkeys(kinds[:14], order)})
    fits = sign_move(view, keys["alice"], first, {"orders": dict.fromkeys(kinds[:10], order)}).data
    assert len(json.loads(fits)["sealed_choices"]) == len(json.loads(make_move(view, keys["alice"], first))[
        "sealed_choices"])


def test_a_plaintext_is_padded_to_its_size_and_a_larger_one_to_the_size_doubled() -> None:
    assert [sealing.padded_size(n, 1024) for n in (0, 1, 1024)] == [1024, 1024, 1024]
    assert [sealing.padded_size(n, 1024) for n in (1025, 2048, 2049, 5000)] == [2048, 2048, 4096, 8192]
    padded = sealing.pad(b'{"a":1}', 16)
    assert padded == b'{"a":1}' + b" " * 9 and json.loads(padded) == {"a": 1}  # still the same JSON document


def test_a_compressed_section_with_anything_but_zero_padding_does_not_open() -> None:
    stream = sealing.compress(canonical_json({"state": {}}))
    assert sealing.decompress(sealing.pad(stream, 64, sealing.COMPRESSED_FILL)) == {"state": {}}
    for bad in (stream + b"\x00\x01", stream[:-1], b"{}" + b"\x00" * 10):
        with pytest.raises(SealError):
            sealing.decompress(bad)


def test_the_pending_seed_is_padded_to_its_size(tmp_path: Path) -> None:
    """The sealed seed in ``pending.json`` is padded with blanks to one size (its JSON document first)."""
    table = joining_table(tmp_path, seed=bytes(range(32)))
    sealed = json.loads((table.dir / "pending.json").read_text())["sealed"]
    plaintext = age.decrypt(sealed.encode(), [sealing.game_identity(bytes(range(32)))])
    assert len(plaintext) == SEED_SECTION_SIZE and plaintext.endswith(b" ")
    assert json.loads(plaintext)["seed"] == bytes(range(32)).hex()


@pytest.mark.parametrize("game_name", game_names())
def test_the_referee_section_holds_no_card_catalogue(game_name: str, tmp_path: Path) -> None:
    """The catalogue is a pure function of the set-up (``static_state``): it stays out of the sealed
    section and comes back from the pinned set-up when the referee opens it."""
    game = find_game(game_name)
    keys, _ = make_keys(tmp_path / "keys", ["referee", "p0", "p1"])
    directory = tmp_path / "game"
    new_game(directory, game_name, [(p, keys[p].public) for p in ("p0", "p1")], keys["referee"], seed=bytes(32))
    turn = json.loads((directory / "turns" / "000000.json").read_text())
    section = sealing.open_with_seed(turn["sealed"]["referee"], bytes(32), compressed=True)
    static = game.static_state(game.load_scenario(game.scenarios()[0]))
    assert static and not set(static) & set(section["state"])
    gamefile = GameFile.read(directory / "game.toml")
    record = read_turn(GameDir.at(directory), gamefile, 0)
    opened = open_position(record, keys["referee"], gamefile, static_of(game, game.load_scenario(game.scenarios()[0])))
    assert {name: opened.state[name] for name in static} == json.loads(canonical_json(static))


def test_a_game_that_changes_a_static_member_is_stopped_not_sealed_without_it() -> None:
    static = StaticMembers.of({"cards": [1, 2, 3]})
    state = {"cards": [1, 2, 3], "deck": [2]}
    assert dynamic_state(state, static) == {"deck": [2]}
    state["cards"].append(4)
    with pytest.raises(GameDirError, match="static"):
        dynamic_state(state, static)
