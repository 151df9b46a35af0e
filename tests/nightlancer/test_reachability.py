"""Every rule is reachable in play: a keen player (never abandons, stays on missions, accepts fights,
plays contacts) meets every kind of decision and every penalty, trait and contact effect of the card set
within a few seeded games."""

from __future__ import annotations

import hashlib
from collections import Counter

from pbem.engine.protocol import apply_choice
from pbem.engine.rng import Rng, step_rng
from pbem.games.nightlancer import GAME
from pbem.games.nightlancer.zones import card

PREFER = {"stay": "stay", "abandon": "continue", "accept-fight": "fight", "consent": "accept", "repay": "repay"}


def keen(rng: Rng, decision) -> str:
    ids = [o.id for o in decision.options]
    if decision.kind in PREFER and PREFER[decision.kind] in ids:
        return PREFER[decision.kind]
    if decision.kind in ("choose-option", "face-off", "take-mission"):
        keen_ids = [i for i in ids if i not in ("abandon", "pass")]
        return rng.choice(keen_ids or ids)
    needed = [o.id for o in decision.options if o.id.startswith("play:") and "provides" in o.label]
    if needed:  # a keen player uses the card a special challenge requires
        return needed[0]
    plays = [i for i in ids if i.startswith("play:")]
    if plays and rng.randbelow(3):
        return rng.choice(plays)
    return rng.choice(ids)


def play_keen(scenario: str, players: int, seed: int, seen: Counter) -> None:
    names = ["ana", "ben", "cy", "dee"][:players]
    key = hashlib.sha256(f"reach-{seed}".encode()).digest()
    state = GAME.new_state(GAME.load_scenario(scenario), names, step_rng(key, [], 0))
    rng = Rng.from_seed(seed)
    step = 0
    while GAME.awaiting(state):
        decision = GAME.awaiting(state)[0]
        option = keen(rng, decision)
        seen["kind:" + decision.kind] += 1
        if option.startswith(("play:", "use:")):
            parts = option.split(":")
            data = card(state, parts[1])
            effect = data["self"][int(parts[2]) - 1] if len(parts) == 3 else data["against"]
            seen["effect:" + effect["effect"]] += 1
        if option.startswith("deal:"):
            seen["effect:deal"] += 1
        step += 1
        GAME.begin_step(state)
        state = apply_choice(GAME, state, decision.player, option, step_rng(key, [], step))
        for line in state["events"]:
            for marker in ("Penalty: gain", "Penalty: Abort", "combat.", "Dirty work", "Face-off", "Techshock",
                           "Contested Combat", "draws the Contact", "Loud", "is Complete"):
                if marker in line:
                    seen["event:" + marker] += 1


def test_every_decision_kind_and_contact_effect_is_reachable_in_play():
    seen: Counter = Counter()
    for seed in range(6):
        play_keen("standard", 4, seed, seen)
        play_keen("cooperative", 2, seed, seen)
        play_keen("hardened", 3, seed, seen)
    kinds = {k.split(":", 1)[1] for k in seen if k.startswith("kind:")}
    assert kinds == GAME.decision_kinds(), f"never met: {GAME.decision_kinds() - kinds}"
    effects_seen = {k.split(":", 1)[1] for k in seen if k.startswith("effect:")}
    effects_in_data = set()
    for c in GAME.load_scenario("standard")["card_data"]["contact"]:
        effects_in_data |= {e["effect"] for e in c["self"]} | {c["against"]["effect"]}
    assert effects_in_data <= effects_seen, f"never played: {effects_in_data - effects_seen}"
    # a shared victory is a tie at the end: pinned in test_game_end, not left to chance here
    for marker in ("Penalty: gain", "Penalty: Abort", "combat.", "Dirty work", "Face-off", "Contested Combat",
                   "draws the Contact", "Loud", "is Complete", "Techshock"):
        assert seen["event:" + marker], marker
