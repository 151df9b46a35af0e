"""Rulebook 6.1 Optional rules: cooperative, solitaire, their contact draws, Hardened."""

from __future__ import annotations

from pbem.games.nightlancer import GAME, tokens
from pbem.games.nightlancer.scoring import score_all

from .helpers import Table, final_result, mission_table, new_game

QUIET_2P = ["quiet-night", "payday", "street-market"]


def test_cooperative_players_may_not_compete_for_missions():
    t = Table(new_game(("ana", "ben"), mode="cooperative", events=QUIET_2P))
    m = t.state["missions"][0]["card"]
    t.choose("ana", f"first:{m}")
    assert f"second:{m}" not in t.options("ben") and f"join:{m}:first" in t.options("ben")


def test_cooperative_players_may_not_play_contacts_on_each_other():
    t = mission_table(mode="cooperative", dice=[5, 5], decks={"contact": ["fence#1"]})
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.choose("ana", "roll")
    assert not any(d.kind == "reaction" for d in t.awaiting)
    assert "ana rolls" in t.events()


def test_cooperative_players_may_give_each_other_kc():
    t = Table(new_game(("ana", "ben"), mode="cooperative", events=QUIET_2P))
    t.until_kind("streets")
    kc_ana, kc_ben = t.seat("ana")["kc"], t.seat("ben")["kc"]
    t.choose("ana", "give:ben:2")
    t.choose("ana", "give:ben:1")
    assert (t.seat("ana")["kc"], t.seat("ben")["kc"]) == (kc_ana - 3, kc_ben + 3)
    assert t.decision("ana").kind == "streets", "a gift does not use up the decision"


def test_cooperative_kc_may_be_given_at_any_time_not_only_in_streets_turns():
    """NL:520 "The players may exchange KC amongst themselves at any time": gifts are offered in every
    decision (1, 2, 5 or 10 KC at a time, so any sum), e.g. while taking missions."""
    t = Table(new_game(("ana", "ben"), mode="cooperative", events=QUIET_2P))
    t.until_kind("take-mission")
    d = t.decision()
    assert f"give:{'ben' if d.player == 'ana' else 'ana'}:1" in t.options(d.player)


def test_competitive_players_may_not_give_kc():
    t = Table(new_game(("ana", "ben"), events=QUIET_2P))
    t.until_kind("streets")
    assert not any(o.startswith("give:") for o in t.options("ana"))


def test_cooperative_techshock_of_any_player_loses_the_game_for_all():
    t = Table(new_game(("ana", "ben"), mode="cooperative", events=QUIET_2P))
    t.seat("ben")["ideals"] = 1
    tokens.shake(t.state, "ben")
    result = final_result(t.state)
    assert result is not None and result.winners == () and GAME.awaiting(t.state) == []


def test_cooperative_players_win_with_a_combined_score_of_30_per_player():
    for total, won in ((60, True), (59, False)):
        t = Table(new_game(("ana", "ben"), mode="cooperative", events=["quiet-night"]))
        t.seat("ana").update(kc=0, heat=0, loans=0, prospects=total - 30 - 3, ideals=3, items=[])
        t.seat("ben").update(kc=0, heat=0, loans=0, prospects=30 - 3, ideals=3, items=[])
        score_all(t.state)
        assert final_result(t.state).winners == (("ana", "ben") if won else ())


def test_solitaire_is_lost_on_entering_techshock():
    t = Table(new_game(("ana",), mode="solitaire", events=QUIET_2P))
    assert t.state["mode"] == "solitaire"
    t.seat("ana")["ideals"] = 1
    tokens.lose(t.state, "ana", health=99)
    assert final_result(t.state).winners == () and "Techshock" in final_result(t.state).summary


def test_solitaire_is_won_with_a_score_of_30():
    for prospects, won in ((27, True), (26, False)):
        t = Table(new_game(("ana",), mode="solitaire", events=["quiet-night"]))
        t.seat("ana").update(kc=0, heat=0, loans=0, prospects=prospects, ideals=3, items=[])
        score_all(t.state)
        assert final_result(t.state).winners == (("ana",) if won else ())


def test_solitaire_draws_four_black_market_cards_and_missions_as_for_two_players():
    t = Table(new_game(("ana",), mode="solitaire", events=["payday"]))
    assert len(t.state["market"]) == 4
    assert len(t.state["missions"]) == 3  # Payday for two players: 2 low-profile and 1 high-profile


def test_a_one_player_game_is_solitaire_play():
    state = new_game(("ana",), mode="competitive", events=QUIET_2P)
    assert state["mode"] == "solitaire"


def test_solitaire_or_cooperative_normal_challenges_draw_a_contact_whose_negative_effect_applies():
    # Beat Cop's negative effect is -2 Covert: it applies to a Covert attempt
    t = mission_table(players=("ana",), mode="solitaire", dice=[1], events=("quiet-night", "payday"))
    t.state["decks"]["contact"].remove("beat-cop#1")
    t.state["decks"]["contact"].insert(0, "beat-cop#1")
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.choose("ana", "roll")
    text = t.events()
    assert "ana draws the Contact Beat Cop: -2 Covert/Distraction applies." in text and "score 3" in text  # 3 + 1 + 1 - 2
    assert "beat-cop#1" in t.state["discards"]["contact"]


def test_solitaire_or_cooperative_special_challenges_draw_a_contact_too():
    """R30: 6.1 draws a Contact on "a Covert, Streetwise or Technical challenge", and 5.2 attempts a special
    challenge "as a normal challenge with the connected ability" ("the Technical challenge of difficulty 4"):
    a Cracking attempt draws one, and Netrunner's -2 Technical/Cracking applies to it."""
    t = mission_table(players=("ana",), mode="solitaire", dice=[1], events=("quiet-night", "payday"))
    t.state["decks"]["contact"].remove("netrunner#1")
    t.state["decks"]["contact"].insert(0, "netrunner#1")
    t.until_kind("choose-option")
    t.choose("ana", "option:2")  # Courier Run, stage 1: Cracking 2
    assert "ana draws the Contact Netrunner: -2 Technical/Cracking applies." in t.events()
    assert "netrunner#1" in t.state["discards"]["contact"]


def test_competitive_special_challenges_draw_no_contact():
    t = mission_table(dice=[1], events=("quiet-night", "payday"))
    t.until_kind("choose-option")
    drawn = list(t.state["decks"]["contact"])
    t.choose("ana", "option:2")
    assert "draws the Contact" not in t.events() and t.state["decks"]["contact"] == drawn


def test_solitaire_contact_draw_that_does_not_apply_is_just_discarded():
    t = mission_table(players=("ana",), mode="solitaire", dice=[1], events=("quiet-night", "payday"))
    t.state["decks"]["contact"].remove("mr-johnson#1")  # negative effect: skim - only on payment
    t.state["decks"]["contact"].insert(0, "mr-johnson#1")
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.choose("ana", "roll")
    assert "ana draws the Contact Mr Johnson: it does not apply." in t.events() and "score 5" in t.events()


def test_solitaire_buying_draws_a_contact_and_a_buy_negative_discards_the_card():
    t = Table(new_game(("ana",), mode="solitaire", events=QUIET_2P, decks={"black_market": ["lockpicks#1"]}))
    t.until_kind("streets")
    deck = t.state["decks"]["contact"]
    deck.remove("fence#1")
    deck.insert(0, "fence#1")  # Fence: cancel a black market buy
    kc = t.seat("ana")["kc"]
    t.choose("ana", "buy:lockpicks#1")
    assert "lockpicks#1" in t.state["discards"]["black_market"] and t.seat("ana")["kc"] == kc
    assert "lockpicks#1" not in t.seat("ana")["items"]


def test_solitaire_completing_a_mission_draws_a_contact_that_may_hit_the_payment():
    t = mission_table(players=("ana",), mode="solitaire", dice=[5] * 6, events=("quiet-night", "payday"))
    t.until_kind("choose-option")
    deck = t.state["decks"]["contact"]
    keep = [c for c in deck if c.startswith(("fence", "arms-dealer", "smuggler", "aegis-buyer", "mr-johnson"))]
    for c in keep:
        deck.remove(c)
    # mr-johnson (skim 3) lies under every Covert/Streetwise/Technical draw of the three stages
    deck[3:3] = ["mr-johnson#1"]
    for option in ("option:1", "option:1", "option:2"):
        t.until_kind("choose-option")
        t.choose("ana", option)
        t.until(lambda t: not any(d.kind == "attempt" for d in t.awaiting), {"attempt": "roll"})
    t.until(lambda t: "ana takes" in t.events().split("Complete")[-1])
    assert "Mr Johnson: -3 KC mission reward applies." in t.events() and "ana takes 8 KC" in t.events()


def test_hardened_applies_in_cooperative_and_solitaire_play():
    for mode, players in (("cooperative", ("ana", "ben")), ("solitaire", ("ana",))):
        state = new_game(players, mode=mode, hardened=1, events=QUIET_2P)
        assert all(state["seats"][p]["loans"] == 1 for p in players)
