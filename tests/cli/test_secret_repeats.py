"""A repeat of an approved read of a secret-looking file is answered only with consent.

A read is never answered from memory: sent again under its id, it runs again. For a read
of a secret-looking file that means it is asked again: a later reply that repeats the
command word for word must get, under ``exec --no``, the one fixed answer a first run
gets, whatever the file holds and whatever ran before; approved, it reads the file again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.actions import cli
from support.fixtures import parse_results

REPLY = "\n\n".join(
    "\n".join(["OPERATOR_CMD", "version: 1", *lines, "END_OPERATOR_CMD"])
    for lines in (
        ["id: s1", "action: fs.search", "path: .env", "query: API_KEY=sk-1"],
        ["id: r1", "action: fs.readSlice", "path: .env"],
        ["id: p1", "action: fs.readSlice", "path: app.py"],
    )
)


def run_exec(workspace: Path, state: Path, answer: str) -> str:
    done = cli("exec", "--workspace", workspace, "--state-dir", state, answer, stdin=REPLY)
    assert "Traceback" not in done.stderr
    return done.stdout


@pytest.mark.slow
def test_a_repeated_secret_read_answers_as_a_first_one_until_approved(tmp_path: Path) -> None:
    answers = {}
    for which, env in (("A", "API_KEY=sk-123\nX=1\nY=2\n"), ("B", "API_KEY=zz-999\nXY=12\n")):
        workspace = tmp_path / which / "ws"
        workspace.mkdir(parents=True)
        (workspace / ".env").write_text(env, encoding="utf-8")
        (workspace / "app.py").write_text("x = 1\n", encoding="utf-8")
        state = tmp_path / which / "state"
        if which == "A":  # A's user once approved these reads
            first = parse_results(run_exec(workspace, state, "--yes"))
            assert [result.ok for result in first] == [True, True, True]
            assert "lines 1-3 of 3" in first[1].details
        answers[which] = run_exec(workspace, state, "--no")
    a, b = parse_results(answers["A"]), parse_results(answers["B"])
    assert a[:2] == b[:2]  # B never ran them: the same answers, byte for byte
    for result in a[:2]:
        assert result.summary.endswith("(ERR_REJECTED_BY_USER): rejected by the user")
        assert result.details is None
    assert a[2].repeat  # an ordinary file's read runs again, saying it repeats
    assert a[2].details == b[2].details
    assert (a[2].details or "").endswith("1: x = 1\n")
    assert not b[2].repeat
    (tmp_path / "A" / "ws" / ".env").write_text("API_KEY=sk-123\n", encoding="utf-8")
    for _ in range(2):  # approved, the read runs again, and approving it stacks no notes
        approved = parse_results(run_exec(tmp_path / "A" / "ws", tmp_path / "A" / "state", "--yes"))
        assert [result.repeat for result in approved] == [True, True, True]
        assert approved[1].summary.startswith("Read lines 1-1 of 1 from .env [repeat:")
        assert approved[1].summary.count("[repeat:") == 1
        assert (approved[1].details or "").endswith("1: API_KEY=sk-123\n")  # as it is now
