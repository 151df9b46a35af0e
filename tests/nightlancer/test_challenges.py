"""Rulebook 5.2 Challenges: normal, special, combat; the die; the reaction window."""

from __future__ import annotations

import copy
from typing import Any

from pbem.games.nightlancer import GAME, effects, tokens
from pbem.games.nightlancer.cards import COMBAT_COST

from .helpers import Table, mission_table

# low-courier-run: stage 1 Covert 3 / Cracking 2 (penalty 1 Heat); stage 2 Streetwise 4 / Close 4 (Abort);
# stage 3 Technical 4 / Covert 4 (penalty Close 4 combat). Die faces: 0 = +0 with Resolve, 1-2 = +1,
# 3 = +2, 4 = +2 with Resolve, 5 = +3.


def to_roll(t: Table, option: str, player: str = "ana") -> None:
    t.until_kind("choose-option")
    t.choose(player, option)
    t.until_kind("attempt", player)


def test_a_normal_challenge_scores_ability_plus_cards_plus_the_die():
    t = mission_table(dice=[1])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.until(lambda t: "ana rolls" in t.events())
    # the Assassin: Covert 3, +1 Covert (special), die +1
    assert "ana rolls +1: score 5." in t.events() and "is passed" in t.events()


def test_equal_to_the_difficulty_succeeds():
    t = mission_table(dice=[0], nightlancers=["veteran", "guard"])
    to_roll(t, "option:1")
    t.seat("ana")["resolve"] = 5
    t.choose("ana", "roll")
    t.until(lambda t: "challenge is" in t.events())
    assert "score 2" in t.events() and "Covert 3 challenge is failed" in t.events()
    t2 = mission_table(dice=[1], nightlancers=["veteran", "guard"])
    to_roll(t2, "option:1")
    t2.choose("ana", "roll")
    t2.until(lambda t: "challenge is" in t.events())
    assert "score 3" in t2.events() and "Covert 3 challenge is passed" in t2.events()


def test_the_reaction_window_is_offered_to_every_other_player_in_turn_order():
    t = mission_table(players=("ana", "ben", "cy"), dice=[5])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    for player in ("ben", "cy"):
        d = t.decision()
        assert (d.player, d.kind, d.pass_id) == (player, "reaction", "pass")
        t.choose(player, "pass")
    assert "ana rolls" in t.events()


def test_the_reaction_window_reopens_when_someone_plays():
    t = mission_table(players=("ana", "ben", "cy"), dice=[5], hands=[[], ["beat-cop#1"], []])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "play:beat-cop#1")  # -2 Covert
    assert t.decision().player == "ben"
    t.choose("ben", "pass")
    t.choose("cy", "pass")
    d = t.decision()
    assert (d.player, d.kind) == ("ana", "attempt"), "the attempting player may answer the interruption"
    t.choose("ana", "roll")  # everyone has now passed in a row since ben played
    assert "ana rolls +3: score 5." in t.events()  # 3 + 1 + 3 - 2


def test_contacts_played_on_yourself_add_to_the_attempt():
    t = mission_table(dice=[1], hands=[["smuggler#1"], []])  # +2 Covert
    to_roll(t, "option:1")
    assert "play:smuggler#1:1" in t.options("ana")
    t.choose("ana", "play:smuggler#1:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "score 7" in t.events()


def test_a_special_challenge_without_the_required_card_automatically_fails():
    t = mission_table(dice=[5])
    to_roll(t, "option:2")  # Cracking 2
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "ana has no card with Cracking: the attempt fails." in t.events()
    assert t.state["dice"] == [5], "no die is rolled"


def test_a_special_challenge_with_the_requirement_uses_the_connected_ability():
    t = mission_table(dice=[1], hands=[["netrunner#1"], []])
    to_roll(t, "option:2")
    t.choose("ana", "play:netrunner#1:1")  # provides Cracking
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "ana rolls +1: score 2." in t.events()  # Technical 1 + 1


def test_combat_challenges_cost_close_3_gunfighter_2_marksman_1_health_before_the_roll():
    assert COMBAT_COST == {"close": 3, "gunfighter": 2, "marksman": 1}
    t = mission_table(dice=[5, 5])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    t.until_kind("choose-option")
    health = t.seat("ana")["health"]
    t.choose("ana", "option:2")  # Close 4
    t.until_kind("attempt")
    assert t.seat("ana")["health"] == health
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert t.seat("ana")["health"] == health - 3
    assert "ana pays 3 Health" in t.events()


def test_armour_reduces_the_health_a_combat_challenge_costs():
    t = mission_table(dice=[5, 5], nightlancers=["guard", "assassin"])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    to_roll(t, "option:2")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    # Close costs 3; the Guard's special and the Riot Vest are 1 Armour each
    assert "ana pays 1 Health" in t.events()


def test_at_most_one_weapon_and_one_armour_card_count_in_a_combat_challenge():
    t = mission_table(items=[["mono-blade#1", "shotgun#1", "polymer-plates#1"], []], nightlancers=["assassin", "guard"])
    state = t.state
    ana = state["seats"]["ana"]
    ana["items"] = ["mono-blade#1", "shotgun#1", "polymer-plates#1", "combat-armour#1"]
    state["decks"]["black_market"].remove("combat-armour#1")
    ana["loadout"] = ["mono-blade#1", "shotgun#1", "polymer-plates#1"]
    k = effects.kit(state, "ana", "close", {"traits": []})
    assert k["bonus"] == 3 and k["used"] == ["shotgun#1", "polymer-plates#1"]
    assert k["armour"] == 1


def test_only_one_armour_and_one_weapon_card_may_be_used_in_any_challenge():
    """NL:404 "only one Armour card may be used in a challenge"; NL:405 "only one Weapon or
    Cyberweapon card may be used in a challenge": in every challenge, not only in combat."""
    t = mission_table(items=[["execolux-suit#1", "execolux-suit#2"], []])
    state = t.state
    ana = state["seats"]["ana"]
    ana["loadout"] = ["execolux-suit#1", "execolux-suit#2"]
    # two Armoured Suits, +1 Streetwise each: one may be used
    k = effects.kit(state, "ana", "streetwise", {"traits": []})
    assert len(k["used"]) == 1 and k["bonus"] == 1
    # two Weapons that would help a Technical challenge (card data as an owner might enter it), in this
    # state's own copy of the catalogue: states set up from the same card data share one
    state["catalogue"] = copy.deepcopy(state["catalogue"])
    for design_id in ("mono-blade", "liontooth-pistol"):
        state["catalogue"]["cards"][design_id]["effects"].append(
            {"effect": "bonus", "amount": 1, "challenges": ["technical"]})
        state["decks"]["black_market"].remove(f"{design_id}#1")
        ana["items"].append(f"{design_id}#1")
    ana["loadout"] = ["mono-blade#1", "liontooth-pistol#1", "lockpicks#1"]
    ana["items"].append("lockpicks#1")
    state["decks"]["black_market"].remove("lockpicks#1")
    k = effects.kit(state, "ana", "technical", {"traits": []})
    weapons = [c for c in k["used"] if c in ("mono-blade#1", "liontooth-pistol#1")]
    assert len(weapons) == 1 and "lockpicks#1" in k["used"], "Gear still stacks (NL:467)"


def test_cyberware_and_skills_always_apply_and_gear_stacks():
    t = mission_table(items=[["lockpicks#1", "drone#1", "optic-implants#1"], []])
    ana = t.seat("ana")
    ana["loadout"] = ["lockpicks#1", "drone#1"]
    ana["skills"] = ["electronics#1"]
    t.state["decks"]["skill"].remove("electronics#1")
    k = effects.kit(t.state, "ana", "technical", {"traits": []})
    assert k["bonus"] == 1 + 1 + 1  # lockpicks, drone, optic implants
    assert tokens.ability(t.state, "ana", "technical") == 1 + 1  # the Assassin's rating, and Electronics


def test_a_skill_modifies_an_ability_rating_for_every_challenge_that_uses_it():
    """NL:427 Skills "can modify the ability ratings of a Nightlancer" (D4): a Skill that raises Technical
    raises every challenge that uses Technical, Cracking and Demolitions too (5.2 "Challenge types")."""
    t = mission_table(dice=[1], hands=[["netrunner#1"], []])
    t.seat("ana")["skills"] = ["electronics#1"]  # +1 Technical rating
    t.state["decks"]["skill"].remove("electronics#1")
    to_roll(t, "option:2")  # Cracking 2
    t.choose("ana", "play:netrunner#1:1")  # provides Cracking
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "ana rolls +1: score 3." in t.events()  # Technical 1 + 1 (Electronics) + 1


def test_losing_a_combat_challenge_discards_all_health_and_shakes():
    t = mission_table(dice=[5, 0])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    to_roll(t, "option:2")  # Close 4: Close 2 + garrotte 2 + die 0 = 4 ... Resolve symbol
    t.seat("ana")["items"].remove("garrotte-wire")
    t.seat("ana")["loadout"] = []
    t.state["discards"]["starting_item"].append("garrotte-wire")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "ana is defeated and loses all Health." in t.events() and "ana is Shaken." in t.events()
    assert "ana takes" not in t.events(), "no reward after being Shaken"


def test_a_resolve_symbol_costs_one_resolve():
    t = mission_table(dice=[4])
    to_roll(t, "option:1")
    resolve = t.seat("ana")["resolve"]
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert t.seat("ana")["resolve"] == resolve - 1 and "a Resolve symbol" in t.events()


def test_shaken_by_the_resolve_symbol_means_failure():
    t = mission_table(dice=[4])
    to_roll(t, "option:1")
    t.seat("ana")["resolve"] = 1
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert "ana is Shaken by the Resolve symbol and fails." in t.events()
    assert "ana is Shaken." in t.events() and t.seat("ana")["ideals"] == 3


def test_a_steady_contact_ignores_the_resolve_symbol():
    t = mission_table(dice=[4], hands=[["street-doc#1"], []])
    to_roll(t, "option:1")
    resolve = t.seat("ana")["resolve"]
    t.choose("ana", "play:street-doc#1:2")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert t.seat("ana")["resolve"] == resolve


def test_a_loud_card_used_gains_heat():
    t = mission_table(dice=[5, 5], items=[["shotgun#1"], []])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    to_roll(t, "option:2")  # Close: the Loud shotgun is the best weapon
    heat = t.seat("ana")["heat"]
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert t.seat("ana")["heat"] == heat + 1 and "Riot Shotgun (Loud)" in t.events()


def test_stealthy_missions_bar_loud_cards_and_incognito_missions_bar_obvious_cards():
    t = mission_table(items=[["shotgun#1", "combat-armour#1"], []])
    ana = t.seat("ana")
    ana["loadout"] = ["shotgun#1", "combat-armour#1"]
    assert effects.usable_cards(t.state, "ana", {"traits": ["stealthy"]}) == ["combat-armour#1"]
    assert effects.usable_cards(t.state, "ana", {"traits": ["incognito"]}) == ["shotgun#1"]


def test_a_spent_card_cannot_be_used_until_recovered():
    t = mission_table(items=[["plastique#1"], []])
    ana = t.seat("ana")
    ana["loadout"] = ["plastique#1"]
    assert effects.kit(t.state, "ana", "demolitions", {"traits": []})["enables"]
    ana["spent"] = ["plastique#1"]
    assert not effects.kit(t.state, "ana", "demolitions", {"traits": []})["enables"]


def test_using_a_spend_card_spends_it():
    t = mission_table(mission="low-debt-collection", dice=[5, 5, 5, 5], items=[["plastique#1"], []],
                      nightlancers=["guard", "assassin"])
    t.until_kind("choose-option")
    for option in ("option:2", "option:1"):
        t.choose("ana", option)
        t.until(lambda t: t.decision().kind == "attempt")
        t.choose("ana", "roll")
        t.choose("ben", "pass")
        t.until_kind("choose-option")
    # Debt Collection is Stealthy and Plastique is Loud: it cannot be used, so it is not spent
    assert t.seat("ana")["spent"] == []


def test_every_effect_of_a_card_in_use_applies_not_only_its_armour_or_weapon_bonus():
    """An Armour card's other effects count: the Execolux Armoured Suit's +1 Streetwise applies in a
    Streetwise challenge, and its Armour in combat."""
    t = mission_table(items=[["execolux-suit#1"], []])
    t.seat("ana")["loadout"] = ["execolux-suit#1"]
    k = effects.kit(t.state, "ana", "streetwise", {"traits": []})
    assert k["used"] == ["execolux-suit#1"] and k["bonus"] >= 1
    assert effects.kit(t.state, "ana", "close", {"traits": []})["armour"] >= 1


def test_every_effect_on_every_black_market_and_starting_item_card_changes_some_challenge():
    """Card text that never applies is a bug: each Item card alone in a Loadout changes the kit of
    some challenge (a bonus, an enabled special challenge or Armour)."""
    from pbem.games.nightlancer.cards import COMBAT_CHALLENGES

    t = mission_table()
    ana = t.seat("ana")
    catalogue = t.state["catalogue"]["cards"]
    challenges = sorted({c for d in catalogue.values() for e in d.get("effects", []) for c in e.get("challenges", [])}
                        | set(COMBAT_CHALLENGES))
    ana["skills"], ana["cyber"] = [], []
    for design_id, data in catalogue.items():
        if data["kind"] not in ("black_market", "starting_item"):
            continue
        instance = f"{design_id}#1"
        ana["items"], ana["loadout"], ana["cyber"] = [instance], [instance], []
        if data["type"] in ("cyberware", "cyberweapon"):
            ana["items"], ana["loadout"], ana["cyber"] = [], [], [instance]
        bare = {c: effects.kit(t.state, "ana", c, {"traits": []}) for c in challenges}
        for effect in data["effects"]:
            if effect["effect"] == "bonus":
                assert any(bare[c]["bonus"] >= effect["amount"] and instance in bare[c]["used"]
                           for c in effect["challenges"]), (design_id, effect)
            elif effect["effect"] == "enables":
                assert all(bare[c]["enables"] for c in effect["challenges"]), (design_id, effect)
            elif effect["effect"] == "armour":
                assert bare["close"]["armour"] >= effect["amount"], (design_id, effect)


def test_a_player_may_keep_back_a_loud_or_single_use_card_from_an_attempt():
    """NL:467 "Any number of Gear cards may be used" and NL:399 a Loud card's user "gains Heat whenever
    they use it": using a Loud or single-use card is the player's choice, offered before the roll."""
    t = mission_table(dice=[5, 5], items=[["shotgun#1"], []])
    to_roll(t, "option:1")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    to_roll(t, "option:2")  # Close: the Loud shotgun would be used
    assert "leave:shotgun#1" in t.options("ana")
    t.choose("ana", "leave:shotgun#1")
    assert t.kinds() == [("ana", "attempt")] and "take:shotgun#1" in t.options("ana")
    heat = t.seat("ana")["heat"]
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    assert t.seat("ana")["heat"] == heat and "Riot Shotgun (Loud)" not in t.events()



def test_a_reaction_window_whose_only_option_is_the_pass_is_still_asked():
    """docs/trust.md "Decisions with one option": whether a player holds a contact that applies
    stays hidden, so the window is offered with its pass even when nothing else is left (a
    standing order ``reaction=always`` answers it without revealing anything). Nightlancer
    declares no public count: the machine takes none of its decisions."""
    from pbem.bots.playout import play

    seen: list[Any] = []

    def check(game, state):
        seen.extend(d for d in game.awaiting(state) if d.kind == "reaction" and [o.id for o in d.options] == ["pass"])

    for seed in range(5):
        play(GAME, ["ana", "ben"], seed, check=check)
        if seen:
            break
    assert seen and seen[0].pass_id == "pass"
