"""What a player's orders may test of Nightfall's decisions, besides the generic tests (:mod:`pbem.engine.ordertests`).

Each reads only what the decision's player may know: the table (the chain,
the minions in play, their strength) and the cards of their own options.
The rules core names no card: a test gives a card by its design key, from
the catalogue.
"""

from __future__ import annotations

from typing import Any

from pbem.engine.machine import PendingDecision
from pbem.engine.ordertests import OrderTest, decision_test, option_test
from pbem.engine.screen import key_of
from pbem.games.nightfall.state import State, card, current_chain, current_combat, minion, strength

#: the colours of the cards (cards.toml's ``colours``), which a link's tests may name
COLOURS = ("gold", "white", "green", "red", "purple", "blue")


def _chosen_card(option_id: str) -> str | None:
    """The card instance an option of the form ``VERB:CARD`` names (``link:koi-jiang#3``), else ``None``."""
    instance = option_id.partition(":")[2]
    return instance or None


def _chain_colour(state: State, pending: PendingDecision) -> str | None:
    """The colour of the chain's last card, which gives a card linked to it its kicker (EN 199)."""
    entries = current_chain(state)["entries"]
    return card(state, entries[-1]["card"]).get("colour") if entries else None


def _chain_links(state: State, pending: PendingDecision) -> list[str]:
    """The link colours of the chain's last card: a card of one of them links to it (EN 177)."""
    entries = current_chain(state)["entries"]
    return list(card(state, entries[-1]["card"])["links"]) if entries else []


def _colour(state: State, pending: PendingDecision, option_id: str) -> str | None:
    instance = _chosen_card(option_id)
    return card(state, instance).get("colour") if instance else None


def _kicker(state: State, pending: PendingDecision, option_id: str) -> bool | None:
    """Linking the card directly from a card of its kicker colour gives its kicker (EN 199)."""
    instance = _chosen_card(option_id)
    if instance is None:
        return None
    data = card(state, instance)
    return bool(data["kicker"]) and data.get("kicker_colour") == _chain_colour(state, pending)


def _in_play_key(option_id: str, state: State) -> str | None:
    instance = _chosen_card(option_id)
    return key_of(instance) if instance and minion(state, instance) is not None else None


def _blocker(state: State, pending: PendingDecision) -> str:
    return key_of(pending["data"]["blocker"])


def _attacker(state: State, pending: PendingDecision, option_id: str) -> str | None:
    return _in_play_key(option_id, state) if option_id.startswith(("block:", "strike:")) else None


def _strength(state: State, pending: PendingDecision, option_id: str) -> int | None:
    instance = _chosen_card(option_id) if option_id.startswith(("block:", "strike:")) else None
    record = minion(state, instance) if instance else None
    return strength(state, record) if record is not None else None


def _defender(state: State, pending: PendingDecision) -> str | None:
    return current_combat(state)["defender"]


def _damage_of(state: State, pending: PendingDecision) -> str | None:
    """The attacker whose damage the blockers being ordered take (EN 155); for damage inflicted on the
    player (EN 167), the attacker whose text inflicts it, if one does."""
    data = pending.get("data", {})
    attacker = data.get("attacker") or (data.get("ctx") or {}).get("attacker")
    return key_of(attacker) if attacker else None


def _feeding(state: State, pending: PendingDecision) -> str | None:
    """The card whose text a feed carries out again (EN 202); none for a wound effect's feed."""
    ctx: dict[str, Any] = pending.get("data", {}).get("ctx") or {}
    return key_of(ctx["card"]) if ctx.get("card") else None


def _feed_cost(state: State, pending: PendingDecision) -> str:
    feed = pending.get("data", {}).get("feed")
    return feed["cost"] if feed else "wound-effect"


_LINKS = (
    decision_test("chain-colour", "the colour of the chain's last card, the kicker colour of a card that gets "
                  "its kicker linked to it (EN 199)", _chain_colour, values=COLOURS),
    decision_test("chain-links", "the link colours of the chain's last card: a card of one of them links to it "
                  "(EN 177)", _chain_links, type="text-list", values=COLOURS),
    option_test("colour", "the colour of the card an option links", _colour, values=COLOURS),
    option_test("kicker", "whether linking the card gives its kicker: the chain's last card is of its kicker "
                "colour (EN 199)", _kicker, type="boolean"),
)

#: the tests each kind declares, by kind
TESTS: dict[str, tuple[OrderTest, ...]] = {
    "link": _LINKS,
    "add-to-chain": _LINKS,
    "block": (
        decision_test("blocker", "your minion asked whether it blocks, by its design key (EN 152)", _blocker),
        option_test("attacker", "the attacker an option blocks, by its design key", _attacker),
        option_test("strength", "the strength of the attacker an option blocks", _strength, type="integer"),
    ),
    "strike": (
        option_test("attacker", "the attacker that strikes next, by its design key (EN 155)", _attacker),
        option_test("strength", "the strength of the attacker that strikes next", _strength, type="integer"),
    ),
    "block-order": (
        decision_test("attacker", "the attacker whose damage the blockers take, by its design key (EN 155); "
                      "none for damage a card's text inflicts on you (EN 167)", _damage_of),
    ),
    "wound-window": (
        decision_test("defender", "the player your minions attack in this combat", _defender),
    ),
    "feed": (
        decision_test("feeding", "the card whose text a feed carries out again, by its design key (EN 202); "
                      "none for the Martial Law wound effect's feed", _feeding),
        decision_test("cost", "what the feed costs: discard (cards from hand), wound (wounds received) or "
                      "wound-effect (a wound discarded, for the wound effect's +1 strength)", _feed_cost,
                      values=("discard", "wound", "wound-effect")),
    ),
}
