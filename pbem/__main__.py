"""``python -m pbem`` and the ``pbem`` console script: one command per process.

A command's cost is mostly its start-up (issue 9), and part of that is the
cyclic garbage collector: importing typer, cryptography and pbem allocates
tens of thousands of objects that live until the process ends, and the
collections those allocations trigger walk them all, as does the full
collection the interpreter makes on exit, to find no garbage. So the
collector is held off while the modules are imported, and what they made is
frozen (:func:`gc.freeze`: left out of every later collection); the command
runs with the collector on, as any program; at exit, what the command made
is frozen as well, since the process ending frees it anyway.
"""

import atexit
import gc


def run() -> None:
    """Run the command line (the console script's entry point)."""
    gc.disable()
    try:
        from pbem.cli.main import main
    finally:
        gc.freeze()
        gc.enable()
    atexit.register(gc.freeze)
    main()


if __name__ == "__main__":
    run()
