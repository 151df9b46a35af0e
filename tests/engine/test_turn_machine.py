"""The turn machine: tasks run from a stack, decisions wait as data, a stored state resumes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pbem.engine.errors import NotAwaitedError, RulesError
from pbem.engine.machine import (
    MachineState,
    PendingDecision,
    Task,
    TurnMachine,
    ask,
    finish,
    new_task,
    push,
    push_all,
    top,
)
from pbem.engine.rng import Rng

RNG = Rng.from_seed("machine")


class Log(MachineState):
    log: list[str]
    coins: dict[str, int]


def fresh() -> Log:
    return {"stack": [], "pending": [], "over": False, "log": [], "coins": {"ann": 3, "bob": 0}}


def say(text: str) -> Any:
    def handler(state: Log, task: Task, rng: Rng) -> None:
        state["log"].append(text)

    return handler


def test_one_shot_tasks_run_top_first_and_each_runs_once():
    machine: TurnMachine[Log] = TurnMachine("test")
    for name in ("a", "b", "c"):
        machine.task(name, say(name))
    state = fresh()
    push_all(state, [new_task("a"), new_task("b")])
    push(state, "c")
    machine.run(state, RNG)
    assert state["log"] == ["c", "a", "b"] and state["stack"] == []


def test_a_one_shot_task_leaves_the_stack_before_it_pushes_what_is_left():
    machine: TurnMachine[Log] = TurnMachine("test")

    def countdown(state: Log, task: Task, rng: Rng) -> None:
        state["log"].append(str(task["n"]))
        if task["n"]:
            push(state, "countdown", n=task["n"] - 1)

    machine.task("countdown", countdown)
    state = fresh()
    push(state, "countdown", n=2)
    machine.run(state, RNG)
    assert state["log"] == ["2", "1", "0"]


def test_a_task_in_steps_stays_until_it_finishes_and_hands_its_value_to_the_task_below():
    machine: TurnMachine[Log] = TurnMachine("test")

    def parent_start(state: Log, task: Task, rng: Rng) -> None:
        task["step"] = "add"
        push(state, "child")

    def parent_add(state: Log, task: Task, rng: Rng) -> None:
        state["log"].append(f"child gave {task.pop('ret')}")
        finish(state)

    machine.steps("parent", {"start": parent_start, "add": parent_add})
    machine.step("child", "start", lambda state, task, rng: finish(state, 7))
    state = fresh()
    push(state, "parent")
    machine.run(state, RNG)
    assert state["log"] == ["child gave 7"] and state["stack"] == []


def give_machine() -> TurnMachine[Log]:
    """A decision kind whose options follow from the state, and a free action."""
    machine: TurnMachine[Log] = TurnMachine("test")

    def options(state: Log, decision: PendingDecision) -> list[tuple[str, str]]:
        coins = state["coins"][decision["player"]]
        return [(f"give:{n}", f"give {n}") for n in range(1, coins + 1)] + [("pass", "pass")]

    def apply(state: Log, decision: PendingDecision, option: str, rng: Rng) -> None:
        if option != "pass":
            n = int(option.split(":")[1])
            state["coins"][decision["player"]] -= n
            state["coins"][top(state)["to"]] += n
        finish(state)

    def start(state: Log, task: Task, rng: Rng) -> None:
        ask(state, task["from"], "give")

    machine.kind("give", prompt="give coins?", pass_id="pass", options=options, apply=apply)
    machine.step("giving", "start", start)

    def found(state: Log, decision: PendingDecision) -> list[tuple[str, str]]:
        return [("find:1", "find a coin")]

    def find(state: Log, player: str, option: str, rng: Rng) -> None:
        state["coins"][player] += 1

    machine.free_action("find", found, find)
    return machine


def test_a_decision_kind_lists_its_options_from_the_state_and_applies_the_choice():
    machine = give_machine()
    state = fresh()
    push(state, "giving", **{"from": "ann", "to": "bob"})
    machine.run(state, RNG)
    (decision,) = machine.decisions(state)
    assert (decision.player, decision.kind, decision.prompt, decision.pass_id) == ("ann", "give", "give coins?", "pass")
    assert [o.id for o in decision.options] == ["give:1", "give:2", "give:3", "pass", "find:1"]
    machine.choose(state, "ann", "give:2", RNG)
    assert state["coins"] == {"ann": 1, "bob": 2} and machine.decisions(state) == []


def test_a_free_action_leaves_the_decision_pending_with_new_options():
    machine = give_machine()
    state = fresh()
    push(state, "giving", **{"from": "ann", "to": "bob"})
    machine.run(state, RNG)
    machine.choose(state, "ann", "find:1", RNG)
    (decision,) = machine.decisions(state)
    assert decision.player == "ann" and "give:4" in [o.id for o in decision.options]


def test_fixed_options_name_the_answer_that_takes_the_choice_and_may_override_the_pass_option():
    machine: TurnMachine[Log] = TurnMachine("test")
    machine.kind("target", pass_id="none")

    def picked(state: Log, decision: PendingDecision, option: str, rng: Rng) -> None:
        state["log"].append(f"{decision['data']['why']}: {option}")

    machine.answer("picked", picked)
    state = fresh()
    ask(state, "bob", "target", "which?", options=[("x", "X"), ("y", "Y")], answer="picked", data={"why": "test"},
        pass_id=None)
    (decision,) = machine.decisions(state)
    assert decision.pass_id is None and decision.prompt == "which?"
    machine.choose(state, "bob", "y", RNG)
    assert state["log"] == ["test: y"]


def test_a_forced_decision_with_one_option_is_taken_at_once():
    machine: TurnMachine[Log] = TurnMachine("test")
    machine.kind("target")
    machine.answer("picked", lambda state, decision, option, rng: state["log"].append(option))
    def one(state: Log, task: Task, rng: Rng) -> None:
        ask(state, "ann", "target", options=[("only", "Only")], answer="picked", forced=True)

    def two(state: Log, task: Task, rng: Rng) -> None:
        ask(state, "ann", "target", options=[("a", "A"), ("b", "B")], answer="picked", forced=True)

    machine.task("one", one)
    machine.task("two", two)
    state = fresh()
    push_all(state, [new_task("one"), new_task("two")])
    machine.run(state, RNG)
    assert state["log"] == ["only"] and [o.id for o in machine.decisions(state)[0].options] == ["a", "b"]


def test_simultaneous_decisions_wait_together():
    machine: TurnMachine[Log] = TurnMachine("test")
    machine.kind("pick")
    machine.answer("picked", lambda state, decision, option, rng: state["log"].append(decision["player"]))
    state = fresh()
    for player in ("ann", "bob"):
        ask(state, player, "pick", options=[("a", "A")], answer="picked", simultaneous=True)
    assert [(d.player, d.simultaneous) for d in machine.decisions(state)] == [("ann", True), ("bob", True)]
    machine.choose(state, "bob", "a", RNG)
    assert [d.player for d in machine.decisions(state)] == ["ann"]


def test_a_stored_state_resumes_identically():
    machine = give_machine()
    state = fresh()
    push(state, "giving", **{"from": "ann", "to": "bob"})
    machine.run(state, RNG)
    stored: Log = json.loads(json.dumps(state))
    machine.choose(state, "ann", "give:1", RNG)
    machine.choose(stored, "ann", "give:1", RNG)
    assert stored == state


def test_nothing_is_awaited_once_the_game_is_over():
    machine = give_machine()

    def end(state: Log, task: Task, rng: Rng) -> None:
        ask(state, "bob", "give")
        state["over"] = True

    machine.task("end", end)
    state = fresh()
    push(state, "end")
    machine.run(state, RNG)
    assert machine.decisions(state) == [] and state["pending"] == []


def test_the_decision_kinds_are_those_registered():
    machine = give_machine()
    machine.kind("other")
    assert machine.decision_kinds() == frozenset({"give", "other"})


def test_a_choice_from_a_player_not_awaited_is_refused():
    machine = give_machine()
    with pytest.raises(NotAwaitedError):
        machine.choose(fresh(), "ann", "pass", RNG)


@pytest.mark.parametrize("broken", ["unknown task", "unknown step", "unknown kind", "no options", "duplicate ids"])
def test_a_broken_rule_is_a_rules_error_not_an_assertion(broken: str):
    machine: TurnMachine[Log] = TurnMachine("test")
    machine.step("steps", "start", lambda state, task, rng: task.update(step="missing"))
    state = fresh()
    with pytest.raises(RulesError):
        if broken == "unknown task":
            push(state, "nothing")
            machine.run(state, RNG)
        elif broken == "unknown step":
            push(state, "steps")
            machine.run(state, RNG)
        elif broken == "unknown kind":
            ask(state, "ann", "nothing", options=[("a", "A")])
            machine.decisions(state)
        elif broken == "no options":
            ask(state, "ann", "target", options=[])
        else:
            ask(state, "ann", "target", options=[("a", "A"), ("a", "B")])


def test_a_handler_registered_twice_is_refused():
    machine: TurnMachine[Log] = TurnMachine("test")
    machine.task("a", say("a"))
    machine.kind("k")
    with pytest.raises(RulesError):
        machine.task("a", say("a"))
    with pytest.raises(RulesError):
        machine.step("a", "start", say("a"))
    with pytest.raises(RulesError):
        machine.kind("k")


def test_what_the_referee_does_at_a_deadline_is_declared_with_each_decision_kind():
    """A game on the machine answers ``default_action(kind)`` (pbem tick) from the kinds it registered:
    ``pass`` unless the kind says ``bot``; a kind it never registered is a rules error."""
    from pbem.engine.machine import MachineGame

    class Game(MachineGame[Log]):
        def __init__(self) -> None:
            self.machine = TurnMachine("test")
            self.machine.kind("give", pass_id="pass")
            self.machine.kind("guess", default_action="bot")

    game = Game()
    assert (game.default_action("give"), game.default_action("guess")) == ("pass", "bot")
    with pytest.raises(RulesError, match="no decision kind 'steal'"):
        game.default_action("steal")
    with pytest.raises(RulesError, match="default action 'wait'"):
        game.machine.kind("wait", default_action="wait")
