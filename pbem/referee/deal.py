"""The deal: turn 0, from ``game.toml``, the seed and the players' entropy.

Shared by ``pbem new`` (deal at once), the last join of a game that waits for
joins, and ``pbem verify --replay``, so that all three set the game up the
same way: the scenario named in ``game.toml`` (with the card file kept in
the game directory, if one was used), the options of ``game.toml``, the
players in seat order, and the generator ``step_rng(seed, entropy, 0)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.crypto.canonical import canonical_json, sha256_ref
from pbem.engine.errors import EngineError
from pbem.engine.options import set_up_options
from pbem.engine.protocol import Game, GameScreen
from pbem.engine.registry import find_game, find_screen
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir, read_file

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.static import StaticMembers


def cards_path(gamedir: GameDir, gamefile: GameFile) -> Path | None:
    """The copy of the ``--cards`` file kept in the game directory, checked against ``game.toml``."""
    if gamefile.cards is None:
        return None
    name = gamefile.cards["file"]
    if not isinstance(name, str) or Path(name).name != name or name.startswith("."):
        # game.toml may come from anyone (its turns signed by the key it names): never a path elsewhere
        raise GameDirError(f"{gamedir.game_toml}: [cards] file {name!r} is not the name of a file in cards/")
    path = gamedir.cards / name
    try:
        data = read_file(path)  # not through a link, nor from a FIFO
    except OSError:
        raise GameDirError(f"{path}: the card file named in game.toml is missing") from None
    if sha256_ref(data) != gamefile.cards["sha256"]:
        raise GameDirError(f"{path}: its SHA-256 is not the one game.toml names")
    return path


def load_setup(game: GameScreen, gamedir: GameDir, gamefile: GameFile) -> Any:
    """The scenario as ``game.toml`` describes it: name, card file and options; refused unless it is the
    set-up ``game.toml`` pins by its hash (``setup``), when it pins one."""
    cards = cards_path(gamedir, gamefile)
    try:
        setup = game.load_scenario(gamefile.scenario, cards=str(cards) if cards is not None else None)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: cannot load scenario {gamefile.scenario!r}: {error}") from error
    try:
        set_up_options(game, setup, gamefile.options, gamefile.player_names)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: [options]: {error}") from error
    if gamefile.setup is not None and setup_hash(setup) != gamefile.setup:
        raise GameDirError(
            f"{gamedir.game_toml}: the scenario data of this pbem ({setup_hash(setup)}) is not the data the game "
            f"was set up with ({gamefile.setup}); deal or replay it with the pbem version that created it"
        )
    return setup


#: each set-up's static members, by (game, setup hash): the set-up is loaded once per process
_STATIC: dict[tuple[str, str], StaticMembers] = {}


def static_members(game: Game, gamedir: GameDir, gamefile: GameFile) -> StaticMembers:
    """The static members of this game's states (:meth:`Game.static_state` of its set-up).

    They are kept out of every referee section and put back from here when
    one is opened. The set-up is the one ``game.toml`` pins (``setup``), so
    it is loaded once per process.
    """
    key = (game.name, gamefile.setup) if gamefile.setup is not None else None
    found = _STATIC.get(key) if key is not None else None
    if found is None:
        found = static_of(game, load_setup(game, gamedir, gamefile))
        if key is not None:
            _STATIC[key] = found
    return found


def static_of(game: Game, setup: Any) -> StaticMembers:
    """:meth:`Game.static_state` of ``setup``."""
    from pbem.referee.static import StaticMembers  # the referee's side: a view's card data needs no state

    return StaticMembers.of(game.static_state(setup), game.name)


def card_data(game: GameScreen, gamedir: GameDir, gamefile: GameFile) -> Any:
    """The public, static card data of this game (:meth:`Game.cards` of its set-up), for reading a view."""
    return game.cards(load_setup(game, gamedir, gamefile))


def screen_and_cards(gamedir: GameDir, gamefile: GameFile) -> tuple[GameScreen, Any]:
    """The screen of the game ``game.toml`` names (:func:`~pbem.engine.registry.find_screen`) and its card
    data (:func:`card_data`); a game not installed here is a :class:`GameDirError`.

    The screen reads the set-up without the rules, which checked it when
    the game was dealt: ``game.toml`` pins that set-up by its hash, and
    :func:`load_setup` refuses any other. A ``game.toml`` that pins none (a
    game set up by an older pbem) is read through the rules, which check
    the card data in full.
    """
    try:
        game = find_screen(gamefile.game) if gamefile.setup is not None else find_game(gamefile.game)
    except EngineError as error:
        raise GameDirError(f"{gamedir.game_toml}: {error}") from error
    return game, card_data(game, gamedir, gamefile)


def setup_hash(setup: Any) -> str:
    """``sha256:`` of the canonical JSON of a scenario as set up."""
    return sha256_ref(canonical_json(setup))
