"""``python -m pbem`` and the ``pbem`` console script: one command per process.

A command's cost is mostly its start-up, and part of that is the
cyclic garbage collector: importing typer, cryptography and pbem allocates
tens of thousands of objects that live until the process ends, and the
collections those allocations trigger walk them all, as does the full
collection the interpreter makes on exit, to find no garbage. So the
collector is held off while the modules are imported, and what they made is
frozen (:func:`gc.freeze`: left out of every later collection); the command
runs with the collector on, as any program; at exit, what the command made
is frozen as well, since the process ending frees it anyway.

For the same reason the process ends at once when the command is done
(:func:`_exit_now`): the exit handlers run and the standard streams are
flushed, as the interpreter does on exit, and then the interpreter does not
take down every module and free every object one by one, which cost a
``pbem submit`` about 2% of its instructions, for memory the process
ending returns anyway. Every file a command writes is closed (and synced)
before it returns.
"""

import atexit
import gc
import os
import sys


def run() -> None:
    """Run the command line (the console script's entry point)."""
    gc.disable()
    try:
        from pbem.cli.main import main
    finally:
        gc.freeze()
        gc.enable()
    atexit.register(gc.freeze)
    try:
        main()
    except SystemExit as done:
        _exit_now(done)
        raise


def _exit_now(done: SystemExit) -> None:
    """End the process with ``done``'s exit status as the interpreter would after its exit handlers and the
    flush of the standard streams, without tearing down the interpreter.

    Returns, for the interpreter's own exit, when it would do more: when
    the status is a message to print, or another thread still runs (which
    the interpreter waits for first). A stream that cannot be flushed
    (a closed pipe) before the handlers run is left to the interpreter too;
    after them, the status is 120, the interpreter's for that case.
    """
    code = 0 if done.code is None else done.code
    if type(code) is not int or ("threading" in sys.modules and sys.modules["threading"].active_count() > 1):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # the interpreter reports it, and exits with its status for it
        return
    atexit._run_exitfuncs()  # each handler once: the interpreter would not run them again
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # as the interpreter: status 120
        code = 120
    os._exit(code)


if __name__ == "__main__":
    run()
