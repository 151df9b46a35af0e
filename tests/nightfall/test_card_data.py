"""The card data and scenario files: schemas, the set's composition, sources."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w

from pbem.engine import ScenarioError
from pbem.games.nightfall import GAME, abilities, effects
from pbem.games.nightfall.data import read_cards
from pbem.resources import scenario_dir, schema_path

SOURCES = {"printed", "stated", "derived", "inferred", "external", "designed"}


def cards():
    return {c["key"]: c for c in read_cards()["card"]}


def test_the_set_has_30_cards_4_promos_and_2_kinds_of_wound():
    """EN 63: 18 minion piles (6 starting) and 12 action piles."""
    by_group: dict[tuple[str, str], list[str]] = {}
    for c in cards().values():
        by_group.setdefault((c["group"], c["type"]), []).append(c["key"])
    assert len(by_group[("starter", "minion")]) == 6
    assert len(by_group[("draft", "minion")]) == 12 and len(by_group[("draft", "action")]) == 12
    assert len(by_group[("promo", "minion")]) == 3 and len(by_group[("promo", "action")]) == 1
    assert {w["kind"] for w in read_cards()["wound"]} == {"nightfall", "martial-law"}


def test_starting_minions_cost_0_and_link_one_colour():
    """EN 126, EN 289."""
    for c in cards().values():
        if c["group"] == "starter":
            assert c["cost"] == 0 and c["links"] == [c["colour"]] and c["copies"] == 10


def test_each_action_shares_its_colours_with_one_minion():
    """EXT S5: draft actions and minions come in matching colour pairs."""
    minions = [(c["colour"], sorted(c["links"])) for c in cards().values() if c["group"] == "draft" and c["type"] == "minion"]
    actions = [(c["colour"], sorted(c["links"])) for c in cards().values() if c["group"] == "draft" and c["type"] == "action"]
    assert sorted(minions) == sorted(actions)


def test_the_values_the_books_fix():
    """card-facts §1: colours, links, kicker colours, costs, strengths, health."""
    c = cards()
    assert (c["lone-hound"]["colour"], sorted(c["lone-hound"]["links"])) == ("gold", ["green", "white"])
    assert (c["jerome-carceri"]["colour"], sorted(c["jerome-carceri"]["links"]), c["jerome-carceri"]["kicker_colour"]) == \
        ("white", ["purple", "red"], "gold")
    assert (c["nian-jiang"]["colour"], sorted(c["nian-jiang"]["links"]), c["nian-jiang"]["kicker_colour"]) == \
        ("red", ["blue", "gold"], "white")
    assert c["maya-westermann"]["colour"] == "green" and "gold" in c["maya-westermann"]["links"]
    assert c["maya-westermann"]["health"] == 4 and c["queens-bishop"]["health"] == 2
    assert c["roland-lefontaine"]["cost"] == 3 and c["tactical-prep"]["colour"] == "blue"
    assert "green" in c["sweep-and-clear"]["links"] and sorted(c["bleak-resurrection"]["links"]) == ["blue", "red"]
    assert c["hysteria"]["colour"] in c["tactical-prep"]["links"]
    assert c["chan-jiang"]["colour"] in ("white", "green")
    assert (c["koi-jiang"]["strength"], c["legion-ten"]["strength"], c["lone-hound"]["strength"]) == (2, 3, 4)


def test_every_value_says_where_it_comes_from():
    """Designed values are marked so that an owner of the cards can correct them."""
    for c in read_cards()["card"]:
        assert set(c.get("source", {}).values()) <= SOURCES, c["key"]
    designed_only = [c["key"] for c in read_cards()["card"] if not c.get("source")]
    assert designed_only == [], "every card cites at least one source (unmarked fields are designed)"


def test_quick_start_sets_name_real_cards():
    sets = read_cards()["quick_start_sets"]
    assert len(sets) == 5 and all(k in cards() for s in sets for k in s)


def test_an_owner_can_load_their_own_card_file(tmp_path: Path):
    """``pbem new --cards FILE``: the same format, other values."""
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    for c in data["card"]:
        if c["key"] == "koi-jiang":
            c["strength"] = 3
            c["source"]["strength"] = "printed"
    path = tmp_path / "my-cards.toml"
    path.write_text(tomli_w.dumps(data))
    scenario = GAME.load_scenario("standard", cards=str(path))
    assert scenario["card_data"]["card"][[c["key"] for c in data["card"]].index("koi-jiang")]["strength"] == 3


def test_a_card_file_naming_an_unknown_effect_is_refused(tmp_path: Path):
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    data["card"][0]["chain"] = [{"effect": "win_the_game"}]
    path = tmp_path / "bad.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ValueError, match="unknown effect 'win_the_game'"):
        GAME.load_scenario("standard", cards=str(path))


def test_the_rules_core_names_no_card():
    """Cards are data plus named effects: no rules module outside the effects names a card,
    by name or by key (the Quick Start sets are card data too)."""
    root = Path(__file__).resolve().parents[2] / "pbem" / "games" / "nightfall"
    core = "".join(path.read_text() for path in root.glob("*.py"))
    for c in cards().values():
        assert c["name"].strip('"') not in core, c["name"]
        assert f'"{c["key"]}' not in core, c["key"]


@pytest.mark.parametrize("old", ["nightfall-cards/1", "nightfall-cards/2"])
def test_a_card_file_of_an_older_format_is_refused_saying_what_changed(tmp_path: Path, old: str):
    """nightfall-cards/3: an effect that acts on more than one kind of thing names its target (a new format
    version, the older ones refused)."""
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    data["format"] = old
    path = tmp_path / "old.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ScenarioError, match=f"a {old} file; this pbem reads nightfall-cards/3 \\(effects are verbs"):
        GAME.load_scenario("standard", cards=str(path))


@pytest.mark.parametrize(("step", "message"), [
    ({"effect": "damage", "amount": 1}, "the damage effect needs a target, one of minion, own-minion, player, "
                                        "each-player, not None"),
    ({"effect": "damage", "target": "you", "amount": 1}, "the damage effect needs a target, one of .*not 'you'"),
    ({"effect": "draw", "target": "player", "amount": 1}, "the draw effect takes no target"),
])
def test_an_effect_names_a_target_it_takes_and_only_then(tmp_path: Path, step: dict, message: str):
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    next(c for c in data["card"] if c["key"] == "enraged-wight")["chain"] = [step]
    path = tmp_path / "targets.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ScenarioError, match=f"enraged-wight: {message}"):
        GAME.load_scenario("standard", cards=str(path))


def test_the_card_schema_admits_exactly_the_targets_of_the_vocabulary():
    schema = json.loads(schema_path("cards-nightfall").read_text())
    assert set(schema["$defs"]["target"]["enum"]) == {t for targets in effects.TARGETS.values() for t in targets}
    assert set(effects.TARGETS) <= set(effects.EFFECTS)


def test_the_card_schema_admits_exactly_the_in_play_vocabulary():
    schema = json.loads(schema_path("cards-nightfall").read_text())
    assert set(schema["$defs"]["ability"]["properties"]["ability"]["enum"]) == set(abilities.VOCABULARY)


def test_an_in_play_trigger_names_an_effect(tmp_path: Path):
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    card = next(c for c in data["card"] if c["key"] == "blind-rage")
    card["in_play"] = [{"ability": "at_turn_start", "condition": "alone"}]
    path = tmp_path / "no-effect.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ScenarioError, match="effect"):
        GAME.load_scenario("standard", cards=str(path))


def test_a_quick_start_set_names_draft_cards(tmp_path: Path):
    data = tomllib.loads((scenario_dir("nightfall") / "cards.toml").read_text())
    data["quick_start_sets"][0] = ["koi-jiang", "bad-smoke"]
    path = tmp_path / "bad-set.toml"
    path.write_text(tomli_w.dumps(data))
    with pytest.raises(ScenarioError, match="'bad-smoke' is not a draft card"):
        GAME.load_scenario("quick-start", cards=str(path))
