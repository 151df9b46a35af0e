"""Tests of the judgements recorded in docs/rulings.md (one per ruling)."""

from __future__ import annotations

from pbem.games.nightlancer import GAME, effects

from .helpers import Table, mission_table, new_game

QUIET_2P = ["quiet-night", "payday", "street-market"]


def test_selling_is_offered_at_every_decision_of_the_player():
    """NL:160 "At any time a player may sell Item cards"; the issue: "at any of that player's decisions"."""
    t = Table(new_game(events=QUIET_2P, hardened=1))
    assert t.decision("ana").kind == "interest" and "sell:garrotte-wire" in t.options("ana")
    t.until_kind("take-mission")
    assert any(o.startswith("sell:") for o in t.options())
    t2 = mission_table(dice=[5] * 6)
    t2.until_kind("choose-option")
    assert any(o.startswith("sell:") for o in t2.options())
    t2.until_kind("reaction")
    assert any(o.startswith("sell:") for o in t2.options(t2.decision().player))
    t2.until_kind("skill")
    assert any(o.startswith("sell:") for o in t2.options("ana"))


def test_in_an_event_every_item_but_obvious_ones_may_be_used_without_a_loadout():
    t = Table(new_game(events=QUIET_2P, items=[["mono-blade#1", "razor-claws#1"], []]))
    ana = t.seat("ana")
    assert ana["loadout"] == []
    usable = effects.usable_cards(t.state, "ana", {"event": True, "traits": []})
    assert "mono-blade#1" in usable and "garrotte-wire" in usable and "razor-claws#1" not in usable


def test_shaken_by_paying_combat_health_fails_without_a_roll():
    t = mission_table(dice=[5, 5])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.until(lambda t: t.decision().kind == "choose-option")
    t.choose("ana", "option:2")  # Close 4 costs 3 Health
    t.seat("ana")["health"] = 2
    t.until(lambda t: "ana is Shaken." in t.events())
    assert t.state["dice"] == [5], "no die was rolled"


def test_a_first_crew_where_nobody_attempts_the_contested_combat_fails():
    """R13: the contested combat is a group combat (NL:499): "if none of the Crew facing a combat
    challenge attempt it ... then they all fail! The entire Crew lose their Health and are Shaken"."""
    t = mission_table(players=("ana", "ben", "cy"), crew=("ana", "cy"), second=("ben",), dice=[5] * 6)
    t.until_kind("face-off", script={"choose-option": "option:1", "assist": "assist"})
    t.choose("ana", "fight:marksman")
    t.choose("ben", "fight")
    assert {d.player for d in t.awaiting if d.kind == "assist"} == {"ana", "cy"}
    t.choose("ana", "stand-by")
    t.choose("cy", "stand-by")
    assert "Assisting: nobody." in t.events()
    for player in ("ana", "cy"):
        assert t.seat(player)["health"] == 0 and t.seat(player)["shaken"]
    assert "The First Crew's score" not in t.events(), "the First Crew is off the mission: no fight remains"
    assert t.seat("ben")["health"] > 0 and not t.seat("ben")["shaken"]
    t.until_kind("choose-option")
    assert t.decision().player == "ben"


def test_a_first_crew_with_no_valid_score_in_the_contested_combat_leaves_no_fight():
    t = mission_table(players=("ana", "ben"), crew=("ana",), second=("ben",), dice=[5, 5, 5, 5, 0, 1],
                      nightlancers=["assassin", "veteran"])
    for _ in range(2):
        t.until_kind("choose-option", "ana")
        t.choose("ana", "option:1")
        t.until_kind("choose-option", "ben")
        t.choose("ben", "option:1")
    t.until_kind("face-off")
    t.choose("ana", "fight:marksman")
    t.choose("ben", "fight")
    t.seat("ana")["resolve"] = 1  # the Resolve symbol (face 0) will Shake ana
    t.until(lambda t: "ana is Shaken" in t.events())
    assert "ana is Shaken by the Resolve symbol" in t.events()
    assert "The First Crew's score" not in t.events(), "the First Crew is off the mission: no fight remains"
    t.until_kind("choose-option")
    assert t.decision().player == "ben"


def test_interest_is_taken_automatically_only_when_nothing_else_is_possible():
    t = Table(new_game(events=QUIET_2P, hardened=1, kc=[0, 0]))
    # ana has 1 KC (Downtime) and an Item to sell: she is asked
    assert t.decision("ana").kind == "interest"
    assert [o for o in t.options("ana") if not o.startswith("sell:")] == ["pay", "suffer"]
    ben = t.seat("ben")
    ben["kc"], ben["items"] = 0, []  # nothing to pay with, nothing to sell, no Contact to play (all public)
    t.state["discards"]["starting_item"].append("riot-vest")
    contacts = [c for c in ben["hand"] if c.split("#")[0] in t.state["catalogue"]["cards"]
                and t.state["catalogue"]["cards"][c.split("#")[0]]["kind"] == "contact"]
    ben["hand"] = [c for c in ben["hand"] if c not in contacts]
    t.state["discards"]["contact"].extend(contacts)
    health = ben["health"]
    t.choose("ana", "pay")
    t.choose("ana", "keep")
    assert ("ben", "interest") not in t.kinds() and ben["health"] == health - 3


def test_a_spend_card_is_spent_when_used_and_recovered_next_round():
    # low-bodyguard-detail: stage 3 is Technical 4 / Demolitions 3
    t = mission_table(mission="low-bodyguard-detail", dice=[5] * 8, items=[["plastique#1"], []],
                      nightlancers=["assassin", "veteran"])
    for option in ("option:1", "option:1", "option:2"):  # stage 3: Demolitions 3 with Plastique
        t.until_kind("choose-option")
        t.choose("ana", option)
        t.until(lambda t: not any(d.kind in ("attempt", "reaction") for d in t.awaiting))
    assert "plastique#1" in t.seat("ana")["spent"]
    t.until(lambda t: t.state["round"] == 2)
    assert t.seat("ana")["spent"] == []


def test_the_deal_token_returns_when_the_mission_ends():
    t = mission_table(crew=("ana",), hands=[["mr-johnson#1"], []],
                      script={"take-mission": lambda t, d: "deal:low-courier-run:mr-johnson#1" if d.player == "ana" else "pass"})
    assert not t.seat("ana")["deal"]
    t.until_kind("choose-option")
    t.choose("ana", "abandon")
    assert t.seat("ana")["deal"]


def test_hand_counts_by_card_type_are_public_and_hands_are_not():
    state = new_game(events=QUIET_2P)
    public = GAME.public(state)["players"]["ana"]
    assert (public["hand_contacts"], public["hand_agendas"]) == (2, 3)
    assert "hand" not in public and GAME.private(state, "ben")["hand"] != GAME.private(state, "ana")["hand"]


def test_every_players_starting_agenda_is_public():
    """NL:146 "Take the starting Agenda card shown in the Setup area": the Nightlancer card, face-up,
    shows which Agenda it is, so the table knows it while it is in the hand (R22)."""
    from .helpers import screen

    state = new_game(events=QUIET_2P)  # ana: the Assassin (Clean Slate); ben: the Guard
    players = GAME.public(state)["players"]
    assert players["ana"]["starting_agenda"] == "clean-slate"
    assert players["ben"]["starting_agenda"] == "protect-the-family"
    assert "starting Agenda in hand: Clean Slate" in screen(state, "ben")
    state["seats"]["ana"]["hand"].remove("clean-slate")
    state["seats"]["ana"]["fulfilled"].append("clean-slate")
    assert GAME.public(state)["players"]["ana"]["starting_agenda"] is None, "fulfilled: shown face-up instead"


def test_a_crew_holds_at_most_four():
    t = Table(new_game(("ana", "ben", "cy", "dee"), events=QUIET_2P))
    m = t.state["missions"][0]["card"]
    t.choose("ana", f"first:{m}")
    for p in ("ben", "cy", "dee"):
        t.choose(p, f"join:{m}:first")
        t.choose("ana", "accept")
        t.stay()
    assert len(t.state["missions"][0]["crews"][0]["members"]) == 4


def test_heat_has_no_maximum():
    t = Table(new_game(events=QUIET_2P))
    from pbem.games.nightlancer import tokens
    tokens.gain_heat(t.state, "ana", 9)
    assert t.seat("ana")["heat"] == 9
