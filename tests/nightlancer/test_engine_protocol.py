"""The protocol conventions: determinism, resuming from stored JSON, views and render."""

from __future__ import annotations

import hashlib
import json

from pbem.engine.protocol import Game, apply_choice
from pbem.engine.registry import find_game
from pbem.engine.rng import Rng, step_rng
from pbem.engine.simulate import play
from pbem.games.nightlancer import GAME

from .helpers import screen


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
    assert GAME.awaiting(playout.state) == [] and GAME.result(playout.state).summary


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
