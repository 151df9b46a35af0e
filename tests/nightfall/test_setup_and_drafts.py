"""Set-up (EN 60-79, DE 28-30), drafts, Quick Start and the variants (EN 80-90, EN 246-251)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from pbem.engine.protocol import apply_choice
from pbem.engine.rng import Rng
from pbem.games.nightfall import GAME

NAMES = ["ann", "bob", "cyd", "dee", "eve"]


def new(scenario="standard", players=3, seed=0, **options):
    data = GAME.load_scenario(scenario)
    data.setdefault("options", {}).update(options)
    return GAME.new_state(data, NAMES[:players], Rng.from_seed(seed))


def pick_all(state, choose=lambda options: options[0]):
    """Every awaited player picks (the draft round resolves when all are in)."""
    for d in GAME.awaiting(state):
        state["test_step"] = state.get("test_step", 0) + 1
        rng = Rng.from_seed(f"pick-{state['test_step']}-{state['wound_stack'][:3]}")
        GAME.begin_step(state)
        apply_choice(GAME, state, d.player, choose([o.id for o in d.options]), rng)


def finish_draft(state):
    while state["draft"] is not None:
        pick_all(state)
    return state


def test_wound_stack_is_the_martial_law_mix_with_10_face_up_per_player():
    """DE 30: 45 Nightfall wounds (5 of each type out) + 15 Martial Law wounds; EN 70."""
    state = new(players=4)
    kinds = Counter(w.split("-")[0] for w in state["wound_stack"])
    assert kinds == {"nf": 45, "ml": 15} and state["face_up"] == 40
    assert Counter(w.split("#")[0] for w in state["wound_stack"])["nf-bite"] == 15


def test_other_wound_mixes():
    """EN 9: the new deck, the old deck, or both."""
    assert len(new(wounds="nightfall")["wound_stack"]) == 60
    assert len(new(wounds="all")["wound_stack"]) == 75


def test_starting_decks_and_hands():
    """EN 65, EN 78: 12 cards, two of each starter; 5 drawn after the archives are chosen."""
    state = finish_draft(new(players=2))
    for p in ("ann", "bob"):
        z = state["zones"][p]
        cards = Counter(c.split("#")[0] for c in z["hand"] + z["deck"])
        assert len(z["hand"]) == 5 and sum(cards.values()) == 12 and set(cards.values()) == {2}


def test_the_referee_picks_the_first_player_at_random():
    firsts = {finish_draft(new(seed=s))["first"] for s in range(12)}
    assert firsts == {"ann", "bob", "cyd"}


def test_draft_picks_are_simultaneous_and_sealed():
    state = new(players=3)
    decisions = GAME.awaiting(state)
    assert [d.player for d in decisions] == ["ann", "bob", "cyd"]
    assert all(d.simultaneous and d.kind == "draft-pick" and len(d.options) == 4 for d in decisions)
    def seen(player):
        public = {k: v for k, v in GAME.public(state).items() if k != "events"}
        return json.dumps([public, GAME.private(state, player)], sort_keys=True)

    before = seen("bob")
    apply_choice(GAME, state, "ann", decisions[0].options[0].id, Rng.from_seed(1))
    assert [d.player for d in GAME.awaiting(state)] == ["bob", "cyd"]
    assert seen("bob") == before  # Bob learns nothing of Ann's pick
    assert GAME.private(state, "ann")["draft"]["picked_now"] is not None


def test_standard_draft_gives_two_private_archives_and_eight_commons():
    """EN 72-77."""
    state = new(players=3)
    hands = {p: list(state["draft"]["hands"][p]) for p in NAMES[:3]}
    pick_all(state)
    # the rest passes to the left: Bob now holds what Ann had, less her pick
    assert set(state["draft"]["hands"]["bob"]) < set(hands["ann"])
    finish_draft(state)
    assert [a["owner"] for a in state["archives"]].count(None) == 8
    for p in NAMES[:3]:
        assert [a["owner"] for a in state["archives"]].count(p) == 2
    assert all(len(a["cards"]) == 7 for a in state["archives"])


def test_upstream_draft_passes_to_the_right():
    """EN 247."""
    state = new("upstream", players=3)
    hands = {p: list(state["draft"]["hands"][p]) for p in NAMES[:3]}
    pick_all(state)
    assert set(state["draft"]["hands"]["cyd"]) < set(hands["ann"])


def test_two_player_draft_removes_the_first_pick():
    """EN 81: 1st removed, 2nd and 3rd private, 4th commons."""
    state = new(players=2)
    assert state["draft"]["schedule"] == ["removed", "private", "private", "commons"]
    first = {d.player: d.options[0].id.split(":")[1] for d in GAME.awaiting(state)}
    finish_draft(state)
    kept = {a["cards"][0].split("#")[0] for a in state["archives"]}
    assert not set(first.values()) & kept


def test_five_card_draft_removes_the_last_two():
    """DE 43 (EN 83 counts differently: card-facts P22)."""
    state = new("five-card", players=4)
    assert all(len(h) == 5 for h in state["draft"]["hands"].values())
    finish_draft(state)
    assert [a["owner"] for a in state["archives"]].count(None) == 8


def test_five_card_draft_with_two_players_is_the_two_player_draft_with_the_last_card_discarded():
    """EN 81-83: "For 2-player games ... 1st: Removed / 2nd & 3rd: Private archive / 4th: Commons"; "If you are mixing
    two sets, we suggest dealing 5 cards to each player, with the last card being discarded." With 2 players the
    five picks are removed, private, private, commons, and the fifth card is discarded (ruling 36)."""
    state = new("five-card", players=2)
    assert all(len(h) == 5 for h in state["draft"]["hands"].values())
    assert state["draft"]["schedule"] == ["removed", "private", "private", "commons"]
    first = {d.player: d.options[0].id.split(":")[1] for d in GAME.awaiting(state)}
    pick_all(state)
    assert all(len(h) == 4 for h in state["draft"]["hands"].values())
    finish_draft(state)
    kept = {a["cards"][0].split("#")[0] for a in state["archives"]}
    assert not set(first.values()) & kept
    assert [a["owner"] for a in state["archives"]].count(None) == 8
    assert [a["owner"] for a in state["archives"]].count("ann") == 2


def test_open_archives_with_two_players_removes_the_first_pick():
    """EN 249 with EN 81: the commons are laid out first and 3 draft cards dealt; with 2 players the first pick is
    removed, the 2nd and 3rd go to the private archives (the 2-player draft's 4th pick, for the commons, falls away:
    they are full). Ruling 39."""
    state = new("open-archives", players=2)
    assert all(len(h) == 3 for h in state["draft"]["hands"].values())
    assert state["draft"]["schedule"] == ["removed", "private", "private"]
    first = {d.player: d.options[0].id.split(":")[1] for d in GAME.awaiting(state)}
    finish_draft(state)
    kept = {a["cards"][0].split("#")[0] for a in state["archives"]}
    assert not set(first.values()) & kept
    assert [a["owner"] for a in state["archives"]].count(None) == 8
    assert [a["owner"] for a in state["archives"]].count("ann") == 2 == [a["owner"] for a in state["archives"]].count("bob")


def test_five_card_draft_for_five_players_needs_the_promos():
    with pytest.raises(ValueError, match="promos"):
        new("five-card", players=5, promos=False)
    assert new("five-card", players=5)["draft"] is not None


def test_quick_start_sets():
    """EN 84-90: each player's private archives are one of the five sets."""
    state = new("quick-start", players=5)
    sets = {frozenset(a["cards"][0].split("#")[0] for a in state["archives"] if a["owner"] == p) for p in NAMES}
    assert sets == {frozenset(s) for s in [("koi-jiang", "brynna-and-taylor"), ("irresistible-call", "roland-lefontaine"),
                                            ("chan-jiang", "queens-bishop"), ("relentless-grinder", "forlorn-hope"),
                                            ("hysteria", "all-out-lunge")]}
    assert [a["owner"] for a in state["archives"]].count(None) == 8


def test_secret_archives_stay_face_down_until_claimed():
    """EN 248."""
    state = finish_draft(new("secret-archives", players=3))
    bobs = [a for a in GAME.public(state)["archives"] if a["owner"] == "bob"]
    assert bobs and all(a["face_down"] and "top" not in a for a in bobs)
    assert not GAME.private(state, "ann")["archive_tops"].keys() & {a["id"] for a in bobs}
    own = GAME.private(state, "bob")["archive_tops"]
    assert set(own) == {a["id"] for a in bobs}


def test_open_archives_lays_out_the_commons_first():
    """EN 249: 8 commons face up, then 3 draft cards each."""
    state = new("open-archives", players=3)
    assert len(GAME.public(state)["draft"]["commons"]) == 8
    assert all(len(h) == 3 for h in state["draft"]["hands"].values())
    finish_draft(state)
    assert [a["owner"] for a in state["archives"]].count(None) == 8
    assert [a["owner"] for a in state["archives"]].count("ann") == 2


def test_common_ground_has_no_private_archives():
    """EN 250: the picks go to the commons."""
    state = finish_draft(new("common-ground", players=3))
    assert all(a["owner"] is None for a in state["archives"]) and len(state["archives"]) == 9


def test_common_ground_removes_the_draft_cards_not_chosen():
    """EN 250: "Draft cards not chosen are removed from the game": with 2 players the commons hold only the
    3 cards each player sent there (the 2-player draft's first pick is removed), never filled to 8."""
    state = finish_draft(new("common-ground", players=2))
    assert all(a["owner"] is None for a in state["archives"]) and len(state["archives"]) == 6


def test_end_of_the_world_series_keeps_running_totals():
    """EN 251."""
    from pbem.bots.playout import play
    scenario = GAME.load_scenario("series")
    scenario["options"]["series_target"] = 30
    playout = play(GAME, ["ann", "bob"], 3, scenario=scenario)
    series = playout.state["series"]
    assert series is not None and playout.result is not None
    assert len(series["games"]) >= 2
    totals = series["totals"]
    assert totals == {p: sum(g[p] for g in series["games"]) for p in ("ann", "bob")}
    assert playout.result.winners[0] == min(totals, key=lambda p: totals[p])


def test_unknown_variant_is_refused():
    with pytest.raises(ValueError, match=r"option variants: .*'moonlight' not allowed"):
        new(variants=["moonlight"])


def test_a_draft_pick_from_a_single_card_is_taken_without_a_decision():
    """EN 81: the 2-player draft's fourth pick (for the commons) is the one card left; it reveals
    nothing (everybody knows the count), so nobody is asked."""
    state = new(players=2)
    for _ in range(3):
        assert all(len(d.options) > 1 for d in GAME.awaiting(state))
        pick_all(state)
    assert state["draft"] is None and all(d.kind != "draft-pick" for d in GAME.awaiting(state))
    commons = [a for a in state["archives"] if a["owner"] is None]
    assert len(commons) == 8


def test_a_player_sees_his_own_draft_picks_and_nobody_elses():
    """Each player knows where his own picks went, the removed and the commons ones included, for the whole game;
    the other players do not (the picks are face down, EN 73-75)."""
    state = new(players=2)
    picks: dict[str, Any] = {}
    while state["draft"] is not None:
        for d in GAME.awaiting(state):
            if d.kind == "draft-pick":
                picks.setdefault(d.player, []).append(d.options[-1].id.split(":")[1])
        pick_all(state, choose=lambda options: options[-1])
    for player, keys in picks.items():
        seen = GAME.private(state, player)["draft_picks"]
        assert [key for key, _ in seen][:len(keys)] == keys
        assert [where for _, where in seen] == ["removed", "private", "private", "commons"]
    assert "draft_picks" not in json.dumps(GAME.public(state))


def test_states_set_up_from_one_card_data_share_its_static_members():
    """The catalogue and the Quick Start sets are static: games set up one after another from the same
    card data share them (built once); another load of the card data gets its own, equal ones."""
    data = GAME.load_scenario("standard")
    first = GAME.new_state(data, NAMES[:2], Rng.from_seed(1))
    second = GAME.new_state(data, NAMES[:3], Rng.from_seed(2))
    assert first["catalog"] is second["catalog"]
    assert first["quick_start_sets"] is second["quick_start_sets"]
    assert first["catalog"] == GAME.static_state(data)["catalog"]
    other = GAME.new_state(GAME.load_scenario("standard"), NAMES[:2], Rng.from_seed(1))
    assert other["catalog"] is not first["catalog"] and other["catalog"] == first["catalog"]
