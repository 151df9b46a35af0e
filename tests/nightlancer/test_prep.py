"""Rulebook 3.1 Prep phase."""

from __future__ import annotations

from pbem.games.nightlancer.crews import FIRST, SECOND, crew_at, slot_by_card
from pbem.games.nightlancer.state import Crew, Slot
from pbem.games.nightlancer.zones import card

from .helpers import Table, new_game

QUIET_2P = ["quiet-night", "payday", "street-market"]  # 2 players: 2 low + 0 high, 2+1, 3+0


def missions(t):
    return [s["card"] for s in t.state["missions"]]


def mission_slot(t, mission: str) -> Slot:
    """The slot of the mission card ``mission``, which is on the table."""
    found = slot_by_card(t.state, mission)
    assert found is not None, mission
    return found


def crew_of(slot: Slot, pos: str) -> Crew:
    """The crew at ``pos`` (first or second) of a mission's ``slot``, which has one there."""
    found = crew_at(slot, pos)
    assert found is not None, (slot["card"], pos)
    return found


def test_draw_cards_step_draws_missions_by_the_events_counts_and_black_market_two_per_player_plus_two():
    t = Table(new_game(("ana", "ben", "cy"), events=["payday", "quiet-night"]))
    # payday with three players: the low- and high-profile counts printed on the event for 3 players
    counts = card(t.state, "payday")["missions"]["3"]
    profiles = sorted(card(t.state, m)["profile"] for m in missions(t))
    assert profiles == ["high"] * counts["high"] + ["low"] * counts["low"] and counts["high"] and counts["low"]
    assert len(t.state["market"]) == 2 * 3 + 2


def test_all_players_draw_two_contacts():
    t = Table(new_game(("ana", "ben"), nightlancers=["assassin", "guard"]))
    for p in ("ana", "ben"):
        contacts = [c for c in t.seat(p)["hand"] if card(t.state, c)["kind"] == "contact"]
        assert len(contacts) == 2


def test_spent_cards_are_recovered_in_the_draw_cards_step():
    t = Table(new_game(events=QUIET_2P, items=[["plastique#1"], []]))
    t.seat("ana")["spent"].append("plastique#1")
    t.until(lambda t: t.state["round"] == 2)
    assert t.seat("ana")["spent"] == []


def test_downtime_heals_one_takes_one_kc_and_ends_shaken():
    t = Table(new_game(events=QUIET_2P))
    t.until_kind("streets")
    ana = t.seat("ana")
    ana.update(health=2, resolve=1, shaken=True, kc=0)
    t.until(lambda t: t.state["round"] == 2)
    assert (ana["health"], ana["resolve"], ana["kc"], ana["shaken"]) == (3, 2, 1, False)


def test_loan_interest_is_one_kc_or_three_health_and_three_resolve():
    t = Table(new_game(events=QUIET_2P, hardened=2))
    d = t.decision("ana")
    assert d.kind == "interest" and {"pay", "suffer"} <= {o.id for o in d.options}
    kc = t.seat("ana")["kc"]
    t.choose("ana", "pay")
    assert t.seat("ana")["kc"] == kc - 1
    health, resolve = t.seat("ana")["health"], t.seat("ana")["resolve"]
    t.choose("ana", "suffer")
    assert (t.seat("ana")["health"], t.seat("ana")["resolve"]) == (max(0, health - 3), max(0, resolve - 3))


def test_loans_may_be_repaid_for_ten_kc_after_paying_interest():
    t = Table(new_game(events=QUIET_2P, hardened=1, kc=[20, 0]))
    t.choose("ana", "pay")
    assert t.decision("ana").kind == "repay"
    t.choose("ana", "repay")
    assert t.seat("ana")["loans"] == 0 and t.seat("ana")["kc"] == 20 + 1 - 1 - 10


def test_starting_a_first_crew_makes_the_player_its_boss():
    t = Table(new_game(events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    assert crew_of(mission_slot(t, m), FIRST)["members"] == ["ana"]


def test_a_second_crew_needs_a_first_crew_and_no_second_crew_or_deal():
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P))
    m = missions(t)[0]
    assert f"second:{m}" not in t.options("ana")
    t.choose("ana", f"first:{m}")
    assert f"second:{m}" in t.options("ben")
    t.choose("ben", f"second:{m}")
    assert crew_of(mission_slot(t, m), SECOND)["members"] == ["ben"]
    t.stay()
    assert f"second:{m}" not in t.options("cy")


def test_a_deal_token_blocks_a_second_crew():
    t = Table(new_game(events=QUIET_2P, hands=[["mr-johnson#1"], []]))
    m = missions(t)[0]
    t.choose("ana", f"deal:{m}:mr-johnson#1")
    assert mission_slot(t, m)["deal"] == "ana" and not t.seat("ana")["deal"]
    assert f"second:{m}" not in t.options("ben")
    assert f"join:{m}:first" in t.options("ben")


def test_joining_a_crew_needs_the_bosss_consent():
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", f"join:{m}:first")
    assert t.kinds() == [("ana", "consent")]
    t.choose("ana", "accept")
    t.stay()
    t.choose("cy", f"join:{m}:first")
    t.choose("ana", "refuse")
    assert crew_of(mission_slot(t, m), FIRST)["members"] == ["ana", "ben"]


def test_a_shaken_player_or_one_with_five_heat_must_pass():
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P))
    t.until(lambda t: t.state["phase"] == "streets")
    t.seat("ana")["heat"] = 5
    t.seat("ben")["shaken"] = True  # Shaken after the Downtime step of next round is impossible; test the step itself
    from pbem.games.nightlancer.prep import must_pass
    assert must_pass(t.state, "ana") and must_pass(t.state, "ben") and not must_pass(t.state, "cy")


def test_five_heat_passes_in_the_take_missions_step():
    t = Table(new_game(("ana", "ben"), events=QUIET_2P))
    t.until(lambda t: t.state["phase"] == "streets")
    t.seat("ana")["heat"] = 6
    t.until(lambda t: t.state["round"] == 2)
    t.choose("ben", "pass")
    # still asked (a Contact that loses Heat may be played first, and whether one is held is hidden)
    assert [o for o in t.options("ana") if not o.startswith(("sell:", "use:"))] == ["pass"]
    t.choose("ana", "pass")
    assert "ana has 5 Heat and passes." in t.state["events"]


def test_a_player_on_five_heat_may_play_a_contact_to_lose_heat_and_then_take_a_mission():
    """NL:423 "A Contact can be played at any time it can apply": lowering Heat below 5 first."""
    t = Table(new_game(("ana", "ben"), events=QUIET_2P, hands=[["beat-cop#1"], []]))
    t.seat("ana")["heat"] = 5
    t.until_kind("take-mission", "ana")
    assert [o for o in t.options("ana") if not o.startswith(("sell:", "use:"))] == ["pass"]
    cool = next(o for o in t.options("ana") if o.startswith("use:beat-cop#1"))
    t.choose("ana", cool)
    assert t.seat("ana")["heat"] < 5 and any(o.startswith("first:") for o in t.options("ana"))


def test_when_the_boss_leaves_the_next_token_is_boss_and_a_second_crew_moves_up():
    t = Table(new_game(("ana", "ben", "cy", "dee"), events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", f"join:{m}:first")
    t.choose("ana", "accept")
    t.choose("ana", "stay")
    t.choose("cy", f"second:{m}")
    t.choose("ana", "stay")
    t.choose("ben", "stay")
    t.choose("dee", "pass")
    t.choose("ana", "leave")
    slot = mission_slot(t, m)
    assert crew_of(slot, FIRST)["members"] == ["ben"]
    t.choose("ben", "leave")
    assert crew_of(slot, FIRST)["members"] == ["cy"] and crew_at(slot, SECOND) is None
    t.choose("cy", "stay")
    assert not any(d.kind == "stay" for d in t.awaiting), "the Take missions step is over"


def test_a_player_may_leave_their_mission_at_any_time_during_the_take_missions_step():
    """NL:199 "A player may leave their position on a mission at any time during this step": after
    every turn each other player on a mission stays or leaves, before the next turn (R6)."""
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", "pass")
    d = t.decision()
    assert (d.player, d.kind, d.pass_id) == ("ana", "stay", "stay")
    t.choose("ana", "leave")
    assert f"first:{m}" in t.options("cy"), "ana left before cy's turn: the First Crew space is open"


def test_whoever_a_leaver_affects_may_answer_it_before_the_next_turn():
    """R6: when someone leaves, every other player still on a mission is asked again."""
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", f"second:{m}")
    t.choose("ana", "leave")
    assert crew_of(mission_slot(t, m), FIRST)["members"] == ["ben"], "the Second Crew moves up"
    assert t.kinds() == [("ben", "stay")]
    t.choose("ben", "stay")
    assert t.kinds() == [("cy", "take-mission")]


def test_players_not_on_a_mission_recover_to_maximum_lose_a_heat_and_draw_an_agenda():
    t = Table(new_game(events=QUIET_2P))
    t.seat("ben").update(health=1, heat=2)
    agendas = len(t.seat("ben")["hand"])
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", "pass")
    t.choose("ana", "stay")
    ben = t.seat("ben")
    assert ben["health"] == 7 and ben["heat"] == 1 and len(ben["hand"]) == agendas + 1
    assert len(t.seat("ana")["hand"]) == 5  # on a mission: no agenda


def test_the_event_hits_players_on_missions_in_turn_order():
    t = Table(new_game(("ana", "ben", "cy"), events=["rivets-rampage", "quiet-night"], dice=[5, 5]))
    ms = missions(t)
    t.choose("ana", f"first:{ms[0]}")
    t.choose("ben", "pass")
    t.stay()
    t.choose("cy", f"first:{ms[1]}")
    t.until(lambda t: t.state["phase"] == "streets")
    text = t.events()
    assert text.index("ana declares an attempt at Close") < text.index("cy declares an attempt at Close")
    assert "ben declares" not in text


def test_obvious_cards_may_not_be_used_in_an_event():
    t = Table(new_game(events=["rivets-rampage", "quiet-night"], items=[["combat-armour#1"], []], dice=[5]))
    t.choose("ana", f"first:{missions(t)[0]}")
    health = t.seat("ana")["health"]
    t.until(lambda t: t.state["phase"] == "streets")
    # Close costs 3 Health: the Obvious Combat Armour does not reduce it in an event
    assert t.seat("ana")["health"] == health - 3


def test_a_player_shaken_by_the_event_leaves_the_mission_and_skips_the_rest_of_it():
    t = Table(new_game(events=["riots", "quiet-night"], dice=[0]))
    t.choose("ana", f"first:{missions(t)[0]}")
    t.seat("ana")["resolve"] = 1
    t.until(lambda t: t.state["phase"] == "streets")
    # the Resolve symbol Shakes ana in the Close 4 combat: off the mission, the Resolve loss part skipped
    assert t.seat("ana")["shaken"] and not t.state["missions"]
    assert "ana is Shaken." in t.events() and t.events().count("The event hits ana") == 0


def test_missions_with_no_crew_are_discarded_at_the_end_of_the_prep_phase():
    t = Table(new_game(events=QUIET_2P))
    ms = missions(t)
    t.choose("ana", f"first:{ms[0]}")
    t.until(lambda t: t.state["phase"] == "streets")
    assert missions(t) == [ms[0]] and ms[1] in t.state["discards"]["low"]


def test_a_player_the_boss_refuses_chooses_again_without_that_crew():
    """NL:182-197: each player picks one option; "A player may join a Crew if the Boss of that Crew
    agrees". A refusal is the Boss's answer, not the asker's pass: they choose again."""
    t = Table(new_game(events=QUIET_2P))
    m = missions(t)[0]
    t.choose("ana", f"first:{m}")
    t.choose("ben", f"join:{m}:first")
    t.choose("ana", "refuse")
    assert t.kinds() == [("ben", "take-mission")]
    assert f"join:{m}:first" not in t.options("ben")
    t.choose("ben", f"second:{m}")
    assert crew_of(mission_slot(t, m), SECOND)["members"] == ["ben"]


def test_the_deal_token_leaves_the_mission_with_the_player_who_placed_it():
    """NL:98 "Deal - marks when a Nightlancer has an exclusive deal on a mission"; NL:193 it stops a
    Second Crew "competing against you": when its owner leaves, the token goes back to them."""
    t = Table(new_game(("ana", "ben", "cy"), events=QUIET_2P, hands=[["mr-johnson#1"], [], []]))
    m = missions(t)[0]
    t.choose("ana", f"deal:{m}:mr-johnson#1")
    t.choose("ben", f"join:{m}:first")
    t.choose("ana", "accept")
    t.choose("ana", "leave")
    assert mission_slot(t, m)["deal"] is None and t.seat("ana")["deal"]


def test_contacts_may_be_played_between_the_parts_of_an_event():
    """NL:423 "A Contact can be played at any time it can apply": before each part of the Event that
    applies to them, a player holding a Contact may play it on themselves (R29). Martial Law: Heat 1+
    Covert 5 or gain 1 Heat; then Heat 3+ gain 1 Heat."""
    t = Table(new_game(events=["martial-law", "quiet-night"], dice=[0], hands=[["beat-cop#1"], []]))
    t.choose("ana", f"first:{missions(t)[0]}")
    t.seat("ana")["heat"] = 2
    t.choose("ben", "pass")
    t.stay()
    d = t.decision()
    assert (d.player, d.kind, d.pass_id) == ("ana", "event", "go-on"), "before the first part"
    assert "use:beat-cop#1:2" in t.options("ana")
    t.choose("ana", "go-on")
    t.until(lambda t: t.decision().kind == "event", {"attempt": "roll", "reaction": "pass"})
    assert "Covert 5 challenge is failed" in t.events() and t.seat("ana")["heat"] == 3
    t.choose("ana", "use:beat-cop#1:2")  # lose 1 Heat between the parts
    assert t.kinds() == [("ana", "event")] and "use:beat-cop#1:2" not in t.options("ana")
    t.choose("ana", "go-on")
    assert t.seat("ana")["heat"] == 2, "the second part (Heat 3+) no longer applies"


def test_a_player_holding_no_contact_is_not_asked_between_the_parts_of_an_event():
    """R29: hand counts by card type are public (R22), so skipping a player with no Contact reveals nothing."""
    t = Table(new_game(events=["riots", "quiet-night"], dice=[5]))
    ana = t.seat("ana")
    contacts = [c for c in ana["hand"] if card(t.state, c)["kind"] == "contact"]
    ana["hand"] = [c for c in ana["hand"] if c not in contacts]
    t.state["discards"]["contact"].extend(contacts)
    t.choose("ana", f"first:{missions(t)[0]}")
    t.choose("ben", "pass")
    t.stay()
    asked: list[str] = []

    def event(t, d) -> str:
        asked.append(d.player)
        return "go-on"

    t.until(lambda t: t.state["phase"] == "streets", {"event": event, "attempt": "roll", "reaction": "pass"})
    assert asked == [] and "The event hits ana." in t.events()
