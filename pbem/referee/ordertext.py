"""Orders as a player types them (``pbem move --order KIND=SPEC``) and reads them (``pbem view``).

One order in one line, the same both ways (:func:`parse_order` and
:func:`order_text` are inverses)::

    card=koi-jiang, chain-colour=red -> colour=blue & kicker=true, pass

Items are separated by ``,`` and tried in order. Each is a rule, ``[IF ->]
CHOOSE``: ``IF`` names decision tests that must hold, ``CHOOSE`` is
``pass``, ``first``, or option tests that the chosen option must pass, each
``TEST=VALUE`` and joined by ``&``. The last item, if it is ``pass`` or
``first`` alone, is the fallback; without one, the fallback is ``pass``. A
value is a text (a card's design key, a colour, a label pattern with ``*``),
``true`` or ``false`` for a yes-or-no test, and for a number test a number or
a range (``3..``, ``..2``, ``2..4``); a value holds no ``,``, ``&`` or
``->`` (a label pattern puts ``*`` in their place). ``off`` cancels the order.

The tests are the kind's (``pbem games --orders``), whose types tell how a
value is read; what does not fit is a :class:`~pbem.referee.errors.UsageError`
naming it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.engine.ordertests import OrderTest
from pbem.engine.protocol import Game
from pbem.referee import orders
from pbem.referee.errors import UsageError


def _value(test: OrderTest, text: str, where: str) -> Any:
    if test.type == "integer":
        low, dots, high = text.partition("..")
        try:
            if not dots:
                return int(text)
            bound = {}
            if low:
                bound["min"] = int(low)
            if high:
                bound["max"] = int(high)
        except ValueError:
            raise UsageError(f"{where}: {test.name} takes a number or a range (3, 3.., ..2, 2..4), not {text!r}") from None
        if not bound:
            raise UsageError(f"{where}: {test.name} takes a range with a number on one side at least")
        return bound
    if test.type == "boolean":
        if text not in ("true", "false"):
            raise UsageError(f"{where}: {test.name} takes true or false, not {text!r}")
        return text == "true"
    return text


def _tests(game: Game[Any], kind: str, text: str, about: str, where: str) -> dict[str, Any]:
    tests = orders.tests_of(game, kind)
    found: dict[str, Any] = {}
    for part in text.split("&"):
        name, equals, value = (p.strip() for p in part.partition("="))
        if not equals or not name or not value:
            raise UsageError(f"{where}: {part.strip()!r} is not TEST=VALUE")
        test = tests.get(name)
        if test is None or test.about != about:
            offered = sorted(t.name for t in tests.values() if t.about == about)
            raise UsageError(f"{where}: {kind} decisions have no {about} test {name!r} "
                             f"(their {about} tests: {', '.join(offered) or 'none'}; pbem games --orders)")
        if name in found:
            raise UsageError(f"{where}: {name} is named twice")
        found[name] = _value(test, value, where)
    return found


def parse_order(game: Game[Any], kind: str, spec: str) -> Any:
    """The order (or ``"off"``) that ``spec`` says for ``kind`` decisions of ``game``."""
    if kind not in game.decision_kinds():
        raise UsageError(f"{game.name} has no decision kind {kind!r}; its kinds: {orders.kinds_text(game)}")
    text = spec.strip()
    if text == orders.OFF:
        return orders.OFF
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise UsageError(f"--order {kind}={spec!r}: an empty item (two commas, or one at an end)")
    fallback = items.pop() if items[-1] in orders.CHOICES else "pass"
    rules = []
    for number, item in enumerate(items, start=1):
        where = f"--order {kind}=..., rule {number} ({item!r})"
        condition, arrow, choice = item.partition("->")
        if not arrow:
            condition, choice = "", item
        rule: dict[str, Any] = {}
        if arrow:
            rule["if"] = _tests(game, kind, condition, "decision", where)
        choice = choice.strip()
        rule["choose"] = choice if choice in orders.CHOICES else _tests(game, kind, choice, "option", where)
        rules.append(rule)
    order: dict[str, Any] = {"fallback": fallback}
    if rules:
        order["rules"] = rules
    return order


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return f"{value.get('min', '')}..{value.get('max', '')}"
    return str(value)


def _tests_text(tests: dict[str, Any]) -> str:
    return " & ".join(f"{name}={_value_text(value)}" for name, value in tests.items())


def order_text(order: Any) -> str:
    """An order as ``--order`` takes it (:func:`parse_order` reads it back)."""
    if order == orders.OFF:
        return orders.OFF
    items = []
    for rule in order.get("rules", []):
        choose = rule["choose"]
        choice = choose if isinstance(choose, str) else _tests_text(choose)
        items.append(f"{_tests_text(rule['if'])} -> {choice}" if rule.get("if") else choice)
    return ", ".join([*items, order["fallback"]])


def orders_lines(player_orders: dict[str, Any]) -> list[str]:
    """A player's orders, one line a kind (``link: card=koi-jiang, pass``), then the form before orders."""
    lines = [f"{kind}: {order_text(order)}" for kind, order in sorted(player_orders.get("orders", {}).items())]
    lines += [f"{kind}: pass (auto-pass)" for kind in sorted(player_orders.get("auto_pass", {}))]
    return lines


def parse_orders(game: Game[Any], specs: list[str], auto_pass: list[tuple[str, str]],
                 given: dict[str, Any] | None = None) -> dict[str, Any]:
    """The orders of a move: ``given`` (an ``--orders`` file's, by kind), then each ``KIND=SPEC`` of
    ``specs`` (``--order``) and each ``(KIND, MODE)`` of ``auto_pass`` (``--auto-pass``: ``always`` is the
    order ``pass``), a later one for a kind replacing an earlier."""
    found: dict[str, Any] = dict(given or {})
    for item in specs:
        kind, equals, spec = item.partition("=")
        if not equals or not kind:
            raise UsageError(f"--order {item!r}: expected KIND=SPEC (pbem move --help)")
        found[kind.strip()] = parse_order(game, kind.strip(), spec)
    for kind, mode in auto_pass:
        if mode not in orders.MODES:
            raise UsageError(f"--auto-pass {kind}={mode}: MODE must be one of {', '.join(orders.MODES)}")
        found[kind] = parse_order(game, kind, "pass" if mode == "always" else orders.OFF)
    return found


#: an orders file is read only up to this size: a move holds 4,096 bytes of choices and orders
ORDERS_FILE_MAX_BYTES = 64 * 1024


def read_orders_file(path: Path) -> dict[str, Any]:
    """The orders of an ``--orders`` file, by kind: a JSON object, or TOML for a name ending ``.toml``
    (``[link]`` then ``fallback = "pass"`` and ``[[link.rules]]`` tables), each order as
    ``schemas/order.schema.json`` has it, or ``"off"``."""
    import tomllib

    from pbem.crypto.canonical import parse_json_strict
    from pbem.crypto.errors import CryptoError

    try:
        data = path.read_bytes()[:ORDERS_FILE_MAX_BYTES + 1]
    except OSError as error:
        raise UsageError(f"--orders {path}: cannot read it ({error.strerror or error})") from error
    if len(data) > ORDERS_FILE_MAX_BYTES:
        raise UsageError(f"--orders {path}: over {ORDERS_FILE_MAX_BYTES} bytes; orders are short")
    try:
        found = (tomllib.loads(data.decode("utf-8")) if path.suffix == ".toml"
                 else parse_json_strict(data, max_bytes=ORDERS_FILE_MAX_BYTES, max_depth=16))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, CryptoError) as error:
        raise UsageError(f"--orders {path}: not {'TOML' if path.suffix == '.toml' else 'JSON'}: {error}") from error
    if not isinstance(found, dict):
        raise UsageError(f"--orders {path}: expected a table of orders by decision kind")
    return found
