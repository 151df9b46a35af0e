"""Nightlancer benchmarks: random games per second, and a balance report.

    python benchmarks/bench_nightlancer.py [games]            # random games/s by player count and mode
    python benchmarks/bench_nightlancer.py --balance [games]  # a heuristic player's scores

Both print the machine's speed first. The speed run plays random-bot games
in memory (pbem.bots.playout.play) without the invariant and leak checks,
seed by seed, alternately (every set-up's game of a seed, in the reverse
order for the next seed), and prints the rates by wall time and by CPU
time. The balance run plays a simple
heuristic player (take the mission that suits the Nightlancer, rest when
hurt, choose the option with the best margin, use helpful contacts, buy
Prospects when cheap) and prints mean scores by Nightlancer and the
solitaire and cooperative win rates: the evidence behind D3 in
docs/rulings.md. In cooperative games every seat plays as a
team mate (:func:`team_player`): it spreads the Crews over the missions
instead of piling onto one (a member joins a team mate's Crew only when no
free mission suits it), and gives KC where the team's final score gains by
it (a team mate's Heat or Loans to pay off, leftover KC that only a pooled
sum turns into Prospects) or where a team mate cannot pay Loan interest.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from functools import partial

from machine import Times, alternated, print_speed, timed

from pbem.bots.playout import play
from pbem.engine.protocol import apply_choice
from pbem.engine.rng import Rng, step_rng
from pbem.games.nightlancer import GAME, effects, tokens
from pbem.games.nightlancer.actions import sale_price
from pbem.games.nightlancer.cards import CHALLENGE_ABILITY, COMBAT_CHALLENGES, SPECIAL_CHALLENGES
from pbem.games.nightlancer.scoring import LOAN_PROSPECTS, best_payments
from pbem.games.nightlancer.zones import card

CONFIGS = [("solitaire", 1), ("standard", 2), ("standard", 3), ("standard", 4), ("cooperative", 3),
           ("hardened", 4)]


def speed(games: int) -> None:
    loaded = {scenario: GAME.load_scenario(scenario) for scenario, _ in CONFIGS}
    steps = dict.fromkeys(CONFIGS, 0)
    spent = dict.fromkeys(CONFIGS, Times(0.0, 0.0))
    for index, (scenario, players) in enumerate(alternated(CONFIGS, games)):
        names, seed = [f"p{i}" for i in range(players)], index // len(CONFIGS)
        played, times = timed(partial(play, GAME, names, seed, loaded[scenario]))
        steps[(scenario, players)] += played.steps
        was = spent[(scenario, players)]
        spent[(scenario, players)] = Times(was.wall + times.wall, was.cpu + times.cpu)
    print(f"{'scenario':<14}{'players':>8}{'games/s':>10}{'of CPU':>8}{'steps/s':>10}{'of CPU':>8}{'steps/game':>12}")
    for config in CONFIGS:
        (scenario, players), wall, cpu = config, spent[config].wall, spent[config].cpu
        print(f"{scenario:<14}{players:>8}{games / wall:>10.1f}{games / cpu:>8.1f}{steps[config] / wall:>10.0f}"
              f"{steps[config] / cpu:>8.0f}{steps[config] / games:>12.0f}")


# --- balance -------------------------------------------------------------------


def margin(state, player, challenge, difficulty, traits) -> float:
    kit = effects.kit(state, player, challenge, {"traits": traits})
    if challenge in SPECIAL_CHALLENGES and not kit["enables"]:
        return -9
    risk = 1.5 if challenge in COMBAT_CHALLENGES else 0
    return tokens.ability(state, player, CHALLENGE_ABILITY[challenge]) + kit["bonus"] + 1.5 - difficulty - risk


FREE_ACTIONS = ("sell:", "use:", "give:")


def heuristic(state, rng: Rng, decision) -> str:
    """A self-interested player: the one measured in competitive games and solitaire."""
    return choose(state, rng, decision, join_penalty=1)


def settled_score(state, player: str, kc_change: int = 0) -> int:
    """The score a player would settle at if the game ended now (items sold, best payments made)."""
    p = state["seats"][player]
    kc = p["kc"] + kc_change + sum(sale_price(card(state, i)) for i in p["items"])
    repaid, paid, bought = best_payments(kc, p["heat"], p["loans"])
    return (p["prospects"] + bought + p["ideals"] - (p["heat"] - paid)
            - LOAN_PROSPECTS * (p["loans"] - repaid))


def team_gift(state, decision) -> str | None:
    """The KC gift that helps the team most now, if any does.

    At the game end (``final``) a gift is worth making when the team's settled score rises by it. During
    play a member gives 5 KC to a team mate who holds under 2 KC (Loan interest, Skill draws) when
    the giver keeps 10 or more."""
    gifts = [o.id for o in decision.options if o.id.startswith("give:")]
    if not gifts:
        return None
    me = decision.player
    if decision.kind == "final":
        best, choice = 0, None
        for g in gifts:
            _, other, n = g.split(":")
            gain = (settled_score(state, me, -int(n)) + settled_score(state, other, int(n))
                    - settled_score(state, me) - settled_score(state, other))
            if gain > best:
                best, choice = gain, g
        return choice
    if state["seats"][me]["kc"] >= 15:
        for g in gifts:
            _, other, n = g.split(":")
            if n == "5" and state["seats"][other]["kc"] < 2:
                return g
    return None


def team_player(state, rng: Rng, decision) -> str:
    """A cooperative team mate: spreads the Crews over the missions and gives KC where it helps the team."""
    gift = team_gift(state, decision)
    if gift:
        return gift
    return choose(state, rng, decision, join_penalty=2)


def choose(state, rng: Rng, decision, join_penalty: int) -> str:
    ids = [o.id for o in decision.options]
    me = state["seats"][decision.player]
    cards = state["catalogue"]["cards"]
    kind = decision.kind
    prefer = {"stay": "stay", "abandon": "continue", "accept-fight": "fight", "consent": "accept",
              "assist": "assist", "repay": "repay", "interest": "pay"}
    if kind in prefer and prefer[kind] in ids:
        return prefer[kind]
    if kind == "choose-option":
        frame = state["stack"][-1]
        mission = cards[frame["card"]]
        options = mission["stages"][frame["stage"] - 1]["options"]
        scores = [margin(state, decision.player, o["challenge"], o["difficulty"], mission["traits"]) for o in options]
        return "option:1" if scores[0] >= scores[1] else "option:2"
    if kind == "take-mission":
        if me["health"] <= 3 or me["resolve"] <= 2:
            return "pass"
        best, choice = -2.0, "pass"
        for o in decision.options:
            if o.id.startswith(("first:", "join:")):
                mission = cards[o.id.split(":")[1]]
                value = sum(max(margin(state, decision.player, x["challenge"], x["difficulty"], mission["traits"])
                                for x in stage["options"]) for stage in mission["stages"])
                value += (2 if mission["profile"] == "high" else 0) - (join_penalty if o.id.startswith("join") else 0)
                if value > best:
                    best, choice = value, o.id
        return choice
    if kind == "streets":
        fulfil = [i for i in ids if i.startswith("fulfil:")]
        if fulfil:
            return fulfil[0]
        buys = [i for i in ids if i.startswith("buy:")]
        if buys and me["kc"] > 15 and len(me["items"]) + len(me["cyber"]) < 4:
            return rng.choice(buys)
        price = cards[state["event"]]["price"]
        if price <= 4 or len(state["decks"]["event"]) <= 2:
            n = max(0, (me["kc"] - 6) // price)
            if n:
                return f"prospects:{n}"
        return "pass"
    if kind == "skill":
        buys = [i for i in ids if i.startswith("buy:")]
        return buys[0] if buys else "none"
    if kind == "final":
        fulfil = [i for i in ids if i.startswith("fulfil:")]
        return fulfil[0] if fulfil else "done"
    if kind == "attempt":
        good = [o.id for o in decision.options if o.id.startswith("play:")
                and any(x in o.label for x in ("+", "provides", "Armour", "ignore"))]
        return good[0] if good else "roll"
    if kind == "reaction":
        plays = [i for i in ids if i.startswith("play:")]
        return rng.choice(plays) if plays and rng.randbelow(2) else "pass"
    if kind == "gear-up":
        return ids[0]
    return rng.choice([i for i in ids if not i.startswith(FREE_ACTIONS)] or ids)


def play_heuristic(scenario: str, players: int, seed: int):
    names = [f"p{i}" for i in range(players)]
    key = hashlib.sha256(f"balance-{seed}".encode()).digest()
    state = GAME.new_state(GAME.load_scenario(scenario), names, step_rng(key, [], 0))
    rng = Rng.from_seed(seed)
    player = team_player if state["mode"] == "cooperative" else heuristic
    step = 0
    while decisions := GAME.awaiting(state):
        decision = decisions[0]
        step += 1
        GAME.begin_step(state)
        state = apply_choice(GAME, state, decision.player, player(state, rng, decision), step_rng(key, [], step),
                             decision=decision)
    return state, GAME.result(state)


def balance(games: int) -> None:
    for scenario, players in (("solitaire", 1), ("cooperative", 2), ("cooperative", 3)):
        won, total = 0, 0
        for seed in range(games):
            _, result = play_heuristic(scenario, players, seed)
            won += bool(result.winners)
            total += sum(result.scores.values()) / players
        print(f"{scenario} x{players}: won {won}/{games}, mean score {total / games:.1f} (target 30)")
    plays: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    score: Counter[str] = Counter()
    spread = 0
    for seed in range(games):
        state, result = play_heuristic("standard", 4, seed)
        spread += max(result.scores.values()) - min(result.scores.values())
        for p in state["players"]:
            nightlancer = state["seats"][p]["nightlancer"]
            plays[nightlancer] += 1
            score[nightlancer] += result.scores[p]
            wins[nightlancer] += p in result.winners
    print(f"standard x4: mean spread first-last {spread / games:.1f}")
    for n in sorted(plays):
        print(f"  {n:<14} games {plays[n]:>4}  wins {wins[n] / plays[n]:.2f}  mean score {score[n] / plays[n]:.1f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    print_speed()
    if args and args[0] == "--balance":
        balance(int(args[1]) if len(args) > 1 else 100)
    else:
        speed(int(args[0]) if args else 50)
