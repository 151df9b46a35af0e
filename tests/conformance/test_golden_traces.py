"""Seeded random games of every shipped game play exactly as they did: the same decisions
(options and labels), the same public and private parts (events included) at every step, the
same choices, final state and result, as the golden digests in ``golden/playout-traces.json``.

The rules' behaviour is pinned by the worked examples and the golden playthroughs; this pins it
over whole random games too, so that a change made for speed alone shows as a changed digest.
After an intended change of the rules, regenerate with::

    PBEM_REGOLD=1 python -m pytest tests/test_playout_traces.py

For a wider comparison against another source tree (hundreds of seeds, every scenario),
``tests/playout_traces.py`` runs alone: see its docstring.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playout_traces import trace_digest

from pbem.engine import find_game
from pbem.engine.registry import GAMES

GOLDEN = Path(__file__).parent / "golden" / "playout-traces.json"
#: the seeds of each shipped game's standard scenario at each seat count
SEEDS = range(3)


def _traces(game_name: str) -> dict[str, str]:
    game = find_game(game_name)
    scenario = game.load_scenario(game.scenarios()[0])
    return {f"{game_name}/{seats}/{seed}": trace_digest(game, scenario, seats, seed)
            for seats in range(game.min_players, game.max_players + 1) for seed in SEEDS}


@pytest.mark.parametrize("game_name", sorted(GAMES))
def test_seeded_random_games_play_as_the_golden_traces_say(game_name: str) -> None:
    found = _traces(game_name)
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("PBEM_REGOLD"):
        golden = {key: digest for key, digest in golden.items() if not key.startswith(f"{game_name}/")} | found
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    expected = {key: digest for key, digest in golden.items() if key.startswith(f"{game_name}/")}
    assert expected, f"{GOLDEN} holds no {game_name} traces: run with PBEM_REGOLD=1 to write them"
    changed = sorted(key for key in found if found[key] != expected.get(key))
    assert not changed, (f"these {game_name} games now play differently: {', '.join(changed)}; "
                         f"regenerate {GOLDEN} if the rules changed on purpose")
