"""Card texts in words: what an effect does, what an Agenda card asks and gives, token amounts.

Card data names effects and lists an Agenda's requirements, costs and
rewards (:mod:`.cards`); these are the short texts the screen prints for
them (:mod:`.screen`) and the rules put into option labels and what
happened (:mod:`.challenges`, :mod:`.actions`, :mod:`.prep`). Words only, no
rule: what each effect does is :mod:`.effects`.
"""

from __future__ import annotations

from typing import Any

Effect = dict[str, Any]


def amounts(tokens: dict[str, int]) -> str:
    """Token amounts as text: ``{"kc": 6, "health": 1}`` -> ``"6 KC, 1 Health"`` (zeros left out)."""
    return ", ".join(f"{n} {'KC' if k == 'kc' else k.title()}" for k, n in tokens.items() if n)


#: the short text of each effect but heal and drain; ``{amount}`` and the lists ``{challenges}``,
#: ``{abilities}`` and ``{types}`` are the effect's own (:class:`_Fields`)
_TEXTS = {
    "bonus": "+{amount} {challenges}", "enables": "provides {challenges}", "armour": "Armour {amount}",
    "steady": "ignore a Resolve symbol", "gain_kc": "take {amount} KC", "cool": "lose {amount} Heat",
    "draw": "draw {amount} Contact", "deal": "place your Deal token on a First Crew",
    "penalty": "-{amount} {challenges}", "heat": "target gains {amount} Heat",
    "cancel_buy": "cancel a black market buy (card discarded)", "skim": "-{amount} KC mission reward",
    "payment_heat": "+{amount} Heat on mission payment", "income": "+{amount} KC in Downtime",
    "extra_contacts": "+{amount} Contact draw", "max_health": "+{amount} max Health",
    "max_resolve": "+{amount} max Resolve", "ability": "+{amount} {abilities} rating",
    "discount": "-{amount} KC on {types}",
}


class _Fields:
    """An effect's fields as an effect text names them, each written only when the text asks for it."""

    def __init__(self, effect: Effect) -> None:
        self._effect = effect

    def __getitem__(self, key: str) -> object:
        if key == "amount":
            return self._effect.get("amount")
        if key == "types":
            return "/".join(self._effect.get("types", []))
        return "/".join(c.title() for c in self._effect.get(key, []))


def describe_effect(effect: Effect) -> str:
    """A short readable text of one effect (``+2 Covert/Streetwise``, ``recover 1 Health``)."""
    name: str = effect["effect"]
    if name in ("heal", "drain"):
        parts = [f"{effect[k]} {k.title()}" for k in ("health", "resolve") if effect.get(k)]
        return ("recover " if name == "heal" else "target discards ") + " and ".join(parts)
    text = _TEXTS.get(name)
    return name if text is None else text.format_map(_Fields(effect))


#: what an Agenda's requirement counts, in words
NEED_NAMES = {"heat": "Heat", "kc": "KC", "ideals": "Ideals", "prospects": "Prospects", "loans": "Loans",
              "missions": "missions completed", "skills": "Skills", "items": "Items", "contacts": "Contacts in hand"}


def describe_agenda(data: dict[str, Any]) -> str:
    """An Agenda card as text: what it needs, what it costs, what it gives."""
    needs = []
    for need in data["requires"]:
        what = f"{need['of'].title()} cards" if need["need"] == "cards" else NEED_NAMES.get(need["need"], need["need"])
        if "at_least" in need:
            needs.append(f"{what} at least {need['at_least']}")
        if "at_most" in need:
            needs.append(f"{what} at most {need['at_most']}")
    costs = amounts(data["cost"])
    names = {"kc": "KC", "prospects": "Prospects", "ideals": "Ideal(s)", "heal": "Health and Resolve recovered", "cool": "lose Heat", "draw": "Contact draw(s)", "max_resolve": "max Resolve"}
    gives = [f"{n} {names.get(k, k)}" if k != "cool" else f"lose {n} Heat" for k, n in data["reward"].items() if n]
    return (f"needs {', '.join(needs) or 'nothing'}; costs {costs or 'nothing'}; "
            f"gives {', '.join(gives) or 'nothing'}")
