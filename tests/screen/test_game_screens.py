"""Each game's screen, what reading a view needs without the rules (``pbem view``, ``pbem card``).

A screen loads a scenario as the rules load it (the set-up hash in
``game.toml`` is computed from it), gives the same card data and draws the
same text; a game directory's set-up is read through it only when
``game.toml`` pins that set-up, and any other set-up is refused with the
message the rules' reading gives.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w
import toygame
from helpers_screen import PlayedGame, view_at

from pbem.crypto.keys import generate
from pbem.engine.errors import UnknownGameError
from pbem.engine.options import options_of
from pbem.engine.registry import GAMES, SCREENS, find_game, find_screen, register
from pbem.referee import new_game
from pbem.referee.deal import screen_and_cards, setup_hash
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.player import view_cards
from pbem.resources import scenario_dir


def test_every_screen_module_is_a_shipped_games_and_its_own_object() -> None:
    """A screen module is optional: a game without one is its own screen (reading a view then imports
    the rules). Both shipped games have one."""
    assert set(SCREENS) <= set(GAMES) and {"nightfall", "nightlancer"} <= set(SCREENS)
    assert all(find_screen(name) is not find_game(name) for name in SCREENS)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_a_screen_loads_every_scenario_as_the_rules_do(name: str) -> None:
    screen, rules = find_screen(name), find_game(name)
    assert screen is not rules and screen.name == rules.name == name
    assert list(screen.scenarios()) == list(rules.scenarios())
    assert options_of(screen) == options_of(rules)
    for scenario in rules.scenarios():
        setup = screen.load_scenario(scenario)
        assert setup == rules.load_scenario(scenario)
        assert setup_hash(setup) == setup_hash(rules.load_scenario(scenario))
        assert screen.cards(setup) == rules.cards(setup)


def test_a_screen_reads_an_owners_card_file_as_the_rules_do(tmp_path: Path) -> None:
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    data["card"][0]["text"] = "Printed text, as the owner typed it."
    path = tmp_path / "my-cards.toml"
    path.write_text(tomli_w.dumps(data))
    screen, rules = find_screen("nightfall"), find_game("nightfall")
    setup = screen.load_scenario("standard", cards=str(path))
    assert setup == rules.load_scenario("standard", cards=str(path))
    assert screen.cards(setup)[data["card"][0]["key"]]["text"] == "Printed text, as the owner typed it."


def test_only_the_rules_check_a_card_files_effects_against_their_vocabulary(tmp_path: Path) -> None:
    """The screen reads what the card data alone tells; the effect names are the rules' to check when a game is
    dealt, and a game directory pins the set-up dealt by its hash."""
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    data["card"][0]["chain"] = [{"effect": "win_the_game"}]
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ValueError, match="unknown effect 'win_the_game'"):
        find_game("nightfall").load_scenario("standard", cards=str(path))
    assert find_screen("nightfall").load_scenario("standard", cards=str(path))["card_data"] == data


@pytest.mark.parametrize("played", ["nightfall", "nightlancer"])
def test_a_screen_draws_what_the_rules_draw(played: str, request: pytest.FixtureRequest) -> None:
    game: PlayedGame = request.getfixturevalue(played)
    screen, rules = find_screen(game.name), find_game(game.name)
    cards = screen.cards(screen.load_scenario(screen.scenarios()[0]))
    for player in game.players:
        view = view_at(game, player, 20)
        assert screen.render(view.public, view.private, cards) == rules.render(view.public, view.private, cards)
        assert screen.render(view.public, None, cards) == rules.render(view.public, None, cards)
    for facts in list(cards.values())[::7]:
        # card_text is an optional method of both protocols (a game without card texts has none)
        assert screen.card_text(facts) == rules.card_text(facts)  # type: ignore[attr-defined]


def test_a_game_registered_at_run_time_is_its_own_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    register(toygame.GAME)
    assert find_screen(toygame.GAME.name) is toygame.GAME
    monkeypatch.delitem(SCREENS, "nightlancer")  # a shipped game without a screen module: its rules serve
    assert find_screen("nightlancer") is find_game("nightlancer")
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        find_screen("chess")


def test_a_view_of_a_set_up_other_than_the_one_game_toml_pins_is_refused(nightfall: PlayedGame) -> None:
    """The screen reads the card data without the rules, vouched for by the hash ``game.toml`` pins: the same
    refusal as before, when the scenario data of this pbem is not the data the game was set up with."""
    view = view_at(nightfall, nightfall.players[0], 5)
    screen = find_screen("nightfall")
    assert view_cards(nightfall.dir, view) == screen.cards(screen.load_scenario(view.gamefile.scenario))
    other = view._replace(gamefile=view.gamefile.replace(setup="sha256:" + "0" * 64))
    with pytest.raises(GameDirError, match=r"game\.toml: the scenario data of this pbem \(sha256:[0-9a-f]{64}\) is "
                                           r"not the data the game was set up with \(sha256:0{64}\); deal or replay "
                                           r"it with the pbem version that created it"):
        view_cards(nightfall.dir, other)


def test_a_game_toml_that_pins_no_set_up_is_read_through_the_rules(tmp_path: Path) -> None:
    """Nothing vouches for such a set-up (a game set up by an older pbem): the rules read it, checking it in full."""
    keys = {name: generate(name) for name in ("referee", "ann", "bob")}
    new_game(tmp_path / "game", "nightfall", [(p, keys[p].public) for p in ("ann", "bob")], keys["referee"],
             seed=bytes(32))
    gamedir = GameDir.at(tmp_path / "game")
    gamefile = GameFile.read(gamedir.game_toml)
    pinned, cards = screen_and_cards(gamedir, gamefile)
    unpinned, same = screen_and_cards(gamedir, gamefile.replace(setup=None))
    assert pinned is find_screen("nightfall") and unpinned is find_game("nightfall")
    assert cards == same
