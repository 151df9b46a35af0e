"""The screen: a card's full text on ``pbem card NAME`` (any case, without punctuation, a part of
the name; a clear "did you mean") and on ``pbem view --cards`` (the full texts of every card on the
screen, for every registered game). That every card of every game is found by its name and described
in full is the conformance suite's (``tests/conformance/test_every_screen.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers_screen import PlayedGame, play
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.engine import find_game, game_names
from pbem.engine.screen import cards_on_screen, describe_card, find_cards
from pbem.resources import scenario_dir

runner = CliRunner()


def pbem(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def _cards(name: str):
    game = find_game(name)
    return game.cards(game.load_scenario(game.scenarios()[0]))


@pytest.mark.parametrize("query", ["bad-smoke", "bad-smoke#3", '"Bad Smoke"', "bad smoke", "BAD SMOKE", "Smoke"])
def test_a_card_is_found_by_key_id_name_in_any_case_or_a_part_of_its_name(query: str) -> None:
    assert find_cards(_cards("nightfall"), query).keys == ["bad-smoke"]


def test_punctuation_and_apostrophes_need_not_be_typed() -> None:
    nightfall, nightlancer = _cards("nightfall"), _cards("nightlancer")
    assert find_cards(nightfall, "jj mcteague").keys == ["jj-mcteague"]
    assert find_cards(nightfall, "j.j. mcteague").keys == ["jj-mcteague"]
    (key,) = find_cards(nightlancer, "mongrel's trap").keys
    assert nightlancer[key]["name"] == "Mongrels' Trap"


def test_a_part_of_several_names_is_answered_with_those_names() -> None:
    found = find_cards(_cards("nightfall"), "wound")
    assert found.keys == [] and found.ambiguous
    assert "Wound (bite)" in found.suggestions and "Martial Law Wound (burn)" in found.suggestions


def test_a_near_miss_is_answered_with_the_nearest_names() -> None:
    found = find_cards(_cards("nightfall"), "headshoot")
    assert found.keys == [] and not found.ambiguous and found.suggestions[0] == "Headshot"
    assert find_cards(_cards("nightfall"), "grotesk").suggestions == ["Grotesque Revenant"]
    assert find_cards(_cards("nightfall"), "zzzz").suggestions == []


def test_pbem_card_prints_the_full_text() -> None:
    out = pbem("card", "relentless", "grinder")
    assert out.startswith("Relentless Grinder: red action, links blue/gold, kicker when linked to white")
    assert "Double all damage of the next card in the chain." in " ".join(out.split())
    assert "Smoke Grenades (Gear, 4 KC, Loud)" in pbem("card", "smoke grenades")
    both = pbem("card", "smoke")  # a part of one name in each game: both, each under its game
    assert "nightfall:\n\"Bad Smoke\"" in both and "nightlancer:\nSmoke Grenades" in both


def test_pbem_card_says_what_it_may_have_meant() -> None:
    assert "did you mean: Headshot?" in pbem("card", "headshoot", code=2)
    assert "'wound' is part of several card names; did you mean: " in pbem("card", "wound", code=2)
    nowhere = pbem("card", "zzzz", code=2)
    assert "no card named 'zzzz' in " in nowhere and "nightfall" in nowhere and "nightlancer" in nowhere
    assert "no card named 'bouncer' in nightfall" in pbem("card", "bouncer", "--game", "nightfall", code=2)
    assert "has no scenario 'nope'" in pbem("card", "smoke", "--game", "nightfall", "--scenario", "nope", code=6)
    assert "--scenario needs --game" in pbem("card", "smoke", "--scenario", "standard", code=2)


def test_pbem_card_dir_reads_the_games_own_card_data(tmp_path: Path) -> None:
    """An owner's --cards file renames a card: the game directory's card data has the new name, the
    shipped data does not."""
    cards = tmp_path / "cards.toml"
    cards.write_text((scenario_dir("nightfall") / "cards.toml").read_text().replace(
        'name = "\\"Bad Smoke\\""', 'name = "Black Smoke"'))
    keys = tmp_path / "keys"
    for name in ("referee", "alice", "bob"):
        pbem("keygen", name, "--out", keys)
    game = tmp_path / "game"
    pbem("new", game, "--game", "nightfall", "--player", f"alice={keys / 'alice.pub'}", "--player",
         f"bob={keys / 'bob.pub'}", "--referee-key", keys / "referee.key", "--cards", cards, "--seed", "ab" * 32)
    assert pbem("card", "black smoke", "--dir", game).startswith("Black Smoke: purple minion")
    pbem("card", "black smoke", code=2)
    assert "give --dir, or --game" in pbem("card", "smoke", "--dir", game, "--game", "nightfall", code=2)


@pytest.mark.parametrize("which", game_names())
def test_view_cards_adds_the_full_text_of_every_card_on_the_screen(which: str, request,
                                                                   tmp_path_factory: pytest.TempPathFactory) -> None:
    """For every registered game: the shipped ones 50-60 turns into a game (the screen tests' games),
    any other 4 turns in."""
    game: PlayedGame = (request.getfixturevalue(which) if which in ("nightfall", "nightlancer") else
                        play(tmp_path_factory.mktemp(which), which, max(2, find_game(which).min_players), 0x2C, 4))
    cards = _cards(which)
    rules = find_game(which)
    for player in game.players:
        args = ["view", game.dir, "--as", player, "--key", game.key_file(player)]
        plain, full = pbem(*args), pbem(*args, "--cards")
        shown = cards_on_screen(plain, cards)
        assert shown, "no card on the screen"
        head, _, tail = full.partition("\nCards on this screen:\n")
        assert head + "\n" == plain[:len(head) + 1]
        for key in shown:
            assert describe_card(rules, key, cards[key]) in tail
        for key in set(cards) - set(shown):
            text = describe_card(rules, key, cards[key])
            assert not re.search(r"^" + re.escape(text) + r"(?=\n|\Z)", tail, re.MULTILINE), key
