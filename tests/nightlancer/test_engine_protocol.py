"""The protocol conventions: determinism, resuming from stored JSON, views and render."""

from __future__ import annotations

import hashlib
import json

from pbem.bots.playout import play
from pbem.engine.machine import MachineGame
from pbem.engine.protocol import Game, apply_choice
from pbem.engine.registry import find_game
from pbem.engine.rng import Rng, step_rng
from pbem.games.nightlancer import GAME

from .helpers import final_result, screen


def test_nightlancer_is_registered_and_implements_the_protocol():
    assert find_game("nightlancer") is GAME and isinstance(GAME, Game)
    assert GAME.scenarios()[0] == "standard" and (GAME.min_players, GAME.max_players) == (1, 4)


def test_a_game_is_a_pure_function_of_its_seed_and_choices():
    loaded = GAME.load_scenario("standard")
    a = play(GAME, ["ana", "ben", "cy"], 5, loaded)
    b = play(GAME, ["ana", "ben", "cy"], 5, loaded)
    assert a.choices == b.choices and json.dumps(a.state, sort_keys=True) == json.dumps(b.state, sort_keys=True)


def test_a_game_resumes_identically_from_its_stored_json_state():
    loaded = GAME.load_scenario("standard")
    key = hashlib.sha256(b"resume").digest()
    state = GAME.new_state(loaded, ["ana", "ben"], step_rng(key, [], 0))
    bot = Rng.from_seed("bot")
    step = 0
    while GAME.awaiting(state) and step < 400:
        step += 1
        stored = json.loads(json.dumps(state))
        decision = GAME.awaiting(state)[0]
        option = bot.choice(decision.options, label="bot").id
        GAME.begin_step(state)
        GAME.begin_step(stored)
        state = apply_choice(GAME, state, decision.player, option, step_rng(key, [], step))
        resumed = apply_choice(GAME, stored, decision.player, option, step_rng(key, [], step))
        assert json.dumps(resumed, sort_keys=True) == json.dumps(state, sort_keys=True)


def test_public_events_describe_only_the_last_step():
    playout = play(GAME, ["ana", "ben"], 3, GAME.load_scenario("standard"))
    assert len(GAME.public(playout.state)["events"]) < 40


def test_render_shows_the_table_and_the_players_own_hand():
    loaded = GAME.load_scenario("standard")
    state = GAME.new_state(loaded, ["ana", "ben"], Rng.from_seed(2))
    for pick, player in (("pick:guard", "ana"), ("pick:sniper", "ben")):
        state = apply_choice(GAME, state, player, pick, Rng.from_seed(3))
    text = screen(state, "ana")
    assert "ana (The Guard)" in text and "ben (The Sniper)" in text and "Your hand:" in text
    assert "Your hand:" not in screen(state)


def test_a_finished_game_awaits_nobody_and_has_a_result():
    playout = play(GAME, ["ana"], 1, GAME.load_scenario("solitaire"))
    assert GAME.awaiting(playout.state) == [] and final_result(playout.state).summary


def test_render_shows_cards_agendas_abilities_and_the_challenge_breakdown():
    """A person plays from the screen: cards with type, cost, traits and text; Agendas with what they
    need, cost and give; abilities; the challenge as a score breakdown. The options are the CLI's."""
    from .helpers import mission_table

    t = mission_table(dice=[5, 5], items=[["shotgun#1"], []], hands=[["safehouse#1"], []])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.until(lambda t: t.state["phase"] == "missions" and t.decision().kind == "choose-option"
            and t.state["stack"][-1].get("stage", 0) >= 2, {"attempt": "roll", "reaction": "pass"})
    t.choose("ana", "option:2")  # Stage 2: Close 4
    t.until_kind("attempt", "ana")
    text = " ".join(screen(t.state, "ana").split())  # the screen wraps its lines at 80 columns
    assert "Riot Shotgun (Weapon, " in text and "Loud" in text
    assert "Buy a Safehouse: needs nothing; costs 12 KC; gives 3 Prospects" in text
    assert "abilities: Covert 3, Streetwise 1, Technical 1, Close 2" in text
    assert "Challenge: ana attempts Close 4: ability 2 + cards and specials" in text
    assert "Riot Shotgun - Loud" in text and "+ die (+0 to +3)" in text and "Health before the roll" in text
    assert "Do not use" not in text and "[roll]" not in text  # the options are printed by the CLI


def test_a_players_private_part_shows_a_change_of_their_own_hand():
    """The converse of the leak property: what a player may know is in their private part."""
    state = GAME.new_state(GAME.load_scenario("standard"), ["ana", "ben"], Rng.from_seed(4))
    for pick, player in (("pick:guard", "ana"), ("pick:sniper", "ben")):
        GAME.begin_step(state)
        state = apply_choice(GAME, state, player, pick, Rng.from_seed(5))
    for player in ("ana", "ben"):
        hand, deck = state["seats"][player]["hand"], state["decks"]["agenda"]
        before = GAME.private(state, player)
        changed = json.loads(json.dumps(state))
        changed["seats"][player]["hand"][0], changed["decks"]["agenda"][0] = deck[0], hand[0]
        assert hand and GAME.private(changed, player) != before


def test_the_kinds_with_an_obvious_pass_declare_it_for_standing_orders_and_timeouts():
    """The option that declines: a standing order to pass takes it, and so does the referee for a
    player whose decision passed its deadline (pbem tick); the others are a bot's choice then."""
    rules = GAME
    assert isinstance(rules, MachineGame)  # the rules' turn machine, beside the protocol
    passes = {kind: rules.machine.decision_kind(kind).pass_id for kind in rules.decision_kinds()}
    assert {kind: p for kind, p in passes.items() if p is not None} == {
        "assist": "stand-by", "attempt": "roll", "reaction": "pass", "gear-up": "done", "abandon": "continue",
        "skill": "none", "repay": "keep", "take-mission": "pass", "stay": "stay", "final": "done",
        "streets": "pass", "event": "go-on"}
    assert {rules.default_action(kind) for kind in rules.decision_kinds()} == {"pass"}
