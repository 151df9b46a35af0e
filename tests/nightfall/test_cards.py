"""One test per card effect and per card ruling, named after the card.

Seats: clockwise Janet -> Scott -> Brad. ``chain(t, ...)`` has Janet start a
chain with the first card and link the rest; Scott and Brad pass.
"""

from __future__ import annotations

import pytest


def chain(t, *cards, player="janet"):
    t.choose(player, "play:" + cards[0])
    for key in cards[1:]:
        t.choose(player, "link:" + key)
    t.choose(player, "pass")
    for other in [p for p in ("janet", "scott", "brad") if p != player]:
        decision = t.decision()
        if decision.kind == "link" and decision.player == other:
            t.choose(other, "pass")
    return t


def chain_table(table, hand, **players):
    pin = {"phase": "chain", "active": "janet", "face_up": 30,
           "players": {"janet": {"hand": hand, **players.pop("janet", {})}, **players}}
    return table(pin)


# ------------------------------------------------------------ starting minions

def test_bad_smoke_blocks_damage_from_chains(table):
    """EN 167: "This card blocks damage inflicted on you", chain damage included."""
    t = chain_table(table, ["enraged-wight"], brad={"in_play": ["bad-smoke"]})
    chain(t, "enraged-wight")
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 0 and t.health("bad-smoke") == 1


def test_bad_smoke_does_not_help_when_you_receive_wounds(table):
    """EN 168: minions that block damage do not help when you "receive wounds"."""
    t = chain_table(table, ["relentless-grinder"],
                    brad={"in_play": ["bad-smoke"], "hand": ["genesis-one"] * 7})
    chain(t, "relentless-grinder")
    t.choose("janet", "player:brad")
    t.choose("brad", "discard:genesis-one")
    t.choose("brad", "discard:genesis-one")
    assert t.wounds("brad") == 2 and t.health("bad-smoke") == 2


def test_bad_smoke_stays_in_play_and_is_exiled_when_destroyed(table):
    """EXT S7 (stays in play); EN 127 "Exile when destroyed." (P10)."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["bad-smoke"]}}},
              players=("janet", "brad"))
    t.choose("janet", "strike:bad-smoke#1")
    t.choose("janet", "pass")
    assert t.in_play("janet") == ["bad-smoke"]
    t = chain_table(table, ["headshot"], brad={"in_play": ["bad-smoke"]})
    chain(t, "headshot")
    assert t.minion("bad-smoke") is None and "bad-smoke#1" in t.s["exiled"]


@pytest.mark.parametrize("starter", ["charlotte-reyes", "enraged-wight", "genesis-one", "jj-mcteague", "yuri-koroviev"])
def test_starting_minion_is_exiled_when_discarded_from_play(table, starter):
    """EN 127: "Exile when destroyed or discarded"."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": [starter]}}},
              players=("janet", "brad"))
    t.choose("janet", f"strike:{starter}#1")
    assert t.in_play() == [] and f"{starter}#1" in t.s["exiled"]


@pytest.mark.parametrize("starter", ["charlotte-reyes", "enraged-wight", "genesis-one", "jj-mcteague", "yuri-koroviev"])
def test_starting_minion_discarded_from_hand_is_not_exiled(table, starter):
    """FAQ EN 299-311: never in play, so not exiled."""
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"hand": [starter]}}})
    t.choose("janet", f"discard:{starter}#1")
    assert t.keys("janet", "discard") == [starter]


def test_enraged_wight_deals_1_damage_to_an_opponent(table):
    """EXT S1: "Chain: 1 damage to an opponent"."""
    t = chain_table(table, ["enraged-wight"])
    chain(t, "enraged-wight")
    assert t.options("janet") == ["player:scott", "player:brad"]
    t.choose("janet", "player:scott")
    assert t.wounds("scott") == 1 and t.in_play("janet") == ["enraged-wight"]


def test_yuri_koroviev_gives_influence_only_to_the_chain_starter(table):
    t = chain_table(table, ["yuri-koroviev"])
    chain(t, "yuri-koroviev")
    assert t.s["turn"]["influence"] == 3
    t = chain_table(table, ["yuri-koroviev"], scott={"hand": ["yuri-koroviev"]})
    t.play(("janet", "play:yuri-koroviev"), ("janet", "pass"), ("scott", "link:yuri-koroviev"), ("scott", "pass"),
           ("brad", "pass"))
    assert t.s["turn"]["influence"] == 3  # only Janet's copy: "Your Chain" (EN 189)


# ---------------------------------------------------------------- draft minions

def test_brynna_and_taylor_draw_after_the_wound_effect(table):
    """DE 73: draw to 5, the wound effect, then 1 more card."""
    t = table({"phase": "cleanup", "active": "janet",
               "players": {"janet": {"in_play": ["brynna-and-taylor"], "hand": ["genesis-one"] * 4,
                                     "deck": ["nf-bite", "koi-jiang", "headshot", "hysteria"]}}})
    t.choose("janet", "wound:" + t.zone("janet", "hand")[4])
    t.choose("janet", "done")
    assert len(t.zone("janet", "hand")) == 4 + 2 + 1
    assert t.keys("janet", "hand")[-1] == "hysteria"


def test_brynna_and_taylor_stay_in_play_after_combat(table):
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["brynna-and-taylor"]}}},
              players=("janet", "brad"))
    t.choose("janet", "strike:brynna-and-taylor#1")
    assert t.in_play("janet") == ["brynna-and-taylor"]


def test_brynna_and_taylor_kicker_returns_a_minion_to_its_owner(table):
    """DE 73: the owner takes it back, not the controller."""
    t = chain_table(table, ["nian-jiang", "brynna-and-taylor"], janet={"in_play": [{"card": "koi-jiang", "owner": "brad"}]})
    chain(t, "nian-jiang", "brynna-and-taylor")  # the only minion in play is chosen at once
    assert t.keys("brad", "hand") == ["koi-jiang"] and t.minion("koi-jiang") is None


def test_chan_jiang_forces_a_block(table):
    """DE 53: "1 minion of your choice must block it"."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["chan-jiang"]}, "brad": {"in_play": ["roland-lefontaine", "maya-westermann"]}}},
        players=("janet", "brad"))
    t.choose("janet", "minion:maya-westermann#1")
    t.choose("janet", "continue")  # no wound effect before blocks
    assert t.decision().kind == "block" and t.options("brad") == ["block:chan-jiang#1", "no-block"]
    t.choose("brad", "no-block")  # Roland may stay out; Maya must block
    t.choose("janet", "strike:chan-jiang#1")
    assert t.health("maya-westermann") == 1 and t.wounds("brad") == 0


def test_chan_jiang_kicker_takes_a_minion_from_any_archive(table):
    """DE 74, EN 298: any archive, at once, outside the claim phase; an action on top gives nothing."""
    t = chain_table(table, ["legion-ten", "chan-jiang"], brad={"archives": ["koi-jiang", "hysteria"]})
    chain(t, "legion-ten", "chan-jiang")
    t.choose("janet", "archive:brad-1")
    assert t.keys("janet", "discard") == ["koi-jiang"]
    t = chain_table(table, ["legion-ten", "chan-jiang"], brad={"archives": ["koi-jiang", "hysteria"]})
    chain(t, "legion-ten", "chan-jiang")
    t.choose("janet", "archive:brad-2")
    assert t.keys("janet", "discard") == [] and len(t.s["archives"][1]["cards"]) == 7


def test_grotesque_revenant_kicker_discarded_actions_give_2(table):
    """DE 76: in your own turn, discarded actions give 2 influence instead of 1."""
    t = chain_table(table, ["irresistible-call", "grotesque-revenant", "hysteria", "genesis-one"])
    chain(t, "irresistible-call", "grotesque-revenant")
    t.choose("janet", "stop")  # Irresistible Call's feed
    t.choose("janet", "discard:hysteria#1")
    t.choose("janet", "discard:genesis-one#1")
    assert t.s["turn"]["influence"] == 2 + 3 + 2 + 1


def test_grotesque_revenant_stays_in_play_until_destroyed(table):
    """EN 171."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["grotesque-revenant"]}}},
              players=("janet", "brad"))
    t.choose("janet", "strike:grotesque-revenant#1")
    assert t.in_play("janet") == ["grotesque-revenant"]


def test_jerome_carceri_stays_in_play_at_0_health(table):
    """DE 78: not destroyed at 0 health, if his controller so chooses; discarded at the end of combat."""
    t = chain_table(table, ["silver-stake"], brad={"in_play": [{"card": "jerome-carceri", "damage": 0}]})
    chain(t, "silver-stake")
    # a vampire is destroyed by Silver Stake, but Jerome is protected from destroy: he takes 3 damage instead
    t.choose("brad", "decline")
    assert t.health("jerome-carceri") == 0 and t.minion("jerome-carceri") is not None
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": [{"card": "jerome-carceri", "damage": 3}]}}},
              players=("janet", "brad"))
    t.choose("janet", "strike:jerome-carceri#1")
    assert t.in_play() == [] and t.keys("janet", "discard") == ["jerome-carceri"]


def test_jerome_carceri_at_0_health_his_controller_may_destroy_him(table):
    """DE 78: "When Jerome Carceri is reduced to 0 health, you do not have to destroy it": a "may", so the
    choice is his controller's, asked when the damage brings him to 0 (his health is public). Destroyed, he is a
    friendly minion destroyed: Brad's Ahmad Hassan deals 1 damage (DE 71)."""
    t = chain_table(table, ["silver-stake"], brad={"in_play": ["jerome-carceri", "ahmad-hassan"]})
    chain(t, "silver-stake")
    t.choose("janet", "minion:jerome-carceri#1")
    decision = t.decision()
    assert (decision.player, decision.kind, decision.pass_id) == ("brad", "optional", "decline")
    assert [o.id for o in decision.options] == ["destroy", "decline"]
    t.choose("brad", "destroy")
    assert t.minion("jerome-carceri") is None and t.keys("brad", "discard") == ["jerome-carceri"]
    t.choose("brad", "player:janet")
    assert t.wounds("janet") == 1


def test_jerome_carceri_is_protected_from_destroy(table):
    t = chain_table(table, ["headshot"], brad={"in_play": ["jerome-carceri"]})
    chain(t, "headshot")
    assert t.minion("jerome-carceri") is not None


def test_koi_jiang_strength_stacks(table):
    """P1: one Koi: Koi 3, others +1; two Kois: each 4, others +2."""
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"in_play": ["koi-jiang", "legion-ten"]}}})
    assert (t.strength("koi-jiang"), t.strength("legion-ten")) == (3, 4)
    t = table({"phase": "claim", "active": "janet",
               "players": {"janet": {"in_play": ["koi-jiang", "koi-jiang", "legion-ten"]}}})
    assert [t.strength("koi-jiang")] * 2 == [4, 4] and t.strength("legion-ten") == 5


def test_koi_jiang_kicker_the_next_card_is_not_carried_out(table):
    """DE 61: the card resolving next goes to its owner's discard pile."""
    t = chain_table(table, ["legion-ten", "koi-jiang"], brad={"in_play": ["roland-lefontaine"]})
    chain(t, "legion-ten", "koi-jiang")
    assert t.in_play("janet") == ["koi-jiang"]
    assert t.keys("janet", "discard") == ["legion-ten"]


def test_legion_ten_reduces_the_damage_of_the_minion_it_blocks(table):
    """DE 81: its text applies only to blocking an attack."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["lone-hound"]}, "brad": {"in_play": ["legion-ten"]}}}, players=("janet", "brad"))
    t.play(("brad", "block:lone-hound#1"), ("janet", "strike:lone-hound#1"))
    assert t.minion("legion-ten") is None  # 4 - 1 = 3 damage: all absorbed by its 3 health
    assert t.wounds("brad") == 0


def test_legion_ten_kicker_each_player_discards_the_top_of_his_deck(table):
    """DE 81: everyone, you too; an empty deck is not affected and not reshuffled."""
    t = chain_table(table, ["grotesque-revenant", "legion-ten"], janet={"deck": ["koi-jiang"]},
                    scott={"deck": ["hysteria", "headshot"]}, brad={"discard": ["genesis-one"]})
    chain(t, "grotesque-revenant", "legion-ten")
    assert t.keys("janet", "discard") == ["koi-jiang"]
    assert t.keys("scott", "discard") == ["hysteria"]
    assert t.keys("brad", "discard") == ["genesis-one"] and t.zone("brad", "deck") == []


def test_lone_hound_may_discard_when_it_attacks(table):
    """DE 75: optional."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["lone-hound"], "hand": ["nf-bite"]}}}, players=("janet", "brad"))
    assert t.decision().kind == "discard" and t.options()[-1] == "pass"
    t.choose("janet", "discard:nf-bite#" + t.zone("janet", "hand")[0].split("#")[1])
    assert t.keys("janet", "discard") == ["nf-bite"]


def test_lone_hound_kicker_destroys_a_minion(table):
    t = chain_table(table, ["koi-jiang", "lone-hound"], brad={"in_play": ["roland-lefontaine", "maya-westermann"]})
    chain(t, "koi-jiang", "lone-hound")
    t.choose("janet", "minion:maya-westermann#1")
    assert t.in_play("brad") == ["roland-lefontaine"]


def test_mad_jake_wounds_the_defender_even_when_blocked(table):
    """DE 77; a received wound is not blocked by "Bad Smoke" (EN 168)."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["mad-jake"]}, "brad": {"in_play": ["bad-smoke", "roland-lefontaine"]}}},
        players=("janet", "brad"))
    assert t.wounds("brad") == 1 and t.health("bad-smoke") == 2


def test_mad_jake_kicker_needs_a_minion_in_play_opposing_first(table):
    """DE 77: never itself (still in the chain); own minion only if no opponent has one."""
    t = chain_table(table, ["roland-lefontaine", "mad-jake"], janet={"in_play": ["genesis-one"]},
                    brad={"in_play": ["koi-jiang"]})
    chain(t, "roland-lefontaine", "mad-jake")
    assert t.minion("koi-jiang") is None and t.minion("genesis-one") is not None
    t = chain_table(table, ["roland-lefontaine", "mad-jake"], janet={"in_play": ["charlotte-reyes"]})
    chain(t, "roland-lefontaine", "mad-jake")
    assert t.minion("charlotte-reyes") is None


def test_maya_westermann_discarded_actions_give_3_in_your_turn(table):
    """DE 82."""
    t = table({"phase": "claim", "active": "janet", "players": {
        "janet": {"in_play": ["maya-westermann"], "hand": ["hysteria", "genesis-one"]}}})
    t.play(("janet", "discard:hysteria#1"), ("janet", "discard:genesis-one#1"))
    assert t.s["turn"]["influence"] == 2 + 3 + 1


def test_nian_jiang_control_lasts_until_the_minion_leaves_play(table):
    """EN 214, DE 83: a controlled minion that leaves play goes to its owner."""
    t = chain_table(table, ["jerome-carceri", "nian-jiang"], brad={"in_play": ["roland-lefontaine"]})
    chain(t, "jerome-carceri", "nian-jiang")
    assert t.minion("roland-lefontaine")["controller"] == "janet"
    t.s["turn"]["player"] = "janet"
    from pbem.games.nightfall import damage
    damage.destroy(t.s, t.minion("roland-lefontaine"), {"player": "scott", "entry": None, "card": "x#1"})
    assert t.keys("brad", "discard") == ["roland-lefontaine"]


def test_nian_jiang_taken_does_not_bring_her_minions(table):
    """EN 306."""
    t = chain_table(table, ["jerome-carceri", "nian-jiang"],
                    scott={"in_play": ["nian-jiang", {"card": "koi-jiang", "owner": "brad"}]})
    chain(t, "jerome-carceri", "nian-jiang")
    t.choose("janet", "minion:nian-jiang#2")
    assert t.minion("nian-jiang")["controller"] == "janet"
    assert t.minion("koi-jiang")["controller"] == "scott"


def test_queens_bishop_damages_a_minion_before_blockers(table):
    """DE 80, EN 308."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["queens-bishop"]}, "brad": {"in_play": ["roland-lefontaine"]}}}, players=("janet", "brad"))
    t.choose("janet", "minion:roland-lefontaine#1")
    t.choose("janet", "continue")  # no wound effect before blocks
    assert t.health("roland-lefontaine") == 1 and t.decision().kind == "block"


def test_queens_bishop_alone_destroys_itself(table):
    """DE 80: alone in play, it destroys itself before it deals damage."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["queens-bishop"]}}},
              players=("janet", "brad"))
    assert t.minion("queens-bishop") is None and t.wounds("brad") == 0
    assert t.decision().kind == "chain-start"


def test_roland_lefontaine_draws_when_attacking_and_as_kicker(table):
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["roland-lefontaine"], "deck": ["genesis-one", "hysteria"]}}}, players=("janet", "brad"))
    assert len(t.zone("janet", "hand")) == 2
    t = chain_table(table, ["koi-jiang", "roland-lefontaine"], janet={"deck": ["genesis-one", "hysteria"]})
    chain(t, "koi-jiang", "roland-lefontaine")
    assert sorted(t.keys("janet", "hand")) == ["genesis-one", "hysteria"]


# ------------------------------------------------------------------ draft actions

def test_all_out_lunge_feed_repeats_the_damage(table):
    """DE 86: once free, again for each 2 cards discarded."""
    t = chain_table(table, ["all-out-lunge", "genesis-one", "yuri-koroviev"])
    chain(t, "all-out-lunge")
    t.choose("janet", "player:brad")
    t.play(("janet", "feed"), ("janet", "discard:genesis-one#1"), ("janet", "discard:yuri-koroviev#1"))
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 2 and "feed" not in [d.kind for d in [t.decision()]]


def test_all_out_lunge_kicker_gives_a_card_its_kicker(table):
    """DE 58: 1 card in the chain carries out its kicker text."""
    t = chain_table(table, ["chan-jiang", "all-out-lunge", "koi-jiang"],
                    janet={"deck": ["genesis-one", "hysteria"]}, brad={"archives": ["mad-jake"]})
    chain(t, "chan-jiang", "all-out-lunge")
    t.choose("janet", "player:brad")
    # the only card left in the chain, Chan Jiang, gets its kicker though it started the chain;
    # its only choice of archive is taken at once
    assert t.keys("janet", "discard") == ["all-out-lunge", "mad-jake"]


def test_bait_and_switch_takes_a_card_in_the_chain(table):
    """DE 87: the card stays in the chain, keeps its kicker, comes into play for you."""
    t = table({"phase": "chain", "active": "scott", "players": {
        "scott": {"hand": ["roland-lefontaine"]}, "brad": {"hand": ["bait-and-switch"]}}})
    t.play(("scott", "play:roland-lefontaine"), ("scott", "pass"), ("brad", "link:bait-and-switch"), ("brad", "pass"),
           ("janet", "pass"))
    assert t.in_play("brad") == ["roland-lefontaine"] and t.minion("roland-lefontaine")["owner"] == "scott"


def test_bait_and_switch_kicker_makes_a_face_down_archive(table):
    """DE 87, EN 297: shuffled face down, "bought in the given order" from the top, unseen, at its cost."""
    t = chain_table(table, ["lone-hound", "bait-and-switch", "hysteria", "shining-cross"])
    chain(t, "lone-hound", "bait-and-switch")
    t.choose("janet", "stop")  # no feed
    t.play(("janet", "card:hysteria#1"), ("janet", "card:shining-cross#1"))
    blind = next(a for a in t.s["archives"] if a["hidden"])
    assert sorted(c.split("#")[0] for c in blind["cards"]) == ["hysteria", "shining-cross"]
    from pbem.games.nightfall import GAME
    shown = next(a for a in GAME.public(t.s)["archives"] if a["id"] == blind["id"])
    assert "top" not in shown and shown["count"] == 2 and blind["id"] not in GAME.private(t.s, "janet")["archive_tops"]
    top = blind["cards"][-1]
    t.choose("janet", f"claim:{blind['id']}")
    assert t.zone("janet", "discard")[-1] == top and t.s["turn"]["influence"] == 0  # both cost 2


def test_bait_and_switch_archive_top_too_dear_is_turned_up_and_stays(table):
    """Designed (DE 87 is silent): the claim option cannot depend on the unseen cost; a card the player
    cannot pay for is shown to all and stays on top, and that archive is not offered again this turn."""
    t = chain_table(table, ["lone-hound", "bait-and-switch", "headshot"])
    chain(t, "lone-hound", "bait-and-switch")  # one card in hand: no feed to pay
    t.choose("janet", "card:headshot#1")
    blind = next(a for a in t.s["archives"] if a["hidden"])
    t.choose("janet", f"claim:{blind['id']}")  # Headshot costs 3; Janet has 2 influence
    assert blind["cards"] == ["headshot#1"] and t.s["turn"]["influence"] == 2
    assert any("turns up Headshot" in line for line in t.s["events"])
    assert f"claim:{blind['id']}" not in t.options("janet")


def test_bait_and_switch_kicker_takes_order_cards_only_so_wounds_keep_counting(table):
    """EN 108: "Archives are stacks of order cards"; EN 239: wounds in hand, deck and discard pile count."""
    t = chain_table(table, ["lone-hound", "bait-and-switch", "nf-bite", "nf-burn"])
    chain(t, "lone-hound", "bait-and-switch")
    t.choose("janet", "stop")
    assert t.options("janet") == ["none"]  # still asked: the others learn nothing of her hand
    t.choose("janet", "none")
    assert t.wounds("janet") == 2 and not any(a["hidden"] for a in t.s["archives"])


def test_bleak_resurrection_brings_a_minion_back_without_its_texts(table):
    """DE 98."""
    t = chain_table(table, ["bleak-resurrection"], janet={"discard": ["roland-lefontaine"], "deck": ["genesis-one"]})
    chain(t, "bleak-resurrection")
    t.choose("janet", "card:roland-lefontaine#1")
    assert t.in_play("janet") == ["roland-lefontaine"] and t.zone("janet", "hand") == []


def test_bleak_resurrection_feed_paid_with_the_minion_it_brings_back(table):
    """DE 98: "You may pay the feed cost with a minion card and then choose that minion"."""
    t = chain_table(table, ["bleak-resurrection", "koi-jiang"], janet={"discard": ["roland-lefontaine"]})
    chain(t, "bleak-resurrection")
    t.choose("janet", "card:roland-lefontaine#1")
    t.play(("janet", "feed"), ("janet", "discard:koi-jiang#1"), ("janet", "card:koi-jiang#1"))
    assert t.in_play("janet") == ["roland-lefontaine", "koi-jiang"]


def test_bleak_resurrection_kicker_exiles_what_the_previous_card_destroyed(table):
    """DE 98: even a minion just brought back."""
    from pbem.engine.rng import Rng
    from pbem.games.nightfall import effects
    t = chain_table(table, [], janet={"in_play": ["koi-jiang"], "discard": ["roland-lefontaine"]})
    # the chain as it stands when Bleak Resurrection (#1) resolves: #2 resolved just before and destroyed
    # Roland, and Koi Jiang, destroyed too, was brought back in the meantime
    t.s["chain"] = {"starter": "janet", "entries": [
        {"card": "bleak-resurrection#9", "owner": "janet", "controller": "janet", "resolved": False},
        {"card": "headshot#9", "owner": "scott", "controller": "scott", "resolved": True,
         "destroyed": ["roland-lefontaine#1", "koi-jiang#1"]}]}
    effects.EFFECTS["exile_destroyed_by_previous"](t.s, {"player": "janet", "entry": 0, "card": "bleak-resurrection#9"}, {},
                                                   Rng.from_seed("unused"))
    assert {"roland-lefontaine#1", "koi-jiang#1"} <= set(t.s["exiled"]) and t.in_play() == []


def test_forlorn_hope_exiles_an_order_card_for_damage(table):
    """DE 56, DE 89: cost in damage; a starter deals 0; wounds are not order cards."""
    t = chain_table(table, ["forlorn-hope"], janet={"discard": ["nf-bite", "chan-jiang", "genesis-one"]})
    chain(t, "forlorn-hope")
    assert sorted(t.options("janet")) == ["card:chan-jiang#1", "card:genesis-one#1"]
    t.choose("janet", "card:chan-jiang#1")
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 5 and "chan-jiang#1" in t.s["exiled"]
    t = chain_table(table, ["forlorn-hope"], janet={"discard": ["nf-bite"]})
    chain(t, "forlorn-hope")
    t.choose("janet", "none")  # a wound is no order card; still asked (EN 105)
    assert t.keys("janet", "discard") == ["nf-bite", "forlorn-hope"] and t.decision().kind == "nothing-to-claim"
    t = chain_table(table, ["forlorn-hope"], janet={"discard": ["genesis-one"]})
    chain(t, "forlorn-hope")
    t.choose("janet", "card:genesis-one#1")  # a starter costs 0: 0 damage, no player to choose
    assert "genesis-one#1" in t.s["exiled"] and t.decision().kind == "nothing-to-claim"
    assert [t.wounds(p) for p in ("janet", "scott", "brad")] == [0, 0, 0]


def test_forlorn_hope_kicker_deals_the_same_to_a_minion(table):
    """EN 301: the kicker refers to the order you exiled."""
    t = chain_table(table, ["queens-bishop", "forlorn-hope"], janet={"discard": ["roland-lefontaine"]},
                    brad={"in_play": ["maya-westermann"]})
    chain(t, "queens-bishop", "forlorn-hope")
    t.choose("janet", "card:roland-lefontaine#1")
    t.choose("janet", "player:scott")
    assert t.wounds("scott") == 3 and t.health("maya-westermann") == 1


def test_headshot_with_no_minion_in_play_still_wounds_and_exiles(table):
    """DE 90."""
    t = chain_table(table, ["headshot"])
    chain(t, "headshot")
    assert t.wounds("janet") == 1 and "headshot#1" in t.s["exiled"]


def test_headshot_destroys_an_opposing_minion_first(table):
    t = chain_table(table, ["headshot"], janet={"in_play": ["koi-jiang"]}, brad={"in_play": ["roland-lefontaine"]})
    chain(t, "headshot")
    assert t.in_play() == ["koi-jiang"]


def test_hysteria_excess_damage_is_lost_and_player_damage_is_blockable(table):
    """DE 91, EN 197."""
    t = chain_table(table, ["hysteria"], brad={"in_play": ["lone-hound"]})
    chain(t, "hysteria")
    assert t.minion("lone-hound") is None and t.wounds("brad") == 4


def test_hysteria_kicker_deals_2_damage_to_a_player(table):
    t = chain_table(table, ["headshot", "hysteria"])
    chain(t, "headshot", "hysteria")
    t.choose("janet", "player:scott")
    assert t.wounds("scott") == 2


def test_irresistible_call_gives_3_influence_and_feeds(table):
    """DE 60; P5: the feed repeats the Your-Chain text."""
    t = chain_table(table, ["irresistible-call", "genesis-one", "yuri-koroviev"])
    chain(t, "irresistible-call")
    t.play(("janet", "feed"), ("janet", "discard:genesis-one#1"), ("janet", "discard:yuri-koroviev#1"))
    assert t.s["turn"]["influence"] == 2 + 3 + 3


def test_irresistible_call_kicker_puts_it_on_top_of_an_archive(table):
    """DE 92: it must be claimed before the cards under it."""
    t = chain_table(table, ["legion-ten", "irresistible-call"], janet={"archives": ["koi-jiang"]})
    chain(t, "legion-ten", "irresistible-call")
    # the only archive is chosen at once
    assert t.s["archives"][0]["cards"][-1] == "irresistible-call#1"
    assert "claim:janet-1" in t.options("janet")  # 2 for the Call on top, not 5 for Koi Jiang


def test_relentless_grinder_discards_down_to_5(table):
    """DE 93: 5 or fewer: nothing; 7: discard 2, receive 2."""
    t = chain_table(table, ["relentless-grinder"], brad={"hand": ["genesis-one"] * 5})
    chain(t, "relentless-grinder")
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 0 and len(t.zone("brad", "hand")) == 5
    t = chain_table(table, ["relentless-grinder"], brad={"hand": ["genesis-one"] * 5 + ["hysteria", "koi-jiang"],
                                                         "in_play": ["bad-smoke"]})
    chain(t, "relentless-grinder")
    t.choose("janet", "player:brad")
    # Brad chooses the 2 cards he discards; then receives 2 wounds, which "Bad Smoke" does not block (EN 168)
    assert t.decision().player == "brad" and t.decision().kind == "discard"
    t.play(("brad", "discard:hysteria#1"), ("brad", "discard:koi-jiang#1"))
    assert len(t.zone("brad", "hand")) == 5 and t.wounds("brad") == 2 and t.health("bad-smoke") == 2
    assert t.keys("brad", "discard")[:2] == ["hysteria", "koi-jiang"]


def test_relentless_grinder_kicker_doubles_the_next_card(table):
    """DE 93: the current damage of the card resolving next is doubled."""
    t = chain_table(table, ["forlorn-hope", "relentless-grinder"], janet={"discard": ["roland-lefontaine"]})
    chain(t, "forlorn-hope", "relentless-grinder")
    t.choose("janet", "player:scott")  # Scott holds fewer than 5 cards: nothing happens
    t.choose("janet", "card:roland-lefontaine#1")
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 2 * 3


def test_shining_cross_returns_a_wound_if_only_wounds_were_exiled(table):
    """DE 94."""
    t = chain_table(table, ["shining-cross"], janet={"discard": ["nf-bite", "nf-burn"]})
    chain(t, "shining-cross")
    t.choose("janet", "card:" + t.zone("janet", "discard")[0])
    t.choose("janet", "card:" + t.zone("janet", "discard")[0])
    assert t.wounds("janet") == 1 and len([c for c in t.s["exiled"] if c.startswith("nf-")]) == 1


def test_silver_stake_must_hit_your_own_minion_if_needed(table):
    """DE 95."""
    t = chain_table(table, ["silver-stake"], janet={"in_play": ["maya-westermann"]})
    chain(t, "silver-stake")
    assert t.health("maya-westermann") == 1


def test_sweep_and_clear_feed_may_be_paid_with_the_card_just_drawn(table):
    """DE 96."""
    t = chain_table(table, ["sweep-and-clear", "genesis-one"], janet={"deck": ["koi-jiang", "hysteria"]})
    chain(t, "sweep-and-clear")
    t.play(("janet", "feed"), ("janet", "discard:koi-jiang#1"), ("janet", "discard:genesis-one#1"))
    assert t.keys("janet", "hand") == ["hysteria"]


def test_sweep_and_clear_kicker_each_player_chooses_his_own_minion(table):
    t = chain_table(table, ["queens-bishop", "sweep-and-clear"], janet={"deck": ["genesis-one"]},
                    brad={"in_play": ["roland-lefontaine", "maya-westermann"]})
    chain(t, "queens-bishop", "sweep-and-clear")
    assert t.decision().player == "brad"
    t.choose("brad", "minion:maya-westermann#1")
    assert t.health("maya-westermann") == 3


def test_tactical_prep_kicker_plays_the_drawn_cards_chain_text(table):
    """EN 310, DE 97: revealed, its chain text carried out, kept in hand."""
    t = chain_table(table, ["grotesque-revenant", "tactical-prep"], janet={"deck": ["enraged-wight", "koi-jiang"]})
    chain(t, "grotesque-revenant", "tactical-prep")
    t.choose("janet", "take:enraged-wight")
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 1 and t.keys("janet", "hand") == ["enraged-wight"]


# ------------------------------------------------------------------------ promos

def test_ahmad_hassan_each_copy_deals_1_when_a_friendly_minion_is_destroyed(table):
    """DE 71: two copies, two damage; Ahmad's own destruction counts too."""
    t = chain_table(table, ["headshot"], brad={"in_play": ["ahmad-hassan", "ahmad-hassan", "koi-jiang"]})
    chain(t, "headshot")
    t.choose("janet", "minion:koi-jiang#1")
    t.play(("brad", "player:janet"), ("brad", "player:scott"))
    assert t.wounds("janet") == 2 and t.wounds("scott") == 1  # Janet's 1 is Headshot's own


def test_ahmad_hassan_kicker_activates_your_following_kickers(table):
    """DE 71: your cards that resolve after him carry out their kickers."""
    t = chain_table(table, ["koi-jiang", "brynna-and-taylor", "ahmad-hassan"], brad={"in_play": ["roland-lefontaine"]})
    chain(t, "koi-jiang", "brynna-and-taylor", "ahmad-hassan")
    # "Brynna & Taylor" was linked to a white card: no kicker of its own, yet Ahmad's kicker gives it one
    assert t.options("janet") == ["minion:roland-lefontaine#1", "minion:ahmad-hassan#1"]
    t.choose("janet", "minion:roland-lefontaine#1")
    assert t.keys("brad", "hand") == ["roland-lefontaine"]


def test_ahmad_hassan_following_cards_are_your_cards_that_resolve_after_him(table):
    """Ruling 16, DE 71: "the kicker texts of all your following cards in the chain are activated ... only when the
    respective card in the chain comes up". Scott links "Brynna & Taylor", Ahmad Hassan (kicker: linked to a gold
    card), then Maya Westermann. Only "Brynna & Taylor" follows him: his, and still to come up when his kicker runs.
    Maya, played after him, resolved before him; Janet's "Mad Jake" is not Scott's."""
    t = chain_table(table, ["mad-jake"], scott={"hand": ["brynna-and-taylor", "ahmad-hassan", "maya-westermann"],
                                                "deck": ["genesis-one"]},
                    brad={"in_play": ["roland-lefontaine"]})
    t.play(("janet", "play:mad-jake"), ("janet", "pass"), ("scott", "link:brynna-and-taylor"),
           ("scott", "link:ahmad-hassan"), ("scott", "link:maya-westermann"), ("scott", "pass"), ("brad", "pass"))
    assert [e["kicker"] for e in t.s["chain"]["entries"]] == [False, False, True, False]
    # Maya resolved without a kicker (no card drawn); Ahmad's kicker reached "Brynna & Taylor" only
    assert t.zone("scott", "hand") == [] and [e["force_kicker"] for e in t.s["chain"]["entries"]] == [
        False, True, False, False]
    assert t.decision().player == "scott" and "minion:roland-lefontaine#1" in t.options("scott")
    t.choose("scott", "minion:roland-lefontaine#1")
    assert t.keys("brad", "hand") == ["roland-lefontaine"]
    # "Mad Jake" resolves last, without a kicker: no minion is damaged
    assert t.decision().kind == "nothing-to-claim" and all(m["damage"] == 0 for m in t.s["in_play"])


def test_blind_rage_is_destroyed_at_the_start_of_your_turn_if_alone(table):
    """DE 72."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["blind-rage"]}}},
              players=("janet", "brad"))
    assert t.in_play() == [] and t.keys("janet", "discard") == ["blind-rage"]
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["blind-rage", "genesis-one"]}}},
              players=("janet", "brad"))
    assert t.in_play() == ["blind-rage", "genesis-one"]


def test_desperate_measures_protects_only_your_minions_and_feeds_on_wounds(table):
    """DE 88."""
    t = chain_table(table, ["desperate-measures", "hysteria"], janet={"in_play": ["roland-lefontaine", "koi-jiang"]})
    chain(t, "desperate-measures")
    t.choose("janet", "minion:roland-lefontaine#1")
    t.choose("janet", "feed")
    assert t.wounds("janet") == 1
    assert t.s["turn"]["protected"] == ["roland-lefontaine#1", "koi-jiang#1"]  # the only one left
    t.choose("janet", "stop")
    t.s["turn"]["player"] = "janet"
    from pbem.games.nightfall import damage
    damage.damage_minion(t.s, t.minion("koi-jiang"), 2, {"player": "scott", "entry": None, "card": "x#1"})
    assert t.health("koi-jiang") == 2


def test_pale_fury_can_destroy_itself(table):
    """EN 307."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["pale-fury"]}}},
              players=("janet", "brad"))
    assert t.minion("pale-fury") is None and t.wounds("brad") == 0


def test_maya_westermann_and_grotesque_revenant_together_the_highest_counts(table):
    """P23: "triples ... from 1 to 3" and "from 1 to 2" do not add up: an action gives 3."""
    t = chain_table(table, ["irresistible-call", "grotesque-revenant", "hysteria"], janet={"in_play": ["maya-westermann"]})
    chain(t, "irresistible-call", "grotesque-revenant")  # one card in hand: no feed to offer
    t.choose("janet", "discard:hysteria#1")
    assert t.s["turn"]["influence"] == 2 + 3 + 3


@pytest.mark.parametrize("feeder,card", [
    ("roland-lefontaine", "maya-westermann"),
    ("maya-westermann", "headshot"),
    ("grotesque-revenant", "shining-cross"),
    ("ahmad-hassan", "desperate-measures"),
])
def test_draw_1_kickers(table, feeder, card):
    """Maya Westermann, Headshot, Shining Cross, Desperate Measures: "Kicker: Draw 1 card." (designed)."""
    t = chain_table(table, [feeder, card], janet={"deck": ["genesis-one"]})
    chain(t, feeder, card)
    if t.decision().kind == "feed":
        t.choose("janet", "stop")
    assert "genesis-one" in t.keys("janet", "hand")


@pytest.mark.parametrize("feeder,card", [("nian-jiang", "silver-stake"), ("chan-jiang", "pale-fury")])
def test_1_damage_to_a_player_kickers(table, feeder, card):
    """Silver Stake, "Pale Fury": "Kicker: Deal 1 damage to a player." (designed)."""
    t = chain_table(table, [feeder, card])
    chain(t, feeder, card)
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 1


def test_blind_rage_kicker_deals_1_damage_to_a_minion(table):
    t = chain_table(table, ["koi-jiang", "blind-rage"], brad={"in_play": ["roland-lefontaine"]})
    chain(t, "koi-jiang", "blind-rage")
    assert t.health("roland-lefontaine") == 2


def _hysteria_on_a_blocker(table):
    """Brad's "Bad Smoke" has strength 2 beside Koi Jiang (+1) and health 2: it blocks damage inflicted on Brad."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20,
               "players": {"janet": {"hand": ["hysteria"]}, "brad": {"in_play": ["bad-smoke", "koi-jiang"]}}},
              players=("janet", "brad"))
    t.play(("janet", "play:hysteria"), ("janet", "pass"), ("brad", "pass"), ("janet", "minion:bad-smoke"))
    return t


def test_hysteria_the_player_who_caused_it_orders_its_two_shares_of_damage(table):
    """EN 132: simultaneous events are ordered by the player whose card caused them. The order matters
    when the minion itself blocks damage inflicted on its controller (EN 167)."""
    t = _hysteria_on_a_blocker(table)
    decision = t.decision()
    assert decision.player == "janet" and decision.kind == "order"
    assert [o.id for o in decision.options] == ["first:minion", "first:controller"]
    t.choose("janet", "first:minion")
    # "Bad Smoke" is destroyed by its own 2 damage before it can block: Brad receives 2 wounds
    assert "bad-smoke" not in t.in_play() and t.wounds("brad") == 2


def test_hysteria_controller_first_lets_the_minion_block_and_its_own_share_is_lost(table):
    """DE 91: "If the minion is destroyed before it has suffered all of its damage, the remaining damage is lost"."""
    t = _hysteria_on_a_blocker(table)
    t.choose("janet", "first:controller")
    assert "bad-smoke" not in t.in_play() and t.wounds("brad") == 0


def test_hysteria_on_a_minion_that_cannot_block_asks_no_order(table):
    t = table({"phase": "chain", "active": "janet", "face_up": 20,
               "players": {"janet": {"hand": ["hysteria"]}, "brad": {"in_play": ["koi-jiang"]}}},
              players=("janet", "brad"))
    t.play(("janet", "play:hysteria"), ("janet", "pass"), ("brad", "pass"))
    # a single minion in play is chosen at once; no order is asked; Koi Jiang (2+1) hurts herself and Brad
    assert t.in_play() == [] and t.wounds("brad") == 3


def test_tactical_prep_with_an_empty_deck_shuffles_the_discard_pile_first(table):
    """EN 106: "If at any time you need to draw cards and there are not enough cards left in your deck,
    ... shuffle your discard pile to make a new deck"."""
    t = chain_table(table, ["tactical-prep"], janet={"discard": ["koi-jiang", "genesis-one"]})
    chain(t, "tactical-prep")
    assert t.options("janet") == ["take:genesis-one", "take:koi-jiang"]
    t.choose("janet", "take:koi-jiang")
    assert t.keys("janet", "hand") == ["koi-jiang"] and t.keys("janet", "deck") == ["genesis-one"]


def test_queens_bishop_kicker_the_player_who_played_it_orders_the_discards(table):
    """EN 132: "the player whose card triggered the event chooses the order": Brad discards first, then Janet."""
    t = chain_table(table, ["koi-jiang", "queens-bishop", "genesis-one"], scott={"hand": ["hysteria"]},
                    brad={"hand": ["yuri-koroviev"]})
    chain(t, "koi-jiang", "queens-bishop")
    decision = t.decision()
    assert decision.player == "janet" and decision.kind == "order"
    assert [o.id for o in decision.options] == ["player:janet", "player:scott", "player:brad"]
    t.play(("janet", "player:brad"), ("brad", "discard:yuri-koroviev"), ("janet", "player:scott"),
           ("scott", "discard:hysteria"), ("janet", "discard:genesis-one"))
    assert t.keys("brad", "discard") == ["yuri-koroviev"] and t.keys("scott", "discard") == ["hysteria"]


def test_attack_triggers_at_the_same_time_are_ordered_by_the_active_player(table):
    """EN 124: "When several in-play effects trigger at the same time, the active player controls the order"."""
    t = table({"phase": "combat", "active": "janet", "face_up": 20, "players": {
        "janet": {"in_play": ["queens-bishop", "roland-lefontaine"], "deck": ["genesis-one", "genesis-one"]},
        "brad": {"in_play": ["maya-westermann"]}}}, players=("janet", "brad"))
    decision = t.decision()
    assert decision.kind == "trigger-order" and decision.player == "janet"
    assert [o.id for o in decision.options] == ["trigger:queens-bishop#1", "trigger:roland-lefontaine#1"]
    t.choose("janet", "trigger:roland-lefontaine#1")
    assert len(t.zone("janet", "hand")) == 2  # Roland LeFontaine drew first
    t.choose("janet", "minion:maya-westermann#1")  # then "Queen's Bishop" deals 2 damage
    assert t.health("maya-westermann") == 2


def test_forlorn_hope_is_asked_even_with_no_order_card_in_the_discard_pile(table):
    """EN 105: only the owner may look through a discard pile, so skipping the choice would tell the table
    that it holds no order card; with wounds only, the one option is to exile nothing."""
    t = chain_table(table, ["forlorn-hope"], janet={"discard": ["nf-bite", "genesis-one", "nf-burn"]})
    chain(t, "forlorn-hope")
    assert [o.split("#")[0] for o in t.options("janet")] == ["card:genesis-one"]  # no "none" when there is a choice
    t2 = chain_table(table, ["forlorn-hope"], janet={"discard": ["nf-bite", "nf-burn"]})
    chain(t2, "forlorn-hope")
    assert t2.decision().kind == "target" and t2.options("janet") == ["none"]
    t2.choose("janet", "none")
    assert t2.wounds("brad") == 0 and t2.keys("janet", "discard")[:2] == ["nf-bite", "nf-burn"]


def test_bleak_resurrection_is_asked_even_with_no_minion_in_the_discard_pile(table):
    t = chain_table(table, ["bleak-resurrection"], janet={"discard": ["hysteria"], "deck": ["genesis-one"]})
    chain(t, "bleak-resurrection")
    assert t.options("janet") == ["none"]
    t.choose("janet", "none")
    assert t.in_play("janet") == []


def test_chan_jiang_two_copies_force_two_different_blockers(table):
    """EN 152: "A blocking minion can only block a single attacking minion"."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["chan-jiang", "chan-jiang"]}, "brad": {"in_play": ["roland-lefontaine", "maya-westermann"]}}},
        players=("janet", "brad"))
    t.choose("janet", "minion:maya-westermann#1")
    # the second Chan Jiang can only pick Roland LeFontaine: taken at once (public)
    blocks = t.s["turn"]["combat"]["blocks"]
    assert sorted(blocks) == ["maya-westermann#1", "roland-lefontaine#1"] and len(set(blocks.values())) == 2


def test_a_trigger_carries_out_its_effect_only_while_its_condition_holds(table):
    """Card data: a trigger's ``condition`` (``alone``: you control no other minion) holds for every kind of trigger,
    not only "at the start of your turn" (abilities.py)."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["lone-scout"], "deck": ["genesis-one", "hysteria"]}}}, players=("janet", "brad"))
    assert sorted(t.keys("janet", "hand")) == ["genesis-one", "hysteria"]
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["lone-scout", "genesis-one"], "deck": ["hysteria", "koi-jiang"]}}},
        players=("janet", "brad"))
    assert t.zone("janet", "hand") == []
