"""Measuring a game's sealed sizes: the fullest section of each kind over random games (``pbem kit sizes``).

The referee pads every sealed section to a size the game declares
(:meth:`~pbem.engine.protocol.Game.sealed_sizes`), so that a section's
length tells nothing but public facts (docs/engine.md, "Sealed sizes").
The sizes must hold every position the game reaches. This plays random
games of every scenario and seat count, builds each position's sections as
the referee seals them (:func:`pbem.referee.core.section_documents`) and
keeps the largest of each kind: the referee's (compressed), a player's
without a decision, a player's while a decision of each kind is awaited.
:func:`sizes_holding` turns them into the sizes to declare.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pbem.bots.random_bot import RandomBot
from pbem.crypto.canonical import canonical_json
from pbem.crypto.keys import generate
from pbem.engine.errors import ScenarioError
from pbem.engine.protocol import Game, SealedSizes, apply_choice
from pbem.engine.rng import Rng, step_rng
from pbem.referee import sealing
from pbem.referee.core import Position, section_documents
from pbem.referee.deal import static_of
from pbem.referee.gamefile import GameFile

#: sizes are declared in steps of this many bytes
SIZE_STEP = 256
#: the margin a size is given over the fullest section measured, in per cent
DEFAULT_MARGIN = 20
#: the kind of section of the referee, and of a player while nothing of theirs is awaited
REFEREE, PLAYER = "referee", "player"


@dataclass
class Measured:
    """The fullest section of each kind (``referee``, ``player``, ``player:KIND``), in bytes, over
    ``configurations`` games (scenario, seat count and seed) and ``sections`` sections."""

    games: int
    fullest: dict[str, int] = field(default_factory=dict)
    sections: int = 0
    configurations: int = 0

    def see(self, kind: str, length: int) -> None:
        self.fullest[kind] = max(self.fullest.get(kind, 0), length)
        self.sections += 1

    def outgrown(self, sizes: SealedSizes) -> dict[str, tuple[int, int]]:
        """The kinds of section whose fullest outgrew its declared size: ``{kind: (fullest, size)}``."""
        found = {}
        for kind, length in self.fullest.items():
            size = sizes.referee if kind == REFEREE else sizes.player_section(
                None if kind == PLAYER else kind.removeprefix(f"{PLAYER}:"))
            if length > size:
                found[kind] = (length, size)
        return found


def measure(game: Game[Any], games: int = 1, every: int = 1, first_seed: int = 0) -> Measured:
    """Play ``games`` random games of every scenario and seat count of ``game`` (from seed ``first_seed``)
    and measure the sections of every ``every``-th position and of the last."""
    measured = Measured(games=games)
    seats = {name: generate(name) for name in ("referee", *(f"p{i}" for i in range(game.max_players)))}
    for scenario_name in game.scenarios():
        scenario = game.load_scenario(scenario_name)
        for count in range(game.min_players, game.max_players + 1):
            players = [f"p{i}" for i in range(count)]
            for seed in range(first_seed, first_seed + games):
                try:
                    _play(game, scenario, players, seed, every, seats, measured)
                except ScenarioError:
                    break  # not a set-up of this scenario (a solitaire scenario with three players)
                measured.configurations += 1
    return measured


def _play(game: Game[Any], scenario: Any, players: list[str], seed: int, every: int, seats: Mapping[str, Any],
          measured: Measured) -> None:
    static = static_of(game, scenario)
    gamefile = GameFile(game_id="0123456789abcdef", game=game.name, scenario="",
                        players=tuple((p, seats[p].public) for p in players), referee=seats["referee"].public,
                        game_recipient=seats["referee"].public.recipient, commitment="")
    key = hashlib.sha256(f"sizes-{game.name}-{seed}".encode()).digest()
    state = game.new_state(copy.deepcopy(scenario), players, step_rng(key, [], 0))
    bots = {p: RandomBot(Rng.from_seed(f"sizes-{seed}-{p}")) for p in players}
    step = 0
    while True:
        decisions = game.awaiting(state)
        if step % every == 0 or not decisions:
            # the referee's section as it is sealed: its step and orders at their largest usual size
            position = Position(turn=step, state=state, seed=key, entropy=[key] * len(players),
                                step=[{"player": players[0], "option": "x" * 40, "by": "move"}])
            docs = section_documents(game, gamefile, position, static, decisions)
            kinds = {d.player: d.kind for d in decisions}
            for player in players:
                kind = kinds.get(player)
                measured.see(PLAYER if kind is None else f"{PLAYER}:{kind}", len(canonical_json(docs[player])))
            measured.see(REFEREE, len(sealing.compress(canonical_json(docs[REFEREE]))))
        if not decisions:
            return
        choice = bots[decisions[0].player].choose(None, decisions[0])
        game.begin_step(state)  # each choice a step of its own, as the referee begins every step
        state = apply_choice(game, state, decisions[0].player, choice, step_rng(key, [], step + 1),
                             decision=decisions[0])
        step += 1


def _rounded(length: int, margin: int) -> int:
    """``length`` with the margin, rounded up to a whole step."""
    wanted = -(-length * (100 + margin) // 100)
    return max(SIZE_STEP, -(-wanted // SIZE_STEP) * SIZE_STEP)


def sizes_holding(measured: Measured, margin: int = DEFAULT_MARGIN, declared: SealedSizes | None = None) -> SealedSizes:
    """Sizes that hold every section measured, each with ``margin`` per cent to spare.

    A size already ``declared`` that holds what was measured is kept, one
    that does not is raised: the sizes are part of how a game's files are
    written, and a game under way replays byte for byte only with the sizes
    it was played with. Without declared sizes, the kinds of decision that
    need the most usual size share it (``decision``) and every other kind
    gets its own (``decisions``).
    """
    fullest = measured.fullest
    kinds = {kind.removeprefix(f"{PLAYER}:"): length for kind, length in fullest.items()
             if kind.startswith(f"{PLAYER}:")}
    if declared is None:
        player = _rounded(fullest.get(PLAYER, 0), margin)
        needed = {kind: max(SIZE_STEP, _rounded(length, margin) - player) for kind, length in kinds.items()}
        counts: dict[int, int] = {}
        for size in needed.values():
            counts[size] = counts.get(size, 0) + 1
        usual = max(counts, key=lambda size: (counts[size], size)) if counts else SIZE_STEP
        return SealedSizes(player=player, decision=usual, referee=_rounded(fullest.get(REFEREE, 0), margin),
                           decisions={kind: size for kind, size in sorted(needed.items()) if size != usual})

    def kept(size: int, length: int) -> int:
        return size if length <= size else _rounded(length, margin)

    player = kept(declared.player, fullest.get(PLAYER, 0))
    decisions = dict(declared.decisions)
    for kind, length in sorted(kinds.items()):
        addition = declared.decisions.get(kind, declared.decision)
        if length > player + addition:
            decisions[kind] = max(SIZE_STEP, _rounded(length, margin) - player)
    return SealedSizes(player=player, decision=declared.decision, referee=kept(declared.referee,
                       fullest.get(REFEREE, 0)), decisions=decisions)
