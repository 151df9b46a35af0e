"""The static members of a state (the card catalogue): shared read-only by every state of the process.

A game must not change a member it declares static (``static_state``): the
referee keeps it out of the sealed section, so a change would be lost. Every
state the referee opens holds the same read-only containers
(:mod:`pbem.referee.static`), which refuse a change where it is tried, with
the error of a changed static member; a refused change leaves them as they
were, so no later state of the process (another step, another game, another
test) sees it. The referee's turn files are byte for byte what they were
(the golden and determinism tests).
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers_referee import make_keys, snapshot

from pbem.bots import RandomBot
from pbem.crypto.canonical import canonical_json
from pbem.engine import Rng, find_game
from pbem.engine.plain import copy_plain
from pbem.referee import new_game, submit, verify
from pbem.referee.core import dynamic_state
from pbem.referee.deal import load_setup, static_members
from pbem.referee.demo import bot_move
from pbem.referee.errors import GameDirError
from pbem.referee.gamefile import GameFile
from pbem.referee.layout import GameDir
from pbem.referee.static import StaticDict, StaticList, StaticMembers, is_static, working_copy

MEMBERS = {"cards": {"a": {"name": "Ace", "tags": ["x", "y"], "cost": 2}}, "order": [["a"], []], "size": 1}


def shared() -> dict[str, Any]:
    return StaticMembers.of(MEMBERS, "toy").members()


CHANGES: dict[str, Callable[[dict[str, Any]], object]] = {
    "a nested field": lambda s: s["cards"]["a"].__setitem__("cost", 3),
    "a new name": lambda s: s["cards"].__setitem__("b", {}),
    "a deleted name": lambda s: s["cards"]["a"].__delitem__("cost"),
    "update": lambda s: s["cards"]["a"].update(cost=3),
    "|=": lambda s: s["cards"]["a"].__ior__({"cost": 3}),
    "setdefault of a new name": lambda s: s["cards"]["a"].setdefault("new", 1),
    "pop": lambda s: s["cards"]["a"].pop("cost"),
    "popitem": lambda s: s["cards"].popitem(),
    "clear a dict": lambda s: s["cards"].clear(),
    "append": lambda s: s["cards"]["a"]["tags"].append("z"),
    "extend": lambda s: s["cards"]["a"]["tags"].extend(["z"]),
    "+=": lambda s: s["order"][0].__iadd__(["b"]),
    "*=": lambda s: s["order"][0].__imul__(2),
    "insert": lambda s: s["order"].insert(0, []),
    "item of a list": lambda s: s["order"].__setitem__(1, ["b"]),
    "slice of a list": lambda s: s["order"].__setitem__(slice(0, 1), []),
    "del of a list item": lambda s: s["order"].__delitem__(0),
    "list pop": lambda s: s["order"].pop(),
    "remove": lambda s: s["order"].remove([]),
    "sort": lambda s: s["cards"]["a"]["tags"].sort(reverse=True),
    "reverse": lambda s: s["cards"]["a"]["tags"].reverse(),
    "clear a list": lambda s: s["order"].clear(),
    "a shuffle": lambda s: Rng.from_seed("static").shuffle(s["cards"]["a"]["tags"], label="x"),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_change_of_a_static_member_is_refused_where_it_is_tried_and_changes_nothing(change: str) -> None:
    members = shared()
    with pytest.raises(GameDirError, match=r"the toy state changed its member '(cards|order)', which the game "
                                           r"declares static"):
        CHANGES[change](members)
    assert members == json.loads(canonical_json(MEMBERS))


def test_a_static_member_reads_as_the_plain_json_value_it_is() -> None:
    members, plain = shared(), json.loads(canonical_json(MEMBERS))
    assert members == plain and plain == members and members["cards"]["a"]["tags"] == ["x", "y"]
    assert isinstance(members["cards"], dict) and isinstance(members["order"], list)
    assert json.dumps(members, sort_keys=True) == json.dumps(plain, sort_keys=True)
    assert canonical_json(members) == canonical_json(plain)
    assert members["cards"]["a"].setdefault("cost", 9) == 2 and members["cards"]["a"].get("none") is None
    # what builds a new value builds a plain one, which the rules may change
    for made in (members["order"][0] + ["b"], members["order"][:], sorted(members["cards"]["a"]["tags"]),
                 dict(members["cards"]), members["cards"] | {}, members["cards"].copy(), members["order"].copy()):
        assert type(made) in (dict, list)
    assert members == plain


@pytest.mark.parametrize("how", ["copy.copy", "copy.deepcopy", "copy_plain", "pickle"])
def test_a_copy_of_a_static_member_is_plain_and_changing_it_changes_no_state(how: str) -> None:
    members = shared()
    copied = {
        "copy.copy": lambda v: {name: copy.copy(value) for name, value in v.items()},
        "copy.deepcopy": copy.deepcopy,
        "copy_plain": copy_plain,
        "pickle": lambda v: pickle.loads(pickle.dumps(v)),
    }[how](members)
    assert copied == members and type(copied["cards"]) is dict and type(copied["order"]) is list
    if how != "copy.copy":  # a shallow copy shares its items, as a plain one does
        copied["cards"]["a"]["tags"].append("z")
        copied["order"][0].append("b")
        assert not any(is_static(v) for v in (copied["cards"]["a"], copied["cards"]["a"]["tags"], copied["order"][0]))
    copied["cards"]["b"] = {}
    assert shared() == members == json.loads(canonical_json(MEMBERS))


def test_every_state_shares_the_static_members_and_a_working_copy_copies_only_the_rest() -> None:
    static = StaticMembers.of(MEMBERS, "toy")
    one, two = {"deck": [1], **static.members()}, {"deck": [2], **static.members()}
    assert one["cards"] is two["cards"] and isinstance(one["cards"], StaticDict) and isinstance(one["order"], StaticList)
    work = working_copy(one)
    assert list(work) == list(one) and work == one
    assert work["cards"] is one["cards"] and work["deck"] is not one["deck"]
    work["deck"].append(3)
    assert one["deck"] == [1] and dynamic_state(work, static) == {"deck": [1, 3]}
    # a dynamic member that holds a read-only value a rule put there is copied as a plain one
    one["held"] = {"tags": one["cards"]["a"]["tags"]}
    held = working_copy(one)["held"]
    assert type(held["tags"]) is list and held == {"tags": ["x", "y"]}


def test_a_state_whose_rules_put_a_changed_copy_in_place_of_a_static_member_is_not_sealed() -> None:
    static = StaticMembers.of(MEMBERS, "toy")
    state = {"deck": [1], **static.members()}
    state["cards"] = copy.deepcopy(state["cards"])  # an equal plain copy: as good as the member (a game's turn 0)
    assert dynamic_state(state, static) == {"deck": [1]}
    state["cards"]["a"]["tags"].append("z")
    with pytest.raises(GameDirError, match="state changed its member 'cards', which the game declares static"):
        dynamic_state(state, static)
    del state["cards"]
    with pytest.raises(GameDirError, match="static"):
        dynamic_state(state, static)


# --- through the referee: a Nightlancer game whose rules change the card catalogue --------------------

NESTED: dict[str, Callable[[dict[str, Any]], object]] = {
    "a card's field": lambda s: s["catalogue"]["cards"]["assassin"].__setitem__("health", 9),
    "a card's nested list": lambda s: s["catalogue"]["cards"]["assassin"]["special"][0]["challenges"].append("x"),
    "the die": lambda s: s["catalogue"]["die"].reverse(),
    "a changed copy in its place": lambda s: s.__setitem__("catalogue", {**s["catalogue"], "die": []}),
}


@pytest.mark.parametrize("change", list(NESTED))
def test_a_game_that_changes_its_catalogue_in_a_step_is_stopped_and_the_next_step_sees_the_set_up(
        change: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = find_game("nightlancer")
    players = ["p0", "p1"]
    keys, _ = make_keys(tmp_path / "keys", ["referee", *players])
    directory = tmp_path / "game"
    new_game(directory, "nightlancer", [(p, keys[p].public) for p in players], keys["referee"], seed=bytes(32))
    bots = {p: RandomBot(Rng.from_seed(f"static-{p}")) for p in players}
    made = bot_move(directory, keys, bots)
    assert made is not None
    apply = game.apply

    def changing(state: Any, player: str, option_id: str, rng: Rng) -> Any:
        state = apply(state, player, option_id, rng)
        NESTED[change](state)
        return state

    monkeypatch.setattr(game, "apply", changing)
    before = snapshot(directory)
    with pytest.raises(GameDirError, match="changed its member 'catalogue', which the game declares static"):
        submit(directory, made.data, keys["referee"])
    assert snapshot(directory) == before
    monkeypatch.undo()

    # nothing of the process kept the change: the members the next step shares are the set-up's
    gamedir = GameDir.at(directory)
    gamefile = GameFile.read(gamedir.game_toml)
    fresh = json.loads(canonical_json(game.static_state(load_setup(game, gamedir, gamefile))))
    assert static_members(game, gamedir, gamefile).members() == fresh
    submit(directory, made.data, keys["referee"])
    for _ in range(3):
        made = bot_move(directory, keys, bots)
        assert made is not None
        submit(directory, made.data, keys["referee"])
    verify(directory, replay=True)
