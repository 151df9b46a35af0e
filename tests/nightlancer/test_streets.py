"""Rulebook 3.2 Streets phase, and selling items (3)."""

from __future__ import annotations

from .helpers import Table, new_game

QUIET_2P = ["quiet-night", "payday", "street-market"]


def at_streets(**kw):
    t = Table(new_game(events=QUIET_2P, **kw))
    t.until_kind("streets")
    return t


def test_buying_pays_the_cost_and_places_the_card_beside_the_nightlancer():
    t = at_streets(decks={"black_market": ["liontooth-pistol#1"]})
    t.seat("ana")["kc"] = 10
    t.choose("ana", "buy:liontooth-pistol#1")
    t.until(lambda t: "liontooth-pistol#1" in t.seat("ana")["items"])
    assert t.seat("ana")["kc"] == 5 and "liontooth-pistol#1" not in t.state["market"]


def test_other_players_may_react_to_a_buy():
    t = at_streets(decks={"black_market": ["liontooth-pistol#1"]}, hands=[[], ["fence#1"]])
    t.seat("ana")["kc"] = 10
    t.choose("ana", "buy:liontooth-pistol#1")
    d = t.decision("ben")
    assert d.kind == "reaction" and d.pass_id == "pass" and "play:fence#1" in [o.id for o in d.options]
    t.choose("ben", "play:fence#1")
    t.choose("ben", "pass")
    assert t.seat("ana")["kc"] == 10 and "liontooth-pistol#1" in t.state["discards"]["black_market"]


def test_a_duplicate_cyberware_cannot_be_bought():
    t = at_streets(decks={"black_market": ["reflex-wiring#1", "reflex-wiring#2"]})
    t.seat("ana")["kc"] = 40
    t.choose("ana", "buy:reflex-wiring#1")
    t.until(lambda t: t.decision().player == "ana" and t.decision().kind == "streets")
    assert "reflex-wiring#1" in t.seat("ana")["cyber"]
    assert "buy:reflex-wiring#2" not in t.options("ana")


def test_fulfilling_an_agenda_pays_its_cost_and_follows_its_instructions():
    t = at_streets(hands=[["safehouse#1"], []])
    t.seat("ana")["kc"] = 12
    t.choose("ana", "fulfil:safehouse#1")
    ana = t.seat("ana")
    assert ana["kc"] == 0 and ana["prospects"] == 3 and "safehouse#1" in ana["fulfilled"]


def test_an_agenda_needs_its_conditions_met():
    t = at_streets(hands=[["big-score#1"], []])
    t.seat("ana")["kc"] = 30
    assert "fulfil:big-score#1" not in t.options("ana")
    t.seat("ana")["missions_done"] = 3
    assert "fulfil:big-score#1" in t.options("ana")


def test_an_agendas_health_and_resolve_costs_must_be_paid_in_full():
    """R28: NL:235 "To fulfil it the costs must be paid in full" overrides, for Agendas, NL:443's
    "may be chosen even if the full cost can not be paid" for Health and Resolve."""
    t = at_streets(hands=[["confession#1"], []])  # needs 1 Heat; costs 2 Resolve
    ana = t.seat("ana")
    ana.update(heat=1, resolve=1)
    assert "fulfil:confession#1" not in t.options("ana")
    ana["resolve"] = 2  # paying it all is paying in full (and Shakes, 5.2)
    assert "fulfil:confession#1" in t.options("ana")
    t.choose("ana", "fulfil:confession#1")
    assert ana["resolve"] == 0 and ana["shaken"] and "confession#1" in ana["fulfilled"]


def test_an_ideal_gained_at_six_ideals_gives_maximum_resolve_instead():
    t = at_streets(hands=[["family-visit#1"], []])
    t.seat("ana").update(ideals=6, resolve=1, kc=5)
    t.choose("ana", "fulfil:family-visit#1")
    assert t.seat("ana")["ideals"] == 6 and t.seat("ana")["resolve"] == 5


def test_a_loan_gives_ten_kc_and_a_player_may_not_hold_more_than_two():
    t = at_streets()
    kc = t.seat("ana")["kc"]
    t.choose("ana", "loan")
    assert t.seat("ana")["loans"] == 1 and t.seat("ana")["kc"] == kc + 10
    t.seat("ana")["loans"] = 2
    t.choose("ben", "pass")
    assert "loan" not in t.options("ana")


def test_prospects_are_bought_at_the_events_price_as_many_as_affordable():
    t = at_streets()
    t.seat("ana")["kc"] = 7  # Quiet Night: 3 KC a Prospect
    assert [o for o in t.options("ana") if o.startswith("prospects:")] == ["prospects:1", "prospects:2"]
    t.choose("ana", "prospects:2")
    assert t.seat("ana")["prospects"] == 2 and t.seat("ana")["kc"] == 1


def test_the_streets_phase_ends_when_all_pass_consecutively_and_the_market_is_discarded():
    t = at_streets()
    market = list(t.state["market"])
    t.choose("ana", "pass")
    t.choose("ben", "loan")
    t.choose("ana", "pass")
    assert t.state["phase"] == "streets"
    t.choose("ben", "pass")
    assert t.state["phase"] != "streets"
    assert all(c in t.state["discards"]["black_market"] and c not in t.state["market"] for c in market)


def test_passing_does_not_end_a_players_streets_phase():
    t = at_streets()
    t.choose("ana", "pass")
    t.choose("ben", "loan")
    assert t.decision().player == "ana" and t.decision().kind == "streets"


def test_selling_an_item_gives_half_its_cost_rounded_down():
    t = at_streets()
    kc = t.seat("ana")["kc"]
    assert "sell:garrotte-wire" in t.options("ana")  # the Assassin's 4 KC starting item
    t.choose("ana", "sell:garrotte-wire")
    assert t.seat("ana")["kc"] == kc + 2 and t.decision().player == "ana", "selling does not use the turn"
    t.seat("ana")["items"].append("custom-smg")
    t.state["box"].remove("custom-smg")
    t.choose("ana", "sell:custom-smg")  # 5 KC -> 2
    assert t.seat("ana")["kc"] == kc + 4


def test_cyberware_cannot_be_sold():
    t = at_streets(items=[["reflex-wiring#1"], []])
    assert not any(o.startswith("sell:reflex") for o in t.options("ana"))


def test_a_shaken_player_takes_no_streets_actions():
    t = Table(new_game(events=QUIET_2P))
    t.seat("ana")["shaken"] = True  # Shaken in the Prep phase: Shaken until the next Downtime step
    t.choose("ana", "pass")
    t.until_kind("streets")
    assert t.decision().player == "ben"
    t.choose("ben", "pass")
    assert t.state["phase"] != "streets"


def test_the_weapon_smith_pays_one_kc_less_for_weapons():
    t = Table(new_game(events=QUIET_2P, nightlancers=["weapon-smith", "guard"], decks={"black_market": ["mono-blade#1"]}))
    t.until_kind("streets")
    t.seat("ana")["kc"] = 5
    assert "buy:mono-blade#1" in t.options("ana")  # costs 6
