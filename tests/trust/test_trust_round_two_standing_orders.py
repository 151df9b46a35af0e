"""A seated player cannot brick a game with standing orders.

Standing orders name only the game's real decision kinds
(``Game.decision_kinds``), in small numbers; an orders-only move is taken
only from the awaited player and only when the orders answer their open
decision at once (so every turn a move makes answers a real decision); and
one bound on a sealed plaintext holds for the writer and every reader, so
``submit``, ``view`` and ``reveal --force`` keep working whatever a player
sends.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from helpers_referee import Table, make_table, snapshot
from helpers_trust import forge_move, play
from typer.testing import CliRunner, Result

from pbem.cli.main import app
from pbem.crypto import age
from pbem.crypto.canonical import canonical_json
from pbem.crypto.errors import CryptoError, SealError
from pbem.engine import find_game
from pbem.referee import formats, read_view, sealing, submit
from pbem.referee.errors import IllegalMove, NotYourDecisionMove, Refusal, SchemaInvalidMove
from pbem.referee.player import CHOICES_SIZE

seal = importlib.import_module("pbem.crypto.seal")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def run(*args: object) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args])


def huge_orders(start: int) -> dict:
    """Standing orders for some 13,000 made-up kinds: about 700 KB of plaintext, a 930 KB move file."""
    return {"auto_pass": {f"kind-{start + i:07d}-" + "x" * 28: "always" for i in range(13_000)}}


def test_two_huge_standing_order_moves_do_not_brick_the_game(table: Table, tmp_path: Path) -> None:
    """Two ~900 KB orders-only moves once pushed the sections past the sealed-size limit: exit 3 for good."""
    for start in (0, 13_000):
        data = forge_move(table, "alice", orders=huge_orders(start))
        assert 800_000 < len(data) < 1 << 20
        path = tmp_path / f"orders-{start}.json"
        path.write_bytes(data)
        run("submit", table.dir, path, "--referee-key", table.key_files["referee"])
    keys = table.key_files
    assert run("view", table.dir, "--as", "alice", "--key", keys["alice"]).exit_code == 0
    move = tmp_path / "move.json"
    move.write_bytes(table.move("alice", f"card-{table.view('alice').private['hand'][0]}"))
    assert run("submit", table.dir, move, "--referee-key", keys["referee"]).exit_code == 0
    assert run("reveal", table.dir, "--referee-key", keys["referee"], "--force").exit_code == 0
    assert run("verify", table.dir, "--replay").exit_code == 0


def test_standing_orders_naming_a_kind_the_game_does_not_have_are_refused_by_the_referee(table: Table) -> None:
    before = snapshot(table.dir)
    with pytest.raises(SchemaInvalidMove) as refused:
        submit(table.dir, forge_move(table, "alice", [f"card-{table.view('alice').private['hand'][0]}"],
                                     orders={"auto_pass": {"secret-plan": "always"}}), table.referee)
    assert "draw, play" in refused.value.message and "secret-plan" not in refused.value.message
    assert refused.value.rejection is not None
    assert "secret-plan" not in Path(refused.value.rejection).read_text()
    assert snapshot(table.dir) == before


def test_auto_pass_naming_an_unknown_kind_is_a_usage_error_at_pbem_move(table: Table, tmp_path: Path) -> None:
    out = tmp_path / "move.json"
    result = run("move", table.dir, "--as", "alice", "--key", table.key_files["alice"], "--choose", "1",
                 "--auto-pass", "bogus=always", "--out", out)
    assert result.exit_code == 2, result.output
    assert "bogus" in result.output and "draw, play" in result.output
    assert not out.exists()


def test_standing_orders_are_bounded_in_number_and_length(table: Table) -> None:
    card = f"card-{table.view('alice').private['hand'][0]}"
    for orders in ({"auto_pass": {"k" * 33: "always"}}, {"auto_pass": {f"k{i}": "always" for i in range(33)}}):
        with pytest.raises(SchemaInvalidMove):
            submit(table.dir, forge_move(table, "alice", [card], orders=orders), table.referee)


def test_a_move_holds_a_bounded_number_of_choices(table: Table) -> None:
    card = f"card-{table.view('alice').private['hand'][0]}"
    with pytest.raises(SchemaInvalidMove):
        submit(table.dir, forge_move(table, "alice", [card] + ["pass"] * 64), table.referee)
    with pytest.raises(SchemaInvalidMove):
        submit(table.dir, forge_move(table, "alice", ["x" * 201]), table.referee)


def test_an_orders_only_move_from_a_player_not_awaited_creates_no_turn(table: Table, tmp_path: Path) -> None:
    play(table, steps=2)  # both picked: alice draws first, bob waits
    before = snapshot(table.dir)
    with pytest.raises(NotYourDecisionMove) as refused:
        submit(table.dir, forge_move(table, "bob", orders={"auto_pass": {"draw": "always"}}), table.referee)
    assert "when you are awaited" in refused.value.message
    assert snapshot(table.dir) == before
    result = run("move", table.dir, "--as", "bob", "--key", table.key_files["bob"], "--auto-pass", "draw=always",
                 "--out", tmp_path / "orders.json")
    assert result.exit_code == 17 and "when you are awaited" in result.output


def test_an_orders_only_move_that_answers_nothing_is_refused(table: Table, tmp_path: Path) -> None:
    """alice is awaited to play; an order about drawing answers nothing now: no turn for nothing."""
    before = snapshot(table.dir)
    for orders in ({"auto_pass": {"draw": "always"}}, {"auto_pass": {"play": "off"}}):
        with pytest.raises(IllegalMove, match="answer nothing now"):
            submit(table.dir, forge_move(table, "alice", orders=orders), table.referee)
    assert snapshot(table.dir) == before
    result = run("move", table.dir, "--as", "alice", "--key", table.key_files["alice"], "--auto-pass", "draw=always",
                 "--out", tmp_path / "orders.json")
    assert result.exit_code == 18 and "answer nothing now" in result.output


def test_an_orders_only_move_that_passes_the_open_decision_is_applied(table: Table) -> None:
    play(table, steps=2)
    step = submit(table.dir, table.move("alice", orders={"auto_pass": {"draw": "always"}}), table.referee)
    assert step.choices == 0
    assert step.auto_choices == [{"player": "alice", "option": "pass", "by": "standing-order"}]
    assert step.awaiting == ["bob"]
    assert table.view("alice").doc["standing_orders"] == {"auto_pass": {"draw": "always"}}


def test_the_largest_sealed_plaintext_is_one_bound_for_the_writer_and_every_reader(table: Table) -> None:
    gamefile = read_view(table.dir, "alice", table.keys["alice"]).gamefile
    seed = gamefile.test_seed
    assert seed is not None
    biggest = {"pad": "x" * (seal.MAX_SEALED_PLAINTEXT - len(canonical_json({"pad": ""})))}
    assert len(canonical_json(biggest)) == seal.MAX_SEALED_PLAINTEXT
    for_seed = sealing.seal_json(biggest, [gamefile.game_recipient], None, CHOICES_SIZE)
    assert sealing.open_with_seed(for_seed, seed) == biggest
    for_key = seal.seal(biggest, [table.keys["alice"].public])
    assert seal.open_sealed(for_key, table.keys["alice"]) == biggest
    too_big = {"pad": biggest["pad"] + "x"}
    with pytest.raises(SealError):
        sealing.seal_json(too_big, [gamefile.game_recipient], None, CHOICES_SIZE)
    with pytest.raises(SealError):
        seal.seal(too_big, [table.keys["alice"].public])
    # a section someone else wrote too large is refused by every reader
    forged = age.encrypt(canonical_json(too_big), [gamefile.game_recipient]).decode()
    with pytest.raises(SealError):
        sealing.open_with_seed(forged, seed)
    forged = age.encrypt(canonical_json(too_big), [table.keys["alice"].public.recipient]).decode()
    with pytest.raises(SealError):
        seal.open_sealed(forged, table.keys["alice"])
    # and the same for the depth of nesting
    deepest: object = []
    for _ in range(seal.MAX_SEALED_DEPTH - 1):
        deepest = [deepest]
    deep = sealing.seal_json(deepest, [gamefile.game_recipient], None, CHOICES_SIZE)
    assert sealing.open_with_seed(deep, seed) == deepest
    with pytest.raises(SealError):
        sealing.seal_json([deepest], [gamefile.game_recipient], None, CHOICES_SIZE)
    forged = age.encrypt(canonical_json([deepest]), [gamefile.game_recipient]).decode()
    with pytest.raises(CryptoError):
        sealing.open_with_seed(forged, seed)


def test_a_step_whose_turn_would_be_too_large_to_seal_is_refused_and_writes_nothing(table: Table,
                                                                                   monkeypatch) -> None:
    """A section document larger than the one bound (here: a private part that grew past it) is refused
    before anything is written, as a failure of the step."""
    game = find_game("highcard")
    private = game.private

    def swollen(state, player):
        grown = private(state, player)
        return {**grown, "pad": "x" * seal.MAX_SEALED_PLAINTEXT} if state["picks"] else grown

    data = table.move("alice", f"card-{table.view('alice').private['hand'][0]}")
    monkeypatch.setattr(game, "private", swollen)  # turn 0 is as it was; turn 1 would not fit
    read_view(table.dir, "alice", table.keys["alice"])
    before = snapshot(table.dir)
    with pytest.raises(Refusal) as refused:
        submit(table.dir, data, table.referee)
    assert refused.value.reason == "referee-failed" and "larger than" in refused.value.message
    assert snapshot(table.dir) == before


def test_the_sealed_choices_a_player_writes_are_always_small(table: Table) -> None:
    """The largest move pbem move can write: the most choices, the longest ids, an order for every kind."""
    payload = {"format": formats.CHOICES, "choices": ["x" * 200] * 64,
               "standing_orders": {"auto_pass": {"k" * 30 + f"{i:02d}": "when-only-option" for i in range(32)}}}
    assert len(canonical_json(payload)) < 32 << 10
