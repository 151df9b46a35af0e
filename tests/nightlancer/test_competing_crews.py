"""Rulebook 3.3 "Competing Crews": positions per stage, the face-off, contested combat."""

from __future__ import annotations

import pytest

from pbem.games.nightlancer.crews import FIRST, SECOND, next_positions

from .helpers import Table, mission_table


@pytest.mark.parametrize(
    "first_result,second_result,expected",
    [
        # "If they pass they move on to the First Crew position of the next Stage normally."
        # "If they pass ... and the other Crew are in the First Crew position of the next Stage, they are put in the Second"
        ("pass", "pass", {"A": FIRST, "B": SECOND}),
        # "If they fail their chosen option ... they instead move to the Second Crew position."
        # "But if the First Crew position is open they instead move to that position and take the lead!"
        ("fail", "pass", {"A": SECOND, "B": FIRST}),
        # "If the Second Crew fail ... they move to the Second Crew space on the next Stage."
        ("pass", "fail", {"A": FIRST, "B": SECOND}),
        # "If the other crew is already there, the other crew is moved to the First Crew position first"
        ("fail", "fail", {"A": FIRST, "B": SECOND}),
        # a Crew left alone on the mission moves to the First Crew space
        ("gone", "fail", {"B": FIRST}),
        ("fail", "gone", {"A": FIRST}),
        ("gone", "gone", {}),
    ],
)
def test_competing_crews_movement_table(first_result, second_result, expected):
    assert next_positions("A", "B", {"A": first_result, "B": second_result}) == expected


def competing(dice, **kw) -> Table:
    kw.setdefault("nightlancers", ["assassin", "veteran"])
    return mission_table(players=("ana", "ben"), crew=("ana",), second=("ben",), dice=dice, **kw)


def positions(t: Table) -> dict[str, str]:
    slot = t.state["missions"][0]
    return {c["members"][0]: c["pos"] for c in slot["crews"]}


def play_stage(t: Table, first_option: str, second_option: str, first="ana", second="ben") -> None:
    t.until_kind("choose-option", first)
    t.choose(first, first_option)
    t.until_kind("choose-option", second)
    t.choose(second, second_option)
    t.until(lambda t: any(d.kind in ("choose-option", "face-off") for d in t.awaiting))


def test_the_first_crew_attempts_each_stage_first():
    t = competing(dice=[5, 5])
    t.until_kind("choose-option")
    assert t.decision().player == "ana"


def test_a_second_crew_that_passes_while_the_first_fails_takes_the_lead():
    # stage 1: ana (Assassin) Covert 3 rolls +0 with Resolve... use Cracking without the card: fails
    t = competing(dice=[5])
    play_stage(t, "option:2", "option:1")  # ana fails Cracking (no card); ben Covert 2+3 = 5 passes
    assert positions(t) == {"ana": SECOND, "ben": FIRST}
    assert t.decision().player == "ben", "the new First Crew attempts Stage 2 first"


def test_a_first_crew_that_fails_keeps_the_lead_when_the_second_also_fails():
    t = competing(dice=[])
    play_stage(t, "option:2", "option:2")  # both fail Cracking for want of the card
    assert positions(t) == {"ana": FIRST, "ben": SECOND}


def test_face_off_the_first_crew_may_abandon_and_the_second_continues_alone():
    t = competing(dice=[5, 5, 5, 5, 5, 5, 5])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    d = t.decision()
    assert (d.player, d.kind) == ("ana", "face-off")
    assert {o.id for o in d.options if not o.id.startswith("sell:")} == {"fight:close", "fight:gunfighter", "fight:marksman", "abandon"}
    t.choose("ana", "abandon")
    assert positions(t) == {"ben": FIRST}
    assert t.decision().player == "ben" and t.decision().kind == "choose-option"


def test_face_off_the_second_crew_may_abandon_rather_than_fight():
    t = competing(dice=[5, 5, 5, 5])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    t.choose("ana", "fight:marksman")
    d = t.decision()
    assert (d.player, d.kind) == ("ben", "accept-fight")
    t.choose("ben", "abandon")
    assert positions(t) == {"ana": FIRST}


def test_contested_combat_the_first_crews_score_is_the_difficulty_and_equal_beats_it():
    # ana (Assassin) Marksman 2 + die; ben (Veteran) Marksman 1 + die
    t = competing(dice=[5, 5, 5, 5, 1, 3])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    t.choose("ana", "fight:marksman")
    t.choose("ben", "fight")
    health_ben = t.seat("ben")["health"]
    t.until(lambda t: "wins the fight" in t.events())
    text = t.events()
    # ana: 2 + 1 = 3 (pays 1 Health); ben: 1 + 2 = 3 equals it: the Second Crew passes
    assert "The First Crew's score 3 is the difficulty the Second Crew must beat." in text
    assert "The Second Crew wins the fight: the First Crew is defeated." in text
    assert "ana is defeated and loses all Health." in text and t.seat("ben")["health"] == health_ben - 1
    assert positions(t) == {"ben": FIRST}


def test_contested_combat_a_second_crew_that_fails_is_defeated_and_the_first_continues():
    t = competing(dice=[5, 5, 5, 5, 5, 1])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    t.choose("ana", "fight:marksman")
    t.choose("ben", "fight")
    t.until(lambda t: "wins the fight" in t.events())
    text = t.events()
    assert "The First Crew wins the fight." in text and "ben is defeated and loses all Health." in text
    assert positions(t) == {"ana": FIRST}
    assert t.decision().player == "ana" and t.decision().kind == "choose-option"


def test_no_second_crew_when_a_deal_token_is_placed():
    t = mission_table(players=("ana", "ben"), crew=("ana",), second=("ben",), hands=[["mr-johnson#1"], []],
                      script={"take-mission": lambda t, d: "deal:low-courier-run:mr-johnson#1" if d.player == "ana" else "pass"})
    assert len(t.state["missions"][0]["crews"]) == 1


def test_members_may_abandon_at_the_start_of_stage_3_before_the_face_off():
    """NL:291 "A player may abandon a mission at the beginning of any Stage": at Stage 3 the members are
    asked before the face-off (NL:311 "when they reach Stage 3"), and not again after it (R9)."""
    t = mission_table(players=("ana", "ben", "cy", "dee"), crew=("ana", "cy"), second=("ben", "dee"), dice=[5] * 12)
    for _ in range(2):
        for boss in ("ana", "ben"):
            t.until_kind("choose-option", boss, script={"assist": "assist", "abandon": "continue"})
            t.choose(boss, "option:1")
    t.until(lambda t: any(d.kind in ("abandon", "face-off") for d in t.awaiting), {"assist": "assist"})
    assert t.kinds() == [("cy", "abandon")], "the First Crew's member first"
    t.choose("cy", "abandon")
    assert t.kinds() == [("dee", "abandon")]
    t.choose("dee", "continue")
    assert t.kinds() == [("ana", "face-off")]
    assert "cy abandons the mission." in t.events()
    t.choose("ana", "abandon")
    t.until(lambda t: any(d.kind in ("abandon", "choose-option") for d in t.awaiting))
    assert t.kinds() == [("ben", "choose-option")], "dee, who was asked at the start of Stage 3, is not asked again"
