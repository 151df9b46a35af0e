"""No free look at hidden information by probing.

A move ``[c1, x]`` used to be refused whole when ``x`` was not an option
after ``c1``, and the notice said which choice failed. Because the next
step's randomness is fixed, a player learnt at no cost whether ``x`` would
be an option after ``c1`` (which draft cards he would be passed, which
wound would come). Now the legal prefix is applied and the rest dropped:
every probe costs the real move ``[c1]``. The player is told, in their own
sealed view of the new turn and in ``pbem submit``'s output, that choices
k..n were not applied, and nothing says what they were or why.

The property runs over random positions of every registered game: what a
player can observe of a probe ``[c1, x]`` (the choices applied, every
player's new view, the state, the absence of a notice) equals the outcome
of the move actually made, ``[c1]`` alone, but for the note "choice 2 of 2
was not applied" in the prober's own view.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
import toygame
from helpers_referee import Table, make_table, snapshot
from helpers_trust import play, random_positions
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto.canonical import canonical_json
from pbem.engine import IllegalMoveError, NotAwaitedError, Rng, apply_choice, find_game, game_names, register, step_rng
from pbem.referee import formats, submit, verify
from pbem.referee.core import Position, play_choices, section_documents
from pbem.referee.deal import static_of
from pbem.referee.errors import IllegalMove
from pbem.referee.gamefile import GameFile

register(toygame.GAME)

NO_SUCH_OPTION = "no-such-option"


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return make_table(tmp_path)


def hand(table: Table, player: str) -> list[int]:
    return table.view(player).private["hand"]


def test_a_move_whose_later_choice_is_not_an_option_applies_its_legal_prefix(table: Table, tmp_path: Path) -> None:
    """Both picked; alice passes her draw, then names a card: she is no longer awaited, so it is dropped."""
    play(table, steps=2)
    probe = table.move("alice", "pass", "card-of-the-secret-queen")
    path = tmp_path / "probe.json"
    path.write_bytes(probe)
    result = CliRunner().invoke(app, ["submit", str(table.dir), str(path), "--referee-key",
                                      str(table.key_files["referee"]), "--json"])
    assert result.exit_code == 0, result.output
    entry = json.loads(result.stdout)["results"][0]
    assert entry["status"] == "applied" and entry["turn"] == 3
    assert entry["unapplied"] == {"from": 2, "to": 2}
    assert "choice 2 of 2 was not applied" in entry["message"]
    assert table.view("alice").doc["unapplied"] == {"from": 2, "to": 2}
    assert table.view("bob").doc["unapplied"] is None
    assert not list((table.dir / "rejected").iterdir())
    public = (table.dir / "turns" / "000003.json").read_text()
    assert "secret-queen" not in result.output + public
    verify(table.dir, replay=True)


def test_choices_k_to_n_are_named_by_position_only(table: Table, tmp_path: Path) -> None:
    """bob passes his draw and, awaited for the next round's play, names two cards he does not hold."""
    play(table, steps=3)
    step = submit(table.dir, table.move("bob", "pass", "card-97", "card-98"), table.referee)
    assert step.unapplied == {"from": 2, "to": 3} and step.choices == 1
    assert table.view("bob").doc["unapplied"] == {"from": 2, "to": 3}
    result = CliRunner().invoke(app, ["view", str(table.dir), "--as", "bob", "--key", str(table.key_files["bob"])])
    assert "choices 2-3 of 3 were not applied" in result.output and "card-97" not in result.output


def test_the_next_turn_clears_the_note(table: Table) -> None:
    play(table, steps=2)
    submit(table.dir, table.move("alice", "pass", NO_SUCH_OPTION), table.referee)
    submit(table.dir, table.move("bob", "pass"), table.referee)
    assert table.view("alice").doc["unapplied"] is None


def test_a_first_choice_that_is_not_an_option_is_still_refused_whole(table: Table) -> None:
    """The player saw the options of the decision open at the base turn: no probe there."""
    before = snapshot(table.dir)
    from helpers_trust import forge_move

    with pytest.raises(IllegalMove, match="the first choice is not an option") as refused:
        submit(table.dir, forge_move(table, "alice", ["card-99", "pass"]), table.referee)
    assert refused.value.rejection is not None
    assert "card-99" not in Path(refused.value.rejection).read_text()
    assert snapshot(table.dir) == before


# --- the property, over random positions of every registered game ----------------------


@dataclass(frozen=True)
class Seats:
    """What the section documents need of ``game.toml``: the game id and the seats."""

    game_id: str
    player_names: list[str]


def outcome(game, seats: Seats, number: int, state, key: bytes, player: str, choices: list[str]):
    """What the move ``choices`` of ``player`` at this position gives: position, since, every section."""
    position = Position(turn=number, state=copy.deepcopy(state), seed=key)
    since_before = {d.player: number for d in game.awaiting(state)}
    payload = {"format": formats.CHOICES, "choices": choices}
    played = play_choices(game, position, since_before, player, payload, "sha256:" + "0" * 64, lambda since: None)
    new_position, since, step = played.position, played.since, played.position.step
    static = static_of(game, game.load_scenario(game.scenarios()[0]))
    sections = section_documents(game, cast(GameFile, seats), new_position, static)  # all they read of one
    return new_position, since, step, {name: canonical_json(doc) for name, doc in sections.items()}


def legal_after(game, state, key: bytes, number: int, player: str, c1: str, x: str) -> bool:
    """Whether ``x`` is an option of ``player`` right after ``c1`` (before any standing order)."""
    try:
        after = apply_choice(game, copy.deepcopy(state), player, c1, step_rng(key, [], number + 1))
        apply_choice(game, after, player, x, step_rng(key, [], number + 1))
    except (IllegalMoveError, NotAwaitedError):
        return False
    return True


@pytest.mark.parametrize("game_name", game_names())
def test_a_probe_shows_the_prober_nothing_the_move_made_does_not(game_name: str, game_count) -> None:
    game = find_game(game_name)
    wanted, probed, dropped, seed = game_count(60), 0, 0, 0
    while probed < wanted:
        count = game.min_players + seed % (game.max_players - game.min_players + 1)
        players = [f"p{i}" for i in range(count)]
        seats = Seats("0" * 16, players)
        rng = Rng.from_seed(f"probe-{game_name}-{seed}")
        key = hashlib.sha256(f"probe-{game_name}-{seed}".encode()).digest()  # the referee's seed for the probes
        for number, state in enumerate(random_positions(game, players, seed, every=5)):
            if probed == wanted:
                break
            if not game.awaiting(state):
                continue
            decision = rng.choice(game.awaiting(state), label="who")
            player, c1 = decision.player, rng.choice(decision.options, label="c1").id
            after = game.awaiting(apply_choice(game, copy.deepcopy(state), player, c1, step_rng(key, [], number + 1)))
            candidates = [o.id for d in [decision, *after] if d.player == player for o in d.options]
            x = rng.choice(candidates + [NO_SUCH_OPTION], label="x")
            probe = outcome(game, seats, number, state, key, player, [c1, x])
            if legal_after(game, state, key, number, player, c1, x):
                assert json.loads(probe[3][player])["unapplied"] is None
            else:
                made = outcome(game, seats, number, state, key, player, [c1])
                assert canonical_json(probe[0].state) == canonical_json(made[0].state)
                assert probe[1] == made[1] and probe[2] == made[2]
                for name, section in made[3].items():
                    seen = json.loads(probe[3][name])
                    if name == player:
                        assert seen.pop("unapplied") == {"from": 2, "to": 2}
                        seen["unapplied"] = None
                    elif name == "referee":
                        assert seen.pop("unapplied") == {"player": player, "from": 2, "to": 2}
                        seen["unapplied"] = None
                    assert canonical_json(seen) == section, f"{game_name}: {name}'s section differs"
                dropped += 1
            probed += 1
        seed += 1
    assert dropped, f"{game_name}: no probe was dropped; the property was not exercised"
