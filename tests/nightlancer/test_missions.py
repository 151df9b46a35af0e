"""Rulebook 3.3 Missions phase: gear up, stages, Crews, penalties, payment."""

from __future__ import annotations

import json

from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.missions import skill_cost
from pbem.games.nightlancer.zones import card

from .helpers import Table, mission_table

# low-courier-run: s1 Covert 3 / Cracking 2 (1 Heat); s2 Streetwise 4 / Close 4 (Abort);
# s3 Technical 4 / Covert 4 (Close 4 combat). Reward for a Crew of 1: 11 KC and 1 Skill draw; 2: 8 KC.


def stage(t: Table, option: str, rolls: dict[str, str] | None = None, boss: str = "ana") -> None:
    """Boss picks; everyone assists (quiet) and rolls; others pass."""
    t.until_kind("choose-option", boss)
    t.choose(boss, option)
    t.until(lambda t: not any(d.kind in ("assist", "attempt", "reaction") for d in t.awaiting))


def test_gear_up_takes_at_most_three_items_into_the_loadout():
    t = mission_table(items=[["lockpicks#1", "drone#1", "fake-ids#1"], []])
    d = t.decision("ana")
    assert d.kind == "gear-up" and len([o for o in d.options if o.id.startswith("take:")]) == 4
    for item in ("lockpicks#1", "drone#1", "fake-ids#1"):
        t.choose("ana", f"take:{item}")
    assert t.decision().kind != "gear-up"
    assert t.seat("ana")["loadout"] == ["lockpicks#1", "drone#1", "fake-ids#1"]


def test_items_left_out_of_the_loadout_are_not_usable_on_the_mission():
    t = mission_table(dice=[1], items=[["lockpicks#1"], []])
    t.until_kind("choose-option", script={"gear-up": "done"})
    assert t.seat("ana")["loadout"] == []
    from pbem.games.nightlancer.effects import kit
    assert kit(t.state, "ana", "technical", {"traits": []})["bonus"] == 0


def test_cyberware_is_always_on_and_not_in_the_loadout():
    t = mission_table(items=[["optic-implants#1"], []])
    t.until_kind("choose-option", script={"gear-up": "done"})
    from pbem.games.nightlancer.effects import kit
    assert kit(t.state, "ana", "marksman", {"traits": []})["bonus"] == 1


def test_the_boss_chooses_one_of_the_two_options_or_abandons():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"))
    t.until_kind("choose-option")
    d = t.decision()
    assert d.player == "ana" and [o.id for o in d.options if not o.id.startswith("sell:")] == ["option:1", "option:2", "abandon"]


def test_each_crew_member_chooses_to_assist_before_anyone_rolls_sealed_until_all_have_chosen():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"))
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    assert {(d.player, d.kind, d.simultaneous) for d in t.awaiting} == {("ana", "assist", True), ("ben", "assist", True)}
    t.choose("ana", "stand-by")
    assert "stand-by" not in json.dumps([GAME.public(t.state), GAME.private(t.state, "ben")])
    assert GAME.private(t.state, "ana")["my_assist"] is False
    assert t.kinds() == [("ben", "assist")]
    t.choose("ben", "assist")
    assert "Assisting: ben." in t.events()


def test_the_best_score_of_the_crew_counts():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[0, 5], nightlancers=["veteran", "assassin"])
    stage(t, "option:1")
    # ana (Veteran, Covert 2) rolls +0 = 2; ben (Assassin, Covert 3 + 1) rolls +3 = 7
    assert "score 2" in t.events() and "score 7" in t.events() and "is passed (best score 7)" in t.events()


def test_a_failure_is_the_whole_crews_even_for_those_who_did_not_assist():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[1], nightlancers=["guard", "veteran"])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.choose("ana", "assist")
    t.choose("ben", "stand-by")
    t.until(lambda t: "challenge is" in t.events())
    # Covert 3 failed (Guard Covert 1 + 1 = 2): the penalty, 1 Heat, hits both
    assert t.seat("ana")["heat"] == 1 and t.seat("ben")["heat"] == 1


def test_the_heat_penalty():
    t = mission_table(dice=[0], nightlancers=["guard", "veteran"])
    stage(t, "option:1")
    assert "Penalty: gain 1 Heat." in t.events() and t.seat("ana")["heat"] == 1


def test_the_abort_penalty_forces_the_crew_off_the_mission():
    t = mission_table(dice=[5, 0], nightlancers=["guard", "veteran"])
    stage(t, "option:1")
    stage(t, "option:1")  # Streetwise 4: 2 + 0
    assert "The Crew must abort the mission." in t.events() and "ana takes" not in t.events()


def test_the_combat_penalty_is_a_combat_challenge_for_the_crew():
    t = mission_table(dice=[5, 5, 0, 5], nightlancers=["guard", "veteran"])
    stage(t, "option:1")
    stage(t, "option:1")
    stage(t, "option:1")  # Technical 4: Guard 1 + 0 fails -> Close 4 combat: 3 + 3 passes
    text = t.events()
    assert "Penalty: Close 4 combat." in text and "Close 4 challenge is passed" in text
    assert "ana takes 11 KC" in text, "a Crew that survives the penalty after Stage 3 completes the mission"


def test_a_player_may_abandon_at_the_start_of_a_stage():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5, 5])
    t.until_kind("abandon")
    assert t.decision().player == "ben"
    t.choose("ben", "abandon")
    t.until_kind("choose-option")
    assert "ben abandons the mission." in t.events()
    t.choose("ana", "option:1")
    assert t.decision().kind == "attempt", "a Crew of one does not decide to assist"


def test_when_the_boss_abandons_the_next_token_becomes_boss():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"))
    t.until_kind("choose-option")
    t.choose("ana", "abandon")
    assert t.decision().player == "ben" and t.decision().kind == "choose-option"


def test_if_all_abandon_the_mission_is_discarded():
    t = mission_table()
    t.until_kind("choose-option")
    t.choose("ana", "abandon")
    assert "low-courier-run" in t.state["discards"]["low"]
    assert "low-courier-run" not in [s["card"] for s in t.state["missions"]]


def test_a_player_shaken_on_a_mission_leaves_it_and_gets_no_reward():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[4, 5, 5, 5, 5, 5, 5, 5, 5],
                      nightlancers=["assassin", "veteran"])
    t.seat("ana")["resolve"] = 1
    stage(t, "option:1")  # ana is Shaken by the Resolve symbol; ben carries on
    assert "ana is Shaken." in t.events()
    stage(t, "option:1", boss="ben")
    stage(t, "option:2", boss="ben")
    text = t.events()
    assert "ben takes 11 KC" in text and "ana takes" not in text, "the reward is for the Crew left: 1 member"


def test_payment_is_by_the_crew_size_at_completion():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5] * 12, nightlancers=["assassin", "veteran"])
    for _ in range(3):
        stage(t, "option:1")
    pay = card(t.state, "low-courier-run")["rewards"][1]["kc"]  # the reward row for a Crew of 2
    assert pay != card(t.state, "low-courier-run")["rewards"][0]["kc"]
    t.until(lambda t: f"ben takes {pay} KC" in t.events())
    text = t.events()
    assert f"ana takes {pay} KC" in text and f"ben takes {pay} KC" in text


def test_skill_cards_cost_two_then_one_more_for_each_skill_owned():
    t = mission_table(dice=[5] * 6, nightlancers=["assassin", "veteran"], kc=[30, 0])
    assert skill_cost(t.state, "ana") == 2
    t.seat("ana")["skills"] = ["brawling#1"]
    t.state["decks"]["skill"].remove("brawling#1")
    assert skill_cost(t.state, "ana") == 3
    for option in ("option:1", "option:1", "option:2"):
        stage(t, option)
    t.until_kind("skill")
    d = t.decision("ana")
    assert [o.id for o in d.options if o.id.startswith("buy:")] and "none" in [o.id for o in d.options]
    assert "skill_draw" in GAME.private(t.state, "ana") and "skill_draw" not in GAME.private(t.state, "ben")
    kc, prospects = t.seat("ana")["kc"], t.seat("ana")["prospects"]
    t.choose("ana", next(o.id for o in d.options if o.id.startswith("buy:")))
    assert t.seat("ana")["kc"] == kc - 3 and t.seat("ana")["prospects"] == prospects + 1
    assert len(t.seat("ana")["skills"]) == 2


def test_a_dirty_mission_costs_each_crew_member_an_ideal():
    # low-data-snatch (Dirty): s1 Covert 4 / Cracking 3; s2 Streetwise 3 / Marksman 3; s3 Technical 5 / Covert 5
    t = mission_table(mission="low-data-snatch", dice=[5] * 6, nightlancers=["assassin", "veteran"])
    ideals = t.seat("ana")["ideals"]
    for option in ("option:1", "option:2", "option:2"):
        stage(t, option)
    assert "Dirty work: ana loses an Ideal." in t.events() and t.seat("ana")["ideals"] == ideals - 1


def test_a_group_combat_failure_shakes_the_whole_crew_whether_they_took_part_or_not():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5, 5, 0], nightlancers=["assassin", "veteran"])
    stage(t, "option:1")
    t.until_kind("choose-option")
    t.seat("ana")["loadout"] = []  # no Garrotte Wire
    t.choose("ana", "option:2")  # Close 4
    t.choose("ana", "assist")
    t.choose("ben", "stand-by")
    t.until(lambda t: "challenge is" in t.events().split("Stage 2")[-1])
    text = t.events()
    assert "ana is defeated" in text and "ben is defeated" in text
    assert "ben is Shaken." in text


def test_nobody_attempting_a_group_combat_fails_it():
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5], nightlancers=["assassin", "veteran"])
    stage(t, "option:1")
    t.until_kind("choose-option")
    t.choose("ana", "option:2")
    t.choose("ana", "stand-by")
    t.choose("ben", "stand-by")
    text = t.events()
    assert "Close 4 challenge is failed (best score none)" in text and "ana is defeated" in text
