"""Every event of a step is kept, in order: a move of several choices, and the
decisions a standing order answers after it, are one step, and the turn it writes reports
all that happened in it, not only what the last choice did."""

from __future__ import annotations

import re
from pathlib import Path

from helpers_referee import make_keys

from pbem.referee import make_move, new_game, public_log, read_view, status, submit

SEATS = ["ann", "bob"]


def nightfall_after_the_draft(tmp_path: Path, orders: dict | None = None):
    """A two-player Nightfall game through the real files, drafted by taking the first pick
    each round (with ``orders`` set by every draft move), up to the first player's
    chain-start decision."""
    keys, _ = make_keys(tmp_path / "keys", ["referee", *SEATS])
    game = tmp_path / "game"
    new_game(game, "nightfall", [(p, keys[p].public) for p in SEATS], keys["referee"], seed=b"\x05" * 32)
    for _ in range(20):
        now = status(game)
        player = now.awaiting[0]["player"]
        view = read_view(game, player, keys[player])
        assert view.decision is not None
        if view.decision.kind == "chain-start":
            return game, keys, view
        submit(game, make_move(view, keys[player], [view.decision.options[0].id], standing_orders=orders),
               keys["referee"])
    raise AssertionError("the draft did not end")


def an_order_in_hand(view) -> tuple[str, str]:
    """The option that starts a chain with an order card in hand, and the card's name (its label,
    without the copy number that tells two copies apart)."""
    option = next(o for o in view.decision.options if o.id.startswith("play:"))
    return option.id, re.sub(r" #\d+$", "", option.label)


def last_events(game: Path) -> list[str]:
    return list(public_log(game))[-1].events


def test_a_move_of_several_choices_reports_the_events_of_every_choice(tmp_path: Path) -> None:
    game, keys, view = nightfall_after_the_draft(tmp_path)
    first, other = view.player, next(p for p in SEATS if p != view.player)
    played, card = an_order_in_hand(view)
    # start a chain and link nothing more: two choices, one move, one step
    submit(game, make_move(view, keys[first], [played, "pass"]), keys["referee"])
    events = last_events(game)
    started, stopped = f"{first} starts the chain with {card}", f"{first} links no more"
    assert started in events and stopped in events
    assert events.index(started) < events.index(stopped)
    assert status(game).awaiting[0]["player"] == other
    seen = read_view(game, other, keys[other]).public["events"]
    assert started in seen and stopped in seen, "the opponent's view shows the whole step too"


def test_a_standing_order_keeps_the_events_of_the_move_before_it(tmp_path: Path) -> None:
    # both players pass every link opportunity from their draft on; the first player's own
    # chance to link more is no opportunity a standing order may pass, so it is asked
    game, keys, view = nightfall_after_the_draft(tmp_path, orders={"auto_pass": {"link": "always"}})
    first, other = view.player, next(p for p in SEATS if p != view.player)
    played, card = an_order_in_hand(view)
    submit(game, make_move(view, keys[first], [played, "pass"]), keys["referee"])
    events = last_events(game)
    lines = [f"{first} starts the chain with {card}", f"{first} links no more", f"{other} passes"]
    assert all(line in events for line in lines), events
    assert [events.index(line) for line in lines] == sorted(events.index(line) for line in lines)
    assert any(line.endswith("resolves") for line in events[events.index(f"{other} passes"):])
