"""Rulebook 5.2 "Nightlancer status": Shaken, Techshock; 5.2 "Paying costs"."""

from __future__ import annotations

from pbem.games.nightlancer import tokens

from .helpers import Table, new_game

QUIET_2P = ["quiet-night", "payday", "street-market"]


def test_running_out_of_health_or_resolve_shakes_and_costs_an_ideal():
    t = Table(new_game(events=QUIET_2P))
    ideals = t.seat("ana")["ideals"]
    tokens.lose(t.state, "ana", resolve=99)
    assert t.seat("ana")["shaken"] and t.seat("ana")["resolve"] == 0 and t.seat("ana")["ideals"] == ideals - 1


def test_health_and_resolve_costs_may_be_paid_in_part():
    t = Table(new_game(events=QUIET_2P))
    t.seat("ana")["health"] = 2
    tokens.lose(t.state, "ana", health=3)
    assert t.seat("ana")["health"] == 0 and t.seat("ana")["shaken"]


def test_a_shaken_nightlancer_is_removed_from_their_mission():
    t = Table(new_game(events=QUIET_2P))
    m = t.state["missions"][0]["card"]
    t.choose("ana", f"first:{m}")
    tokens.shake(t.state, "ana")
    assert t.state["missions"][0]["crews"] == []


def test_a_nightlancer_cannot_be_shaken_twice():
    t = Table(new_game(events=QUIET_2P))
    ideals = t.seat("ana")["ideals"]
    tokens.shake(t.state, "ana")
    tokens.shake(t.state, "ana")
    assert t.seat("ana")["ideals"] == ideals - 1


def test_zero_ideals_is_techshock():
    t = Table(new_game(events=QUIET_2P))
    t.seat("ana")["ideals"] = 1
    tokens.shake(t.state, "ana")
    assert tokens.is_techshock(t.state, "ana") and "ana is in Techshock." in t.state["events"]


def test_shaken_while_in_techshock_gains_a_heat():
    t = Table(new_game(events=QUIET_2P))
    t.seat("ana").update(ideals=0, heat=1)
    tokens.shake(t.state, "ana")
    assert t.seat("ana")["heat"] == 2 and t.seat("ana")["ideals"] == 0


def test_an_agenda_that_gives_an_ideal_ends_techshock():
    t = Table(new_game(events=QUIET_2P, hands=[["family-visit#1"], []]))
    t.until_kind("streets")
    t.seat("ana").update(ideals=0, kc=5)
    t.choose("ana", "fulfil:family-visit#1")
    assert not tokens.is_techshock(t.state, "ana")


def test_shaken_lasts_until_the_next_downtime_step():
    t = Table(new_game(events=QUIET_2P))
    tokens.shake(t.state, "ana")
    t.until(lambda t: t.state["phase"] == "end" or t.state["round"] == 2)
    assert t.state["round"] == 2 and not t.seat("ana")["shaken"]
