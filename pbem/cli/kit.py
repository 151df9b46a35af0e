"""``pbem kit``: for a game's authors, its data on the game kit (a Typer sub-app joined to ``pbem``).

* ``pbem kit data [GAME...] [--write]`` — every data file checked against its schema, every scenario
  loaded through the rules, every parsed copy made from its file's very bytes; ``--write`` writes the
  parsed copies again first;
* ``pbem kit sizes GAME [--games N] [--margin PERCENT] [--write]`` — the fullest sealed section of each
  kind over random games, against the declared sizes; ``--write`` writes them into ``sealed-sizes.json``.

A game on the kit keeps its data in one folder (:class:`pbem.engine.gamedata.GameData`); a game
that does not has nothing for these commands.
"""

from __future__ import annotations

from typing import Any

import typer

from pbem.cli.exits import exit_for as _exit_for
from pbem.cli.exits import guard as _guard
from pbem.cli.output import say
from pbem.referee.errors import SetupError, UsageError

app = typer.Typer(
    name="kit",
    help="For a game's authors: check its data files and write their parsed copies (data), measure and write "
         "its sealed sizes (sizes).",
    no_args_is_help=True,
)


def _found(name: str) -> Any:
    from pbem.engine.registry import find_game

    return _guard(lambda: find_game(name))


def _kit_game(name: str) -> Any:
    """The game registered as ``name``, which must keep its data on the kit."""
    from pbem.engine.gamedata import GameData

    game = _found(name)
    if not isinstance(getattr(game, "data", None), GameData):
        _exit_for(UsageError(f"{name} keeps no data folder of the game kit (pbem.engine.gamedata.GameData)"))
    return game


@app.command()
def data(
    games: list[str] = typer.Argument(
        None, metavar="GAME", help="The games to check (default: every game on the kit)."),
    write: bool = typer.Option(False, "--write", help="Write every parsed copy again first (cards.toml.json, "
                               "options.toml.json)."),
) -> None:
    """Check a game's data files: schemas, scenarios, parsed copies (exit 6 if one is not sound).

    Every file of the game's data folder against its schema, every
    scenario loaded through the rules (which check the effects its cards
    name), every parsed copy made from its file's very bytes.
    """
    from pbem.engine.errors import EngineError
    from pbem.engine.gamedata import GameData
    from pbem.engine.registry import game_names

    if not games:
        games = [name for name in game_names() if isinstance(getattr(_found(name), "data", None), GameData)]
    problems: list[str] = []
    for name in games:
        game = _kit_game(name)
        if write:
            for path in game.data.write_parsed_copies():
                say(f"{name}: wrote {path}")
        found = _guard(game.data.problems)
        for scenario in game.data.scenario_files():
            try:
                game.load_scenario(str(scenario))
            except EngineError as error:
                found.append(f"{scenario}: {error}")
        problems += [f"{name}: {problem}" for problem in found]
        say(f"{name}: {len(game.data.data_files())} files, " + (f"{len(found)} problems" if found else "all sound"))
    if problems:
        _exit_for(SetupError("\n".join(problems)))


@app.command()
def sizes(
    game: str = typer.Argument(..., metavar="GAME", help="The game to measure."),
    games: int = typer.Option(1, "--games", metavar="N", min=1, help="Random games per scenario and seat count."),
    margin: int = typer.Option(20, "--margin", metavar="PERCENT", min=0, max=100,
                               help="Per cent a size is given over the fullest section it must hold, when one is "
                                    "written."),
    write: bool = typer.Option(False, "--write", help="Write the sizes into the game's sealed-sizes.json: a "
                               "declared size that holds what was measured is kept, one that does not is "
                               "raised (a game under way replays only with the sizes it was played with)."),
) -> None:
    """Measure a game's sealed sections against its declared sizes (exit 6 if one outgrows its size).

    The fullest section of each kind over random games of every scenario
    and seat count: the referee's (compressed), a player's without a
    decision, and a player's while each kind of decision is awaited.
    """
    from pbem.referee.sizes import measure, sizes_holding

    kit = _kit_game(game)
    declared = _guard(lambda: kit.sealed_sizes(kit.min_players)) if kit.data.has_sealed_sizes() else None
    measured = _guard(lambda: measure(kit, games=games))
    say(f"{game}: {measured.configurations} random games, {measured.sections} sections")
    outgrown = measured.outgrown(declared) if declared is not None else {}
    for kind, length in sorted(measured.fullest.items()):
        size = None if declared is None else (declared.referee if kind == "referee" else declared.player_section(
            None if kind == "player" else kind.removeprefix("player:")))
        note = "" if size is None else f" of {size}" + (" OUTGROWN" if kind in outgrown else "")
        say(f"  {kind}: fullest {length} bytes{note}")
    if write:
        sizes = sizes_holding(measured, margin, declared)
        path = _guard(lambda: kit.data.write_sealed_sizes(sizes, games, margin, measured.fullest))
        say(f"wrote {path}: player {sizes.player}, decision {sizes.decision}, referee {sizes.referee}"
            + "".join(f", {kind} {size}" for kind, size in sorted(sizes.decisions.items())))
    elif declared is None:
        _exit_for(SetupError(f"{game} declares no sealed sizes: pbem kit sizes {game} --write writes them"))
    elif outgrown:
        _exit_for(SetupError(f"{game}: {len(outgrown)} kinds of section outgrew their declared size: "
                             + ", ".join(sorted(outgrown))))
