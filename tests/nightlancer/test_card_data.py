"""The card data: this project's own set, in the rulebook's component counts (1.2)."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from pbem.engine.errors import ScenarioError
from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.cards import COMPONENT_COUNTS
from pbem.games.nightlancer.data import read_card_file
from pbem.resources import scenario_dir

CARDS = scenario_dir("nightlancer") / "cards.toml"


def load():
    with CARDS.open("rb") as handle:
        return tomllib.load(handle)


def count(entries):
    return sum(e.get("copies", 1) for e in entries)


def test_component_counts_are_the_rulebooks():
    data = load()
    for section, wanted in COMPONENT_COUNTS.items():
        assert count(data[section]) == wanted, section
    assert sum(1 for e in data["event"] if e["deck"] == "early") == 10
    assert sum(1 for e in data["event"] if e["deck"] == "late") == 10
    assert sum(1 for m in data["mission"] if m["profile"] == "low") == 24
    assert sum(1 for m in data["mission"] if m["profile"] == "high") == 12


def test_the_eight_nightlancers_are_the_ones_the_book_names():
    names = {n["name"] for n in load()["nightlancer"]}
    assert names == {"The Assassin", "The Bombshell", "The Cybercracker", "The Engineer", "The Guard",
                     "The Sniper", "The Veteran", "The Weapon Smith"}


def test_every_card_is_marked_as_this_projects_own_design():
    data = load()
    assert data["set"]["source"] == "designed" and "NOT the published" in data["set"]["note"]
    assert data["die"]["source"] == "designed"
    for section in COMPONENT_COUNTS:
        assert all(card["source"] == "designed" for card in data[section]), section


def test_die_faces_add_zero_to_three_with_resolve_symbols_on_some():
    faces = load()["die"]["faces"]
    assert len(faces) == 6
    assert {f["value"] for f in faces} == {0, 1, 2, 3}
    assert 0 < sum(f["resolve"] for f in faces) < 6


def test_contacts_have_two_effects_for_yourself_and_one_against_an_opponent():
    for contact in load()["contact"]:
        assert len(contact["self"]) == 2 and "effect" in contact["against"]
    assert {c["type"] for c in load()["contact"]} == {"security", "fixer", "smarts", "social", "company"}


def test_black_market_has_every_type_and_both_traits():
    cards = load()["black_market"]
    assert {c["type"] for c in cards} == {"armour", "weapon", "gear", "cyberware", "cyberweapon"}
    assert any("loud" in c["traits"] for c in cards) and any("obvious" in c["traits"] for c in cards)


def test_missions_have_three_stages_of_two_options_and_every_trait():
    missions = load()["mission"]
    assert all(len(m["stages"]) == 3 and all(len(s["options"]) == 2 for s in m["stages"]) for m in missions)
    assert {t for m in missions for t in m["traits"]} == {"dirty", "incognito", "stealthy"}
    assert {s["penalty"]["kind"] for m in missions for s in m["stages"]} == {"heat", "abort", "combat"}
    kinds = {o["challenge"] for m in missions for s in m["stages"] for o in s["options"]}
    assert kinds == {"covert", "streetwise", "technical", "cracking", "demolitions", "distraction",
                     "close", "gunfighter", "marksman"}


def test_an_owner_can_load_the_printed_cards_from_another_file(tmp_path):
    other = tmp_path / "printed.toml"
    text = CARDS.read_text().replace('name = "pbem house set"', 'name = "my printed cards"', 1)
    other.write_text(text)
    loaded = GAME.load_scenario("standard", cards=str(other))
    assert loaded["card_data"]["set"]["name"] == "my printed cards"


def test_a_malformed_card_file_is_refused_with_its_location(tmp_path):
    bad = tmp_path / "bad.toml"
    shutil.copy(CARDS, bad)
    bad.write_text(bad.read_text().replace('type = "security"', 'type = "police"', 1))
    with pytest.raises(ScenarioError, match="contact/0/type"):
        read_card_file(bad)


def test_the_rules_name_no_card():
    """Cards are data naming a small effect vocabulary: no module of the game names a card."""
    root = Path(__file__).resolve().parents[2] / "pbem" / "games" / "nightlancer"
    code = "".join(path.read_text() for path in root.glob("*.py"))
    data = read_card_file(scenario_dir("nightlancer") / "cards.toml")
    for entries in data.values():
        for entry in entries if isinstance(entries, list) else []:
            assert f'"{entry["id"]}' not in code, entry["id"]
            assert entry["name"] not in code, entry["name"]


#: NL:427 "Skill cards ... can modify the ability ratings of a Nightlancer or allow extra Contact cards or KC
#: to be taken during the Prep phase": the effects a Skill may name (D4)
SKILL_EFFECTS = {"ability", "extra_contacts", "income"}


def test_skills_do_only_what_the_book_says_skills_do():
    """D4: every Skill modifies ability ratings, or gives extra Contact cards (Draw cards step) or KC
    (Downtime step) in the Prep phase; nothing else."""
    for skill in load()["skill"]:
        assert {e["effect"] for e in skill["effects"]} <= SKILL_EFFECTS, skill["id"]


def test_a_card_file_whose_skill_does_more_than_the_book_says_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    text = CARDS.read_text()
    at = text.index('id = "networking"')
    bad.write_text(text[:at] + text[at:].replace('effect = "extra_contacts"', 'effect = "max_health"', 1))
    with pytest.raises(ScenarioError, match="skill/9/effects/0"):
        read_card_file(bad)


def test_a_card_file_of_the_first_format_is_refused_with_a_clear_message(tmp_path):
    old = tmp_path / "old.toml"
    old.write_text(CARDS.read_text().replace("pbem-nightlancer-cards-v2", "pbem-nightlancer-cards-v1", 1))
    with pytest.raises(ScenarioError, match=r"pbem-nightlancer-cards-v1.*Skill"):
        read_card_file(old)


def test_a_card_file_of_the_first_format_is_refused_saying_what_changed(tmp_path: Path):
    """pbem-nightlancer-cards-v2: a Skill names only what rulebook 5.1 says Skills do (the old format refused)."""
    from pbem.resources import scenario_dir

    text = (scenario_dir("nightlancer") / "cards.toml").read_text()
    path = tmp_path / "old.toml"
    path.write_text(text.replace('format = "pbem-nightlancer-cards-v2"', 'format = "pbem-nightlancer-cards-v1"', 1))
    with pytest.raises(ScenarioError, match=r"a pbem-nightlancer-cards-v1 file; this pbem reads pbem-nightlancer-cards-v2 \(.*5\.1"):
        read_card_file(path)


def test_states_set_up_from_one_card_data_share_one_catalogue_that_shares_nothing_with_the_data():
    """The catalogue is static: the states of games set up one after another from the same card data
    share it (it is built once), and it holds no container of the loaded card data, which a change to
    one would otherwise reach."""
    from pbem.engine.rng import Rng
    from pbem.games.nightlancer.cards import catalogue

    scenario = GAME.load_scenario("standard")
    first = GAME.new_state(scenario, ["ann", "bob"], Rng.from_seed(1))
    second = GAME.new_state(scenario, ["ann", "bob", "cyd"], Rng.from_seed(2))
    assert first["catalogue"] is second["catalogue"]
    assert first["catalogue"] == catalogue(scenario["card_data"])
    other = GAME.new_state(GAME.load_scenario("standard"), ["ann", "bob"], Rng.from_seed(1))
    assert other["catalogue"] is not first["catalogue"] and other["catalogue"] == first["catalogue"]

    def containers(value):
        if isinstance(value, dict):
            yield value
            for item in value.values():
                yield from containers(item)
        elif isinstance(value, list):
            yield value
            for item in value:
                yield from containers(item)

    in_data = {id(c) for c in containers(scenario["card_data"])}
    assert not any(id(c) in in_data for c in containers(first["catalogue"]))


def test_only_black_market_cards_provide_the_demolitions_requirement():
    """D4, 5.2: "Some Contacts can be used for Cracking and Distraction challenges. The Black Market has cards
    that can be used for Demolitions." (NL:483): no Contact of the set enables Demolitions, and some Black
    Market card does, so every Demolitions option can still be met."""
    data = tomllib.loads(CARDS.read_text())
    by_contacts = {c for card in data["contact"] for e in card["self"] if e["effect"] == "enables"
                   for c in e["challenges"]}
    assert by_contacts == {"cracking", "distraction"}
    by_market = {c for card in data["black_market"] for e in card.get("effects", []) if e["effect"] == "enables"
                 for c in e["challenges"]}
    assert "demolitions" in by_market


def test_a_card_file_whose_contact_provides_demolitions_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    text = CARDS.read_text()
    at = text.index('id = "netrunner"')
    bad.write_text(text[:at] + text[at:].replace('"cracking",', '"demolitions",', 1))
    with pytest.raises(ScenarioError, match=r"contact/\d+/self/0"):
        read_card_file(bad)
