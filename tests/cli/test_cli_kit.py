"""``pbem kit``: a game's data checked and its parsed copies written (``data``), its sealed sizes measured
and written (``sizes``), for every game on the kit, a game kept outside pbem as well.

The tests work on a copy of the test game's data folder, registered as a game of its own, so that
what the commands write changes nothing the suite reads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from loveletter import DATA, LoveLetter
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.engine import registry
from pbem.engine.gamedata import GameData
from pbem.engine.protocol import SealedSizes
from pbem.referee.sizes import Measured, sizes_holding

runner = CliRunner()
TESTS = Path(__file__).resolve().parents[1]


def pbem(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


@pytest.fixture
def copied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The test game again, as ``loveletter-copy`` (registered for the test only), its data a copy in
    ``tmp_path``."""
    folder = tmp_path / "data"
    shutil.copytree(DATA.folder, folder)
    data = GameData("loveletter-copy", folder, title="Love Letter", scenario_format=DATA.scenario_format,
                    scenario_schema=DATA.scenario_schema, schemas=folder / "schemas", card_file=DATA.card_file)

    class Copy(LoveLetter):
        pass

    Copy.data, Copy.name = data, data.game
    monkeypatch.setitem(registry._EXTRA, data.game, Copy())
    return data


def test_every_game_on_the_kit_has_sound_data() -> None:
    out = pbem("kit", "data")
    for game in ("loveletter", "nightfall", "nightlancer"):
        assert f"{game}: " in out and "all sound" in out.split(f"{game}: ")[1].splitlines()[0]


def test_a_parsed_copy_made_from_other_bytes_is_named_and_written_again(copied: GameData) -> None:
    data = copied
    cards = data.folder / "cards.toml"
    cards.write_text(cards.read_text().replace("copies = 5", "copies = 4"))
    out = pbem("kit", "data", "loveletter-copy", code=6)
    assert "cards.toml.json: not made from the bytes of cards.toml (pbem kit data loveletter-copy --write)" in out
    assert f"wrote {data.folder / 'cards.toml.json'}" in pbem("kit", "data", "loveletter-copy", "--write")
    assert "all sound" in pbem("kit", "data", "loveletter-copy")
    assert json.loads((data.folder / "cards.toml.json").read_text())["data"]["card"][0]["copies"] == 4


def test_a_data_file_against_its_schema_is_named_with_the_place(copied: GameData) -> None:
    data = copied
    (data.folder / "one-round.toml").write_text('colour = "red"\n' + (data.folder / "one-round.toml").read_text())
    out = pbem("kit", "data", "loveletter-copy", code=6)
    assert "one-round.toml: (top level): Additional properties are not allowed ('colour' was unexpected)" in out


def test_a_game_off_the_kit_has_no_data_for_the_commands() -> None:
    assert "highcard keeps no data folder of the game kit" in pbem("kit", "sizes", "highcard", code=2)


def test_the_sizes_are_measured_against_those_declared(copied: GameData) -> None:
    out = pbem("kit", "sizes", "loveletter-copy", "--games", "2")
    assert "loveletter-copy: 12 random games" in out  # 2 scenarios, 3 seat counts, 2 games each
    assert "  referee: fullest " in out and " of 768" in out and "OUTGROWN" not in out


def test_a_size_outgrown_is_named_and_raised_by_write_the_others_kept(copied: GameData) -> None:
    data = copied
    path = data.folder / "sealed-sizes.json"
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "referee": 256}))
    out = pbem("kit", "sizes", "loveletter-copy", code=6)
    assert "OUTGROWN" in out and "kinds of section outgrew their declared size: referee" in out
    pbem("kit", "sizes", "loveletter-copy", "--write")
    written = json.loads(path.read_text())
    assert written["referee"] > 256 and written["player"] == doc["player"] and written["decision"] == doc["decision"]
    assert set(written["measured"]["fullest"]) == {"referee", "player", "player:play", "player:target", "player:guess"}
    assert "OUTGROWN" not in pbem("kit", "sizes", "loveletter-copy")


def test_a_game_without_sizes_is_told_to_write_them_and_write_makes_sizes_that_hold(copied: GameData) -> None:
    data = copied
    (data.folder / "sealed-sizes.json").unlink()
    assert "declares no sealed sizes: pbem kit sizes loveletter-copy --write" in pbem(
        "kit", "sizes", "loveletter-copy", code=6)
    pbem("kit", "sizes", "loveletter-copy", "--write", "--margin", "50")
    assert json.loads((data.folder / "sealed-sizes.json").read_text())["measured"]["margin"] == 50
    assert "all sound" in pbem("kit", "data", "loveletter-copy")
    assert "OUTGROWN" not in pbem("kit", "sizes", "loveletter-copy")


def test_new_sizes_give_the_usual_size_to_most_kinds_and_their_own_to_the_rest() -> None:
    measured = Measured(games=1, fullest={"player": 300, "referee": 1000, "player:a": 700, "player:b": 650,
                                          "player:c": 2000})
    assert sizes_holding(measured, margin=20) == SealedSizes(player=512, decision=512, referee=1280,
                                                             decisions={"c": 2048})
    declared = SealedSizes(player=512, decision=256, referee=2048, decisions={"c": 4096})
    assert sizes_holding(measured, margin=20, declared=declared) == declared  # every section fits
    measured.fullest["player:a"] = 900  # more than 512 + 256
    assert sizes_holding(measured, margin=20, declared=declared) == SealedSizes(
        player=512, decision=256, referee=2048, decisions={"a": 768, "c": 4096})


def test_pbem_kit_data_runs_a_game_named_by_pbem_games_in_a_process_of_its_own() -> None:
    env = {**os.environ, "PBEM_GAMES": "loveletter", "PYTHONPATH": os.pathsep.join([str(TESTS),
                                                                                    os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pbem", "kit", "data", "loveletter"], env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "loveletter: 7 files, all sound\n"


@pytest.mark.parametrize("args", [["kit", "sizes", "no-such-game"], ["kit", "data", "no-such-game"]])
def test_an_unknown_game_is_a_setup_error(args: list[str]) -> None:
    assert "unknown game 'no-such-game'" in pbem(*args, code=6)
