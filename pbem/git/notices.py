"""Telling each player by mail that a decision of theirs awaits them in the game branch.

With ``mail = "FILE"`` in the git configuration, ``pbem git serve`` mails,
after each push of the game branch, each player whose decision **opened**
since their last notice (a join round, a decision with its ``since``, the
end of the game): a short mail through the SMTP server of that mail
configuration (the format of docs/mail.md: its ``address`` sends, its
``[smtp]`` table is the server, and each ``[[games]]`` entry whose ``dir``
is a served game gives that game's ``players`` their addresses). The mail
holds nothing private: the game, the turn, the decision's kind and deadline,
and the commands that answer it from the player's clone; the view itself is
in the game branch, sealed to the player.

Each notice is queued in the referee's outbox (``STATE/outbox``) under a name
made of its identity (game, player, decision), recorded as sent in
``STATE/notices.json``, then the outbox is sent: a run that dies anywhere
sends each notice at least once and queues none twice; an SMTP server that
is down keeps them queued for the next run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.digests import sha256_hex
from pbem.mail.compose import new_message, subject_tag
from pbem.mail.config import MailConfig
from pbem.mail.sending import FlushReport, Outbox
from pbem.referee.errors import StateFileError
from pbem.referee.public import Status, result_text
from pbem.referee.storage import atomic_write, dump_json

if TYPE_CHECKING:  # pragma: no cover
    from pbem.git.config import GitGame


@dataclass
class NoticeReport:
    """What one run's notices did: a line per mail queued, and the sending."""

    lines: list[str] = field(default_factory=list)
    flush: FlushReport = field(default_factory=FlushReport)


class Notices:
    """The turn notices of one referee's git loop (its state directory's ``outbox/`` and ``notices.json``)."""

    def __init__(self, state: Path, config: MailConfig) -> None:
        config.require("address", "smtp")
        self.config = config
        self.outbox = Outbox(state / "outbox")
        self.marks_file = state / "notices.json"

    def addresses(self, game_dir: Path) -> dict[str, str]:
        """The seats' addresses the mail configuration gives for the game in ``game_dir``."""
        for entry in self.config.games:
            if entry.dir.resolve() == game_dir.resolve():
                return dict(entry.players)
        return {}

    def queue(self, game: GitGame, current: Status) -> list[str]:
        """Queue a notice to each player of ``game`` whose decision opened since their last one."""
        game_id = current.gamefile.game_id
        marks = self._marks()
        mine = marks.setdefault(game_id, {})
        lines = []
        for player, address in sorted(self.addresses(game.dir).items()):
            mark, message = self._notice(game, current, player, address)
            if mark is None or mine.get(player) == mark:
                continue
            assert message is not None
            self.outbox.queue(message, once=sha256_hex(f"{game_id} {player} {mark}".encode())[:24])
            mine[player] = mark
            atomic_write(self.marks_file, dump_json(marks), mode=0o600)
            lines.append(f"game {game_id}: a notice queued for {player} <{address}>: {message['Subject']}")
        return lines

    def send(self) -> FlushReport:
        assert self.config.smtp is not None
        return self.outbox.flush(self.config.smtp)

    def _notice(self, game: GitGame, current: Status, player: str, address: str) -> tuple[Any, Any]:
        """The mark of what awaits ``player`` now, and the notice that says it (``(None, None)``: nothing)."""
        gamefile = current.gamefile
        tag = subject_tag(gamefile.game_id)
        if current.over:
            said = result_text(current.result) if current.result is not None else "the game was abandoned"
            body = [f"Game {gamefile.game_id} ({gamefile.game}): {said}.", "", "In your clone of the game branch:",
                    "", "    git pull", f"    pbem log {game.path}", f"    pbem verify {game.path} --replay"]
            return "over", self._mail(address, f"{tag} game over", body)
        decision = next((a for a in current.awaiting if a["player"] == player), None)
        if decision is None:
            return None, None
        kind = decision["kind"]
        key = f"YOUR-KEY ({player}.key)"
        if kind.startswith("join-"):
            subject = f"{tag} {gamefile.game}: please join ({kind})"
            what = ["    git pull", f"    pbem join {game.path} --as {player} --key {key} --out join.json",
                    "    pbem git send join.json"]
            mark = f"join:{kind}"
        else:
            subject = f"{tag} turn {current.turn}: your decision ({kind})"
            what = ["    git pull", f"    pbem view {game.path} --as {player} --key {key}",
                    f"    pbem move {game.path} --as {player} --key {key} --choose NUMBER --out move.json",
                    "    pbem git send move.json"]
            mark = decision["since"]
        deadline = f" Its deadline: {decision['deadline']}." if "deadline" in decision else ""
        body = [f"Game {gamefile.game_id} ({gamefile.game}), turn {current.turn}: a {kind} decision of yours awaits "
                f"you (since turn {decision['since']}).{deadline}", "", "In your clone of the game branch:", "", *what,
                "", "This mail holds nothing private: your view is in the game branch, sealed to your key."]
        return mark, self._mail(address, subject, body)

    def _mail(self, address: str, subject: str, body: list[str]) -> Any:
        return new_message(self.config.address, [address], subject, "\n".join(body) + "\n", automatic="auto-generated")

    def _marks(self) -> dict[str, Any]:
        try:
            marks = json.loads(self.marks_file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as error:
            raise StateFileError(f"{self.marks_file}: the record of the notices sent cannot be read ({error}); it "
                                 "is the referee's own file: remove it to mail every player their open decision "
                                 "again") from None
        if not isinstance(marks, dict):
            raise StateFileError(f"{self.marks_file}: not the record of the notices sent; remove it")
        return marks
