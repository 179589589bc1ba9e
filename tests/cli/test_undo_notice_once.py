"""`llm-operator undo` with nothing to undo never prints an earlier notice a second time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any


def _run(*args: str | Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_nothing_to_undo_says_the_pending_notice_leads_the_next_results_instead_of_reprinting_it(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    where = ["--workspace", workspace, "--state-dir", state_dir]
    wrote = _run("exec", *where, "--yes", stdin=cmd("w1", "fs.write", path="n.txt", content="x"))
    assert parse_results(wrote.stdout)[0].ok, wrote.stdout

    first = _run("undo", *where)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("\nOPERATOR_RESULT\n") == 1  # the new notice, to paste now
    assert not (workspace / "n.txt").exists()

    second = _run("undo", *where)
    assert second.returncode == 0, second.stderr
    assert "Nothing to undo" in second.stdout
    assert "OPERATOR_RESULT" not in second.stdout  # not offered for a second paste
    assert "1 earlier undo notice(s) not yet in the chat will lead the next results" in (
        second.stdout
    )

    # The notice is delivered exactly once: at the head of the next results.
    read = _run("exec", *where, stdin=cmd("r1", "fs.stat", path="."))
    results = parse_results(read.stdout)
    assert [r.id for r in results] == ["undo-1", "r1"]
    third = _run("undo", *where)
    assert "Nothing to undo" in third.stdout
    assert "notice" not in third.stdout
    assert "OPERATOR_RESULT" not in third.stdout
