"""The screen of every registered game: what ``pbem view`` shows fits 80 columns, names cards (never a
raw id like ``bad-smoke#3``, nor a key), tells two copies of one card apart, and every card is found by
its name and described in full (``pbem card``).

The property tests render random positions of every game, in every scenario, for every player: the
game's rendering, the numbered options and the "since your last move" lines, as ``pbem view`` joins
them. CI plays one game per scenario; ``--games N`` plays N.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from helpers_screen import EXCEPTIONS, RAW_ID

from pbem.bots import RandomBot
from pbem.cli import text
from pbem.engine import Rng, ScenarioError, apply_choice, find_game, game_names, step_rng
from pbem.engine.protocol import Option
from pbem.engine.screen import WIDTH, describe_card, find_cards, key_of
from pbem.referee.since import SinceLastMove, StepEvents

#: a card key renamed so that it cannot be mistaken for a word of the screen (:func:`_renamed`)
MARKER = re.compile(r"kkey\d+q")


#: the positions a screen test draws of each scenario at least: more games of a game whose games are short
POSITIONS = 20


def _positions(game_name: str, games: int) -> Iterator[tuple[Any, dict[str, Any], list[str], int, Any]]:
    """``(game, state, players, step, cards)`` every 7th step of ``games`` random games in every scenario
    (more, for :data:`POSITIONS`)."""
    game = find_game(game_name)
    for scenario_name in game.scenarios():
        scenario = game.load_scenario(scenario_name)
        cards = game.cards(scenario)
        drawn = 0
        for number in itertools.count():
            if number >= games and drawn >= POSITIONS:
                break
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
                    drawn += 1
                    yield game, state, players, step, cards
                if not decisions:
                    break
                step += 1
                decision = decisions[0]
                choice = bots[decision.player].choose(game.private(state, decision.player), decision)
                game.begin_step(state)  # each choice a step of its own, as the referee begins every step
                state = apply_choice(game, state, decision.player, choice, step_rng(key, [], step))


def _screens(game, state, players, step, cards, rename=None) -> Iterator[tuple[str, dict[str, Any] | None, str]]:
    """What each player (and an onlooker) would see of this position: ``(who, private, screen)``; with
    ``rename``, the card keys renamed everywhere (the parts, the options, the card data)."""
    change = rename or (lambda value: value)
    public = change(game.public(state))
    shown = change(cards) if rename is None else {change(key): facts for key, facts in cards.items()}
    for player in [*players, None]:
        private = change(game.private(state, player)) if player is not None else None
        lines = game.render(public, private, shown).splitlines()
        if player is not None:
            assert private is not None
            since = SinceLastMove(player=player, last_move=step, complete=True,
                                  steps=[StepEvents(turn=step, mover=player, events=list(public.get("events", [])),
                                                    private_events=list(private.get("events", [])))])
            lines = text.since_lines(since) + lines
            for decision in game.awaiting(state):
                if decision.player == player:
                    options = [Option(":".join(change(part) for part in o.id.split(":")), o.label, o.free)
                               for o in decision.options]
                    lines += text.option_lines(options, shown)
        yield player or "an onlooker", private, "\n".join(lines)


def _renamed(cards: dict[str, Any]):
    """A function that renames every card key (``guard`` -> ``kkey3q``) and id (``guard#2`` -> ``kkey3q#2``)
    in a view's data: a key shown on the screen then stands out, whatever word the key is. A card the
    screen draws in its own way from its key would not be drawn alike: the screens are compared."""
    # a key of digits alone (a card that is its number) cannot be told from a number on the screen
    markers = {key: f"kkey{number}q" for number, key in enumerate(sorted(cards)) if not key.isdigit()}

    def rename(value: Any) -> Any:
        if isinstance(value, str):
            key = key_of(value)
            return markers[key] + value[len(key):] if key in markers else value
        if isinstance(value, dict):
            return {rename(k): rename(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [rename(item) for item in value]
        return value

    return rename


@pytest.mark.parametrize("game_name", game_names())
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


@pytest.mark.parametrize("game_name", game_names())
def test_a_screen_never_shows_a_raw_card_id_or_key(game_name: str, game_count) -> None:
    """Neither an instance id (``bad-smoke#3``) nor a card key (``bad-smoke``, ``guard``) stands on a
    screen: cards are named by their printed names. A key is told from a word the screen prints by
    renaming every key in the data the screen is drawn from."""
    for position in _positions(game_name, game_count(1)):
        rename = _renamed(position[4])
        for (who, _, screen), (_, _, renamed) in zip(_screens(*position), _screens(*position, rename=rename),
                                                      strict=True):
            assert not RAW_ID.search(screen), f"{game_name}, {who}: {RAW_ID.search(screen)!r} in\n{screen}"
            found = MARKER.search(renamed)
            assert found is None, f"{game_name}, {who}: a card key ({found.group(0)}) on the screen\n{renamed}"


@pytest.mark.parametrize("game_name", game_names())
def test_two_copies_of_one_card_in_a_hand_are_named_apart(game_name: str, game_count) -> None:
    """Each copy is named with its copy number (the one its id carries, fixed for the game), so that
    a player can tell which is which, in the hand and wherever else the screen names it. (For a game
    whose private part holds a ``hand`` of card ids.)"""
    told = 0
    for position in _positions(game_name, game_count(1)):
        cards = position[4]
        for who, private, screen in _screens(*position):
            hand = [c for c in (private or {}).get("hand", []) if isinstance(c, str) and "#" in c]
            for key in {key_of(c) for c in hand if sum(key_of(d) == key_of(c) for d in hand) > 1}:
                names = [f"{cards[key]['name']} #{c.split('#')[1]}" for c in hand if key_of(c) == key]
                assert len(set(names)) == len(names)
                for name in names:
                    assert name in screen, f"{game_name}, {who}: {name!r} not on the screen"
                told += 1
    if not told:
        pytest.skip(f"no hand of {game_name} held two copies of one card")


@pytest.mark.parametrize("game_name", game_names())
def test_every_card_is_found_by_its_name_and_described_in_full(game_name: str) -> None:
    game = find_game(game_name)
    for scenario in game.scenarios():
        cards = game.cards(game.load_scenario(scenario))
        for key, facts in cards.items():
            assert key in find_cards(cards, facts["name"].lower()).keys
            text_in_full = describe_card(game, key, facts)
            assert text_in_full.startswith(facts["name"]) and all(len(line) <= 80 for line in text_in_full.splitlines())
            for fact in ("text", "special"):
                if facts.get(fact):
                    assert " ".join(str(facts[fact]).split()) in " ".join(text_in_full.split()), (key, fact)
