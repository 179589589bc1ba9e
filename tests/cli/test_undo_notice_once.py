"""`llm-operator undo` with nothing to undo never prints an earlier notice a second time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.actions import cli


def test_nothing_to_undo_says_the_pending_notice_leads_the_next_results_instead_of_reprinting_it(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    where = ["--workspace", workspace, "--state-dir", state_dir]
    wrote = cli("exec", *where, "--yes", stdin=cmd("w1", "fs.write", path="n.txt", content="x"))
    assert parse_results(wrote.stdout)[0].ok, wrote.stdout

    first = cli("undo", "--yes", *where, stdin="")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("\nOPERATOR_RESULT\n") == 1  # the new notice, to paste now
    assert not (workspace / "n.txt").exists()

    second = cli("undo", "--yes", *where, stdin="")
    assert second.returncode == 0, second.stderr
    assert "Nothing to undo" in second.stdout
    assert "OPERATOR_RESULT" not in second.stdout  # not offered for a second paste
    assert "1 earlier undo notice(s) not yet in the chat will lead the next results" in (
        second.stdout
    )

    # The notice is delivered exactly once: at the head of the next results.
    read = cli("exec", *where, stdin=cmd("r1", "fs.stat", path="."))
    results = parse_results(read.stdout)
    assert [r.id for r in results] == ["undo-1", "r1"]
    third = cli("undo", "--yes", *where, stdin="")
    assert "Nothing to undo" in third.stdout
    assert "notice" not in third.stdout
    assert "OPERATOR_RESULT" not in third.stdout
