"""The screen: what ``pbem view`` shows fits 80 columns, names cards (never a raw id like
``bad-smoke#3``), tells two copies of one card apart, shows Nightfall's archives one line each and
the result once.

The property tests render random positions of every shipped game, in every scenario, for every
player: the game's rendering, the numbered options and the "since your last move" lines, as
``pbem view`` joins them. CI plays one game per scenario; ``--games N`` plays N.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers_screen import PlayedGame
from typer.testing import CliRunner

from pbem.bots import RandomBot
from pbem.cli import text
from pbem.cli.main import app
from pbem.engine import Rng, ScenarioError, apply_choice, find_game, step_rng
from pbem.engine.registry import GAMES
from pbem.engine.screen import WIDTH, key_of
from pbem.referee.since import SinceLastMove, StepEvents

runner = CliRunner()

#: lines a screen may print wider than 80 columns, by name: a command to copy whole (a long player
#: name makes it wider), and a single word longer than the screen (nothing to break it at)
EXCEPTIONS = {
    "a command to copy": re.compile(r"^  pbem \S.*$"),
    "one unbreakable word": re.compile(r"^\s*\S+$"),
}

#: a card instance id as the game data names it: ``bad-smoke#3``
RAW_ID = re.compile(r"[a-z0-9]#\d")


def _positions(game_name: str, games: int) -> Iterator[tuple[Any, dict[str, Any], list[str], int, Any]]:
    """``(game, state, players, step, cards)`` every 7th step of random games in every scenario."""
    game = find_game(game_name)
    for scenario_name in game.scenarios():
        scenario = game.load_scenario(scenario_name)
        cards = game.cards(scenario)
        for number in range(games):
            key = hashlib.sha256(f"screen-{game_name}-{scenario_name}-{number}".encode()).digest()
            seats = list(range(game.min_players, game.max_players + 1))
            turn = (number + len(scenario_name)) % len(seats)
            for count in seats[turn:] + seats[:turn]:  # a seat count the scenario is for (solitaire: one)
                players = [f"player{i}" for i in range(count)]
                try:
                    state = game.new_state(scenario, players, step_rng(key, [], 0))
                except ScenarioError:
                    continue
                break
            else:
                raise AssertionError(f"{game_name} {scenario_name}: no seat count sets it up")
            bots = {p: RandomBot(Rng.from_seed(f"screen-{number}-{p}")) for p in players}
            step = 0
            while True:
                decisions = game.awaiting(state)
                if step % 7 == 0 or not decisions:
                    yield game, state, players, step, cards
                if not decisions:
                    break
                step += 1
                decision = decisions[0]
                choice = bots[decision.player].choose(game.private(state, decision.player), decision)
                game.begin_step(state)  # each choice a step of its own, as the referee begins every step
                state = apply_choice(game, state, decision.player, choice, step_rng(key, [], step))


def _screens(game, state, players, step, cards) -> Iterator[tuple[str, dict[str, Any] | None, str]]:
    """What each player (and an onlooker) would see of this position: ``(who, private, screen)``."""
    public = game.public(state)
    for player in [*players, None]:
        private = game.private(state, player) if player is not None else None
        lines = game.render(public, private, cards).splitlines()
        if player is not None:
            assert private is not None
            since = SinceLastMove(player=player, last_move=step, complete=True,
                                  steps=[StepEvents(turn=step, mover=player, events=list(public.get("events", [])),
                                                    private_events=list(private.get("events", [])))])
            lines = text.since_lines(since) + lines
            for decision in game.awaiting(state):
                if decision.player == player:
                    lines += text.option_lines(decision.options, cards)
        yield player or "an onlooker", private, "\n".join(lines)


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_every_screen_fits_80_columns_but_for_named_exceptions(game_name: str, game_count) -> None:
    checked = 0
    for position in _positions(game_name, game_count(1)):
        for who, _, screen in _screens(*position):
            for line in screen.splitlines():
                if len(line) > WIDTH:
                    assert any(rule.match(line) for rule in EXCEPTIONS.values()), (
                        f"{game_name}, {who}, step {position[3]}: {len(line)} columns: {line!r}")
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_a_screen_never_shows_a_raw_card_id(game_name: str, game_count) -> None:
    """Neither an instance id (``bad-smoke#3``) nor a card key (``bad-smoke``) stands on a screen:
    cards are named by their printed names."""
    keys = None
    for position in _positions(game_name, game_count(1)):
        cards = position[4]
        keys = keys or re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in cards if "-" in k) + r")(?![\w-])")
        for who, _, screen in _screens(*position):
            assert not RAW_ID.search(screen), f"{game_name}, {who}: {RAW_ID.search(screen)!r} in\n{screen}"
            found = keys.search(screen)
            assert found is None, f"{game_name}, {who}: card key {found.group(0)!r} in\n{screen}"


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_two_copies_of_one_card_in_a_hand_are_named_apart(game_name: str, game_count) -> None:
    """Each copy is named with its copy number (the one its id carries, fixed for the game), so that
    a player can tell which is which, in the hand and wherever else the screen names it."""
    told = 0
    for position in _positions(game_name, game_count(1)):
        cards = position[4]
        for who, private, screen in _screens(*position):
            hand = (private or {}).get("hand", [])
            for key in {key_of(c) for c in hand if sum(key_of(d) == key_of(c) for d in hand) > 1}:
                names = [f"{cards[key]['name']} #{c.split('#')[1]}" for c in hand if key_of(c) == key]
                assert len(set(names)) == len(names)
                for name in names:
                    assert name in screen, f"{game_name}, {who}: {name!r} not on the screen"
                told += 1
    assert told > 0, "no hand held two copies of a card"


def test_the_archives_are_shown_one_line_each_with_name_cost_and_count() -> None:
    game = find_game("nightfall")
    scenario = game.load_scenario("standard")
    state = game.new_state(scenario, ["ann", "bob"], step_rng(bytes(32), [], 0))
    bots = {p: RandomBot(Rng.from_seed(p)) for p in ("ann", "bob")}
    step = 0
    while state["draft"] is not None or state["turn"] is None:  # the draft lays the 12 archives out
        decision = game.awaiting(state)[0]
        step += 1
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, bots[decision.player].choose(None, decision),
                             step_rng(bytes(32), [], step))
    public = game.public(state)
    lines = game.render(public, game.private(state, "ann"), game.cards(scenario)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Archives"))
    rows = lines[start + 1:start + 1 + len(public["archives"])]
    assert len(public["archives"]) == 12
    for archive, row in zip(public["archives"], rows, strict=True):
        top = game.cards(scenario)[key_of(archive["top"])]
        assert row.startswith(f"  {archive['id']} ") and top["name"] in row
        assert f"cost {top['cost']}" in row and row.endswith(f"{archive['count']} left")
        assert top["text"] not in row  # the text is on `pbem card NAME` and `pbem view --cards`
    assert not lines[start + 1 + len(rows)].startswith("  ")


def test_a_finished_games_result_is_told_once(finished: PlayedGame) -> None:
    for player in finished.players:
        screen = runner.invoke(app, ["view", str(finished.dir), "--as", player, "--key",
                                     str(finished.key_file(player))]).output
        assert len(re.findall(r"(?i)game over", screen)) == 1, screen
        assert screen.rstrip().splitlines()[-1].startswith("game over: ")
    log = runner.invoke(app, ["log", str(finished.dir)]).output
    assert len(re.findall(r"(?i)game over", log)) == 1


def test_the_log_fits_80_columns_and_names_no_card_by_id(finished: PlayedGame) -> None:
    log = runner.invoke(app, ["log", str(finished.dir)]).output
    assert not RAW_ID.search(log) and "{" not in log  # the deal is no longer dumped as JSON
    for line in log.splitlines():
        assert len(line) <= WIDTH or any(rule.match(line) for rule in EXCEPTIONS.values()), line
