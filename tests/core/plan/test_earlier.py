"""Repeats and earlier rejections as data: what the window shows instead of parsing text."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from llm_operator.core.plan.earlier import OK, REJECTED, REPEATED, tally, verdicts
from llm_operator.core.plan.run import APPROVE, Decision
from llm_operator.core.plan.session import Session
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace


def write(cmd: Any, cmd_id: str, path: str, content: str) -> str:
    return str(cmd(cmd_id, "fs.write", path=path, content=content))


def run_once(session: Session, text: str, decision: Decision | None) -> Any:
    run = session.prepare(text)
    decisions = {p.index: decision for p in run.pending} if decision else {}
    session.execute(run, decisions)
    return run, decisions


def test_a_repeat_says_when_it_first_ran(cmd: Any, workspace: Path, state_dir: Path) -> None:
    session = Session(Workspace(workspace), state_dir)
    text = write(cmd, "w1", "a.txt", "one") + "\n" + str(cmd("r1", "fs.read", path="README.md"))
    run_once(session, text, APPROVE)
    run, decisions = run_once(session, text, APPROVE)
    assert all(item.first_ran_at is not None for item in run.items)
    found = verdicts(run, decisions)
    # The write is not run again; the read is (its answer is the file as it is now).
    assert [v.verdict for v in found.values()] == [REPEATED, OK]
    assert found[0].first_ran.startswith("at ")
    assert "[repeat:" not in found[0].summary  # the note for the chat is not the list's text
    assert "[repeat:" in found[1].summary
    assert (
        tally(found).describe()
        == "1 command: 1 ok, 0 failed, 0 rejected; 1 repeated, not run again"
    )


def test_a_repeat_in_the_same_reply(cmd: Any, workspace: Path, state_dir: Path) -> None:
    session = Session(Workspace(workspace), state_dir)
    made = write(cmd, "w1", "made.txt", "one")
    run, decisions = run_once(session, made + "\n" + made, APPROVE)
    found = verdicts(run, decisions)
    assert found[1].verdict == REPEATED
    assert found[1].first_ran == "earlier in this reply"
    assert (
        tally(found).describe()
        == "1 command: 1 ok, 0 failed, 0 rejected; 1 repeated, not run again"
    )


def test_a_rejected_write_is_asked_again_with_its_reason(
    cmd: Any, workspace: Path, state_dir: Path
) -> None:
    session = Session(Workspace(workspace), state_dir)
    text = write(cmd, "w1", "a.txt", "one")
    run, decisions = run_once(session, text, Decision(False, "not now"))
    assert verdicts(run, decisions)[0].verdict == REJECTED
    assert run.items[0].rejected_before is None  # the first time it is simply asked

    again = session.prepare(text)
    earlier = again.items[0].rejected_before
    assert earlier is not None
    assert earlier.reason == "not now"
    pending = again.pending[0]
    assert pending.plan is not None
    assert pending.plan.notes[-1].startswith("rejected before at ")  # the review shows it
    assert pending.plan.notes[-1].endswith("(not now)")
    assert pending.rejected_before is earlier
    session.execute(again, {pending.index: APPROVE})
    found = verdicts(again, {pending.index: APPROVE})
    assert found[0].verdict == "ok"
    assert found[0].rejected_before is earlier
    assert "asked again: rejected before at" in found[0].status()
    assert tally(found).describe().endswith("; 1 asked again (rejected before)")
    assert (workspace / "a.txt").read_text() == "one"


def test_other_content_under_the_same_id_is_not_asked_again(
    cmd: Any, workspace: Path, state_dir: Path
) -> None:
    session = Session(Workspace(workspace), state_dir)
    run_once(session, write(cmd, "w1", "a.txt", "one"), Decision(False))
    again = session.prepare(write(cmd, "w1", "a.txt", "two"))
    assert again.items[0].rejected_before is None


def test_the_store_keeps_a_hash_not_the_content(cmd: Any, workspace: Path, state_dir: Path) -> None:
    session = Session(Workspace(workspace), state_dir)
    run_once(session, write(cmd, "w1", "a.txt", "hunter2-secret"), Decision(False, "why"))
    db = workspace_state_dir(state_dir, workspace.resolve()) / FILE_NAME
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT id, fingerprint, reason FROM rejections").fetchall()
    assert len(rows) == 1
    assert rows[0][0] == "w1"
    assert rows[0][2] == "why"
    assert "hunter2" not in rows[0][1]
    assert len(rows[0][1]) == 64
