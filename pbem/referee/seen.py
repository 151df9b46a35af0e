"""What a player has seen: the record that catches dropped or rewritten turns.

The hash chain proves that nothing changed *inside* it, but a shorter chain
verifies as well as a long one: whoever hosts the game directory can drop
the newest turns (and the moves that made them), or replace them by others,
and ``pbem verify`` still passes. Only someone who remembers a later turn
can tell. So ``pbem view`` keeps, per game and player, the latest turn it
showed and that turn's hash (``pbem-seen/2``) in a small file on the
player's machine — never in the game directory — and each time checks that
the current chain still holds that turn, with that hash, before it
remembers the new one.

A copy fed by mail may lack turns (a mail that did not arrive), so the
chain from the turn shown now back to one shown before may cross a gap,
which is no sign of tampering. The record then keeps the earlier turn as
**unchecked** (``pbem-seen/2``, ``unchecked``), ``view`` says what it could
not check yet and why (:class:`Unchecked`), and the check is made as soon
as the copy holds the turns between (a later mail, ``pbem mail request``):
a gap makes ``view`` neither warn, nor forget a turn that a dropped or
rewritten history would otherwise lose unseen. Every turn the check reads is
signature-checked and followed by its ``previous`` hash, so what it
compares is the chain itself; ``reach`` remembers how far down the chain of
the latest turn shown was followed, so that a copy with an old gap is not
walked down to it at every view.

The file is ``STATE/seen/GAME_ID-PLAYER.json``, written atomically with mode
0600; ``STATE`` is ``$PBEM_STATE_DIR`` or, by default, ``$XDG_STATE_HOME/pbem``
(``~/.local/state/pbem``).
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them (those of names imported for type checking
# alone are strings).

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.durable import atomic_write
from pbem.referee import formats
from pbem.referee.copies import TurnRange, turns_text
from pbem.referee.errors import GameDirError, StateFileError
from pbem.referee.layout import GameDir
from pbem.referee.records import Record, read_turn
from pbem.referee.storage import dump_json

if TYPE_CHECKING:  # pragma: no cover
    from pbem.referee.player import PlayerView

#: the environment variable naming the state directory (tests, several profiles)
STATE_ENV = "PBEM_STATE_DIR"
#: the most turns shown and not checked yet a record keeps (each across a gap of its own that no
#: mail filled): beyond it the oldest is let go, and the view says so
MAX_UNCHECKED = 256
#: the largest record read (MAX_UNCHECKED entries fit well within it)
RECORD_MAX_BYTES = 64 << 10


def default_state_dir() -> Path:
    """``$PBEM_STATE_DIR``, else ``$XDG_STATE_HOME/pbem``, else ``~/.local/state/pbem``."""
    chosen = os.environ.get(STATE_ENV)
    if chosen:
        return Path(chosen)
    xdg = os.environ.get("XDG_STATE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "state") / "pbem"


def record_path(state_dir: Path, game_id: str, player: str) -> Path:
    return Path(state_dir) / "seen" / f"{game_id}-{player}.json"


class HistoryWarning(NamedTuple):
    """The current chain no longer holds a turn the player was shown."""

    turn: int
    turn_hash: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "turn_hash": self.turn_hash, "message": self.message}


class Unchecked(NamedTuple):
    """A turn the player was shown that the copy cannot link yet to the turn shown now: it lacks the turns between."""

    turn: int
    turn_hash: str
    #: the turns the copy lacks where the chain back from the turn shown now stops
    gap: TurnRange

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "turn_hash": self.turn_hash, "missing": list(self.gap)}


class HistoryCheck(NamedTuple):
    """What checking the turn shown now against the player's record found."""

    warning: HistoryWarning | None = None
    #: the turns shown before that cannot be checked yet (a gap in the copy), oldest first
    unchecked: tuple[Unchecked, ...] = ()
    #: turns shown before, let go unchecked because the record keeps at most :data:`MAX_UNCHECKED`
    let_go: int = 0
    #: the turn shown before that a rollback with every seat's consent abandoned, when that is why the
    #: directory no longer holds it (:func:`pbem.referee.rollback.rolled_back`)
    rolled_back: int | None = None

    def note(self) -> str | None:
        """What ``view`` says of the turns it could not check yet (or of a rollback), or ``None``."""
        if self.rolled_back is not None:
            return (f"turn {self.rolled_back}, shown to you before, was abandoned by a rollback that every seat "
                    "consented to (the consents and the abandoned turns are kept in abandoned/; pbem verify "
                    "checks them): the game went back to an earlier turn")
        if not self.unchecked and not self.let_go:
            return None
        parts = []
        for gap in dict.fromkeys(u.gap for u in self.unchecked):
            shown = [u.turn for u in self.unchecked if u.gap == gap]
            turns = ", ".join(map(str, shown))
            parts.append(f"turn{'s' if len(shown) > 1 else ''} {turns}, shown to you before, cannot be checked "
                         f"against this one yet: your copy lacks {turns_text([gap])}, through which the chain "
                         "runs")
        said = "; ".join(parts)
        if said:
            said = said[0].upper() + said[1:] + (". The check is made once your copy holds those turns (a later "
                                                 "mail, or pbem mail request).")
        if self.let_go:
            said += (f" {self.let_go} earlier turn{'s' if self.let_go > 1 else ''} shown to you could not be kept "
                     f"for the check (at most {MAX_UNCHECKED} are): ask the referee for the turns your copy lacks.")
        return said.strip()


class _Record(NamedTuple):
    """The record as read: the latest turn shown, how far down its chain was followed, the turns not linked yet."""

    turn: int
    turn_hash: str
    reach: tuple[int, str]
    unchecked: tuple[tuple[int, str], ...]


def _read_record(path: Path, seen: "PlayerView") -> _Record | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise StateFileError(f"{path}: cannot read the record of the turns you saw: {error.strerror}") from None
    try:
        doc = parse_json_strict(data, max_bytes=RECORD_MAX_BYTES)
    except CryptoError as error:
        raise StateFileError(f"{path}: the record of the turns you saw is unreadable ({error}); remove it") from None
    if isinstance(doc, dict) and doc.get("format") == formats.SEEN_V1:
        # the record an older pbem wrote: the latest turn shown alone
        doc = {**doc, "format": formats.SEEN, "reach": {"turn": doc.get("turn"), "turn_hash": doc.get("turn_hash")},
               "unchecked": []}
    problem = formats.format_problem(doc, formats.SEEN)
    if problem:
        raise StateFileError(f"{path}: the record of the turns you saw is not valid ({problem}); remove it")
    if doc["game_id"] != seen.gamefile.game_id or doc["player"] != seen.player:
        raise StateFileError(f"{path}: the record of the turns another player or game was shown; remove it")
    reach = (doc["reach"]["turn"], doc["reach"]["turn_hash"])
    unchecked = tuple(sorted((u["turn"], u["turn_hash"]) for u in doc["unchecked"]))
    if reach[0] > doc["turn"] or any(turn >= reach[0] for turn, _ in unchecked):
        raise StateFileError(f"{path}: the record of the turns you saw is not one pbem wrote "
                             "(its reach or unchecked turns are out of order); remove it")
    return _Record(doc["turn"], doc["turn_hash"], reach, unchecked)


def _record_doc(seen: "PlayerView", record: _Record) -> dict[str, Any]:
    """The record of having shown ``seen``'s player the turns of ``record``."""
    return {"format": formats.SEEN, "game_id": seen.gamefile.game_id, "player": seen.player,
            "turn": record.turn, "turn_hash": record.turn_hash,
            "reach": {"turn": record.reach[0], "turn_hash": record.reach[1]},
            "unchecked": [{"turn": turn, "turn_hash": turn_hash} for turn, turn_hash in record.unchecked]}


class _Walk(NamedTuple):
    """The chain followed back from a turn, as far as the copy holds it."""

    #: turn -> hash of every turn followed
    hashes: dict[int, str]
    #: the earliest turn reached
    lowest: int
    #: why the walk stopped short, when the chain itself is at fault (``None``: it stopped at a gap, or went all the way)
    problem: str | None = None


def _walk(gamedir: GameDir, seen: "PlayerView", start: Record, down_to: int) -> _Walk:
    """Follow the chain back from ``start`` towards turn ``down_to``, each turn read and signature-checked and
    the one its successor names (``previous``); it stops at the first turn the copy lacks."""
    hashes = {start.doc["turn"]: start.hash}
    current = start
    while current.doc["turn"] > down_to:
        number, below = current.doc["turn"], current.doc["turn"] - 1
        if not os.path.lexists(gamedir.turn(below)):
            return _Walk(hashes, number)
        try:
            earlier = read_turn(gamedir, seen.gamefile, below)
        except GameDirError as error:
            return _Walk(hashes, number, f"the chain is broken at turn {below}: {error}")
        if earlier.hash != current.doc["previous"]:
            return _Walk(hashes, number, f"turn {below} is not the one turn {number} follows: the turns were rewritten")
        hashes[below] = earlier.hash
        current = earlier
    return _Walk(hashes, current.doc["turn"])


def _gap_below(gamedir: GameDir, lowest: int) -> TurnRange:
    """The turns the copy lacks just below turn ``lowest`` (which it holds), down to the next one it holds."""
    first = lowest - 1
    while first > 0 and not os.path.lexists(gamedir.turn(first - 1)):
        first -= 1
    return first, lowest - 1


def _held_as_shown(gamedir: GameDir, seen: "PlayerView", turn: int, turn_hash: str) -> str | None:
    """Why the copy's file of a turn shown before is not that turn any more (or ``None``)."""
    if not os.path.lexists(gamedir.turn(turn)):
        return f"turn {turn} is no longer in it"
    try:
        held = read_turn(gamedir, seen.gamefile, turn)
    except GameDirError as error:
        return f"turn {turn} cannot be read: {error}"
    if held.hash != turn_hash:
        return f"turn {turn} has another hash now ({held.hash}): the turns were rewritten"
    return None


def check_history(gamedir: GameDir, seen: "PlayerView", record: _Record, partial: bool
                  ) -> tuple[str | None, int, _Record, tuple[Unchecked, ...]]:
    """Check the turn ``seen`` shows against ``record``: the problem (and the turn it is about), the record to
    keep, and the turns shown before that cannot be checked yet. ``partial``: the directory is a player's copy,
    which may lack turns (elsewhere a turn missing breaks the chain)."""
    latest, number = seen.turn, seen.number
    if record.turn > number:
        return (f"the game now ends at turn {number}: turns {number + 1} to {record.turn} were dropped",
                record.turn, record, ())
    first = _walk(gamedir, seen, latest, record.turn)
    if first.lowest > record.turn:  # a gap (or a break) between the turn shown now and the one shown before
        if first.problem is not None:
            return first.problem, record.turn, record, ()
        if not partial:
            return (f"the chain back to turn {record.turn} is broken at turn {first.lowest - 1}: "
                    f"{gamedir.turn(first.lowest - 1)}: missing", record.turn, record, ())
        for turn, turn_hash in ((record.turn, record.turn_hash), *record.unchecked):
            why = _held_as_shown(gamedir, seen, turn, turn_hash)
            if why is not None:
                return why, turn, record, ()
        gap = _gap_below(gamedir, first.lowest)
        waiting = (*record.unchecked, (record.turn, record.turn_hash))
        kept = _Record(number, latest.hash, (first.lowest, first.hashes[first.lowest]), waiting)
        return None, number, kept, tuple(Unchecked(turn, turn_hash, gap) for turn, turn_hash in waiting)
    if first.hashes[record.turn] != record.turn_hash:
        return (f"turn {record.turn} has another hash now ({first.hashes[record.turn]}): the turns were rewritten",
                record.turn, record, ())
    # the turn shown before is on the chain of this one, and so is every turn its chain was followed to
    if not record.unchecked:
        return None, number, _Record(number, latest.hash, record.reach, ()), ()
    # follow it on from where it was followed to before, unless the copy no longer holds that turn as it was
    # (then from the turn shown before, which the walk above has just found held)
    base = record.reach[0] if _held_as_shown(gamedir, seen, *record.reach) is None else record.turn
    second = _walk(gamedir, seen, read_turn(gamedir, seen.gamefile, base), record.unchecked[0][0])
    pending: list[tuple[int, str]] = []
    for turn, turn_hash in record.unchecked:
        if turn >= second.lowest:
            if second.hashes[turn] != turn_hash:
                return (f"turn {turn} has another hash now ({second.hashes[turn]}): the turns were rewritten",
                        turn, record, ())
            continue
        if second.problem is not None:
            return second.problem, turn, record, ()
        if not partial:
            return (f"the chain back to turn {turn} is broken at turn {second.lowest - 1}: "
                    f"{gamedir.turn(second.lowest - 1)}: missing", turn, record, ())
        why = _held_as_shown(gamedir, seen, turn, turn_hash)
        if why is not None:
            return why, turn, record, ()
        pending.append((turn, turn_hash))
    kept = _Record(number, latest.hash, (second.lowest, second.hashes[second.lowest]), tuple(pending))
    gap = _gap_below(gamedir, second.lowest) if pending else (0, 0)
    return None, number, kept, tuple(Unchecked(t, h, gap) for t, h in pending)


def check_and_remember(state_dir: Path, seen: "PlayerView", partial: bool = False) -> HistoryCheck:
    """Check ``seen`` against the player's record; remember its turn unless the chain lost one shown before.

    On a warning the record is kept as it was, so that every later view
    warns again until the player removes the file. Turns shown before that
    the copy cannot link to this one yet (a gap) stay in the record, and
    the check says so (:attr:`HistoryCheck.unchecked`); that only in a
    player's copy (``partial``), which may lack turns: in the referee's
    directory a turn missing from the chain is a turn dropped.
    """
    path = record_path(state_dir, seen.gamefile.game_id, seen.player)
    record = _read_record(path, seen)
    unchecked: tuple[Unchecked, ...]
    if record is None:
        kept, unchecked = _Record(seen.number, seen.turn.hash, (seen.number, seen.turn.hash), ()), ()
    else:
        gamedir = GameDir(seen.turn.path.parent.parent)
        problem, about, kept, unchecked = check_history(gamedir, seen, record, partial)
        if problem is not None and about == record.turn and _rolled_back(gamedir, seen, record, partial):
            kept = _Record(seen.number, seen.turn.hash, (seen.number, seen.turn.hash), ())
            _remember(path, seen, kept)
            return HistoryCheck(rolled_back=about)
        if problem is not None:
            shown = record.turn_hash if about == record.turn else dict(record.unchecked)[about]
            return HistoryCheck(warning=HistoryWarning(
                turn=about, turn_hash=shown,
                message=(f"you were shown turn {about} of game {seen.gamefile.game_id} ({shown}), and the game "
                         f"directory no longer holds it: {problem}. Moves were removed or replaced; do not trust "
                         f"this copy of the game (your record: {path})"),
            ))
        if kept == record:
            return HistoryCheck(unchecked=unchecked)
    let_go = max(len(kept.unchecked) - MAX_UNCHECKED, 0)
    if let_go:
        kept = kept._replace(unchecked=kept.unchecked[let_go:])
        unchecked = unchecked[let_go:]
    _remember(path, seen, kept)
    return HistoryCheck(unchecked=unchecked, let_go=let_go)


def _remember(path: Path, seen: "PlayerView", kept: _Record) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        atomic_write(path, dump_json(_record_doc(seen, kept)), mode=0o600)
    except OSError as error:
        raise StateFileError(f"{path}: cannot write the record of the turns you saw: {error}") from None


def _rolled_back(gamedir: GameDir, seen: "PlayerView", record: _Record, partial: bool) -> bool:
    """Whether the latest turn shown before, which the chain no longer holds, was abandoned by rollbacks that
    every seat consented to, leading back to the chain (a directory without ``abandoned/`` is never asked)."""
    if not os.path.lexists(gamedir.abandoned):
        return False
    from pbem.referee.rollback import rolled_back

    return rolled_back(gamedir, seen.gamefile, seen.turn, record.turn, record.turn_hash, partial) is None
