"""A game's data: one folder of scenarios, options, card data and sealed sizes, read the same way for every game.

A game on the kit (:mod:`pbem.engine.kit`) names its folder and says what
its files are (:class:`GameData`); the rest is read here, as every game
reads it:

* **scenarios**: every ``*.toml`` of the folder in the game's scenario
  format, checked against its schema; listed in the order their ``order``
  gives (the first is the standard set-up), worked examples
  (``example = true``) left out of the list but loadable by name. A name
  that is not a shipped scenario is the path of a scenario file.
* **options**: ``options.toml`` (``pbem-game-options/1``): every option a
  scenario or ``pbem new --option`` may set. A scenario as loaded holds
  every option's value under ``options``.
* **card data**: the card file a scenario names (``cards``, beside the
  scenario file), else the folder's ``cards.toml``, or an owner's own
  (``pbem new --cards FILE``), checked against the card format and its schema, then by
  the game's own rules of the data (:attr:`CardFile.validate`); under
  ``card_data`` in the scenario as loaded.
* **parsed copies**: beside ``options.toml`` and each card file, its parsed
  form (``cards.toml.json``), which is read instead of the TOML when it was
  made from the file's very bytes (:mod:`pbem.engine.scenario_files`).
  ``pbem kit data --write`` writes them; ``pbem kit data`` and the
  conformance tests check them.
* **sealed sizes**: ``sealed-sizes.json`` (``pbem-sealed-sizes/1``), the
  sizes the referee pads the game's sealed sections to, with what they were
  measured from; ``pbem kit sizes GAME --write`` measures random games and
  writes it.
* **golden traces**: ``playout-traces.json``, the digests of seeded random
  games that the conformance tests replay (not installed with pbem).

The folder is trusted like pbem's own files: its files are checked against
their schemas by the tests, not each time they are read, and its parsed
copies are read. An owner's card file is checked when it is read.
"""

# No ``from __future__ import annotations`` here: the NamedTuple below would compile its annotations at each
# import (docs/performance.md, "Annotations evaluated at import"); they name only what is defined above them.

import json
import tomllib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from pbem.durable import atomic_write
from pbem.engine.errors import ScenarioError
from pbem.engine.options import OptionTable, read_option_table
from pbem.engine.protocol import SealedSizes
from pbem.engine.scenario_files import (
    PARSED_SUFFIX,
    check_format,
    check_schema,
    parsed_copy_of,
    parsed_form,
    read_toml,
    scenario_names,
    schema_problem,
    trust,
    write_parsed_form,
)

#: the declaration of a game's options, in its folder
OPTIONS_FILE = "options.toml"
#: the card file a scenario uses unless it names another
DEFAULT_CARDS = "cards.toml"
#: the sealed sizes, in the game's folder
SEALED_SIZES_FILE = "sealed-sizes.json"
#: the format of :data:`SEALED_SIZES_FILE`
SEALED_SIZES_FORMAT = "pbem-sealed-sizes/1"
#: the golden traces of seeded random games, in the game's folder (for the conformance tests)
GOLDEN_TRACES_FILE = "playout-traces.json"


class CardFile(NamedTuple):
    """What a game's card file is: its format, its schema and the game's own rules of the data.

    ``what`` names it in messages (``"Nightfall card file"``); ``since`` says
    what changed in this version of the format, for a file of another
    version; ``validate(data, where)`` raises :class:`ScenarioError` for
    what the schema cannot say (a colour no card file declares, an id used
    twice).
    """

    what: str
    format: str
    since: str
    schema: str
    validate: Callable[[dict[str, Any], str], None] | None = None


#: checks a card file's data against the rules' vocabulary (the effects a card may name): ``check(data, where)``
CardCheck = Callable[[dict[str, Any], str], None]
#: checks a combination of options that each option's declaration alone allows: ``check(options, where)``
OptionsCheck = Callable[[dict[str, Any], str | None], None]


class GameData:
    """The data folder of one game, and how to read it (see the module docstring).

    ``schema`` names (the scenario's, the card file's) are files of pbem's
    ``schemas/`` (``scenario-nightfall``), or of the folder given as
    ``schemas`` (``NAME.schema.json`` there): a game kept outside pbem
    brings its own. ``check_options`` refuses a combination of options
    that the declarations alone allow (two variants that cannot be
    combined).
    """

    def __init__(self, game: str, folder: Path, *, title: str, scenario_format: str, scenario_schema: str,
                 card_file: CardFile, schemas: Path | None = None, check_options: OptionsCheck | None = None) -> None:
        self.game = game
        self.folder = Path(folder)
        self.title = title
        self.scenario_format = scenario_format
        self.scenario_schema = scenario_schema
        self.card_file = card_file
        self.schemas = schemas
        self.check_options = check_options
        trust(self.folder)

    def __repr__(self) -> str:
        return f"GameData({self.game!r}, {str(self.folder)!r})"

    # --- schemas

    def schema(self, name: str) -> str:
        """The schema ``name`` as :func:`~pbem.engine.scenario_files.check_schema` takes it: a name of pbem's
        ``schemas/``, or the path of the game's own."""
        return name if self.schemas is None else str(self.schemas / f"{name}.schema.json")

    # --- scenarios

    def scenarios(self) -> Sequence[str]:
        """The shipped scenarios; the first is the standard set-up."""
        return scenario_names(self.folder, self.scenario_format)

    def scenario_path(self, name: str) -> Path:
        """The file of scenario ``name``: a shipped one (a worked example too), or else a scenario file's path."""
        shipped = self.folder / f"{name}.toml"
        if "/" not in name and shipped.is_file():
            return shipped
        if Path(name).is_file():
            return Path(name)
        raise ScenarioError(f"{self.game} has no scenario {name!r}; its scenarios: {', '.join(self.scenarios())}")

    def load_scenario(self, name: str, cards: str | None = None, check: CardCheck | None = None) -> dict[str, Any]:
        """The scenario ``name`` with every option settled and its card data under ``card_data``: read
        from ``cards`` if given, else from the card file the scenario names; ``check`` is the rules' check
        of the card data (the screen, which reads a game set up before, has none)."""
        path = self.scenario_path(name)
        scenario = read_toml(path, f"{self.title} scenario")
        check_schema(scenario, self.schema(self.scenario_schema), str(path))
        scenario["options"] = self.options(scenario.get("options", {}), where=str(path))
        if cards is not None:
            card_path = Path(cards)
        elif "cards" in scenario:
            card_path = path.parent / scenario["cards"]
        else:
            card_path = self.folder / DEFAULT_CARDS
        scenario["card_data"] = self.read_cards(card_path, check)
        return scenario

    # --- options

    def option_table(self) -> OptionTable:
        """The options the game declares (``options.toml``); none without the file."""
        path = self.folder / OPTIONS_FILE
        return read_option_table(self.game, path) if path.is_file() else OptionTable(game=self.game)

    def options(self, given: Mapping[str, Any] | None, players: Sequence[str] | None = None,
                where: str | None = None) -> dict[str, Any]:
        """Every option: as ``given`` sets it (checked against its declaration), else its default."""
        options = self.option_table().settle(given, players, where)
        if self.check_options is not None:
            self.check_options(options, where)
        return options

    # --- card data

    def read_cards(self, path: str | Path, check: CardCheck | None = None) -> dict[str, Any]:
        """Read a card file and check it: its format version, its schema, the game's rules of the data
        (:attr:`CardFile.validate`) and, if given, the rules' ``check``."""
        spec, where = self.card_file, str(path)
        data = read_toml(path, spec.what, parsed=True)
        check_format(data, spec.format, where, spec.since)
        check_schema(data, self.schema(spec.schema), where)
        if spec.validate is not None:
            spec.validate(data, where)
        if check is not None:
            check(data, where)
        return data

    # --- the files, for the tests and ``pbem kit data``

    def scenario_files(self) -> list[Path]:
        """Every scenario file of the folder (worked examples too)."""
        return [path for path in sorted(self.folder.glob("*.toml"))
                if read_toml(path, f"{self.title} scenario").get("format") == self.scenario_format]

    def card_files(self) -> list[Path]:
        """Every card file a scenario of the folder names."""
        named = {read_toml(path, "scenario").get("cards", DEFAULT_CARDS) for path in self.scenario_files()}
        return [self.folder / name for name in sorted(named)]

    def data_files(self) -> list[tuple[Path, str]]:
        """Every file of the folder that has a schema, with the schema it is checked against."""
        files = [(path, self.schema(self.scenario_schema)) for path in self.scenario_files()]
        files += [(path, self.schema(self.card_file.schema)) for path in self.card_files()]
        if (self.folder / OPTIONS_FILE).is_file():
            files.append((self.folder / OPTIONS_FILE, "game-options"))
        if (self.folder / SEALED_SIZES_FILE).is_file():
            files.append((self.folder / SEALED_SIZES_FILE, "sealed-sizes"))
        return files

    def parsed_files(self) -> list[Path]:
        """The files read through a parsed copy beside them: the options and the card files."""
        options = self.folder / OPTIONS_FILE
        return [*([options] if options.is_file() else []), *self.card_files()]

    def stale_parsed_copies(self) -> list[Path]:
        """The parsed copies that are missing or were not made from their file's very bytes."""
        return [parsed_copy_of(path) for path in self.parsed_files() if not _is_current(path)]

    def write_parsed_copies(self) -> list[Path]:
        """Write the parsed copy beside every file read through one; the copies written."""
        return [write_parsed_form(path) for path in self.parsed_files()]

    def problems(self) -> list[str]:
        """What is wrong with the folder's files: each against its schema (read as written, not through a
        parsed copy), and each parsed copy made from its file's very bytes."""
        found = []
        for path, schema in self.data_files():
            try:
                doc = json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".json" else \
                    tomllib.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                found.append(f"{path}: {error}")
                continue
            problem = schema_problem(doc, schema)
            if problem is not None:
                found.append(f"{path}: {problem}")
        found += [f"{copy}: not made from the bytes of {copy.name.removesuffix(PARSED_SUFFIX)} "
                  f"(pbem kit data {self.game} --write)" for copy in self.stale_parsed_copies()]
        return found

    # --- sealed sizes

    def sealed_sizes(self, seats: int) -> SealedSizes:
        """The sizes of ``sealed-sizes.json``, the same for every seat count."""
        return _sealed_sizes(self.folder / SEALED_SIZES_FILE)

    def has_sealed_sizes(self) -> bool:
        return (self.folder / SEALED_SIZES_FILE).is_file()

    def write_sealed_sizes(self, sizes: SealedSizes, games: int, margin: int, fullest: Mapping[str, int]) -> Path:
        """Write ``sealed-sizes.json``: ``sizes``, measured over ``games`` random games of each scenario and
        seat count, whose fullest section of each kind was ``fullest``; the path written."""
        path = self.folder / SEALED_SIZES_FILE
        doc: dict[str, Any] = {"format": SEALED_SIZES_FORMAT, "player": sizes.player, "decision": sizes.decision,
                               "referee": sizes.referee}
        if sizes.decisions:
            doc["decisions"] = dict(sorted(sizes.decisions.items()))
        doc["measured"] = {"games": games, "margin": margin, "fullest": dict(sorted(fullest.items()))}
        atomic_write(path, (json.dumps(doc, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        _sealed_sizes.cache_clear()
        return path

    def golden_traces(self) -> Path:
        """Where the golden traces of the game's seeded random games are kept."""
        return self.folder / GOLDEN_TRACES_FILE


def _is_current(path: Path) -> bool:
    try:
        copy = json.loads(parsed_copy_of(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return json.dumps(copy, sort_keys=True) == json.dumps(parsed_form(path.read_bytes()), sort_keys=True)


@cache
def _sealed_sizes(path: Path) -> SealedSizes:
    """The sizes a ``sealed-sizes.json`` declares (read once per process)."""
    doc = read_sealed_sizes(path)
    return SealedSizes(player=doc["player"], decision=doc["decision"], referee=doc["referee"],
                       decisions=dict(doc.get("decisions", {})))


def read_sealed_sizes(path: Path) -> dict[str, Any]:
    """A ``sealed-sizes.json`` as data; a missing or unreadable file is a :class:`ScenarioError`."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ScenarioError(f"cannot read the sealed sizes {str(path)!r}: {error} "
                            f"(pbem kit sizes GAME --write measures and writes them)") from error
    check_format(doc, SEALED_SIZES_FORMAT, str(path), "the sizes by section, then what they were measured from")
    check_schema(doc, "sealed-sizes", str(path))
    return doc  # type: ignore[no-any-return]
