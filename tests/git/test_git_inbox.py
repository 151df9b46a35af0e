"""What the referee reads of an inbox: each new commit once, what it adds or changes, within bounds."""

from __future__ import annotations

from helpers_git import GitTable, first_choice, move, push_files, run, send

from pbem.git.inbox import FILE_MAX_BYTES, MAX_COMMITS, MAX_FILES


def answer_lines(table: GitTable) -> list[str]:
    return [line for line in table.referee.answer().splitlines() if line.startswith("inbox/")]


def test_a_commit_on_top_of_the_game_branch_is_read_for_what_it_adds(table: GitTable) -> None:
    """Plain git: alice commits her move on her clone of the game branch and pushes it to her inbox."""
    alice = table.alice
    (alice.clone / "move.json").write_bytes(move(table, alice, first_choice(table, alice)))
    alice.git("add", "move.json")
    alice.git("commit", "-q", "-m", "my move")
    alice.git("push", "-q", "origin", "HEAD:refs/heads/inbox/alice")
    table.referee.serve()
    lines = answer_lines(table)
    assert len(lines) == 1 and lines[0].endswith("move.json: alice's move answering turn 0: APPLIED: turn 1 written")


def test_a_commit_is_read_for_its_first_files_only(table: GitTable) -> None:
    alice = table.alice
    send(table, alice, b"{}", name="f00.json", extra={f"f{n:02d}.json": b"{}" for n in range(1, MAX_FILES + 4)})
    table.referee.serve()
    lines = answer_lines(table)
    assert len(lines) == MAX_FILES + 4
    assert sum(f"a commit is read for its first {MAX_FILES} files only" in line for line in lines) == 4


def test_a_file_larger_than_a_move_may_be_is_not_read(table: GitTable) -> None:
    send(table, table.alice, b" " * (FILE_MAX_BYTES + 1), name="big.json")
    table.referee.serve()
    assert f"big.json: not read: {FILE_MAX_BYTES + 1:,} bytes" in table.referee.answer()


def test_a_submodule_is_not_read(table: GitTable) -> None:
    alice = table.alice
    commit = alice.git("rev-parse", "HEAD").stdout.strip()
    tree = run(["git", "mktree", "--missing"], alice.env, alice.clone,
               input=f"160000 commit {commit}\tsub\n".encode()).stdout.strip()
    pushed = run(["git", "commit-tree", tree, "-m", "sub"], alice.env, alice.clone).stdout.strip()
    alice.git("push", "-q", "origin", f"{pushed}:refs/heads/inbox/alice")
    table.referee.serve()
    assert "sub: not read: a submodule" in table.referee.answer()


def test_a_rewritten_inbox_is_read_for_its_new_commits(table: GitTable) -> None:
    alice = table.alice
    data = move(table, alice, first_choice(table, alice))
    send(table, alice, data)
    table.referee.serve()
    push_files(alice, "refs/heads/inbox/alice", {"again.json": data, "notes.txt": b"hi"}, force=True)
    table.referee.serve()
    lines = answer_lines(table)
    assert len(lines) == 2
    assert "again.json: alice's move answering turn 0: already in the game" in lines[0]


def test_a_deleted_inbox_is_nothing_to_read(table: GitTable) -> None:
    alice = table.alice
    send(table, alice, move(table, alice, first_choice(table, alice)))
    table.referee.serve()
    alice.git("push", "-q", "origin", ":refs/heads/inbox/alice")
    tip = table.host.tip()
    table.referee.serve()
    assert table.host.tip() == tip


def test_an_inbox_of_many_new_commits_is_read_over_several_runs(table: GitTable) -> None:
    alice = table.alice
    parent = None
    for n in range(MAX_COMMITS + 3):
        blob = run(["git", "hash-object", "-w", "--stdin"], alice.env, alice.clone, input=f"{n}".encode()).stdout.strip()
        tree = run(["git", "mktree"], alice.env, alice.clone, input=f"100644 blob {blob}\tn.txt\n".encode()).stdout.strip()
        parent = run(["git", "commit-tree", tree, *(["-p", parent] if parent else []), "-m", str(n)], alice.env,
                     alice.clone).stdout.strip()
    alice.git("push", "-q", "origin", f"{parent}:refs/heads/inbox/alice")
    table.referee.serve()
    first = table.referee.answer()
    assert first.count("n.txt: not a pbem file") == MAX_COMMITS
    assert "inbox/alice: 3 more new commits wait for the next run" in first
    table.referee.serve()
    assert table.referee.answer().count("n.txt: not a pbem file") == 3
