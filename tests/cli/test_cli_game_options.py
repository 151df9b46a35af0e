"""`--option KEY=VALUE` reaches the real settings, declared by each game as data.

Each game declares its options (name, type, default, allowed values, help)
in ``scenarios/GAME/options.toml``; ``pbem new --option`` is checked against
that declaration, the value reaches the rules, ``game.toml`` records it and
the set-up hash covers it; ``pbem games --options`` lists them all.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from helpers_cli import keygen, new_game, pbem

from pbem.referee import formats


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    return keygen(tmp_path / "keys")


def new(tmp_path: Path, keys: Path, game: str, *options: str, name: str = "game", code: int = 0,
        scenario: str | None = None) -> tuple[Path, str]:
    extra: list[object] = ["--scenario", scenario] if scenario is not None else []
    for option in options:
        extra += ["--option", option]
    return tmp_path / name, new_game(tmp_path / name, keys, game, *extra, code=code)


def turn0_public(game: Path) -> dict:
    return json.loads((game / "turns" / "000000.json").read_text())["public"]


def game_toml(game: Path) -> dict:
    return tomllib.loads((game / "game.toml").read_text())


def test_nightfall_count_face_up_shows_the_exact_count_in_the_public_part(tmp_path: Path, keys: Path) -> None:
    plain, _ = new(tmp_path, keys, "nightfall", name="plain")
    assert turn0_public(plain)["face_up_wounds"] == "some"  # the rules: you may not count them (DE 30)
    counted, output = new(tmp_path, keys, "nightfall", "count_face_up=true", name="counted")
    assert "options: count_face_up=true" in output
    assert turn0_public(counted)["face_up_wounds"] == 20  # 10 per player
    assert game_toml(counted)["options"] == {"count_face_up": True}


def test_nightfall_first_player_option_names_a_seated_player(tmp_path: Path, keys: Path) -> None:
    game, _ = new(tmp_path, keys, "nightfall", "first_player=bob", scenario="quick-start")
    assert turn0_public(game)["first_player"] == "bob"
    _, output = new(tmp_path, keys, "nightfall", "first_player=carol", name="nobody", code=6)
    assert "option first_player: 'carol'" in output and "seated players: alice, bob" in output


def test_nightfall_variants_and_player_lists_take_comma_separated_values(tmp_path: Path, keys: Path) -> None:
    game, _ = new(tmp_path, keys, "nightfall", "variants=secret-archives,upstream", "auto_pass_when_unable=alice")
    assert game_toml(game)["options"] == {"variants": ["secret-archives", "upstream"],
                                          "auto_pass_when_unable": ["alice"]}
    _, output = new(tmp_path, keys, "nightfall", "variants=upstream,sideways", name="bad", code=6)
    assert "'sideways' not allowed" in output and "upstream, secret-archives, open-archives" in output


def test_a_nightlancer_option_reaches_the_rules(tmp_path: Path, keys: Path) -> None:
    game, _ = new(tmp_path, keys, "nightlancer", "hardened=2", "mode=cooperative")
    public = turn0_public(game)
    assert public["hardened"] == 2 and public["mode"] == "cooperative"
    assert game_toml(game)["options"] == {"hardened": 2, "mode": "cooperative"}


def test_an_unknown_option_is_refused_naming_the_known_ones(tmp_path: Path, keys: Path) -> None:
    _, output = new(tmp_path, keys, "nightfall", "speed=3", code=6)
    assert "nightfall has no option 'speed'" in output
    assert "draft, variants, promos, wounds, count_face_up, auto_pass_when_unable, series_target, first_player" in output
    assert not (tmp_path / "game").exists()


@pytest.mark.parametrize("option, expected", [
    ("draft=fast", "expected one of standard, five-card, quick-start"),
    ("count_face_up=maybe", "expected true or false"),
    ("series_target=0", "expected a whole number, at least 1"),
    ("series_target=ten", "expected a whole number, at least 1"),
])
def test_a_value_the_declaration_does_not_allow_is_refused(tmp_path: Path, keys: Path, option: str, expected: str) -> None:
    _, output = new(tmp_path, keys, "nightfall", option, code=6)
    assert f"option {option.split('=')[0]}: " in output and expected in output


def test_a_nightlancer_value_outside_its_range_is_refused(tmp_path: Path, keys: Path) -> None:
    _, output = new(tmp_path, keys, "nightlancer", "hardened=3", code=6)
    assert "option hardened: '3' is not allowed (expected a whole number from 0 to 2)" in output


def test_the_setup_hash_covers_the_chosen_options(tmp_path: Path, keys: Path) -> None:
    plain, _ = new(tmp_path, keys, "nightfall", name="plain")
    counted, _ = new(tmp_path, keys, "nightfall", "count_face_up=true", name="counted")
    default, _ = new(tmp_path, keys, "nightfall", "count_face_up=false", name="default")
    assert game_toml(plain)["setup"] != game_toml(counted)["setup"]
    # choosing the default sets the game up exactly as not choosing: the same scenario data
    assert game_toml(plain)["setup"] == game_toml(default)["setup"]


def test_games_options_lists_every_games_options_with_type_default_and_help() -> None:
    output = pbem("games", "--options")
    assert max(len(line) for line in output.splitlines() if line.startswith("  ")) <= 80
    flowing = " ".join(output.split())  # the help is wrapped to the terminal's 80 columns
    nightfall = flowing[flowing.index("nightfall:"):flowing.index("nightlancer:")]
    assert "count_face_up = false boolean: true or false. Show the exact number" in nightfall
    assert "draft = standard text: one of standard, five-card, quick-start." in nightfall
    assert "variants = empty text-list: a comma-separated list of upstream," in nightfall
    assert "first_player = none player: a seated player's name." in nightfall
    assert "you may not count them (DE 30)" in nightfall
    nightlancer = flowing[flowing.index("nightlancer:"):]
    assert "hardened = 0 integer: a whole number from 0 to 2." in nightlancer
    assert "mode = competitive text: one of competitive, cooperative, solitaire." in nightlancer
    assert "highcard: 2-4 players; scenarios: standard, long rounds = 3 integer:" in flowing


def test_games_json_lists_the_options_as_data() -> None:
    doc = json.loads(pbem("games", "--json"))
    assert formats.format_problem(doc, formats.CLI_GAMES) is None
    games = {g["name"]: g for g in doc["games"]}
    hardened = {o["name"]: o for o in games["nightlancer"]["options"]}["hardened"]
    assert hardened == {"name": "hardened", "type": "integer", "default": 0, "values": None, "minimum": 0,
                        "maximum": 2, "help": hardened["help"]}
    assert [o["name"] for o in games["highcard"]["options"]] == ["rounds"]


def test_the_deal_after_the_joins_and_the_replay_use_the_chosen_options(tmp_path: Path, keys: Path) -> None:
    game = tmp_path / "game"
    new_game(game, keys, "highcard", "--option", "rounds=1", "--wait-for-joins", seed=False)
    for _round in ("commit", "reveal"):
        for player in ("alice", "bob"):
            out = tmp_path / f"join-{player}-{_round}.json"
            pbem("join", game, "--as", player, "--key", keys / f"{player}.key", "--out", out)
            pbem("submit", game, out, "--referee-key", keys / "referee.key")
    assert turn0_public(game)["rounds"] == 1
    while not json.loads(pbem("status", game, "--json"))["over"]:
        player = json.loads(pbem("status", game, "--json"))["awaiting"][0]
        out = tmp_path / f"move-{len(list(tmp_path.glob('move-*')))}.json"
        pbem("move", game, "--as", player, "--key", keys / f"{player}.key", "--choose", "1", "--out", out)
        pbem("submit", game, out, "--referee-key", keys / "referee.key")
    assert json.loads(pbem("status", game, "--json"))["turn"] == 4  # one round: two plays, two draws
    assert json.loads(pbem("verify", game, "--replay", "--json"))["replayed"] is True
