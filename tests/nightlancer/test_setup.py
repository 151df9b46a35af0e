"""Rulebook 2 Setup."""

from __future__ import annotations

import json

from pbem.engine.rng import Rng
from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.zones import card, current_event

from .helpers import Table, new_game, scenario


def deck_kinds(state):
    return [card(state, e)["deck"] for e in state["decks"]["event"]]


def test_event_deck_is_four_late_under_four_early():
    state = new_game(("ana", "ben", "cy"))
    # round 1 has turned over the first Early event already
    assert card(state, current_event(state))["deck"] == "early"
    assert deck_kinds(state) == ["early"] * 3 + ["late"] * 4


def test_two_players_use_five_early_and_five_late_events():
    state = new_game(("ana", "ben"))
    assert deck_kinds(state) == ["early"] * 4 + ["late"] * 5


def test_solitaire_sets_up_the_event_deck_as_for_two_players():
    state = new_game(("ana",), mode="solitaire")
    assert state["mode"] == "solitaire"
    assert deck_kinds(state) == ["early"] * 4 + ["late"] * 5


def test_each_player_picks_a_nightlancer_sealed_until_all_are_in():
    state = GAME.new_state(scenario(), ["ana", "ben"], Rng.from_seed(3))
    t = Table(state)
    assert {d.kind for d in t.awaiting} == {"pick"} and all(d.simultaneous for d in t.awaiting)
    t.choose("ana", "pick:guard")
    assert [d.player for d in t.awaiting] == ["ben"]
    assert "guard" not in json.dumps([GAME.public(t.state), GAME.private(t.state, "ben")]), "ana's pick is sealed from ben"
    assert GAME.private(t.state, "ana")["my_pick"] == "guard"
    t.choose("ben", "pick:sniper")
    assert t.seat("ana")["nightlancer"] == "guard" and t.seat("ben")["nightlancer"] == "sniper"


def test_a_nightlancer_picked_by_two_goes_to_one_by_lot_and_the_other_picks_again():
    t = Table(GAME.new_state(scenario(), ["ana", "ben"], Rng.from_seed(3)))
    t.choose("ana", "pick:guard")
    t.choose("ben", "pick:guard")
    got = [p for p in ("ana", "ben") if t.seat(p)["nightlancer"] == "guard"]
    assert len(got) == 1
    other = "ben" if got == ["ana"] else "ana"
    d = t.decision(other)
    assert d.kind == "pick" and "pick:guard" not in [o.id for o in d.options]


def test_set_up_gives_health_resolve_ideals_kc_item_agenda_and_two_agenda_cards():
    state = GAME.new_state(scenario(nightlancers=["sniper", "guard"], turn_order=[1, 0]), ["ana", "ben"], Rng.from_seed(1))
    ana = state["seats"]["ana"]
    sniper = card(state, "sniper")
    assert ana["ideals"] == sniper["ideals"] and ana["items"] == ["longarm-rifle"] and ana["deal"]
    agendas = [c for c in ana["hand"] if card(state, c)["kind"] in ("agenda", "personal_agenda")]
    assert "one-last-shot" in agendas and len(agendas) == 3
    assert ana["health"] == sniper["health"] and ana["resolve"] == sniper["resolve"]


def test_the_last_player_in_turn_order_takes_one_extra_kc():
    state = GAME.new_state(scenario(nightlancers=["sniper", "guard"], turn_order=[1, 0]), ["ana", "ben"], Rng.from_seed(1))
    # +1 KC more in the first Downtime step for both
    assert state["seats"]["ana"]["kc"] == card(state, "sniper")["kc"] + 1 + 1
    assert state["seats"]["ben"]["kc"] == card(state, "guard")["kc"] + 1


def test_turn_order_is_random_unless_pinned():
    orders = {tuple(GAME.new_state(scenario(nightlancers=["sniper", "guard", "veteran"]), ["a", "b", "c"],
                                   Rng.from_seed(s))["order"]) for s in range(12)}
    assert len(orders) > 1


def test_hardened_players_start_with_a_loan_and_no_money_for_it():
    state = new_game(("ana", "ben"), hardened=1)
    plain = new_game(("ana", "ben"))
    for p in ("ana", "ben"):
        assert state["seats"][p]["loans"] == 1
        # the first Downtime step charged 1 KC interest; no 10 KC were received
        assert state["seats"][p]["kc"] <= plain["seats"][p]["kc"]


def test_hardened_ultimate_starts_with_two_loans():
    state = new_game(("ana", "ben"), hardened=2)
    assert [state["seats"][p]["loans"] for p in ("ana", "ben")] == [2, 2]


def test_a_scenario_pinned_for_fewer_seats_is_refused():
    import pytest

    from pbem.engine.errors import ScenarioError

    with pytest.raises(ScenarioError, match="pins nightlancers for 2 seats but 1 play"):
        GAME.new_state(scenario(nightlancers=["sniper", "guard"]), ["ana"], Rng.from_seed(1))
