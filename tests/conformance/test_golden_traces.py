"""Seeded random games of every game on the kit play exactly as they did: the same decisions
(options and labels), the same public and private parts (events included) at every step, the
same choices, final state and result, as the golden digests the game keeps in its data folder
(``playout-traces.json``, :meth:`pbem.engine.gamedata.GameData.golden_traces`).

The rules' behaviour is pinned by their own tests and worked examples; this pins it over whole
random games too, so that a change made for speed alone shows as a changed digest. After an
intended change of the rules, write the game's digests again with::

    PBEM_REGOLD=1 python -m pytest tests/conformance/test_golden_traces.py -k GAME

For a wider comparison against another source tree (hundreds of seeds, every scenario),
``tests/playout_traces.py`` runs alone: see its docstring.
"""

from __future__ import annotations

import json
import os

import pytest
from helpers_conformance import game_data, kit_games
from playout_traces import trace_digest

from pbem.engine import find_game

#: the seeds of each game's standard scenario at each seat count
SEEDS = range(3)


def _traces(game_name: str) -> dict[str, str]:
    game = find_game(game_name)
    scenario = game.load_scenario(game.scenarios()[0])
    return {f"{game_name}/{seats}/{seed}": trace_digest(game, scenario, seats, seed)
            for seats in range(game.min_players, game.max_players + 1) for seed in SEEDS}


@pytest.mark.parametrize("game_name", kit_games())
def test_seeded_random_games_play_as_the_golden_traces_say(game_name: str) -> None:
    golden_file = game_data(game_name).golden_traces()
    found = _traces(game_name)
    if os.environ.get("PBEM_REGOLD"):
        golden_file.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    assert golden_file.is_file(), f"{golden_file} is missing: run with PBEM_REGOLD=1 to write it"
    expected = json.loads(golden_file.read_text())
    assert set(expected) == set(found), f"{golden_file} pins {sorted(set(expected) ^ set(found))} as well or not"
    changed = sorted(key for key in found if found[key] != expected[key])
    assert not changed, (f"these {game_name} games now play differently: {', '.join(changed)}; "
                         f"write {golden_file} again if the rules changed on purpose")
