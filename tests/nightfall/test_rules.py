"""One test per rule of the book that the card and example tests do not already pin."""

from __future__ import annotations

import itertools
import json

from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME
from pbem.games.nightfall.state import draw


def test_reshuffle_the_discard_pile_only_when_a_draw_needs_it(table):
    """EN 106: an empty deck stays empty until a card must be drawn."""
    t = table({"phase": "claim", "active": "janet",
               "players": {"janet": {"hand": ["genesis-one"], "deck": ["koi-jiang"], "discard": ["hysteria", "headshot"]}}})
    draw(t.s, "janet", 1, Rng.from_seed(1))
    assert t.zone("janet", "deck") == [] and len(t.zone("janet", "discard")) == 2
    draw(t.s, "janet", 1, Rng.from_seed(1))
    assert t.zone("janet", "discard") == [] and len(t.zone("janet", "deck")) == 1


def test_every_opponent_gets_a_link_opportunity_even_without_a_linkable_card(table):
    """EN 181; the issue: never skip an opponent's opportunity, so nothing is revealed."""
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["genesis-one"]}}})
    t.play(("janet", "play:genesis-one"), ("janet", "pass"))
    d = t.decision()
    assert (d.player, d.kind, d.pass_id, [o.id for o in d.options]) == ("scott", "link", "pass", ["pass"])


def test_auto_pass_when_unable_to_link_is_a_players_choice(table):
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["genesis-one"]},
                                                                  "brad": {"hand": ["genesis-one"]}}},
              options={"auto_pass_when_unable": ["scott", "brad"]})
    t.play(("janet", "play:genesis-one"), ("janet", "pass"))
    assert t.decision().player == "brad"  # Scott could not link and chose to auto-pass; Brad can link


def test_each_player_has_only_one_opportunity_to_link(table):
    """EN 183."""
    t = table({"phase": "chain", "active": "janet", "players": {
        "janet": {"hand": ["genesis-one", "genesis-one"]}, "scott": {"hand": ["genesis-one"]}}})
    t.play(("janet", "play:genesis-one"), ("janet", "pass"), ("scott", "link:genesis-one"), ("scott", "pass"),
           ("brad", "pass"))
    assert t.s["chain"] is None and t.decision().kind == "nothing-to-claim"


def test_no_chain_when_the_active_player_plays_nothing(table):
    """EN 184."""
    t = table({"phase": "chain", "active": "janet", "players": {"scott": {"hand": ["genesis-one"]}}})
    assert t.options() == ["pass"]
    t.choose("janet", "pass")
    assert t.decision().kind == "nothing-to-claim"


def test_damage_to_a_minion_never_spills_to_its_player(table):
    """EN 197."""
    t = table({"phase": "chain", "active": "janet", "players": {
        "janet": {"hand": ["silver-stake"]}, "brad": {"in_play": ["genesis-one"]}}})
    t.play(("janet", "play:silver-stake"), ("janet", "pass"), ("scott", "pass"), ("brad", "pass"))
    assert t.in_play() == [] and t.wounds("brad") == 0


def test_every_minion_must_attack(table):
    """EN 149: no option to hold a minion back."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["genesis-one"]}}})
    assert t.options() == ["target:scott", "target:brad"]


def test_blockers_of_direct_damage_take_what_gets_past_blockers(table):
    """EN 167: damage that gets past blocking minions after an attack."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"]}, "brad": {"in_play": ["bad-smoke"]}}}, players=("janet", "brad"))
    t.play(("brad", "no-block"), ("janet", "strike:genesis-one#1"))
    assert t.wounds("brad") == 0 and t.health("bad-smoke") == 1


def test_claim_only_from_the_commons_and_your_own_private_archives(table):
    """EN 220, EN 226: copies allowed; opposing private archives never."""
    t = table({"phase": "claim", "active": "janet", "commons": ["hysteria"],
               "players": {"janet": {"hand": ["genesis-one", "genesis-one"]}, "brad": {"archives": ["shining-cross"]}}})
    assert "claim:brad-1" not in t.options()
    t.play(("janet", "claim:commons-1"), ("janet", "discard:genesis-one#1"), ("janet", "discard:genesis-one#2"),
           ("janet", "claim:commons-1"))
    assert t.keys("janet", "discard") == ["hysteria", "genesis-one", "genesis-one", "hysteria"]


def test_unused_influence_is_lost(table):
    """EN 228."""
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"hand": ["genesis-one"] * 5}}})
    t.play(("janet", "done"), ("janet", "pass"))
    assert t.s["turn"]["player"] == "scott" and t.s["turn"]["influence"] == 2


def test_the_game_ends_after_the_combat_in_which_the_last_face_up_wound_is_taken(table):
    """EN 237: no chain phase follows."""
    t = table({"phase": "combat", "active": "janet", "face_up": 1,
               "players": {"janet": {"in_play": ["lone-hound"], "hand": ["genesis-one"]}}}, players=("janet", "brad"))
    t.play(("janet", "pass"), ("janet", "strike:lone-hound#1"))
    assert t.s["over"] and t.wounds("brad") == 4 and t.awaited() == []
    result = GAME.result(t.s)
    assert result is not None and result.winners == ("janet",)


def test_face_up_wounds_are_not_counted_unless_the_table_agrees(table):
    """DE 30: "you may not count"; ``count_face_up`` shows the number."""
    t = table({"phase": "claim", "active": "janet", "face_up": 7})
    assert GAME.public(t.s)["face_up_wounds"] == "some"
    t = table({"phase": "claim", "active": "janet", "face_up": 7}, options={"count_face_up": True})
    assert GAME.public(t.s)["face_up_wounds"] == 7


def test_martial_law_wound_after_blocks_with_a_feed_of_any_wound(table):
    """DE 33-34: after blockers; feed with any wound; a different own minion each time."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one", "jj-mcteague"], "hand": ["ml-bite", "nf-burn"]},
        "brad": {"in_play": ["roland-lefontaine"]}}}, players=("janet", "brad"))
    t.choose("brad", "block:genesis-one#1")
    wound = [o for o in t.options() if o.startswith("wound:")]
    assert len(wound) == 1 and wound[0].startswith("wound:ml-bite")
    t.choose("janet", wound[0])
    assert t.options() == ["minion:genesis-one#1", "minion:jj-mcteague#1"]  # own minions only (P11)
    t.choose("janet", "minion:genesis-one#1")
    feed = [o for o in t.options() if o.startswith("feed:")]
    t.choose("janet", feed[0])  # a Nightfall wound pays the feed
    t.choose("janet", "minion:jj-mcteague#1")
    t.choose("janet", "stop")
    assert (t.strength("genesis-one"), t.strength("jj-mcteague")) == (2, 3)
    assert [o for o in t.options() if o.startswith("wound:")] == []  # once per turn


def test_decisions_that_would_reveal_a_hand_are_always_asked(table):
    """The issue: forced choices are automatic only where that reveals nothing."""
    t = table({"phase": "combat", "active": "janet", "players": {"janet": {"in_play": ["genesis-one"]}}},
              players=("janet", "brad"))
    assert t.decision().kind == "wound-window" and t.options() == ["continue"]
    t.choose("janet", "continue")
    assert t.decision().kind == "strike" and t.options() == ["strike:genesis-one#1"]
    t.choose("janet", "strike:genesis-one#1")
    t.choose("janet", "pass")
    t.choose("janet", "done")
    assert t.decision().kind == "wound-effect" and t.options() == ["pass"]


def test_influence_is_2_plus_effects_plus_1_per_discard(table):
    """EN 229."""
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["yuri-koroviev", "genesis-one"]}}})
    t.play(("janet", "play:yuri-koroviev"), ("janet", "pass"), ("scott", "pass"), ("brad", "pass"),
           ("janet", "discard:genesis-one#1"))
    assert t.s["turn"]["influence"] == 2 + 1 + 1


def test_the_same_seed_plays_the_same_game():
    from pbem.bots.playout import play
    a = play(GAME, ["ann", "bob", "cyd"], 7)
    b = play(GAME, ["ann", "bob", "cyd"], 7)
    assert a.choices == b.choices and a.state == b.state


def test_a_view_renders_as_text(table):
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["koi-jiang"]}}})
    text = t.screen("janet")
    assert "Your hand (1):\n  Koi Jiang: white minion, " in text
    assert "Koi Jiang" not in t.screen("brad")


def test_the_screen_shows_what_a_player_decides_by_but_not_the_options(table):
    """The CLI lists the numbered options after ``render``; the screen gives each card in hand its
    type, colour, links, kicker colour, cost, strength/health and text (wrapped under it), a
    minion in play its strength and health, an archive one line."""
    t = table({"phase": "chain", "active": "janet", "commons": ["hysteria"],
               "players": {"janet": {"hand": ["koi-jiang"], "in_play": ["bad-smoke"]}}})
    text = t.screen("janet")
    koi = GAME.cards(t.scenario)["koi-jiang"]
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  Koi Jiang: "))
    following = list(itertools.takewhile(lambda line: line.startswith("    "), lines[first + 1:]))
    card = " ".join(" ".join([lines[first], *following]).split())
    for fact in (koi["type"], koi["colour"], "links " + "/".join(koi["links"]), f"cost {koi['cost']}",
                 f"strength {koi['strength']}, health {koi['health']}", koi["text"]):
        assert fact in card, fact
    assert "  commons-1  Hysteria  purple action, cost 2  7 left" in text  # an archive, one line
    assert '  janet: "Bad Smoke", purple minion, strength 1, health 2 of 2' in text  # in play
    assert "koi-jiang" not in text and "start no chain" not in text


def test_minions_alike_are_told_apart_in_labels(table):
    t = table({"phase": "combat", "active": "janet",
               "players": {"janet": {"in_play": ["genesis-one", "genesis-one"]}, "scott": {"in_play": ["bad-smoke"]}}},
              players=("janet", "scott"))
    labels = [o.label for d in GAME.awaiting(t.s) for o in d.options]
    while not any(d.kind == "block" for d in GAME.awaiting(t.s)):
        d = t.decision()
        t.choose(d.player, d.options[0].id)
    labels = [o.label for o in t.decision("scott").options]
    assert len(set(labels)) == len(labels) and any("#1" in label for label in labels)


def test_the_defending_player_chooses_which_blocker_of_direct_damage_blocks_next(table):
    """EN 167: the minion "must block it just like it was blocking an attacking minion"; EN 155: the
    defender orders his blockers. With two "Bad Smoke" in play, Brad picks which absorbs Death Grip's 3 first."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20,
               "players": {"janet": {"hand": ["death-grip"]}, "brad": {"in_play": ["bad-smoke", "bad-smoke"]}}},
              players=("janet", "brad"))
    t.play(("janet", "play:death-grip"), ("janet", "pass"), ("brad", "pass"))
    assert t.awaited() == [("janet", "target")]
    t.choose("janet", "player:brad")
    blockers = t.decision("brad")
    assert blockers.kind == "block-order" and [o.id for o in blockers.options] == [
        "blocker:bad-smoke#1", "blocker:bad-smoke#2"]
    t.choose("brad", "blocker:bad-smoke#2")
    # the second absorbs 2 and is destroyed (exiled); the last 1 goes to the only blocker left, at once
    assert [m["card"] for m in t.s["in_play"]] == ["bad-smoke#1"] and "bad-smoke#2" in t.s["exiled"]
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 0


def test_a_single_blocker_of_direct_damage_blocks_without_a_decision(table):
    t = table({"phase": "chain", "active": "janet", "face_up": 20,
               "players": {"janet": {"hand": ["death-grip"]}, "brad": {"in_play": ["bad-smoke"]}}},
              players=("janet", "brad"))
    t.play(("janet", "play:death-grip"), ("janet", "pass"), ("brad", "pass"), ("janet", "player:brad"))
    assert t.in_play() == [] and t.wounds("brad") == 1


def test_martial_law_wound_can_be_used_before_blocks_are_declared(table):
    """DE 33: "at any time during your combat phase, including after the defending player has chosen his
    minions to block" — so before the blocks too; the defender sees the boosted strength when he blocks."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"], "hand": ["ml-burn"]}, "brad": {"in_play": ["bad-smoke"]}}},
        players=("janet", "brad"))
    wound = t.zone("janet", "hand")[0]
    assert t.decision().kind == "wound-window" and t.options() == [f"wound:{wound}", "continue"]
    t.play(("janet", f"wound:{wound}"), ("janet", "stop"))  # her one minion takes the +1 without a question
    assert t.decision("brad").kind == "block"
    assert t.options("brad") == ["block:genesis-one#1", "no-block"]
    assert "(strength 2)" in t.decision("brad").options[0].label
    t.choose("brad", "no-block")
    assert t.options("janet") == ["strike:genesis-one#1"]  # one wound effect a turn (DE 35)


def test_the_martial_law_boost_of_a_single_minion_is_taken_without_asking(table):
    """DE 33-34: the Martial Law wound gives +1 strength to one of your minions; the minions in play are public,
    so with one minion there is nothing to choose, and nothing hidden in not asking (docs/rulings.md)."""
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one"], "hand": ["ml-burn", "ml-burn"]}, "brad": {"in_play": ["bad-smoke"]}}},
        players=("janet", "brad"))
    wound = t.zone("janet", "hand")[0]
    t.choose("janet", f"wound:{wound}")
    assert t.decision().kind == "feed"  # the boost went to genesis-one at once
    assert t.s["turn"]["bonus"] == {"genesis-one#1": 1}
    assert any(line.endswith("gets +1 strength") for line in GAME.public(t.s)["events"])
    t = table({"phase": "combat", "active": "janet", "players": {
        "janet": {"in_play": ["genesis-one", "bad-smoke"], "hand": ["ml-burn"]}, "brad": {}}},
        players=("janet", "brad"))
    t.choose("janet", f"wound:{t.zone('janet', 'hand')[0]}")
    assert t.decision().kind == "target"  # two minions: the player chooses


def test_a_damage_prompt_names_the_doubled_damage(table):
    """DE 93: Relentless Grinder's kicker doubles the damage of the next card; the prompt of that card's damage
    says what will be dealt, doubled (the chain shows the doubling; the question must agree with it)."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["forlorn-hope", "relentless-grinder"], "discard": ["chan-jiang"]}}})
    t.play(("janet", "play:forlorn-hope"), ("janet", "link:relentless-grinder"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"), ("janet", "player:scott"), ("janet", "card:chan-jiang#1"))
    assert t.decision().kind == "target" and "deal 10 damage to which player?" in t.decision().prompt
    t.choose("janet", "player:brad")
    assert t.wounds("brad") == 10


def test_an_opponent_who_cannot_link_is_offered_only_the_pass(table):
    """Ruling 45: an opponent who holds cards but none that links is asked all the same, with the pass
    alone, so that whether he could link stays hidden; an order (`pbem move --order link=pass`) answers
    every such chance for him, whether he could link or not."""
    t = table({"phase": "chain", "active": "janet", "players": {"janet": {"hand": ["genesis-one"]},
                                                              "scott": {"hand": ["enraged-wight"]}}})
    t.play(("janet", "play:genesis-one"), ("janet", "pass"))
    decision = t.decision()
    assert decision.player == "scott" and decision.pass_id == "pass"
    assert [(o.id, o.label) for o in decision.options] == [("pass", "pass (link nothing)")]


def test_each_blocker_of_direct_damage_blocks_once_even_when_protected(table):
    """EN 167 "just like it was blocking an attacking minion": a minion blocks once. A protected one (Desperate
    Measures, DE 88) absorbs without losing health, and does not block again."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20,
               "players": {"janet": {"hand": ["death-grip"]}, "brad": {"in_play": ["bad-smoke", "bad-smoke"]}}},
              players=("janet", "brad"))
    t.s["turn"]["protected"].append("bad-smoke#1")
    t.play(("janet", "play:death-grip"), ("janet", "pass"), ("brad", "pass"), ("janet", "player:brad"),
           ("brad", "blocker:bad-smoke#1"))
    healths = {m["card"]: m["damage"] for m in t.s["in_play"]}
    assert healths == {"bad-smoke#1": 0, "bad-smoke#2": 1} and t.wounds("brad") == 0
    assert t.decision().kind == "nothing-to-claim"


def test_end_of_the_world_series_totals_wounds_until_someone_reaches_the_target_and_the_lowest_wins(game_count):
    """EN 251: games follow one another with the totals kept; at the target the lowest total wins."""
    from pbem.bots.playout import play

    for seed in range(game_count(1)):
        scenario = GAME.load_scenario("series")
        scenario["options"]["series_target"] = 40
        result = play(GAME, ["ann", "bob", "cyd"], seed, scenario, check=lambda game, state: game.check_invariants(state)).result
        assert result is not None and max(result.scores.values()) >= 40
        assert result.scores[result.winners[0]] == min(result.scores.values())


def test_a_players_private_part_shows_a_change_of_their_own_hand():
    """The converse of the leak property: what a player may know is in their private part."""
    state = GAME.new_state(GAME.load_scenario("quick-start"), ["ann", "bob"], Rng.from_seed(3))
    for player in state["players"]:
        hand, discard = state["zones"][player]["hand"], state["zones"][player]["discard"]
        seen = GAME.private(state, player)
        changed = json.loads(json.dumps(state))
        changed["zones"][player]["hand"], changed["zones"][player]["discard"] = hand[:-1], discard + hand[-1:]
        assert hand and GAME.private(changed, player) != seen


def test_when_this_minion_attacks_texts_trigger_together_once_every_attacker_is_sent(table):
    """Ruling 27: a minion attacks when it is sent against an opponent ("Attack: To send your minions to
    damage another player", EN 255; "Each minion attacks one of your opponents", EN 147), and all are sent
    at once (EN 150). So every "when this minion attacks" text triggers then, at the same time, before any
    combat resolves, and the active player orders them (EN 124) — Roland attacking Scott and "Queen's
    Bishop" attacking Brad both trigger before Janet chooses which combat resolves first."""
    t = table({"phase": "combat", "active": "janet", "face_up": 20, "players": {
        "janet": {"in_play": ["roland-lefontaine", "queens-bishop"], "deck": ["genesis-one", "genesis-one"]},
        "scott": {"in_play": ["maya-westermann"]}, "brad": {"in_play": ["jj-mcteague"]}}})
    t.play(("janet", "target:scott"), ("janet", "target:brad"))
    decision = t.decision()
    assert (decision.player, decision.kind) == ("janet", "trigger-order")
    assert [o.id for o in decision.options] == ["trigger:roland-lefontaine#1", "trigger:queens-bishop#1"]
    t.choose("janet", "trigger:queens-bishop#1")
    # "Queen's Bishop" attacks Brad, but "deal 2 damage to a minion" may hit any minion in play
    t.choose("janet", "minion:maya-westermann#1")
    assert t.health("maya-westermann") == 2 and len(t.zone("janet", "hand")) == 2  # then Roland drew 2
    assert t.decision().kind == "combat-order" and t.s["turn"]["combat"]["done"] == []


def test_a_minion_that_blocked_an_attacker_does_not_block_another_attackers_damage(table):
    """Ruling 48: a "blocks damage inflicted on you" minion blocks "just like it was blocking an attacking minion"
    (EN 167), and "A blocking minion can only block a single attacking minion" (EN 152; DE 81 "A single "Legion Ten"
    cannot block several attacking minions"). Brad's "Bad Smoke" blocks "Genesis One"; the damage of J.J. McTeague,
    which nobody blocks, reaches Brad unblocked."""
    t = table({"phase": "combat", "active": "janet", "face_up": 20, "players": {
        "janet": {"in_play": ["genesis-one", "jj-mcteague"]}, "brad": {"in_play": ["bad-smoke"]}}},
        players=("janet", "brad"))
    t.play(("brad", "block:genesis-one#1"), ("janet", "strike:genesis-one#1"))
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 0
    t.choose("janet", "strike:jj-mcteague#1")
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 2


def test_a_blocker_of_direct_damage_blocks_the_damage_of_one_attacker_a_combat(table):
    """Ruling 48: blocking what gets past one attacker's blockers (EN 167) is blocking that attacker; the
    damage of a second attacker in the same combat reaches Brad. In the chain phase it blocks again."""
    t = table({"phase": "combat", "active": "janet", "face_up": 20, "players": {
        "janet": {"in_play": ["genesis-one", "charlotte-reyes"], "hand": ["enraged-wight"]},
        "brad": {"in_play": ["bad-smoke"]}}}, players=("janet", "brad"))
    t.play(("brad", "no-block"), ("janet", "strike:genesis-one#1"))
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 0
    t.choose("janet", "strike:charlotte-reyes#1")
    assert t.health("bad-smoke") == 1 and t.wounds("brad") == 1
    assert t.s["turn"]["combat"] is None
    t.play(("janet", "play:enraged-wight"), ("janet", "pass"), ("brad", "pass"))
    assert t.minion("bad-smoke") is None and t.wounds("brad") == 1  # it blocks Enraged Wight's 1 damage


# ------------------------------------------------------------------ what the view shows

def _chain_view(t, index):
    return GAME.public(t.s)["chain"]["cards"][index]


def _flat(screen):
    """The screen's words, its lines joined (it wraps at 80 columns)."""
    return " ".join(screen.split())


def test_the_view_marks_doubled_damage(table):
    """DE 93: Relentless Grinder's kicker doubles the damage of the next card in the chain: the table sees it on
    that card, in the public data and on the screen, before it resolves."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["forlorn-hope", "relentless-grinder"], "discard": ["chan-jiang"]}}})
    t.play(("janet", "play:forlorn-hope"), ("janet", "link:relentless-grinder"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"), ("janet", "player:scott"))
    assert t.decision().kind == "target"  # Forlorn Hope asks what to exile: it has not resolved yet
    assert _chain_view(t, 0)["damage_multiplier"] == 2 and _chain_view(t, 1)["damage_multiplier"] == 1
    assert "1. janet [damage x2]: Forlorn Hope" in _flat(t.screen("brad"))
    t.play(("janet", "card:chan-jiang#1"), ("janet", "player:brad"))
    assert t.wounds("brad") == 2 * 5


def test_the_view_marks_granted_kickers(table):
    """DE 58: All-Out Lunge's kicker makes a card in the chain carry out its kicker: marked "kicker granted" (apart
    from a kicker fired by its colour, EN 199) in the public data and on the screen."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "commons": ["koi-jiang", "legion-ten"], "players": {
        "janet": {"hand": ["chan-jiang", "all-out-lunge"]}}})
    t.play(("janet", "play:chan-jiang"), ("janet", "link:all-out-lunge"), ("janet", "pass"), ("scott", "pass"),
           ("brad", "pass"), ("janet", "player:brad"))
    # the only card left in the chain is given its kicker at once; Chan Jiang's kicker now asks for an archive
    chan, lunge = _chain_view(t, 0), _chain_view(t, 1)
    assert (chan["kicker"], chan["kicker_granted"]) == (False, True)
    assert (lunge["kicker"], lunge["kicker_granted"]) == (True, False)
    assert "1. janet [kicker granted]: Chan Jiang" in _flat(t.screen("scott"))


def test_the_view_shows_protected_minions(table):
    """DE 88: Desperate Measures prevents all damage to a minion this turn: everyone sees which."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["desperate-measures"], "in_play": ["roland-lefontaine", "koi-jiang"]}}})
    t.play(("janet", "play:desperate-measures"), ("janet", "pass"), ("scott", "pass"), ("brad", "pass"),
           ("janet", "minion:koi-jiang#1"))
    protected = {m["card"]: m["protected"] for m in GAME.public(t.s)["in_play"]}
    assert protected == {"roland-lefontaine#1": False, "koi-jiang#1": True}
    screen = _flat(t.screen("brad"))
    assert "Koi Jiang, white minion, strength 3, health 2 of 2 (printed strength 2), protected from damage this turn" \
        in screen and screen.count("protected from damage") == 1


def test_the_view_shows_the_influence_a_discarded_action_gives(table):
    """DE 76, DE 82: a kicker (Grotesque Revenant's) or an in-play text (Maya Westermann's) makes each action
    discarded for influence in your turn give more; the view reads it from the effect data, whichever card it is."""
    t = table({"phase": "chain", "active": "janet", "face_up": 20, "players": {
        "janet": {"hand": ["irresistible-call", "grotesque-revenant"]}}})
    assert GAME.public(t.s)["turn"]["action_influence"] == 1
    t.play(("janet", "play:irresistible-call"), ("janet", "link:grotesque-revenant"), ("janet", "pass"),
           ("scott", "pass"), ("brad", "pass"))
    assert GAME.public(t.s)["turn"]["action_influence"] == 2
    assert "a discarded action gives 2 influence" in _flat(t.screen("scott"))
    t = table({"phase": "claim", "active": "janet", "players": {"janet": {"in_play": ["maya-westermann"]},
                                                                 "scott": {"in_play": ["maya-westermann"]}}})
    assert GAME.public(t.s)["turn"]["action_influence"] == 3  # Janet's Maya; Scott's works in Scott's turn only


def test_the_top_face_up_wound_is_public(table):
    """EN 70: the face-up wounds are turned "face up, leaving them on top of the wound stack" (DE 30: "place them face
    up back on the wound stack"): everyone sees the top one, the wound the next player to receive one takes. Below
    it, and once no face-up wound is left, nothing is seen."""
    t = table({"phase": "claim", "active": "janet", "wound_stack": ["nf-bite", "nf-burn", "ml-bleed"], "face_up": 2})
    assert GAME.public(t.s)["top_wound"] == "ml-bleed"
    assert "(top: Martial Law Wound (bleed))" in _flat(t.screen("brad"))
    concealed = GAME.conceal(t.s, "brad", Rng.from_seed(5))
    assert GAME.public(concealed)["top_wound"] == "ml-bleed"
    from pbem.games.nightfall.state import receive_wounds
    receive_wounds(t.s, "scott", 2)
    assert GAME.public(t.s)["top_wound"] is None
