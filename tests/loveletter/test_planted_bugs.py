"""The conformance suite catches what it exists for: Love Letter with a planted bug fails it.

* A public hint about the card removed face down (whether it is a high card),
  with a ``conceal`` that forgot to redraw that card: the leak property alone
  passes it, since the redraw never changes what the hint reads; the check of
  ``conceal`` against the declared zones does not.
* A Countess that is played without asking when she is the only card her
  holder may play: whether she must be played is in the hand.
* A Guard whose guesses leave out the card its target holds (a rule that
  reads a hidden hand to shape the guesser's next decision), with the hands
  declared at a place where they do not lie: foresight's watch misses the
  read, and the suite sees the guesser's next decision change with what they
  may not know; with the hands where they lie, the read is watched and the
  guess is not foreseen, so nothing leaks.
"""

from __future__ import annotations

import copy
from typing import Any

from helpers_conformance import (
    conceal_problems,
    foresight_leaks,
    single_option_problems,
    view_leaks,
    zone_place_problems,
)

from loveletter import VIEW, LoveLetter, public, rules
from loveletter.rules import CARDS, State, key, value
from pbem.engine.kit import View, Zone
from pbem.engine.machine import PendingDecision, ask
from pbem.engine.rng import Rng


def hinted(state: State) -> dict[str, Any]:
    """The public part, with a hint about the card removed face down."""
    return {**public(state), "removed_is_high": any(value(state, card) >= 5 for card in state["removed"])}


def conceal_but_the_removed_card(state: State, player: str, rng: Rng) -> State:
    """Redraw the deck and the other hands among themselves, forgetting the removed card."""
    hidden = copy.deepcopy(state)
    others = [p for p in hidden["players"] if p != player]
    pool = rng.shuffled(hidden["deck"] + [c for p in others for c in hidden["hands"][p]], label="conceal")
    for p in others:
        size = len(hidden["hands"][p])
        hidden["hands"][p], pool = pool[:size], pool[size:]
    hidden["deck"] = pool
    hidden["private"] = {p: lines for p, lines in hidden["private"].items() if p == player}
    return hidden


class Hinted(LoveLetter):
    view = View(public=hinted, private=VIEW.private, zones=VIEW.zones, conceal=VIEW.conceal)


class HintedAndForgetful(LoveLetter):
    view = View(public=hinted, private=VIEW.private, zones=VIEW.zones, conceal=conceal_but_the_removed_card)


def test_a_public_hint_about_the_removed_card_is_a_leak_the_views_show() -> None:
    _checked, _redrawn, leaks = view_leaks(Hinted(), 200)
    assert any("public part" in leak for leak in leaks), leaks[:3]


def test_with_a_conceal_that_forgot_the_removed_card_the_views_show_no_leak() -> None:
    _checked, redrawn, leaks = view_leaks(HintedAndForgetful(), 200)
    assert not leaks and redrawn, "the leak property alone is as strong as conceal"


def test_the_zones_catch_the_conceal_that_forgot_the_removed_card() -> None:
    _checked, problems = conceal_problems(HintedAndForgetful(), 200)
    assert len(problems) == 1 and problems[0].startswith("conceal never redrew removed "), problems


def test_playing_a_forced_countess_without_asking_is_seen(monkeypatch, game_count) -> None:
    monkeypatch.setitem(rules.PUBLIC_COUNTS, "play", lambda state, decision: True)
    checked, compared, problems = single_option_problems(LoveLetter(), game_count(600))
    assert problems, f"an unsafe rule went unseen over {checked} positions ({compared} decisions compared)"


def peeking_target(state: State, decision: PendingDecision, option_id: str, rng: Rng) -> None:
    """The Guard's guesses leave out the card its target holds; every other effect as the rules have it."""
    other = option_id.partition(":")[2]
    if decision["data"]["effect"] != "guard":
        return TARGET(state, decision, option_id, rng)
    held = key(state["hands"][other][0])
    guesses = [k for k in CARDS if k not in ("guard", held)]
    ask(state, decision["player"], "guess", f"the Guard: name {other}'s card", answer="guess",
        data={"other": other}, options=[(f"guess:{k}", state["cards"][k]["name"]) for k in guesses])
    return None


TARGET = rules.target


def misplaced_zones(state: State) -> list[Zone]:
    """The zones, each hand declared at a place where it does not lie (``hand``, not ``hands``)."""
    return [zone._replace(places=(("hand", zone.name.partition(":")[2]),)) if zone.name.startswith("hand:") else zone
            for zone in VIEW.zones(state)]


class MisplacedHands(LoveLetter):
    view = View(public=VIEW.public, private=VIEW.private, zones=misplaced_zones, conceal=VIEW.conceal)


def test_a_rule_that_reads_a_hidden_hand_for_the_next_decision_is_watched(monkeypatch, game_count) -> None:
    monkeypatch.setattr(rules, "target", peeking_target)
    _checked, foreseen, leaks = foresight_leaks(LoveLetter(), game_count(150))
    assert not leaks and foreseen, leaks[:3]


def test_a_hand_declared_where_it_does_not_lie_lets_the_read_through_and_is_seen(monkeypatch, game_count) -> None:
    monkeypatch.setattr(rules, "target", peeking_target)
    checked, _foreseen, leaks = foresight_leaks(MisplacedHands(), game_count(150))
    assert any("next decision changed" in leak for leak in leaks), f"a peek went unseen over {checked} choices"
    _checked, problems = zone_place_problems(MisplacedHands(), 20)
    assert any("is not in the state" in problem for problem in problems), problems[:3]
