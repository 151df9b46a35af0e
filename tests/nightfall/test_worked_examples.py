"""Every worked example of both rulebooks, set up and played (card-facts §4).

Seating, from the examples: clockwise Janet -> Scott -> Brad (EN 182, EN 209).
"""

from __future__ import annotations

from pbem.games.nightfall import scoring


def test_w1_simultaneous_events_are_ordered_by_the_player_who_caused_them(table):
    """EN 132: "that player chooses the order in which the players take that damage"."""
    t = table({"phase": "chain", "active": "janet", "face_up": 30,
               "players": {"janet": {"hand": ["bombardment"]}}})
    t.play(("janet", "play:bombardment"), ("janet", "pass"), ("scott", "pass"), ("brad", "pass"))
    assert t.decision().player == "janet" and t.decision().kind == "order"
    t.choose("janet", "player:brad")
    assert [t.wounds(p) for p in ("janet", "scott", "brad")] == [0, 0, 1]
    assert t.options("janet") == ["player:janet", "player:scott"]
    t.choose("janet", "player:scott")
    assert [t.wounds(p) for p in ("janet", "scott", "brad")] == [1, 1, 1]


def w2_table(table):
    return table({
        "phase": "combat", "active": "scott", "face_up": 30,
        "players": {
            "scott": {"in_play": ["koi-jiang", "legion-ten", "lone-hound"]},
            "brad": {"in_play": ["queens-bishop", "roland-lefontaine", {"card": "grotesque-revenant", "damage": 1}]},
        },
    })


def test_w2_combat(table):
    """EN 149-165: Koi Jiang 3, "Legion Ten" 4, "Lone Hound" 5; Brad receives
    1 wound, Janet 5."""
    t = w2_table(table)
    assert (t.strength("koi-jiang"), t.strength("legion-ten"), t.strength("lone-hound")) == (3, 4, 5)
    # all attackers are assigned at once, before any combat (EN 150); "Big Ghost" is "Lone Hound" (P2)
    t.play(("scott", "target:brad"), ("scott", "target:brad"), ("scott", "target:janet"))
    t.choose("scott", "combat:brad")
    t.play(("brad", "block:legion-ten"), ("brad", "block:legion-ten"), ("brad", "block:koi-jiang"))
    t.choose("brad", "first:queens-bishop")  # Brad saves Roland: "Queen's Bishop" absorbs first
    t.choose("scott", "strike:legion-ten")
    assert t.minion("queens-bishop") is None and "queens-bishop" in t.keys("brad", "discard")
    assert t.health("roland-lefontaine") == 1
    assert t.wounds("brad") == 0
    t.choose("scott", "strike:koi-jiang")
    assert t.minion("grotesque-revenant") is None and "grotesque-revenant" in t.keys("brad", "discard")
    assert t.wounds("brad") == 1
    t.choose("scott", "combat:janet") if "combat:janet" in t.options("scott") else None
    t.choose("scott", "strike:lone-hound")
    assert t.wounds("janet") == 5
    # Scott discards his minions after combat (EN 170)
    assert t.in_play("scott") == []
    assert sorted(t.keys("scott", "discard")) == ["koi-jiang", "legion-ten", "lone-hound"]
    assert t.s["face_up"] == 24
    assert t.decision().kind == "chain-start"


def test_w3_starting_a_chain_and_linking(table):
    """EN 176-180: "Lone Hound" (gold) takes only white and green cards."""
    t = table({"phase": "chain", "active": "janet",
               "players": {"janet": {"hand": ["lone-hound", "jerome-carceri", "nian-jiang", "tactical-prep"]}}})
    assert {o.split("#")[0] for o in t.options()} == {"play:lone-hound", "play:jerome-carceri", "play:nian-jiang",
                                                          "play:tactical-prep", "pass"}
    t.choose("janet", "play:lone-hound")
    assert [o.split("#")[0] for o in t.options()] == ["link:jerome-carceri", "pass"]
    t.choose("janet", "link:jerome-carceri")
    entries = t.s["chain"]["entries"]
    assert [e["card"].split("#")[0] for e in entries] == ["lone-hound", "jerome-carceri"]
    assert entries[1]["kicker"] and not entries[0]["kicker"]
    # no jumping back over the last card (EN 180): Nian Jiang (red) links to Jerome's red link, not to Lone Hound
    assert [o.split("#")[0] for o in t.options()] == ["link:nian-jiang", "pass"]


def w4_table(table):
    t = table({"phase": "chain", "active": "scott",
               "players": {"scott": {"hand": ["sweep-and-clear"], "deck": ["genesis-one"]},
                           "brad": {"hand": ["maya-westermann"]},
                           "janet": {"hand": ["lone-hound", "chan-jiang"]}}})
    t.play(("scott", "play:sweep-and-clear"), ("scott", "pass"))
    t.play(("brad", "link:maya-westermann"), ("brad", "pass"))
    t.play(("janet", "link:lone-hound"), ("janet", "link:chan-jiang"), ("janet", "pass"))
    return t


def test_w4_opponents_extend_the_chain(table):
    """EN 181-183: Brad, then Janet; each has one opportunity."""
    t = table({"phase": "chain", "active": "scott",
               "players": {"scott": {"hand": ["sweep-and-clear"], "deck": ["genesis-one"]},
                           "brad": {"hand": ["maya-westermann"]},
                           "janet": {"hand": ["lone-hound", "chan-jiang"]}}})
    t.play(("scott", "play:sweep-and-clear"))
    assert t.options("scott") == ["pass"]  # his only card
    t.choose("scott", "pass")
    assert t.decision().player == "brad"  # to Scott's left
    t.play(("brad", "link:maya-westermann"), ("brad", "pass"))
    assert t.decision().player == "janet"
    t.play(("janet", "link:lone-hound"), ("janet", "link:chan-jiang"))
    chain = [e["card"].split("#")[0] for e in t.s["chain"]["entries"]]
    assert chain == ["sweep-and-clear", "maya-westermann", "lone-hound", "chan-jiang"]
    t.choose("janet", "pass")
    # no second opportunity for anyone: the chain resolves
    assert t.s["chain"] is None


def test_w5_resolution_order(table):
    """EN 194: Chan Jiang, "Lone Hound", Maya Westermann, Sweep and Clear."""
    t = w4_table(table)
    resolved = [e.split(" (")[0] for e in t.s["events"] if e.endswith("resolves")]
    assert resolved == ["Chan Jiang", '"Lone Hound"', "Maya Westermann", "Sweep and Clear"]
    assert t.in_play("janet") == ["chan-jiang", "lone-hound"]
    assert t.in_play("brad") == ["maya-westermann"]
    assert t.keys("scott", "discard") == ["sweep-and-clear"]
    assert t.keys("scott", "hand") == ["genesis-one"]  # Sweep and Clear: draw 1


def test_w6_obey_as_much_of_the_text_as_you_can(table):
    """EN 195: a player with an empty hand discards nothing; the card still resolves."""
    t = table({"phase": "chain", "active": "janet",
               "players": {"janet": {"hand": ["koi-jiang", "queens-bishop", "genesis-one"]},
                           "scott": {"hand": []}, "brad": {"hand": ["yuri-koroviev"]}}})
    t.play(("janet", "play:koi-jiang"), ("janet", "link:queens-bishop"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"))
    # EN 132: Janet orders the players; Scott, with no card, is not among them
    assert t.options("janet") == ["player:janet", "player:brad"]
    t.play(("janet", "player:janet"), ("janet", "discard:genesis-one"))
    assert t.decision().player == "brad"  # the last player left needs no ordering
    t.choose("brad", "discard:yuri-koroviev")
    assert t.in_play("janet") == ["queens-bishop", "koi-jiang"]
    assert t.keys("brad", "discard") == ["yuri-koroviev"] and t.keys("janet", "discard") == ["genesis-one"]


def test_w7_kicker(table):
    """EN 200: Jerome Carceri's kicker heals Maya Westermann from 3 to 4, her full health."""
    t = table({"phase": "chain", "active": "janet",
               "players": {"janet": {"hand": ["lone-hound", "jerome-carceri", "genesis-one"]},
                           "brad": {"in_play": [{"card": "maya-westermann", "damage": 1}]}}})
    assert t.health("maya-westermann") == 3
    t.play(("janet", "play:lone-hound"), ("janet", "link:jerome-carceri"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"))
    # the only minion in play is Maya (Lone Hound is still in the chain, EN 192): healed at once
    assert t.health("maya-westermann") == 4
    assert t.decision().kind == "feed"
    t.choose("janet", "stop")
    assert t.in_play("janet") == ["jerome-carceri", "lone-hound"]


def jerome_feed_table(table, players=("janet", "scott", "brad")):
    owner = players[0]
    return table({"phase": "chain", "active": owner,
                  "players": {owner: {"hand": ["lone-hound", "jerome-carceri", "genesis-one", "yuri-koroviev"]},
                              players[-1]: {"in_play": [{"card": "maya-westermann", "damage": 3}]}}}, players=players)


def test_w8_feed(table):
    """EN 203: the kicker resolves once free, then once more per card discarded."""
    t = jerome_feed_table(table)
    t.play(("janet", "play:lone-hound"), ("janet", "link:jerome-carceri"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"))
    assert t.health("maya-westermann") == 3
    t.choose("janet", "feed")
    t.choose("janet", "discard:genesis-one")
    assert t.health("maya-westermann") == 4  # capped at her printed health
    assert t.keys("janet", "discard") == ["genesis-one"]
    t.choose("janet", "stop")
    assert t.in_play("janet") == ["jerome-carceri", "lone-hound"]


def test_w8_no_kicker_no_feed(table):
    """EN 203: "If she does not get the kicker, she cannot feed the kicker, either."""
    t = table({"phase": "chain", "active": "janet",
               "players": {"janet": {"hand": ["jerome-carceri", "genesis-one", "yuri-koroviev"]},
                           "brad": {"in_play": [{"card": "maya-westermann", "damage": 3}]}}})
    t.play(("janet", "play:jerome-carceri"), ("janet", "pass"), ("scott", "pass"), ("brad", "pass"))
    assert t.health("maya-westermann") == 1
    assert t.in_play("janet") == ["jerome-carceri"]
    assert t.decision().kind == "nothing-to-claim"


def test_w9_the_example_chain(table):
    """EN 204-216: Janet, Scott and Brad build and resolve a chain."""
    t = table({"phase": "chain", "active": "janet",
               "players": {"janet": {"hand": ["jerome-carceri", "nian-jiang"]},
                           "scott": {"hand": ["tactical-prep"], "deck": ["yuri-koroviev", "koi-jiang"]},
                           "brad": {"hand": ["hysteria"], "in_play": ["charlotte-reyes", "bad-smoke"]}}})
    t.play(("janet", "play:jerome-carceri"), ("janet", "link:nian-jiang"), ("janet", "pass"))
    t.play(("scott", "link:tactical-prep"), ("scott", "pass"))
    t.play(("brad", "link:hysteria"), ("brad", "pass"))
    # Hysteria: Jerome Carceri is still in the chain, so only Brad's own minions can be chosen
    assert t.decision().player == "brad" and t.options("brad") == ["minion:charlotte-reyes#1", "minion:bad-smoke#1"]
    t.choose("brad", "minion:charlotte-reyes#1")
    assert t.health("charlotte-reyes") == 1
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 0  # "Bad Smoke" blocks the damage to Brad
    assert t.keys("brad", "discard") == ["hysteria"]
    # Tactical Prep: Scott inspects his deck and draws a card
    assert t.decision().player == "scott"
    t.choose("scott", "take:koi-jiang")
    assert t.keys("scott", "hand") == ["koi-jiang"] and t.keys("scott", "discard") == ["tactical-prep"]
    # Nian Jiang's kicker (linked to the white Jerome Carceri): Janet takes "Bad Smoke"
    t.choose("janet", "minion:bad-smoke#1")
    assert t.minion("bad-smoke")["controller"] == "janet" and t.minion("bad-smoke")["owner"] == "brad"
    assert t.in_play("janet") == ["bad-smoke", "nian-jiang", "jerome-carceri"]
    assert t.s["chain"] is None


def test_w10_claim(table):
    """EN 225: 2 influence + 1 discard = 3 claims Roland LeFontaine."""
    t = table({"phase": "claim", "active": "brad",
               "players": {"brad": {"hand": ["genesis-one"], "archives": ["roland-lefontaine", "koi-jiang"]}}})
    assert "claim:brad-1" not in t.options()  # 2 influence is not enough
    t.choose("brad", "discard:genesis-one")
    assert t.s["turn"]["influence"] == 3
    t.choose("brad", "claim:brad-1")
    assert t.keys("brad", "discard") == ["genesis-one", "roland-lefontaine"]  # not exiled: never in play
    assert t.s["turn"]["influence"] == 0
    assert len(next(a for a in t.s["archives"] if a["id"] == "brad-1")["cards"]) == 6
    assert t.options() == ["done"]


def test_w11_cleanup(table):
    """EN 234: two wounds discarded, four cards drawn; the new wound cannot be used."""
    t = table({"phase": "cleanup", "active": "brad",
               "players": {"brad": {"hand": ["genesis-one", "yuri-koroviev", "koi-jiang"],
                                    "deck": ["nf-bite", "nf-burn", "chan-jiang", "nf-bleed", "hysteria", "headshot"]}}})
    assert t.keys("brad", "hand")[3:] == ["nf-bite", "nf-burn"]
    t.choose("brad", "wound:" + t.zone("brad", "hand")[3])
    t.choose("brad", "wound:" + t.zone("brad", "hand")[3])
    t.choose("brad", "done")
    assert sorted(t.keys("brad", "hand")) == sorted(["genesis-one", "yuri-koroviev", "koi-jiang", "chan-jiang",
                                                     "nf-bleed", "hysteria", "headshot"])
    assert t.keys("brad", "discard") == ["nf-bite", "nf-burn"]
    assert t.s["turn"]["player"] == "janet"  # no second wound effect: the turn is over


def test_w12_end_of_the_game_after_the_chain(table):
    """EN 238: the last 2 face-up wounds and a face-down one; the chain finishes, then the game ends."""
    t = table({"phase": "chain", "active": "scott", "face_up": 2,
               "players": {"scott": {"hand": ["genesis-one"]}, "brad": {"hand": ["death-grip"]}}})
    t.play(("scott", "play:genesis-one"), ("scott", "pass"), ("brad", "link:death-grip"), ("brad", "pass"),
           ("janet", "pass"))
    stack = len(t.s["wound_stack"])
    t.choose("brad", "player:janet")
    assert t.wounds("janet") == 3 and len(t.s["wound_stack"]) == stack - 3 and t.s["face_up"] == 0
    assert t.in_play("scott") == ["genesis-one"]  # Scott's chain still resolved
    assert t.awaited() == [] and t.s["over"]
    assert GAME_result(t).winners in (("scott",), ("brad",))


def GAME_result(t):
    from pbem.games.nightfall import GAME
    return GAME.result(t.s)


def test_w13_tie_break(table):
    """EN 242: 7 wounds each; Janet's 4 burns lose to Brad's 3."""
    t = table({"phase": "claim", "active": "janet", "players": {
        "brad": {"discard": ["nf-bite"] * 3 + ["nf-burn"] * 3 + ["nf-bleed"]},
        "janet": {"discard": ["nf-bite"] + ["nf-burn"] * 4 + ["nf-bleed"] * 2},
        "scott": {"discard": ["nf-bite"] * 8}}})
    assert scoring.standings(t.s)[0] == "brad"


def test_w13_second_highest_count_then_seat(table):
    """EN 240-241: then the second highest count; then closest to the right of the first player."""
    t = table({"first": "janet", "phase": "claim", "active": "janet", "players": {
        "brad": {"discard": ["nf-bite"] * 3 + ["nf-burn"] * 3 + ["nf-bleed"]},
        "janet": {"discard": ["nf-bite"] * 3 + ["nf-burn"] * 2 + ["nf-bleed"] * 2},
        "scott": {"discard": ["nf-bite"] * 8}}})
    assert scoring.standings(t.s)[0] == "janet"  # 3-2-2 beats 3-3-1 on the second count
    t = table({"first": "janet", "phase": "claim", "active": "janet", "players": {
        p: {"discard": ["nf-bite", "nf-burn"]} for p in ("janet", "scott", "brad")}})
    assert scoring.standings(t.s) == ["brad", "scott", "janet"]  # Brad sits to Janet's right


def test_w14_martial_law_wound(table):
    """DE 36: a Martial Law wound gives Koi Jiang +1: "total strength is now 4"."""
    t = table({"phase": "combat", "active": "michael",
               "players": {"michael": {"in_play": ["mad-jake", "koi-jiang"], "hand": ["ml-burn", "nf-bite"]}}},
              players=("michael", "andreas"))
    # "Mad Jake" attacks: Andreas receives 1 wound (DE 77); one opponent, so no assignment to ask
    assert t.wounds("andreas") == 1
    assert t.decision().kind == "wound-window"
    t.choose("michael", "continue")  # DE 33: "including after the defending player has chosen his minions to block"
    assert t.decision().kind == "strike"
    t.choose("michael", "wound:" + t.zone("michael", "hand")[0])
    t.choose("michael", "minion:koi-jiang#1")
    assert t.strength("koi-jiang") == 4 and t.strength("mad-jake") == 4
    t.choose("michael", "stop")  # Michael does not feed
    assert t.keys("michael", "discard") == ["ml-burn"]
    t.play(("michael", "strike:koi-jiang#1"), ("michael", "strike:mad-jake#1"))
    assert t.wounds("andreas") == 1 + 4 + 4
    t.choose("michael", "pass")  # no chain
    t.choose("michael", "done")  # claim
    # cleanup: the Nightfall wound in hand cannot be used; one wound effect a turn (DE 35)
    assert t.options("michael") == ["pass"]
    t.choose("michael", "pass")
    assert t.s["turn"]["bonus"] == {}  # the +1 ended with the turn


def test_w15_jerome_carceri_feed_german_edition(table):
    """DE 40: Michael's kicker once free, then again for 1 discarded card."""
    t = jerome_feed_table(table, players=("michael", "andreas"))
    t.play(("michael", "play:lone-hound"), ("michael", "link:jerome-carceri"), ("michael", "pass"),
           ("andreas", "pass"))
    assert t.health("maya-westermann") == 3
    t.play(("michael", "feed"), ("michael", "discard:yuri-koroviev"))
    assert t.health("maya-westermann") == 4


def test_shipped_example_scenarios_replay_the_book():
    """The pinned example scenarios load from their TOML files and play out as printed (every
    decision the book's players make is scripted, so the machine takes none of them)."""
    from pbem.engine.protocol import apply_choice
    from pbem.engine.rng import Rng
    from pbem.games.nightfall.game import Nightfall

    GAME = Nightfall(take_public_singles=False)

    state = GAME.new_state(GAME.load_scenario("example-combat"), ["janet", "scott", "brad"], Rng.from_seed(0))
    moves = [("scott", "target:brad"), ("scott", "target:brad"), ("scott", "target:janet"), ("scott", "combat:brad"),
             ("scott", "continue"), ("brad", "block:legion-ten#1"), ("brad", "block:legion-ten#1"), ("brad", "block:koi-jiang#1"),
             ("brad", "first:queens-bishop#1"), ("scott", "strike:legion-ten#1"), ("scott", "strike:koi-jiang#1"),
             ("scott", "continue"), ("scott", "strike:lone-hound#1")]
    for step, (player, option) in enumerate(moves):
        GAME.begin_step(state)
        apply_choice(GAME, state, player, option, Rng.from_seed(step))
    seats = GAME.public(state)["seats"]
    assert (seats["brad"]["wounds"], seats["janet"]["wounds"]) == (1, 5)

    state = GAME.new_state(GAME.load_scenario("example-chain"), ["janet", "scott", "brad"], Rng.from_seed(0))
    moves = [("janet", "play:jerome-carceri#1"), ("janet", "link:nian-jiang#1"), ("janet", "pass"),
             ("scott", "link:tactical-prep#1"), ("scott", "pass"), ("brad", "link:hysteria#1"), ("brad", "pass"),
             ("brad", "minion:charlotte-reyes#1"), ("scott", "take:koi-jiang"), ("janet", "minion:bad-smoke#1")]
    for step, (player, option) in enumerate(moves):
        GAME.begin_step(state)
        apply_choice(GAME, state, player, option, Rng.from_seed(step))
    cards = GAME.cards(GAME.load_scenario("example-chain"))
    assert [(cards[m["card"].split("#")[0]]["name"], m["controller"]) for m in GAME.public(state)["in_play"]] == [
        ("Charlotte Reyes", "brad"), ('"Bad Smoke"', "janet"), ("Nian Jiang", "janet"), ("Jerome Carceri", "janet")]
