"""A golden playthrough (as OpenSpiel's integration playthroughs): a short pinned game played by
random bots, every decision, public event line and each player's final view, diffed against
``golden/playthrough-2p.txt``. Regenerate after an intended change with::

    NIGHTLANCER_REGOLD=1 python -m pytest tests/nightlancer/test_golden_playthrough.py
"""

from __future__ import annotations

import os
from pathlib import Path

from pbem.bots.playout import play
from pbem.games.nightlancer import GAME

from .helpers import scenario

GOLDEN = Path(__file__).parent / "golden" / "playthrough-2p.txt"


def transcript() -> str:
    setup = scenario(nightlancers=["cybercracker", "guard"], turn_order=[1, 0], events=["checkpoint"])
    lines: list[str] = []

    def record(game, state):
        lines.extend(f"  | {line}" for line in state["events"])
        for d in game.awaiting(state):
            lines.append(f"? {d.player} {d.kind}: " + " ".join(o.id for o in d.options))

    playout = play(GAME, ["ana", "ben"], 11, setup, check=record)
    for player in ("ana", "ben"):
        lines.append(f"=== final view of {player}")
        lines.append(GAME.render(GAME.public(playout.state), GAME.private(playout.state, player), GAME.cards(setup)))
    return "\n".join(lines) + "\n"


def test_golden_playthrough_is_unchanged():
    text = transcript()
    if os.environ.get("NIGHTLANCER_REGOLD"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "the playthrough changed; regenerate the golden file if this is intended"
