"""A game's options: declared as data, checked in one place.

Each game declares the settings a scenario's ``[options]`` table and
``pbem new --option KEY=VALUE`` may set, in ``scenarios/GAME/options.toml``
(``pbem-game-options/1``, ``schemas/game-options.schema.json``): for each
option its ``name``, ``type``, ``default``, allowed ``values`` (or
``minimum``/``maximum``) and ``help``. A game hands its table over with the
optional protocol method ``declared_options()``; a game without it has none.

The scenario as set up holds **every** declared option under ``options``
(the scenario's own settings, then the ones chosen with ``--option``, the
rest at their defaults), so the set-up hash in ``game.toml`` covers each
value the rules read, and the rules read their settings from that table
alone.

Types: ``boolean``; ``integer`` (within ``minimum``/``maximum``); ``text``
(one of ``values``, or any text without them); ``text-list`` (a list of
``values``, comma-separated on the command line); ``player`` and
``player-list`` (seated players' names; a ``player`` option without a
default is unset, ``None``, until chosen).
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them.

import copy
import re
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from pbem.engine.errors import ScenarioError
from pbem.engine.scenario_files import check_schema, read_toml

#: the version of the declaration files
OPTIONS_FORMAT = "pbem-game-options/1"
#: what ``--option KEY=true`` may say for a boolean option (and for false)
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


class OptionError(ScenarioError):
    """An option a game does not declare, or a value its declaration does not allow."""


# OptionSpec and OptionTable are NamedTuples, not dataclasses: every referee step imports this module, the
# deal's options being set up again (docs/performance.md, "Records without dataclasses").


class OptionSpec(NamedTuple):
    """One declared option of a game."""

    name: str
    type: str
    help: str
    default: Any = None
    values: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    # --- what the option takes, in words -----------------------------------

    def kind_text(self) -> str:
        """What a value of this option is, for ``pbem games --options`` and messages."""
        if self.type == "boolean":
            return "true or false"
        if self.type == "integer":
            if self.minimum is not None and self.maximum is not None:
                return f"a whole number from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"a whole number, at least {self.minimum}"
            if self.maximum is not None:
                return f"a whole number, at most {self.maximum}"
            return "a whole number"
        if self.type == "text":
            return f"one of {', '.join(self.values)}" if self.values else "text"
        if self.type == "text-list":
            return f"a comma-separated list of {', '.join(self.values or ())} (or empty)"
        if self.type == "player":
            return "a seated player's name"
        return "a comma-separated list of seated players' names (or empty)"

    def default_text(self) -> str:
        """The default for people: as ``--option`` writes it, ``none`` when unset, ``empty`` for an empty list."""
        return "empty" if self.default == [] else format_value(self.default)

    # --- values --------------------------------------------------------------

    def parse(self, text: str, players: Sequence[str] | None = None) -> Any:
        """The typed value of ``--option NAME=TEXT``; :class:`OptionError` says what is expected."""
        if self.type == "boolean":
            word = text.strip().lower()
            if word in TRUE_WORDS:
                return True
            if word in FALSE_WORDS:
                return False
            return self._refuse(text, "true or false")
        if self.type == "integer":
            if not re.fullmatch(r"[+-]?[0-9]{1,18}", text.strip()):
                return self._refuse(text, self.kind_text())
            return self.check(int(text), players)
        if self.type in ("text-list", "player-list"):
            items = [item.strip() for item in text.split(",")] if text.strip() else []
            return self.check(items, players)
        return self.check(text.strip(), players)

    def check(self, value: Any, players: Sequence[str] | None = None) -> Any:
        """``value`` if this option allows it (from a scenario, ``game.toml`` or :meth:`parse`), else :class:`OptionError`.

        Player names are checked against ``players`` when the seats are known.
        """
        if self.type == "boolean":
            if type(value) is not bool:
                return self._refuse(value, "true or false")
        elif self.type == "integer":
            if type(value) is not int:
                return self._refuse(value, self.kind_text())
            if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
                return self._refuse(value, self.kind_text())
        elif self.type == "text":
            if not isinstance(value, str) or (self.values is not None and value not in self.values):
                return self._refuse(value, self.kind_text())
        elif self.type == "player":
            if value is None and self.default is None:
                return None  # unset: the rules decide (e.g. a random first player)
            if not isinstance(value, str) or (players is not None and value not in players):
                return self._refuse(value, self._players_text(players))
        else:  # text-list, player-list
            if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
                return self._refuse(value, self.kind_text())
            allowed = self.values if self.type == "text-list" else players
            wrong = [item for item in value if allowed is not None and item not in allowed]
            if wrong:
                what = self.kind_text() if self.type == "text-list" else self._players_text(players, many=True)
                return self._refuse(value, what, f"{', '.join(map(repr, wrong))} not allowed")
            if len(set(value)) != len(value):
                return self._refuse(value, self.kind_text(), "an item is given twice")
        return copy.deepcopy(value)

    def _players_text(self, players: Sequence[str] | None, many: bool = False) -> str:
        if players is None:
            return self.kind_text()
        return f"{'names of' if many else 'the name of'} seated players: {', '.join(players)}"

    def _refuse(self, value: Any, expected: str, why: str = "") -> Any:
        shown = value if isinstance(value, str) else format_value(value)
        raise OptionError(f"option {self.name}: {shown!r} is not allowed ({why + '; ' if why else ''}"
                          f"expected {expected})")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "default": self.default,
                "values": list(self.values) if self.values is not None else None,
                "minimum": self.minimum, "maximum": self.maximum, "help": self.help}


def format_value(value: Any) -> str:
    """A value as ``--option`` writes it: ``true``, ``3``, ``open-archives``, ``a,b`` (``none`` for unset)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(value)
    return str(value)


class OptionTable(NamedTuple):
    """The options one game declares, in the order of its declaration file."""

    game: str
    options: tuple[OptionSpec, ...] = ()

    @property
    def names(self) -> list[str]:
        return [spec.name for spec in self.options]

    def spec(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(self.names)
        raise OptionError(
            f"{self.game} has no option {name!r}; " + (f"its options: {known}" if known else "it has no options")
        )

    def defaults(self) -> dict[str, Any]:
        return {spec.name: copy.deepcopy(spec.default) for spec in self.options}

    def settle(self, given: Mapping[str, Any] | None, players: Sequence[str] | None = None,
               where: str | None = None) -> dict[str, Any]:
        """Every declared option: the value in ``given`` (checked), else the default.

        A name the game does not declare is an :class:`OptionError` naming
        the known options, never silently ignored; ``where`` (a scenario
        file) starts the message.
        """
        settled = self.defaults()
        try:
            for name, value in (given or {}).items():
                settled[name] = self.spec(name).check(value, players)
        except OptionError as error:
            if where is None:
                raise
            raise OptionError(f"{where}: {error}") from None
        return settled

    def parse(self, texts: Mapping[str, str], players: Sequence[str] | None = None) -> dict[str, Any]:
        """The typed values of ``--option KEY=VALUE`` pairs, each checked against its declaration."""
        return {name: self.spec(name).parse(text, players) for name, text in texts.items()}

    def to_json(self) -> list[dict[str, Any]]:
        return [spec.to_json() for spec in self.options]


def parse_option_table(game: str, doc: Any, where: str) -> OptionTable:
    """An :class:`OptionTable` from a parsed declaration (``pbem-game-options/1``), fully checked.

    Besides the schema: names are unique, and each default is a value its
    own option allows.
    """
    check_schema(doc, "game-options", where)
    specs: list[OptionSpec] = []
    for entry in doc["option"]:
        spec = OptionSpec(
            name=entry["name"], type=entry["type"], help=entry["help"], default=entry.get("default"),
            values=tuple(entry["values"]) if "values" in entry else None,
            minimum=entry.get("minimum"), maximum=entry.get("maximum"),
        )
        if spec.name in {s.name for s in specs}:
            raise ScenarioError(f"{where}: option {spec.name!r} is declared twice")
        if spec.default is None and spec.type != "player":
            raise ScenarioError(f"{where}: option {spec.name!r} needs a default (only a player option may be unset)")
        try:
            spec.check(spec.default)
        except OptionError as error:
            raise ScenarioError(f"{where}: the default of {error}") from None
        specs.append(spec)
    return OptionTable(game=game, options=tuple(specs))


@cache
def read_option_table(game: str, path: str | Path) -> OptionTable:
    """The option table of ``game`` from its declaration file (read once per process)."""
    return parse_option_table(game, read_toml(path, f"{game} option declarations"), str(path))


def options_of(game: Any) -> OptionTable:
    """The options ``game`` declares (``declared_options()``; none when it has no such method)."""
    declared = getattr(game, "declared_options", None)
    return declared() if declared is not None else OptionTable(game=game.name)


def set_up_options(game: Any, setup: dict[str, Any], chosen: Mapping[str, Any],
                   players: Sequence[str] | None = None) -> dict[str, Any]:
    """Put the scenario's settings, with ``chosen`` over them, into ``setup["options"]``, every option settled.

    Shared by ``pbem new`` and the deal (and so the replay), so that the
    scenario is set up the same way each time. Returns ``chosen``, checked.
    """
    table = options_of(game)
    checked = {name: table.spec(name).check(value, players) for name, value in chosen.items()}
    setup["options"] = table.settle({**setup.get("options", {}), **checked}, players)
    return checked

