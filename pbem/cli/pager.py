"""``pbem replay`` on a terminal: one turn's screen at a time, stepped through with n, p, q or a turn number.

The screens are drawn as the reader asks for them (a game of thousands of
turns shows its first screen after replaying only up to it) and kept, as
text, to go back to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pbem.cli.output import say

HELP = "n (or Enter): next turn, p: previous, a number: that turn, q: quit"


class Pager:
    """The screens of ``turns`` (pairs of a turn number and its screen), drawn as they are reached."""

    def __init__(self, turns: Iterator[tuple[int, str]]) -> None:
        self._turns = turns
        self._shown: list[tuple[int, str]] = []
        self._done = False

    def _reach(self, index: int) -> bool:
        """Draw screens up to the ``index``-th; whether it exists."""
        while len(self._shown) <= index and not self._done:
            found = next(self._turns, None)
            if found is None:
                self._done = True
            else:
                self._shown.append(found)
        return index < len(self._shown)

    def _index_of(self, number: int) -> int | None:
        index = 0
        while self._reach(index):
            if self._shown[index][0] == number:
                return index
            if self._shown[index][0] > number:
                return None
            index += 1
        return None

    def run(self, ask: Callable[[str], str]) -> None:
        """Show the first screen, then what each answer of ``ask`` (the prompt's line) asks for, until q."""
        if not self._reach(0):
            return
        index = 0
        while True:
            number, screen = self._shown[index]
            say(screen)
            note = ""
            while True:
                try:
                    answer = ask(f"{note}[turn {number}] {HELP} > ").strip().lower()
                except (EOFError, KeyboardInterrupt):
                    say("")
                    return
                note = ""
                if answer == "q":
                    return
                if answer in ("", "n"):
                    if self._reach(index + 1):
                        index += 1
                        break
                    note = "that was the last turn; "
                elif answer == "p":
                    if index > 0:
                        index -= 1
                        break
                    note = "that is the first turn shown; "
                elif answer.isdigit():
                    found = self._index_of(int(answer))
                    if found is not None:
                        index = found
                        break
                    note = f"no turn {answer} to show; "
                else:
                    note = f"{answer!r}? "
