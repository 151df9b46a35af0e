"""The referee's git loop: read the players' inboxes, submit their files, commit and push the game branch.

One run (``pbem git serve --once``, from cron, a systemd timer or a CI
schedule) does, holding the state directory's lock:

1. for each served game whose game directory is missing, take it from the
   game branch (:func:`pbem.git.branch.adopt`);
2. fetch the game branch and the inboxes that changed
   (:func:`pbem.git.inbox.fetch`);
3. for each inbox, each new commit, oldest first, each file it added or
   changed: submit the file to the game it names (the referee's own checks
   decide: applied, already applied, or refused with a signed notice in
   ``rejected/``), and write a line of the **answer**; then record the commit
   as read. A file of a game that is busy or damaged leaves its inbox
   unread from that commit on, for the next run;
4. tick each game (decisions past their deadline get the game's default
   action);
5. sign each game's **head** (``head.json``: its latest turn and that
   turn's hash) from the referee's **anchor**, which the referee keeps in
   its state directory and checks before every step
   (:mod:`pbem.referee.head`);
6. commit every game directory, as the referee's files alone, with the
   answer in the commit message, onto the referee's previous commit, and
   push it to the game branch;
7. with ``mail`` configured, mail each player a decision of whose opened
   (:mod:`pbem.git.notices`).

**Trust.** The referee runs only the pbem installed where it runs, with
its key, its game directories and its state directory in places no player
writes. What players push is read as data only (:mod:`pbem.git.plumbing`):
nothing is checked out, run, sourced or followed. The game goes on from
the referee's own game directories, never from the remote's game branch: a
commit someone else pushed there is set aside and the referee's tree put
back (:mod:`pbem.git.branch`); a player's push can halt nothing but the
reading of their own inbox.

**Answers.** Each file read gets a line in the commit message
(``inbox/alice 1a2b3c4 move.json: alice's move answering turn 3: APPLIED,
turn 4 written``); a refusal names the referee's reason, exit code and the
signed notice in ``rejected/``, which the same commit carries. A run that
read nothing and changed nothing makes no commit.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.crypto.canonical import parse_json_strict
from pbem.crypto.errors import CryptoError
from pbem.engine.errors import EngineError
from pbem.git import branch as game_branch
from pbem.git.config import GitConfig, GitGame
from pbem.git.errors import GitConfigError, GitRemoteError
from pbem.git.inbox import FILE_MAX_BYTES, REMOTE_BRANCH, Inbox, Pushed, fetch, new_commits, pushed_files
from pbem.git.plumbing import Git
from pbem.referee import clock
from pbem.referee.errors import AlreadyApplied, ClockWentBack, LockBusy, RefereeError, Refusal, UndoRefused
from pbem.referee.gamefile import GameFile
from pbem.referee.head import Anchors, read_head, write_head
from pbem.referee.layout import GameDir
from pbem.referee.lock import DEFAULT_WAIT, locked
from pbem.referee.public import Status, result_text
from pbem.referee.records import current_turn

if TYPE_CHECKING:  # the key is loaded by the command line and handed to the referee as it is
    from pbem.crypto.keys import PrivateKey

Progress = Callable[[str], None]

#: the most answer lines one commit message carries (the rest are counted)
MAX_ANSWERS = 200
#: the formats of the files a player sends; any other ``pbem-*`` document is one the referee writes
PLAYER_FORMATS = ("pbem-move/", "pbem-join/", "pbem-undo-consent/")


@dataclass
class ServeReport:
    """What one run did."""

    #: one line per file read and per thing done (what the commit message says, and more)
    lines: list[str] = field(default_factory=list)
    #: what waits for the next run (a game busy or damaged), with the reason
    held: list[str] = field(default_factory=list)
    #: the commit pushed (or to push) this run, if any
    commit: str | None = None
    #: why the game branch could not be pushed (it is pushed next run)
    push_error: str | None = None
    #: why the turn notices could not be mailed (they stay queued for the next run)
    mail_error: str | None = None
    #: some game was not stepped because the referee's clock is earlier than its latest turn's time
    clock_behind: bool = False


@dataclass
class _Served:
    """A served game: its entry, its ``game.toml``, and whether a file of it waits for the next run."""

    entry: GitGame
    gamefile: GameFile
    held: str | None = None


class GitState:
    """The state directory of one referee's git loop, where no player writes.

    ::

        repo.git/      the referee's own bare repository: the game branch it wrote (refs/pbem/branch), the
                       remote's (refs/pbem/remote), each inbox as fetched (refs/pbem/in/) and as far as read
                       (refs/pbem/read/)
        anchors/       the head of every game it stepped (pbem.referee.head)
        serve.lock     one run at a time
    """

    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.repo = directory / "repo.git"
        self.lock = directory / "serve.lock"
        self.anchors = Anchors(directory)

    def git(self) -> Git:
        if not (self.repo / "HEAD").is_file():
            self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            # no template: the repository holds no sample hook, nothing but what git needs
            Git().run("init", "--quiet", "--bare", "--template=", str(self.repo))
        return Git(git_dir=self.repo)

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the state directory's lock (one ``pbem git serve`` at a time), or raise :class:`LockBusy`."""
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise LockBusy(f"{self.dir}: another `pbem git serve` is running with this state directory") from None
            yield
        finally:
            os.close(fd)


def serve_once(config: GitConfig, referee_key: PrivateKey, progress: Progress | None = None,
               wait: float = DEFAULT_WAIT, now: datetime | None = None) -> ServeReport:
    """One run of the loop (see the module docstring). ``progress`` gets one line per thing done;
    ``now`` is the referee's clock (:mod:`pbem.referee.clock`)."""
    config.require("remote", "key", "state", "games")
    assert config.state is not None
    state = GitState(config.state)
    with state.held():
        return _Run(config, referee_key, state, progress or (lambda line: None), wait, now).run()


class _Run:
    def __init__(self, config: GitConfig, key: PrivateKey, state: GitState, tell: Progress, wait: float,
                 now: datetime | None) -> None:
        self.config = config
        self.key = key
        self.state = state
        self.tell = tell
        self.wait = wait
        self.moment = clock.referee_now(now)
        self.report = ServeReport()
        #: the lines of the answer, for the commit message
        self.answers: list[str] = []
        #: what the commit message says besides (a foreign commit set aside, an inbox passed over)
        self.notes: list[str] = []
        self.games: dict[str, _Served] = {}

    def say(self, line: str, answer: bool = True) -> None:
        self.report.lines.append(line)
        if answer:
            self.answers.append(line)
        self.tell(line)

    def hold(self, line: str) -> None:
        self.report.held.append(line)
        self.report.lines.append(line)
        self.tell(line)

    def run(self) -> ServeReport:
        git = self.state.git()
        mine = git.rev(game_branch.BRANCH)
        fetched = fetch(git, self.config)
        self.notes += fetched.notes
        for index, entry in enumerate(self.config.games):
            self.open_game(git, index, entry, mine or fetched.branch)
        exclude = [ref for ref in (game_branch.BRANCH, REMOTE_BRANCH) if git.rev(ref) is not None]
        for inbox in fetched.inboxes:
            self.read_inbox(git, inbox, exclude)
        for served in self.games.values():
            if served.held is None:
                self.tick(served)
            if served.held is None:
                self.sign_head(served)
        self.publish(git, mine, fetched.branch)
        if self.config.mail is not None:
            self.notify()
        return self.report

    def notify(self) -> None:
        """Mail each player a decision of whose opened (once the game branch that holds it is pushed), and send
        what is queued."""
        from pbem.git.notices import Notices
        from pbem.mail.config import MailConfig
        from pbem.referee.public import status

        assert self.config.mail is not None and self.config.state is not None
        notices = Notices(self.config.state, MailConfig.read(self.config.mail))
        if self.report.push_error is None:
            for served in self.games.values():
                if served.held is None:
                    for line in notices.queue(served.entry, status(served.entry.dir)):
                        self.say(line, answer=False)
        sent = notices.send()
        for to in sent.sent:
            self.say(f"sent a notice to {to}", answer=False)
        for path, why in sent.failed:
            self.say(f"a notice refused for good by the SMTP server, moved to {path}: {why}", answer=False)
        if sent.error:
            self.report.mail_error = f"{sent.kept} notices stay queued for the next run: {sent.error}"
            self.say(self.report.mail_error, answer=False)

    # --- the games -----------------------------------------------------------------------

    def open_game(self, git: Git, index: int, entry: GitGame, source: str | None) -> None:
        """Read a served game's ``game.toml``, first taking the game from the game branch if need be."""
        directory = entry.dir
        if not (directory / "game.toml").exists() and (not directory.exists() or not any(directory.iterdir())):
            if source is None:
                raise GitConfigError(f"{self.config.path}: games[{index}].dir: {directory} holds no game, and the "
                                     "game branch holds none either: set the game up there (pbem new)")
            trusted = "the referee's own last commit" if source == git.rev(game_branch.BRANCH) else \
                "the remote's game branch, trusted as it is found (the referee had no commit of its own)"
            count = game_branch.adopt(git, source, entry.path, directory)
            self.say(f"game at {entry.path}: {count} files taken from {trusted} ({source[:12]}) into {directory}",
                     answer=False)
        try:
            gamefile = GameFile.read(GameDir.at(directory).game_toml)
        except RefereeError as error:
            raise GitConfigError(f"{self.config.path}: games[{index}].dir: {error}") from None
        if gamefile.referee.fingerprint != self.key.public.fingerprint:
            raise GitConfigError(f"{self.config.path}: games[{index}]: game {gamefile.game_id} names the referee "
                                 f"key {gamefile.referee.fingerprint}, not this referee's "
                                 f"({self.key.public.fingerprint})")
        if gamefile.game_id in self.games:
            raise GitConfigError(f"{self.config.path}: games[{index}]: game {gamefile.game_id} is configured twice")
        self.games[gamefile.game_id] = _Served(entry, gamefile)

    def tick(self, served: _Served) -> None:
        if served.gamefile.deadlines is None:
            return
        from pbem.referee.tick import tick

        try:
            done = tick(served.entry.dir, self.key, now=self.moment, wait=self.wait, anchors=self.state.anchors)
        except (LockBusy, RefereeError, CryptoError, EngineError, OSError) as error:
            self.report.clock_behind |= isinstance(error, ClockWentBack)
            served.held = f"not ticked this run: {error}"
            self.hold(f"game {served.gamefile.game_id}: {served.held}")
            return
        for timed_out in done.timeouts:
            self.say(f"game {served.gamefile.game_id}: {timed_out.player}'s {timed_out.kind} decision passed its "
                     f"deadline ({timed_out.deadline}): the referee answered it with the game's default action "
                     f"({timed_out.action}): turn {timed_out.turn} written")

    def sign_head(self, served: _Served) -> None:
        """Anchor the game's latest turn (checking that the directory still holds the anchored one) and put
        its signed head in the game directory, for the commit to carry."""
        gamedir = GameDir.at(served.entry.dir)
        anchors = self.state.anchors
        try:
            with locked(gamedir.lock, self.wait):
                gamefile = GameFile.read(gamedir.game_toml)
                if not gamedir.has_turns():
                    anchors.check(gamedir, gamefile, None)
                    return
                latest = current_turn(gamedir, gamefile, gapless=True)
                anchors.check(gamedir, gamefile, latest)
                head = anchors.advance(gamefile, latest, self.key, self.moment)
                found = read_head(gamedir, gamefile)
                if found is None or found.data != head.data:
                    write_head(gamedir, head)
        except (LockBusy, RefereeError, CryptoError, EngineError, OSError) as error:
            served.held = f"not published this run: {error}"
            self.hold(f"game {served.gamefile.game_id}: {served.held}")

    # --- the inboxes ---------------------------------------------------------------------

    def read_inbox(self, git: Git, inbox: Inbox, exclude: list[str]) -> None:
        commits, more = new_commits(git, inbox, exclude)
        for commit, parent in commits:
            for pushed in pushed_files(git, inbox, commit, parent):
                if not self.handle(pushed):
                    return  # its game waits: this commit and the later ones are read next run
            git.update_ref(inbox.read, commit)
        if more:
            self.say(f"{inbox.label}: {more} more new commits wait for the next run (one run reads "
                     f"{len(commits)} of an inbox)")

    def handle(self, pushed: Pushed) -> bool:
        """Submit one pushed file and say what became of it; ``False`` when its game waits for the next run."""
        if pushed.problem is not None or pushed.data is None:
            self.say(f"{pushed.where}: {pushed.problem}")
            return True
        try:
            doc = parse_json_strict(pushed.data, max_bytes=FILE_MAX_BYTES)
        except CryptoError as error:
            self.say(f"{pushed.where}: not a pbem file ({error})")
            return True
        kind = doc.get("format") if isinstance(doc, dict) else None
        if not isinstance(kind, str) or not kind.startswith("pbem-"):
            self.say(f"{pushed.where}: not a pbem file (a JSON document with no pbem format)")
            return True
        if not kind.startswith(PLAYER_FORMATS):
            self.say(f"{pushed.where}: set aside: a {kind[:40]} document is not a file a player sends")
            return True
        game_id = doc.get("game_id")
        served = self.games.get(game_id) if isinstance(game_id, str) else None
        if served is None:
            named = f"game {game_id[:40]}" if isinstance(game_id, str) else "no game"
            self.say(f"{pushed.where}: not submitted: it names {named}, which is not refereed here "
                     f"(games: {', '.join(self.games) or 'none'})")
            return True
        if served.held is not None:
            return False
        what = describe(doc)
        try:
            outcome = (self.consent(served, pushed) if kind.startswith("pbem-undo-consent/")
                       else self.submit(served, pushed.data))
        except (LockBusy, RefereeError, CryptoError, EngineError, OSError) as error:
            self.report.clock_behind |= isinstance(error, ClockWentBack)
            served.held = f"{pushed.where} waits for the next run: {error}"
            self.hold(f"game {served.gamefile.game_id}: {served.held}")
            return False
        self.say(f"{pushed.where}: {what}: {outcome}")
        return True

    def consent(self, served: _Served, pushed: Pushed) -> str:
        """Keep a seat's consent to a rollback (in the state directory); roll back once every seat's is in."""
        from pbem.referee.undo import gather_consent

        assert pushed.data is not None
        try:
            gathered = gather_consent(served.entry.dir, pushed.data, pushed.where,
                                      self.state.dir / "consents" / served.gamefile.game_id, self.key,
                                      anchors=self.state.anchors, wait=self.wait, now=self.moment)
        except UndoRefused as error:
            return f"REFUSED ({error.reason}, exit {error.exit_code}): {error}"
        if gathered.applied is None:
            return (f"KEPT: the game is rolled back to turn {gathered.to} once every seat has consented to it for "
                    f"this head (turn {gathered.head}); waiting for {', '.join(gathered.missing)}")
        applied = gathered.applied
        return (f"APPLIED: every seat consented: rolled back to turn {applied.to}; turns {applied.to + 1} to "
                f"{applied.head} are kept in abandoned/{applied.number:06d}/")

    def submit(self, served: _Served, data: bytes) -> str:
        from pbem.referee.pipeline import submit

        try:
            step = submit(served.entry.dir, data, self.key, wait=self.wait, now=self.moment,
                          anchors=self.state.anchors)
        except AlreadyApplied as error:
            return f"already in the game (exit {error.exit_code}: {error.message})"
        except Refusal as error:
            notice = f"; notice {Path(error.rejection).parent.name}/{Path(error.rejection).name}" \
                if error.rejection else ""
            return f"REFUSED ({error.reason}, exit {error.exit_code}): {error.message}{notice}"
        if step.kind == "join":
            if step.dealt:
                return "APPLIED: every player is in: turn 0 is dealt"
            waiting = step.status.awaiting if step.status is not None else []
            return "APPLIED: the join rounds await " + (", ".join(f"{a['player']} ({a['kind']})" for a in waiting)
                                                        or "nobody")
        return f"APPLIED: turn {step.turn} written"

    # --- the game branch -----------------------------------------------------------------

    def publish(self, git: Git, mine: str | None, remote_tip: str | None) -> None:
        trees: dict[str, str] = {}
        for served in self.games.values():
            path = served.entry.path
            if served.held is None:
                try:
                    trees[path] = game_branch.game_tree(git, served.entry.dir)
                    continue
                except (RefereeError, OSError) as error:
                    served.held = f"not published this run: {error}"
                    self.hold(f"game {served.gamefile.game_id}: {served.held}")
            # a game held back keeps what the referee last published of it
            kept = game_branch.subtree(git, mine, path) if mine is not None else None
            if kept is not None:
                trees[path] = kept
        tree = game_branch.branch_tree(git, trees)
        foreign = game_branch.is_foreign(git, remote_tip, mine)
        if foreign:
            assert remote_tip is not None
            whose = "the referee's last commit is" if mine is not None else "the referee has no commit"
            self.say(f"the game branch held commit {remote_tip[:12]}, which the referee did not write "
                     f"({whose} {mine[:12] if mine else 'of its own yet'}): it is set aside, and this commit puts "
                     "back the games as the referee wrote them", answer=False)
            self.notes.append(self.report.lines[-1])
        changed = mine is None or game_branch.tree_of(git, mine) != tree
        commit = mine
        if changed or self.answers or foreign:
            parents = [p for p in (mine, remote_tip if foreign or mine is None else None) if p is not None]
            message = self.message()
            commit = game_branch.commit_tree(git, tree, parents, message, self.config.committer, self.moment)
            git.update_ref(game_branch.BRANCH, commit)
            self.say(f"committed {commit[:12]}: {message.splitlines()[0]}", answer=False)
        if commit is None or commit == remote_tip:
            return
        self.report.commit = commit
        assert self.config.remote is not None
        try:
            game_branch.push(git, self.config.remote, commit, self.config.branch_ref)
        except GitRemoteError as error:
            self.report.push_error = str(error)
            self.say(f"the game branch was not pushed (it is pushed next run): {error}", answer=False)
            return
        self.say(f"pushed {commit[:12]} to {self.config.branch}", answer=False)

    def message(self) -> str:
        statuses = [game_line(served) for served in self.games.values()]
        subject = f"pbem: {statuses[0]}" if len(statuses) == 1 else f"pbem: {len(statuses)} games"
        body = [*(f"Game {s}." for s in statuses)]
        if self.answers:
            shown = self.answers[:MAX_ANSWERS]
            body += ["", *shown]
            if len(self.answers) > MAX_ANSWERS:
                body.append(f"... and {len(self.answers) - MAX_ANSWERS} more lines (the referee's log has them)")
        if self.notes:
            body += ["", *self.notes]
        return "\n".join([subject, "", *body]) + "\n"


def describe(doc: dict[str, Any]) -> str:
    """What a player's file says it is: ``alice's move answering turn 3``, ``bob's join file (commit)``."""
    player = doc.get("player")
    who = f"{player[:32]}'s " if isinstance(player, str) else ""
    kind = doc["format"]
    if kind.startswith("pbem-undo-consent/"):
        return f"{who}consent to a rollback"
    if kind.startswith("pbem-join/"):
        round_name = doc.get("round")
        return f"{who}join file" + (f" ({round_name[:16]})" if isinstance(round_name, str) else "")
    turn = doc.get("turn")
    return f"{who}move" + (f" answering turn {turn}" if type(turn) is int else "")


def game_line(served: _Served) -> str:
    """``1a2b3c4d5e6f7a8b (nightlancer): turn 3, awaiting bob (claim)``: a game's status, for the commit message."""
    from pbem.referee.public import status

    head = f"{served.gamefile.game_id} ({served.gamefile.game})"
    if served.held is not None:
        return f"{head}: {served.held}"
    try:
        current = status(served.entry.dir)
    except (RefereeError, CryptoError, OSError) as error:
        return f"{head}: {error}"
    return f"{head}: {status_text(current)}"


def status_text(current: Status) -> str:
    if current.result is not None:
        return result_text(current.result)
    if current.dealing:
        return "every player has joined; the deal comes with the referee's next step"
    if current.over:
        return "abandoned (the seed is revealed)"
    awaited = ", ".join(f"{a['player']} ({a['kind']})" for a in current.awaiting)
    where = "joining" if current.awaiting and current.awaiting[0]["kind"].startswith("join-") else f"turn {current.turn}"
    return f"{where}, awaiting {awaited}"
