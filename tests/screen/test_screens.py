"""The screen of a real game: Nightfall's archives shown one line each, the result told once, the log in
80 columns and without card ids. What every game's screen keeps (80 columns, cards by name, copies
told apart) is the conformance suite's: ``tests/conformance/test_every_screen.py``.
"""

from __future__ import annotations

import re

from helpers_screen import EXCEPTIONS, RAW_ID, PlayedGame
from typer.testing import CliRunner

from pbem.bots import RandomBot
from pbem.cli.main import app
from pbem.engine import Rng, apply_choice, find_game, step_rng
from pbem.engine.screen import WIDTH, key_of

runner = CliRunner()



def test_the_archives_are_shown_one_line_each_with_name_cost_and_count() -> None:
    game = find_game("nightfall")
    scenario = game.load_scenario("standard")
    state = game.new_state(scenario, ["ann", "bob"], step_rng(bytes(32), [], 0))
    bots = {p: RandomBot(Rng.from_seed(p)) for p in ("ann", "bob")}
    step = 0
    while state["draft"] is not None or state["turn"] is None:  # the draft lays the 12 archives out
        decision = game.awaiting(state)[0]
        step += 1
        game.begin_step(state)
        state = apply_choice(game, state, decision.player, bots[decision.player].choose(None, decision),
                             step_rng(bytes(32), [], step))
    public = game.public(state)
    lines = game.render(public, game.private(state, "ann"), game.cards(scenario)).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Archives"))
    rows = lines[start + 1:start + 1 + len(public["archives"])]
    assert len(public["archives"]) == 12
    for archive, row in zip(public["archives"], rows, strict=True):
        top = game.cards(scenario)[key_of(archive["top"])]
        assert row.startswith(f"  {archive['id']} ") and top["name"] in row
        assert f"cost {top['cost']}" in row and row.endswith(f"{archive['count']} left")
        assert top["text"] not in row  # the text is on `pbem card NAME` and `pbem view --cards`
    assert not lines[start + 1 + len(rows)].startswith("  ")


def test_a_finished_games_result_is_told_once(finished: PlayedGame) -> None:
    for player in finished.players:
        screen = runner.invoke(app, ["view", str(finished.dir), "--as", player, "--key",
                                     str(finished.key_file(player))]).output
        assert len(re.findall(r"(?i)game over", screen)) == 1, screen
        assert screen.rstrip().splitlines()[-1].startswith("game over: ")
    log = runner.invoke(app, ["log", str(finished.dir)]).output
    assert len(re.findall(r"(?i)game over", log)) == 1


def test_the_log_fits_80_columns_and_names_no_card_by_id(finished: PlayedGame) -> None:
    log = runner.invoke(app, ["log", str(finished.dir)]).output
    assert not RAW_ID.search(log) and "{" not in log  # the deal is no longer dumped as JSON
    for line in log.splitlines():
        assert len(line) <= WIDTH or any(rule.match(line) for rule in EXCEPTIONS.values()), line
