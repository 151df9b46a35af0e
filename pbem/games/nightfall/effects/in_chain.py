"""Effects on the cards of the chain still to resolve ("next" = resolves next, DE 98)."""

from __future__ import annotations

from typing import Any

from pbem.engine.errors import present
from pbem.engine.machine import TurnMachine
from pbem.engine.rng import Rng
from pbem.games.nightfall.effects.common import (
    archive_label,
    chain_entry_label,
    choose,
    entry_of,
    find_archive,
    unresolved_before,
)
from pbem.games.nightfall.flow import on_data
from pbem.games.nightfall.state import (
    State,
    card,
    current_chain,
    event,
    exile,
    name,
)


def cancel_next(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """The next card in the chain is not carried out: it goes to its owner's
    discard pile instead (DE 61)."""
    later = unresolved_before(state, ctx)
    if later:
        current_chain(state)["entries"][later[0]]["cancelled"] = True
        event(state, f"{chain_entry_label(state, later[0])} will not be carried out")


def double_next_damage(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Double all damage of the next card in the chain, as it stands (DE 93)."""
    later = unresolved_before(state, ctx)
    if later:
        entry = current_chain(state)["entries"][later[0]]
        entry["multiplier"] = entry.get("multiplier", 1) * 2
        event(state, f"the damage of {chain_entry_label(state, later[0])} is doubled")


def grant_kicker(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """1 card in the chain (one still to resolve: ``target = "chain-card"``) carries out its kicker text;
    or all your following cards in the chain (``target = "your-chain-cards"``) carry out theirs, once (DE
    71): your cards that resolve after this one, i.e. those played before it; "following" and "next" are
    in resolution order (DE 98; ruling 16), and DE 71 carries them out "only when the respective card in
    the chain comes up"."""
    if params["target"] == "your-chain-cards":
        for index in unresolved_before(state, ctx):
            entry = current_chain(state)["entries"][index]
            if entry["controller"] == ctx["player"]:
                entry["force_kicker"] = True
                event(state, f"{chain_entry_label(state, index)} will carry out its kicker")
        return
    later = unresolved_before(state, ctx)
    if not later:
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: which card in the chain carries out its kicker?",
           [(f"chain:{i + 1}", chain_entry_label(state, i) + _kicker_note(state, i)) for i in later],
           "fx:grant_kicker", {"ctx": ctx})


def _kicker_note(state: State, index: int) -> str:
    """What choosing this card would do: a card with no kicker text gains nothing; one whose kicker fires anyway
    gains nothing more."""
    entry = current_chain(state)["entries"][index]
    if not card(state, entry["card"])["kicker"]:
        return " (no kicker text)"
    if entry["kicker"] or entry["force_kicker"]:
        return " (its kicker fires already)"
    return " (kicker: " + card(state, entry["card"])["text"].split("Kicker:", 1)[-1].strip() + ")"


def _grant_kicker(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    index = int(option_id.split(":", 1)[1]) - 1
    current_chain(state)["entries"][index]["force_kicker"] = True
    event(state, f"{chain_entry_label(state, index)} will carry out its kicker")


def take_control_of_chain_card(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Take control of 1 card in the chain that has not resolved (``take_control`` with ``target =
    "chain-card"``): it resolves for you, keeps its kicker, and a minion comes into play for you (DE 87)."""
    later = [i for i in unresolved_before(state, ctx) if current_chain(state)["entries"][i]["controller"] != ctx["player"]]
    if not later:
        return
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: take control of which card in the chain?",
           [(f"chain:{i + 1}", chain_entry_label(state, i)) for i in later], "fx:control_in_chain", {"ctx": ctx})


def _control_in_chain(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    index = int(option_id.split(":", 1)[1]) - 1
    current_chain(state)["entries"][index]["controller"] = data["ctx"]["player"]
    event(state, f"{data['ctx']['player']} takes control of {chain_entry_label(state, index)}")


def exile_self(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """This card is exiled instead of going to the discard pile."""
    entry = entry_of(state, ctx)
    if entry is not None and entry["card"] == ctx["card"] and not entry.get("moved"):
        exile(state, entry["card"])
        entry["moved"] = True
        event(state, f"{name(state, entry['card'])} is exiled")


def return_self_to_archive(state: State, ctx: dict[str, Any], params: dict[str, Any], rng: Rng) -> None:
    """Put this card on top of an archive of your choice (DE 92)."""
    entry = entry_of(state, ctx)
    if entry is None or entry["card"] != ctx["card"] or entry.get("moved"):
        return
    options = [(f"archive:{a['id']}", archive_label(state, a)) for a in state["archives"]]
    choose(state, ctx["player"], "target", f"{name(state, ctx['card'])}: on top of which archive?", options,
           "fx:return_to_archive", {"ctx": ctx})


def _return_to_archive(state: State, data: dict[str, Any], option_id: str, rng: Rng) -> None:
    entry = present(entry_of(state, data["ctx"]), "the chain card to return")
    archive = find_archive(state, option_id.split(":", 1)[1])
    archive["cards"].append(entry["card"])
    entry["moved"] = True
    event(state, f"{name(state, entry['card'])} goes on top of archive {archive['id']}")


def register(machine: TurnMachine[State]) -> None:
    """This module's tasks and answers, on the game's turn machine."""
    machine.answer("fx:grant_kicker", on_data(_grant_kicker))
    machine.answer("fx:control_in_chain", on_data(_control_in_chain))
    machine.answer("fx:return_to_archive", on_data(_return_to_archive))
