"""The turn machine every game runs on: work still to do and decisions awaited, as plain data.

The rules of a game run as a stack of **tasks** kept in the state
(``state["stack"]``, top last): boardgame.io's stages, but resumable from
stored JSON. The machine runs the top task until some player must decide.
A task handler may

* **ask** (:func:`ask`): leave a decision of a player pending and return; the
  machine stops, and the next move answers it (an effect that needs a choice
  never stops in the middle to wait for input);
* **push** (:func:`push`, :func:`push_all`): put tasks on top, to run before
  anything already waiting;
* **finish** (:func:`finish`): a task in steps leaves the stack and hands a
  value to the task below it, which reads it back as ``task["ret"]``.

A task comes in one of two shapes:

* a **one-shot task** (:meth:`TurnMachine.task`) leaves the stack as it
  starts and runs once; what it still has to do it pushes as new tasks;
* a **task in steps** (:meth:`TurnMachine.step`, one handler per step) stays
  on the stack, keeping its own data, until it finishes; its ``step`` field
  names the handler that runs next (``"start"`` when it has none).

A **decision kind** (:meth:`TurnMachine.kind`) names a kind of decision in
the rulebook's words (``"link"``, ``"block"``, ``"reaction"``), with its
default prompt, its pass option, what the referee does for a player whose
decision of that kind passed its deadline (its default action) and, when the
options follow from the state, how to list them and how to apply a choice. A decision asked with fixed
options names instead the **answer** (:meth:`TurnMachine.answer`) that takes
the choice. A decision asked as ``forced`` is taken at once when it offers a
single option (only where that reveals nothing). **Free actions**
(:meth:`TurnMachine.free_action`, e.g. selling an item "at any time") are
offered inside every decision and leave it pending: the same decision is
asked again.

Each game builds one :class:`TurnMachine`, registers every handler on it
explicitly, and owns it; the machine keeps nothing of its own between calls.
"""

# No ``from __future__ import annotations`` here (docs/performance.md, "Annotations evaluated at import").
# The annotations below name only what is defined above them.

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final, Generic, NamedTuple, Required, TypedDict, TypeVar

from pbem.engine.errors import NotAwaitedError, RulesError
from pbem.engine.ordertests import OrderTest
from pbem.engine.protocol import DEFAULT_ACTIONS, Decision, Option
from pbem.engine.rng import Rng

#: a task on the stack: ``{"type": name, "step"?: step, ...its own data}`` (plain JSON)
Task = dict[str, Any]
#: options as ``(id, label)`` pairs
Options = list[tuple[str, str]]

#: the step a task in steps starts with
START: Final = "start"
#: the steps of a task that has none registered
_NO_STEPS: Final[dict[str, Any]] = {}


class OptionData(TypedDict):
    """One option as it is kept in a pending decision."""

    id: str
    label: str


class PendingDecision(TypedDict, total=False):
    """A decision awaited from one player, as kept in ``state["pending"]``.

    ``options`` are fixed when asked, else the decision kind lists them from
    the state; ``answer`` names the handler that takes the choice, else the
    kind applies it; ``pass_id`` overrides the kind's pass option; ``data`` is
    what the handler needs to carry on.
    """

    player: Required[str]
    kind: Required[str]
    prompt: str
    options: list[OptionData]
    pass_id: str | None
    simultaneous: bool
    answer: str
    data: dict[str, Any]
    forced: bool


class MachineState(TypedDict):
    """The part of a game state the machine runs on."""

    stack: list[Task]
    pending: list[PendingDecision]
    over: bool


S = TypeVar("S", bound=MachineState)

#: runs a task: ``handler(state, task, rng)``
TaskHandler = Callable[[S, Task, Rng], None]
#: takes a player's choice: ``answer(state, decision, option_id, rng)``
Answer = Callable[[S, PendingDecision, str, Rng], None]
#: the options of a decision, from the state: ``options(state, decision)``
ListOptions = Callable[[S, PendingDecision], Options]
#: what a free action offers inside a decision: ``offers(state, decision)``
FreeOffers = Callable[[S, PendingDecision], Options]
#: carries out a free action: ``apply(state, player, option_id, rng)``
FreeApply = Callable[[S, str, str, Rng], None]
#: whether a decision's number of options follows from public facts alone: ``public_count(state, decision)``
PublicCount = Callable[[S, PendingDecision], bool]
#: logs a decision the machine took for its player: ``taken(state, decision, option_id, label)``
Taken = Callable[[S, PendingDecision, str, str], None]


# DecisionKind and FreeAction are NamedTuples, not dataclasses: every referee step imports the rules
# (docs/performance.md, "Records without dataclasses").


class DecisionKind(NamedTuple, Generic[S]):
    """A kind of decision: its name, default prompt and pass option, its
    default action, for a kind whose options follow from the state, how
    to list and apply them, and when its number of options is public.

    ``default_action`` is what the referee does for a player whose decision
    of this kind passed its deadline (``pbem tick``): ``"pass"`` answers with
    the decision's pass option where it offers one (else, like ``"bot"``, an
    option drawn at random).

    ``public_count(state, decision)`` says whether, in this state, the number
    of options of ``decision`` follows from public facts alone (it must itself
    read only public facts); the machine then takes a single option at once.
    Without it, a decision of this kind is taken at once only when asked as
    ``forced``.

    ``tests`` are what a player's orders for this kind may test besides the
    generic tests, by name (:mod:`pbem.engine.ordertests`).
    """

    name: str
    prompt: str = ""
    pass_id: str | None = None
    options: ListOptions[S] | None = None
    apply: Answer[S] | None = None
    default_action: str = "pass"
    public_count: PublicCount[S] | None = None
    tests: Mapping[str, OrderTest] = MappingProxyType({})


class FreeAction(NamedTuple, Generic[S]):
    """An action a player may take inside any decision; its option ids start with ``prefix:``."""

    prefix: str
    offers: FreeOffers[S]
    apply: FreeApply[S]


#: makes a NamedTuple from a tuple of all its members, in C: a NamedTuple's own constructor is a Python
#: function, and the machine makes an Option for every option of every decision it lists
_new_tuple = tuple.__new__


class _KindDefault:
    """The pass option a decision kind declares (the default of :func:`ask`)."""

    def __repr__(self) -> str:
        return "KIND_DEFAULT"


KIND_DEFAULT: Final = _KindDefault()
#: the pass option :func:`ask` takes: an option id, ``None`` (no pass here), or the kind's (:data:`KIND_DEFAULT`)
PassId = str | _KindDefault | None


# --- tasks ------------------------------------------------------------------------


def new_task(task_type: str, /, **fields: Any) -> Task:
    """A task of type ``task_type`` with its data, to push later (:func:`push_all`)."""
    return {"type": task_type, **fields}


def push(state: MachineState, task_type: str, /, **fields: Any) -> Task:
    """Do ``task_type`` next (before anything already waiting); return the new task."""
    task = new_task(task_type, **fields)
    state["stack"].append(task)
    return task


def push_all(state: MachineState, tasks: Iterable[Task]) -> None:
    """Do these tasks next, in the order given."""
    for task in reversed(list(tasks)):
        state["stack"].append(task)


def top(state: MachineState) -> Task:
    """The task running now (for a task in steps, the one that asked the decision being answered)."""
    if not state["stack"]:
        raise RulesError("no task is running")
    return state["stack"][-1]


def finish(state: MachineState, value: Any = None) -> None:
    """End the task on top; the task below reads ``value`` as ``task["ret"]``."""
    state["stack"].pop()
    if state["stack"]:
        state["stack"][-1]["ret"] = value


# --- decisions ----------------------------------------------------------------------


def ask(
    state: MachineState,
    player: str,
    kind: str,
    prompt: str | None = None,
    *,
    options: Options | None = None,
    answer: str | None = None,
    data: dict[str, Any] | None = None,
    pass_id: PassId = KIND_DEFAULT,
    simultaneous: bool = False,
    forced: bool = False,
) -> PendingDecision:
    """Leave a decision of ``player`` pending.

    ``options`` fixes the options now (``answer`` then names the handler that
    takes the choice); without them the decision kind lists and applies them.
    ``prompt`` and ``pass_id`` override the kind's. ``simultaneous``: other
    players decide at the same time. ``forced``: a single option is taken at
    once, without asking (only where that reveals nothing hidden).
    """
    pending: PendingDecision = {"player": player, "kind": kind}
    if prompt is not None:
        pending["prompt"] = prompt
    if options is not None:
        if not options:
            raise RulesError(f"a {kind} decision of {player} needs options")
        # dict() keeps one option per id, in C: most decisions are asked with a handful of options
        if len(options) > 1 and len(dict(options)) != len(options):
            raise RulesError(f"duplicate option ids in a {kind} decision: {[option_id for option_id, _ in options]}")
        pending["options"] = [{"id": option_id, "label": label} for option_id, label in options]
    if not isinstance(pass_id, _KindDefault):
        pending["pass_id"] = pass_id
    pending["simultaneous"] = simultaneous
    if answer is not None:
        pending["answer"] = answer
    if data is not None:
        pending["data"] = data
    if forced:
        pending["forced"] = True
    state["pending"].append(pending)
    return pending


def pending_of(state: MachineState, player: str) -> PendingDecision | None:
    """The decision awaited from ``player``, if any."""
    for pending in state["pending"]:
        if pending["player"] == player:
            return pending
    return None


# --- the machine --------------------------------------------------------------------


class TurnMachine(Generic[S]):
    """One game's handlers, registered explicitly, and the loop that runs them.

    ``take_public_singles=False`` asks every decision that only a kind's
    ``public_count`` would let the machine take (``forced`` ones are still
    taken): the rules as they were before such decisions were taken without
    asking, kept for comparisons
    (``benchmarks/bench_round_trips.py --before``).
    """

    def __init__(self, game: str, *, take_public_singles: bool = True) -> None:
        self.game = game
        self.take_public_singles = take_public_singles
        self._tasks: dict[str, TaskHandler[S]] = {}
        self._steps: dict[str, dict[str, TaskHandler[S]]] = {}
        self._kinds: dict[str, DecisionKind[S]] = {}
        self._answers: dict[str, Answer[S]] = {}
        self._free: list[FreeAction[S]] = []
        #: the free actions by prefix, to tell a free action's option at a glance
        self._free_by_prefix: dict[str, FreeAction[S]] = {}
        self._taken: Taken[S] | None = None

    # --- registration

    def task(self, task_type: str, handler: TaskHandler[S]) -> None:
        """Register a one-shot task: it leaves the stack as it starts."""
        self._unused(task_type)
        self._tasks[task_type] = handler

    def step(self, task_type: str, step: str, handler: TaskHandler[S]) -> None:
        """Register the handler of one step of a task in steps."""
        if task_type in self._tasks:
            raise RulesError(f"{self.game}: task {task_type!r} is registered as one-shot")
        steps = self._steps.setdefault(task_type, {})
        if step in steps:
            raise RulesError(f"{self.game}: step {step!r} of task {task_type!r} is registered twice")
        steps[step] = handler

    def steps(self, task_type: str, handlers: dict[str, TaskHandler[S]]) -> None:
        """Register every step of a task in steps (``{step: handler}``)."""
        for step, handler in handlers.items():
            self.step(task_type, step, handler)

    def kind(
        self,
        name: str,
        *,
        prompt: str = "",
        pass_id: str | None = None,
        options: ListOptions[S] | None = None,
        apply: Answer[S] | None = None,
        default_action: str = "pass",
        public_count: PublicCount[S] | None = None,
        tests: Iterable[OrderTest] = (),
    ) -> DecisionKind[S]:
        """Register a decision kind (see :class:`DecisionKind`; ``tests``: what orders for it may test)."""
        if name in self._kinds:
            raise RulesError(f"{self.game}: decision kind {name!r} is registered twice")
        if (options is None) != (apply is None):
            raise RulesError(f"{self.game}: decision kind {name!r} needs both options and apply, or neither")
        if default_action not in DEFAULT_ACTIONS:
            raise RulesError(f"{self.game}: decision kind {name!r} declares the default action {default_action!r}, "
                             f"not one of {', '.join(DEFAULT_ACTIONS)}")
        declared: dict[str, OrderTest] = {}
        for test in tests:
            if test.name in declared:
                raise RulesError(f"{self.game}: decision kind {name!r} declares the order test {test.name!r} twice")
            declared[test.name] = test
        kind = DecisionKind(name, prompt, pass_id, options, apply, default_action, public_count,
                            MappingProxyType(declared))
        self._kinds[name] = kind
        return kind

    def answer(self, name: str, handler: Answer[S]) -> None:
        """Register a handler that takes the choice of decisions asked with ``answer=name``."""
        if name in self._answers:
            raise RulesError(f"{self.game}: answer {name!r} is registered twice")
        self._answers[name] = handler

    def free_action(self, prefix: str, offers: FreeOffers[S], apply: FreeApply[S]) -> None:
        """Register a free action, offered (after the decision's own options) in every decision."""
        if prefix in self._free_by_prefix:
            raise RulesError(f"{self.game}: free action {prefix!r} is registered twice")
        action = FreeAction(prefix, offers, apply)
        self._free.append(action)
        self._free_by_prefix[prefix] = action

    def on_taken(self, handler: Taken[S]) -> None:
        """Register how the game logs a decision with a single option that the machine took
        for its player (in the step's events, so that the player's screen and ``pbem log`` show it)."""
        if self._taken is not None:
            raise RulesError(f"{self.game}: the handler of decisions taken is registered twice")
        self._taken = handler

    def _unused(self, task_type: str) -> None:
        if task_type in self._tasks or task_type in self._steps:
            raise RulesError(f"{self.game}: task {task_type!r} is registered twice")

    # --- what is awaited

    def decision_kinds(self) -> frozenset[str]:
        """Every kind of decision this game can await."""
        return frozenset(self._kinds)

    def decision_kind(self, name: str) -> DecisionKind[S]:
        kind = self._kinds.get(name)
        if kind is None:
            raise RulesError(f"{self.game}: no decision kind {name!r} is registered")
        return kind

    def options(self, state: S, pending: PendingDecision) -> Options:
        """The options of a pending decision, free actions included."""
        return self._options(state, pending, self.decision_kind(pending["kind"]))

    def _options(self, state: S, pending: PendingDecision, kind: DecisionKind[S]) -> Options:
        """:meth:`options`, for the caller that has looked the decision's kind up already."""
        options = list(self._own_options(state, pending, kind))
        for action in self._free:
            options.extend(action.offers(state, pending))
        return options

    def _own_options(self, state: S, pending: PendingDecision, kind: DecisionKind[S]) -> Options:
        """The options a decision was asked with, or else those its kind lists: free actions left out."""
        if "options" in pending:
            return [(option["id"], option["label"]) for option in pending["options"]]
        if kind.options is not None:
            return kind.options(state, pending)
        raise RulesError(f"{self.game}: a {kind.name} decision was asked without options")

    def decision(self, state: S, pending: PendingDecision) -> Decision:
        """A pending decision as the protocol's :class:`~pbem.engine.protocol.Decision`."""
        # the kind from the table itself, and only a kind nobody registered through decision_kind (its error)
        kind = self._kinds.get(pending["kind"]) or self.decision_kind(pending["kind"])
        free = self._free_by_prefix
        if free:
            # one of its own options takes a free action, which keeps the decision open, when its prefix names one
            # (as :meth:`choose` tells them); what a free action offers is one, under the action's prefix
            options = [_new_tuple(Option, (option_id, label, option_id.partition(":")[0] in free))
                       for option_id, label in self._own_options(state, pending, kind)]
            for action in self._free:
                for option_id, label in action.offers(state, pending):
                    options.append(_new_tuple(Option, (option_id, label, True)))
        # a game without free actions: no option is one, and none need be looked up
        elif "options" in pending:  # the options it was asked with, read as they are kept
            options = [_new_tuple(Option, (option["id"], option["label"], False)) for option in pending["options"]]
        else:
            options = [_new_tuple(Option, (option_id, label, False))
                       for option_id, label in self._own_options(state, pending, kind)]
        return _new_tuple(Decision, (pending["player"], kind.name, tuple(options), pending.get("prompt", kind.prompt),
                                     pending.get("pass_id", kind.pass_id), pending.get("simultaneous", False)))

    def decisions(self, state: S) -> list[Decision]:
        """Every decision awaited now; none once the game is over."""
        if state["over"]:
            return []
        return [self.decision(state, pending) for pending in state["pending"]]

    # --- running

    def run(self, state: S, rng: Rng) -> None:
        """Run tasks until a decision is awaited, nothing is left, or the game is over."""
        tasks, steps = self._tasks, self._steps  # looked up once: a decision takes a few turns of this loop
        while not state["over"]:
            if state["pending"]:
                if not self._take_forced(state, rng):
                    break
                continue
            stack = state["stack"]  # read on each turn: a task may put another stack in its place
            if not stack:
                break
            task = stack[-1]
            handler = tasks.get(task["type"])
            if handler is not None:
                stack.pop()
            else:
                step = task.get("step", START)
                handler = steps.get(task["type"], _NO_STEPS).get(step)
                if handler is None:
                    raise RulesError(f"{self.game}: no handler for step {step!r} of task {task['type']!r}")
            handler(state, task, rng)
        if state["over"]:
            state["pending"] = []

    def _take_forced(self, state: S, rng: Rng) -> bool:
        """Take a decision with a single option that reveals nothing hidden; whether there was one."""
        for pending in state["pending"]:
            # asked with two options or more, it has more than one whatever its kind says (free actions only add)
            if len(pending.get("options", ())) < 2 and self._may_take(state, pending):
                options = self.options(state, pending)
                if len(options) == 1:
                    option_id, label = options[0]
                    state["pending"].remove(pending)
                    if self._taken is not None:
                        self._taken(state, pending, option_id, label)
                    self._apply(state, pending, option_id, rng)
                    return True
        return False

    def _may_take(self, state: S, pending: PendingDecision) -> bool:
        """Whether the machine may take ``pending`` when it has a single option: it was asked as
        ``forced``, or its kind says its number of options is public here."""
        if pending.get("forced"):
            return True
        public_count = self.decision_kind(pending["kind"]).public_count
        return self.take_public_singles and public_count is not None and public_count(state, pending)

    def choose(self, state: S, player: str, option_id: str, rng: Rng) -> None:
        """Apply ``player``'s choice (already checked legal) and run on to the next decision."""
        pending = pending_of(state, player)
        if pending is None:
            raise NotAwaitedError(f"no decision of {player!r} is awaited")
        # a game without free actions need not cut the option's prefix out to look it up
        action = self._free_by_prefix.get(option_id.partition(":")[0]) if self._free_by_prefix else None
        if action is not None:
            action.apply(state, player, option_id, rng)
        else:
            state["pending"].remove(pending)
            self._apply(state, pending, option_id, rng)
        self.run(state, rng)

    def _apply(self, state: S, pending: PendingDecision, option_id: str, rng: Rng) -> None:
        if "answer" in pending:
            handler = self._answers.get(pending["answer"])
            if handler is None:
                raise RulesError(f"{self.game}: no answer {pending['answer']!r} is registered")
        else:
            handler = self.decision_kind(pending["kind"]).apply
            if handler is None:
                raise RulesError(f"{self.game}: the {pending['kind']} decision names no answer")
        handler(state, pending, option_id, rng)


class MachineGame(Generic[S]):
    """The protocol members a game on the turn machine takes from its machine:
    :meth:`decision_kinds`, :meth:`default_action`, :meth:`awaiting`,
    :meth:`apply` and what orders may test (:meth:`order_tests`,
    :meth:`order_value`). A game sets ``self.machine`` (its own :class:`TurnMachine`)
    and supplies the rest of :class:`~pbem.engine.protocol.Game`."""

    machine: TurnMachine[S]

    def decision_kinds(self) -> frozenset[str]:
        return self.machine.decision_kinds()

    def default_action(self, kind: str) -> str:
        """What the referee does for a player whose decision of ``kind`` passed its deadline, as registered."""
        return self.machine.decision_kind(kind).default_action

    def awaiting(self, state: S) -> list[Decision]:
        return self.machine.decisions(state)

    def order_tests(self, kind: str) -> Mapping[str, OrderTest]:
        """What orders for decisions of ``kind`` may test besides the generic tests, as registered."""
        return self.machine.decision_kind(kind).tests

    def order_value(self, state: S, player: str, test: str, option_id: str | None = None) -> Any:
        """The value of the order test ``test`` on ``player``'s open decision (of one of its options, for an
        option test), read as the decision's kind declares it."""
        pending = pending_of(state, player)
        if pending is None:
            raise NotAwaitedError(f"no decision of {player!r} is awaited")
        declared = self.machine.decision_kind(pending["kind"]).tests.get(test)
        if declared is None:
            raise RulesError(f"{self.machine.game}: {pending['kind']} decisions have no order test {test!r}")
        if declared.about == "option":
            return declared.read(state, pending, option_id)
        return declared.read(state, pending)

    def apply(self, state: S, player: str, option_id: str, rng: Rng) -> S:
        self.machine.choose(state, player, option_id, rng)
        return state
