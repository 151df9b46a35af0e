"""The command line: thin Typer commands over :mod:`pbem.referee`."""
