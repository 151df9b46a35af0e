"""What a player's orders may test of Nightlancer's decisions, besides the generic tests (:mod:`pbem.engine.ordertests`).

The decisions a player answers out of their turn: the reaction window
against another player's attempt, purchase or payment (5.2), a Crew's
assist choice (3.3 "Crews"), and the competing Crews' choices (3.3
"Competing Crews": the Boss's consent to a joiner, the face-off and the
Second Crew's answer to it, abandoning at a Stage). Each test reads the
task that asked the decision, which is on the table: what is challenged,
by whom, on which mission.
"""

from __future__ import annotations

from pbem.engine.machine import PendingDecision, top
from pbem.engine.ordertests import OrderTest, decision_test
from pbem.engine.screen import key_of
from pbem.games.nightlancer.cards import COMBAT_CHALLENGES, NORMAL_CHALLENGES, SPECIAL_CHALLENGES
from pbem.games.nightlancer.state import State

#: the types of challenge (5.2)
CHALLENGE_TYPES = (*NORMAL_CHALLENGES, *SPECIAL_CHALLENGES, *COMBAT_CHALLENGES)
#: what opens a reaction window: an attempt at a challenge, a purchase, a payment
TRIGGERS = ("challenge", "buy", "payment")


def _challenge(state: State, pending: PendingDecision) -> str | None:
    return top(state).get("ctype")


def _difficulty(state: State, pending: PendingDecision) -> int | None:
    return top(state).get("difficulty")


def _target(state: State, pending: PendingDecision) -> str:
    return top(state)["target"]


def _trigger(state: State, pending: PendingDecision) -> str:
    return top(state)["trigger"]


def _joiner(state: State, pending: PendingDecision) -> str:
    return top(state)["joiner"]


def _mission(state: State, pending: PendingDecision) -> str:
    return key_of(top(state)["card"])


def _stage(state: State, pending: PendingDecision) -> int:
    return top(state)["stage"]


def _fight(state: State, pending: PendingDecision) -> str:
    return top(state)["fight"]


_MISSION = decision_test("mission", "the mission, by its design key", _mission)
_CHALLENGE = decision_test("challenge", "the type of challenge (5.2)", _challenge, values=CHALLENGE_TYPES)

#: the tests each kind declares, by kind
TESTS: dict[str, tuple[OrderTest, ...]] = {
    "reaction": (
        decision_test("target", "the player the window is about: attempting, buying or being paid", _target),
        decision_test("trigger", "what opened the window: an attempt at a challenge, a purchase, a payment",
                      _trigger, values=TRIGGERS),
        decision_test("challenge", "the type of challenge attempted (none for a purchase or a payment)",
                      _challenge, values=CHALLENGE_TYPES),
    ),
    "attempt": (_CHALLENGE,),
    "assist": (
        _CHALLENGE,
        decision_test("difficulty", "the challenge's difficulty (none for a contested combat)", _difficulty,
                      type="integer"),
    ),
    "consent": (
        decision_test("joiner", "the player who asks to join your Crew (3.1 \"Join a Crew\")", _joiner),
        _MISSION,
    ),
    "face-off": (_MISSION,),
    "accept-fight": (
        decision_test("fight", "the contested combat the First Crew chose (3.3 \"Face-off\")", _fight,
                      values=COMBAT_CHALLENGES),
        _MISSION,
    ),
    "abandon": (
        decision_test("stage", "the Stage that begins (3.3 \"Abandoning a mission\")", _stage, type="integer"),
        _MISSION,
    ),
}
