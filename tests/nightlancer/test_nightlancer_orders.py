"""Orders for Nightlancer's decisions out of turn, each kind against its rule: reactions and the competing Crews.

An order answers every decision of its kind for its player, in the step
that opens it (docs/referee.md, "Orders"): by its first rule that holds and
finds an option, else by its fallback. Each test brings a game to a
decision, gives a player an order and lets the referee carry it out as a
step does (:func:`pbem.referee.orders.carry_out`).
"""

from __future__ import annotations

from pbem.engine.rng import Rng
from pbem.games.nightlancer import GAME
from pbem.referee import orders
from pbem.referee.ordertext import parse_order

from .helpers import Table, mission_table, new_game
from .test_competing_crews import competing, play_stage


def carried_out(t: Table, player: str, given: dict[str, str]) -> list[tuple[str, str, str]]:
    """Carry out ``player``'s orders (``{kind: spec}``) on the table's position as a step does; what they
    answered, as ``(player, kind, option)``."""
    step: list[dict[str, str]] = []
    held = {player: {"orders": {kind: parse_order(GAME, kind, spec) for kind, spec in given.items()}}}
    t.state = orders.carry_out(GAME, t.state, held, Rng.from_seed("orders"), step)
    return [(s["player"], s["kind"], s["option"]) for s in step]


def test_a_reaction_order_plays_the_contact_it_names_against_an_attempt_and_then_passes():
    """5.2 (NL:469): "Players can interrupt to play cards that affect the challenge. If they are
    interrupted by other players they should restart the countdown afterwards." Ben's order plays his Beat
    Cop against an attempt at a Covert challenge, and passes when the window comes round to him again."""
    t = mission_table(players=("ana", "ben", "cy"), dice=[5], hands=[[], ["beat-cop#1"], []])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")  # Covert 3
    t.until_kind("attempt", "ana")
    t.choose("ana", "roll")
    assert t.kinds() == [("ben", "reaction")]
    answered = carried_out(t, "ben", {"reaction": "challenge=covert -> card=beat-cop, pass"})
    # after he plays, the window comes round to him first: with no Beat Cop left, his order passes
    assert answered == [("ben", "reaction", "play:beat-cop#1"), ("ben", "reaction", "pass")]
    assert "ben plays Beat Cop on ana" in "\n".join(t.state["events"])
    assert t.kinds() == [("cy", "reaction")]


def test_a_reaction_order_for_other_challenges_passes_by_its_fallback():
    """An order is total: against a challenge its rules do not name, ben's order passes at once."""
    t = mission_table(players=("ana", "ben", "cy"), dice=[5], hands=[[], ["beat-cop#1"], []])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.until_kind("attempt", "ana")
    t.choose("ana", "roll")
    assert carried_out(t, "ben", {"reaction": "challenge=close -> card=beat-cop, pass"}) == [
        ("ben", "reaction", "pass")]


def test_a_consent_order_accepts_the_player_it_names_and_refuses_others():
    """3.1 (NL:197): "A player may join a Crew if the Boss of that Crew agrees." Ana's order accepts ben
    into her Crew and refuses anybody else."""
    t = Table(new_game(("ana", "ben", "cy"), events=["quiet-night", "payday", "street-market"]))
    mission = next(o for o in t.options("ana") if o.startswith("first:")).split(":", 1)[1]
    t.choose("ana", f"first:{mission}")
    t.choose("ben", f"join:{mission}:first")
    assert t.kinds() == [("ana", "consent")]
    spec = "joiner=ben -> option=accept, option=refuse, first"
    assert carried_out(t, "ana", {"consent": spec}) == [("ana", "consent", "accept")]
    t.stay()
    t.choose("cy", f"join:{mission}:first")
    assert carried_out(t, "ana", {"consent": spec}) == [("ana", "consent", "refuse")]


def test_a_face_off_order_chooses_the_fight():
    """3.3 (NL:311): "If both Crews are still on the mission when they reach Stage 3 then the First Crew
    can either abandon the mission, or choose how they will fight the other Crew!" Ana's order fights at
    Marksman."""
    t = competing(dice=[5, 5, 5, 5])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    assert t.kinds() == [("ana", "face-off")]
    answered = carried_out(t, "ana", {"face-off": "option=fight:marksman, first"})
    assert answered == [("ana", "face-off", "fight:marksman")]
    assert t.kinds() == [("ben", "accept-fight")]


def test_an_accept_fight_order_abandons_rather_than_fight_at_the_combat_it_names():
    """3.3 (NL:313): "The Second Crew must either accept the fight or abandon the mission." Ben's order
    abandons a Marksman fight and accepts any other."""
    t = competing(dice=[5, 5, 5, 5])
    play_stage(t, "option:1", "option:1")
    play_stage(t, "option:1", "option:1")
    t.choose("ana", "fight:marksman")
    answered = carried_out(t, "ben", {"accept-fight": "fight=marksman -> option=abandon, option=fight, first"})
    assert answered == [("ben", "accept-fight", "abandon")]
    assert "The Second Crew abandons the mission." in "\n".join(t.state["events"])


def test_an_abandon_order_abandons_at_the_stage_it_names():
    """3.3 (NL:291): "A player may abandon a mission at the beginning of any Stage." Ben's order goes on
    at Stage 1 and would abandon at Stage 3."""
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5, 5])
    t.until_kind("abandon")
    assert t.decision().player == "ben"
    assert carried_out(t, "ben", {"abandon": "stage=3 -> option=abandon, pass"}) == [("ben", "abandon", "continue")]


def test_an_assist_order_stands_by_in_a_combat_and_assists_otherwise():
    """3.3 (NL:271): "When multiple players face a challenge together as part of a Crew, the Boss chooses
    which challenge. Then the Crew must each choose whether to assist or not before any of them roll."
    Ben's order stands by in a combat challenge (it costs Health) and assists in any other."""
    t = mission_table(players=("ana", "ben"), crew=("ana", "ben"), dice=[5, 5])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")  # Covert 3
    assert ("ben", "assist") in t.kinds()
    spec = "challenge=close -> option=stand-by, challenge=gunfighter -> option=stand-by, option=assist, pass"
    assert carried_out(t, "ben", {"assist": spec}) == [("ben", "assist", "assist")]
    assert t.kinds() == [("ana", "assist")]  # ben's choice is sealed until ana's is in


def test_orders_whose_choices_undo_each_other_come_to_their_fallback() -> None:
    """NL:467: using a Loud card is the player's choice, before the roll ("Do not use", then "use after
    all"). An order naming the card would leave it out and take it back for ever: from a position its
    player has seen before in the step, an order does not choose again what it chose there, and rolls."""
    t = mission_table(dice=[5, 5], items=[["shotgun#1"], []])
    t.until_kind("choose-option")
    t.choose("ana", "option:1")
    t.until_kind("attempt", "ana")
    t.choose("ana", "roll")
    t.choose("ben", "pass")
    t.until_kind("choose-option")
    t.choose("ana", "option:2")  # Close: the Loud shotgun would be used
    t.until_kind("attempt", "ana")
    step: list[dict[str, str]] = []
    t.state = orders.carry_out(GAME, t.state, {"ana": {"orders": {"attempt": {
        "rules": [{"choose": {"card": "shotgun"}}], "fallback": "pass"}}}}, Rng.from_seed("o"), step)
    assert [s["option"] for s in step] == ["leave:shotgun#1", "take:shotgun#1", "roll"]
