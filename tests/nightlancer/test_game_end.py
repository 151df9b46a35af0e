"""Rulebook 3.4 End phase and 4 Game End."""

from __future__ import annotations

from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.scoring import final_score, score_all

from .helpers import Table, new_game


def test_players_discard_down_to_six_cards_in_the_end_phase():
    t = Table(new_game(events=["quiet-night", "payday"], hands=[["beat-cop#1", "fence#1", "bouncer#1"], []]))
    assert len(t.seat("ana")["hand"]) == 8
    t.until_kind("discard")
    assert t.decision().player == "ana"
    t.until(lambda t: t.state["round"] == 2)
    # 3 Agendas + 2 Contacts + 3 pinned + 1 Agenda drawn off-mission in the Event step = 9
    assert t.events().count("ana discards") == 3
    assert len(t.seat("ana")["hand"]) == 6 + 2  # 6, then two Contacts drawn in round 2


def test_the_game_ends_when_the_event_deck_is_empty():
    t = Table(new_game(events=["quiet-night"]))
    t.until_kind("final")
    assert t.state["round"] == 1 and t.state["decks"]["event"] == []
    t.until(lambda t: not t.awaiting)
    assert GAME.result(t.state) is not None


def test_turn_order_follows_heat_then_prospects_and_ties_keep_their_order():
    t = Table(new_game(("ana", "ben", "cy", "dee"), events=["quiet-night", "payday"]))
    t.until_kind("streets")
    for p, heat, prospects in (("ana", 2, 0), ("ben", 1, 5), ("cy", 1, 3), ("dee", 2, 0)):
        t.seat(p).update(heat=heat, prospects=prospects)
    t.until(lambda t: t.state["round"] == 2)
    assert t.state["order"] == ["cy", "ben", "ana", "dee"]


def test_final_scoring_sells_pays_heat_and_loans_buys_prospects_and_adds_ideals():
    t = Table(new_game(events=["quiet-night"]))
    ana = t.seat("ana")
    ana.update(kc=27, heat=3, loans=1, prospects=4, ideals=2, items=["garrotte-wire"])  # garrotte sells for 2
    figures = final_score(t.state, "ana")
    # 29 KC: 3 Heat for 6, the Loan for 10, 2 Prospects for 10, 3 KC left
    assert figures == {"score": 4 + 2 + 2, "ideals": 2, "kc": 3}


def test_unpaid_heat_and_loans_cost_prospects():
    t = Table(new_game(events=["quiet-night"]))
    t.seat("ana").update(kc=0, heat=2, loans=2, prospects=10, ideals=3, items=[])
    assert final_score(t.state, "ana")["score"] == 10 + 3 - 2 - 10


def finish_with(t: Table, **figures):
    for p, values in figures.items():
        t.seat(p).update(kc=values[2], heat=0, loans=0, prospects=values[0], ideals=values[1], items=[])
    score_all(t.state)
    return GAME.result(t.state)


def test_the_most_prospects_wins():
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(10, 2, 0), ben=(8, 3, 0)).winners == ("ana",)


def test_a_tie_on_prospects_goes_to_the_most_ideals_then_the_most_kc():
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(9, 2, 0), ben=(8, 3, 0)).winners == ("ben",)  # 11 and 11: Ideals
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(9, 3, 4), ben=(9, 3, 3)).winners == ("ana",)


def test_a_win_on_the_tie_break_says_which_tie_break():
    """Rulebook 4: "In the case of a tie, the player with the most Ideals wins. If there is a tie for
    Ideals, the player with the most KC wins." The announcement says which decided."""
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(9, 2, 0), ben=(8, 3, 0)).summary == (
        "Winner: ben with 11 Prospects, on the tie-break: the most Ideals.")
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(9, 3, 4), ben=(9, 3, 3)).summary == (
        "Winner: ana with 12 Prospects, on the tie-break: the most KC (Ideals tied).")
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(10, 2, 0), ben=(8, 3, 0)).summary == "Winner: ana with 12 Prospects."


def test_players_tied_on_prospects_ideals_and_kc_share_victory():
    t = Table(new_game(events=["quiet-night"]))
    result = finish_with(t, ana=(9, 3, 4), ben=(9, 3, 4))
    assert result.winners == ("ana", "ben") and result.summary.startswith("Shared victory")


def test_techshock_never_beats_a_player_with_an_ideal():
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(30, 0, 0), ben=(1, 1, 0)).winners == ("ben",)


def test_players_all_in_techshock_score_prospects_amongst_themselves():
    t = Table(new_game(events=["quiet-night"]))
    assert finish_with(t, ana=(30, 0, 0), ben=(1, 0, 0)).winners == ("ana",)


def test_at_game_end_players_may_still_fulfil_agendas_sell_and_use_contacts():
    t = Table(new_game(events=["quiet-night"], hands=[["safehouse#1", "fence#1"], []]))
    t.until_kind("final", script={"discard": lambda t, d: [o.id for o in d.options if o.id.startswith("discard:")][-1]})
    t.seat("ana")["kc"] = 8
    options = t.options("ana")
    assert "sell:garrotte-wire" in options and "use:fence#1:1" in options
    t.choose("ana", "use:fence#1:1")  # +4 KC
    t.choose("ana", "fulfil:safehouse#1")
    assert "safehouse#1" in t.seat("ana")["fulfilled"]


def test_final_payments_give_each_player_their_best_result_not_a_fixed_order():
    """NL:349 "Players can reduce Heat by paying 2 KC for each point. They can discard each Loan for
    10 KC": the payments are the player's, so they are made in the split that scores best."""
    t = Table(new_game(events=["quiet-night"]))
    t.seat("ana").update(kc=10, heat=1, loans=1, prospects=0, ideals=4, items=[])
    # Heat first would leave 8 KC and the Loan: 0 + 1 + 4 - 0 - 5 = 0; repaying the Loan scores 3
    assert final_score(t.state, "ana") == {"score": 0 + 4 - 1, "ideals": 4, "kc": 0}
    assert t.seat("ana")["loans"] == 0 and t.seat("ana")["heat"] == 1
