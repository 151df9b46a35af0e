"""Play by git: the referee's loop over a shared repository, and the player's sending.

The shared repository (on a git host, or any git server) has a **game
branch** that the referee alone writes, holding each game directory, and
an **inbox** per player (``refs/heads/inbox/NAME``, or a pull request from
the player's fork) where only that player pushes. Players clone it, follow
the game branch with ``git pull``, read their view and write moves with
``pbem view`` and ``pbem move``, and push them with ``pbem git send``.

* :func:`pbem.git.serve.serve_once` — one run of the referee's loop
  (``pbem git serve``);
* :func:`pbem.git.send.send` — a player pushes files to their inbox
  (``pbem git send``);
* :class:`pbem.git.config.GitConfig` — the referee's configuration file.

The referee reads the inboxes as data only (:mod:`pbem.git.plumbing`,
:mod:`pbem.git.inbox`) and steps its own game directories, never a
checkout of what anyone pushed (:mod:`pbem.git.branch`). docs/git.md is the
reference.
"""
