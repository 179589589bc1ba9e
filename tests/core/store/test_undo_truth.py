"""Undo tells the truth: forgotten repeats, the notice for the chat, a damaged record,
later edits, and the JSON state of earlier versions."""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE, REJECT
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import encode_results
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace


def run(session: Session, text: str, approve: bool = True) -> list[Any]:
    prepared = session.prepare(text)
    decision = APPROVE if approve else REJECT
    decisions = {p.index: decision for p in prepared.pending}
    # A write of a secret-looking file is planned once let in, then approved the same way.
    decisions |= {p.index: decision for p in session.open_held(prepared, decisions)}
    return session.execute(prepared, decisions)


@pytest.fixture
def session(workspace: Path, state_dir: Path) -> Session:
    return Session(Workspace(workspace), state_dir)


def sql(workspace: Path, state_dir: Path, query: str, *args: object) -> None:
    path = workspace_state_dir(state_dir, Workspace(workspace).root) / FILE_NAME
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute(query, args)


def test_undo_then_repaste_asks_again_and_never_reports_ok_unasked(
    session: Session, workspace: Path, cmd: Any
) -> None:
    text = cmd("w1", "fs.write", path="new.txt", content="hello")
    assert [r.ok for r in run(session, text)] == [True]
    assert session.undo_last().ok
    assert not (workspace / "new.txt").exists()

    again = session.prepare(text)
    assert [p.id for p in again.pending] == ["w1"]  # planned and asked again
    results = session.execute(again, {})  # nobody approves
    assert [r.id for r in results] == ["undo-1", "w1"]
    assert not results[1].ok
    assert "[repeat:" not in results[1].outcome.summary
    assert not (workspace / "new.txt").exists()

    third = run(session, text)
    assert [(r.id, r.ok, r.repeat) for r in third] == [("w1", True, False)]
    assert (workspace / "new.txt").read_text() == "hello"


def test_the_notice_leads_the_next_copied_results_once(
    session: Session, workspace: Path, cmd: Any
) -> None:
    run(
        session,
        cmd("w1", "fs.write", path="a.txt", content="A")
        + "\n"
        + cmd("w2", "fs.write", path="src/main.py", content="x"),
    )
    report = session.undo_last()
    assert report.notice is not None
    assert report.notice.id == "undo-1"

    results = run(session, cmd("r1", "fs.list", path="."))
    assert [r.id for r in results] == ["undo-1", "r1"]
    notice = results[0]
    assert notice.ok
    assert notice.notice
    assert "w1, w2" in notice.outcome.summary
    assert "not executed" in notice.outcome.summary
    details = json.loads(notice.outcome.details)
    assert details == {
        "undone": [
            {"id": "w1", "action": "fs.write", "path": "a.txt"},
            {"id": "w2", "action": "fs.write", "path": "src/main.py"},
        ],
        "files": ["a.txt", "src/main.py"],
    }
    assert encode_results(results).startswith("OPERATOR_RESULT\nid: undo-1\nok: true\n")
    assert [r.id for r in run(session, cmd("r2", "fs.list", path="."))] == ["r2"]


def test_a_tampered_saved_copy_refuses_undo_and_names_the_file(
    session: Session, workspace: Path, state_dir: Path, cmd: Any
) -> None:
    run(session, cmd("w0", "fs.write", path="README.md", content="older batch"))
    run(session, cmd("w1", "fs.write", path="README.md", content="newest batch"))
    sql(workspace, state_dir, "UPDATE blobs SET data = X'00' WHERE batch = 2")

    report = session.undo_last()

    assert report.refused
    assert "README.md: its saved copy does not match its digest" in report.summary
    assert "no older batch was undone" in report.summary
    assert (workspace / "README.md").read_text() == "newest batch"
    assert session.journal.last_batch() is not None
    assert session.journal.last_batch().label == "w1"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("UPDATE entries SET after = NULL WHERE batch = 1", "is missing"),
        ("DELETE FROM blobs", "its saved copy is missing"),
        ("UPDATE entries SET before = '{not json' WHERE batch = 1", "not readable"),
    ],
)
def test_an_incomplete_record_refuses_undo(
    session: Session, workspace: Path, state_dir: Path, cmd: Any, damage: str, message: str
) -> None:
    run(session, cmd("w1", "fs.write", path="README.md", content="changed"))
    sql(workspace, state_dir, damage)

    report = session.undo_last()

    assert report.refused
    assert message in report.summary
    assert "README.md" in report.summary
    assert (workspace / "README.md").read_text() == "changed"


def test_files_edited_after_the_batch_refuse_undo_unless_forced(
    session: Session, workspace: Path, cmd: Any
) -> None:
    original = (workspace / "README.md").read_text()
    run(
        session,
        cmd("w1", "fs.write", path="README.md", content="batch")
        + "\n"
        + cmd("w2", "fs.write", path="b.txt", content="b"),
    )
    (workspace / "README.md").write_text("edited by hand later", encoding="utf-8")

    refused = session.undo_last()
    assert refused.refused
    assert refused.conflicts == ("README.md",)
    assert "README.md" in refused.summary
    assert (workspace / "README.md").read_text() == "edited by hand later"
    assert (workspace / "b.txt").exists()

    forced = session.undo_last(force=True)
    assert forced.ok
    assert (workspace / "README.md").read_text() == original
    assert not (workspace / "b.txt").exists()


def test_json_state_of_earlier_versions_is_imported_once(
    workspace: Path, state_dir: Path, cmd: Any
) -> None:
    folder = workspace_state_dir(state_dir, Workspace(workspace).root)
    batch = folder / "journal" / "000001-20260101T000000"
    (batch / "blobs").mkdir(parents=True)
    old = b"# Demo\n\nA demo project.\n"
    name = hashlib.sha256(old).hexdigest()
    (batch / "blobs" / name).write_bytes(old)
    (workspace / "README.md").write_text("edited by an old version", encoding="utf-8")
    after = "sha256:" + hashlib.sha256(b"edited by an old version").hexdigest()
    manifest = {
        "format": 1,
        "id": batch.name,
        "label": "old run",
        "created": "2026-01-01T00:00:00+00:00",
        "state": "committed",
        "entries": [
            {
                "path": "README.md",
                "kind": "edited",
                "before": {"type": "file", "mode": 0o644, "blob": name},
                "after": after,
                "created_dirs": [],
                "applied": True,
            }
        ],
    }
    (batch / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    text = cmd("old-id", "fs.list", path=".")
    memory = {
        "version": 1,
        "ids": {
            "old-id": {
                "fingerprint": "x",
                "ok": True,
                "summary": "Listed",
                "details": None,
                "at": 1.0,
            }
        },
    }
    (folder / "session-memory.json").write_text(json.dumps(memory), encoding="utf-8")

    session = Session(Workspace(workspace), state_dir)

    assert (folder / "session-memory.json.imported").is_file()
    assert (folder / "journal.imported").is_dir()
    assert session.memory.lookup("old-id", 0) is not None  # the first conversation
    (result,) = run(session, text)
    assert "(ERR_DUPLICATE_ID)" in result.outcome.summary  # the imported id is remembered
    assert [b.label for b in session.journal.batches()] == ["old run"]
    assert session.undo_last().ok
    assert (workspace / "README.md").read_bytes() == old


def test_a_write_whose_memory_cannot_be_read_is_refused_not_run_twice(
    session: Session, workspace: Path, state_dir: Path, cmd: Any
) -> None:
    text = cmd("w1", "fs.write", path="once.txt", content="one")
    run(session, text)
    (workspace / "once.txt").write_text("edited since", encoding="utf-8")
    sql(workspace, state_dir, "DROP TABLE memory")

    (result,) = run(Session(Workspace(workspace), state_dir), text)

    assert not result.ok
    assert "(ERR_STATE_STORE_UNAVAILABLE)" in result.outcome.summary
    assert (workspace / "once.txt").read_text() == "edited since"


def test_run_history_is_shared_by_every_front_end(
    session: Session, workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    import subprocess
    import sys

    run(session, cmd("w1", "fs.write", path="h.txt", content="h"))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "llm_operator.cli",
            "exec",
            "--yes",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state_dir),
        ],
        input=cmd("r1", "fs.read", path="h.txt"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0

    runs = session.recent_runs()

    assert [(r.commands, r.failed) for r in runs] == [(1, 0), (1, 0)]
    assert "id: w1" in runs[0].results
    assert runs[1].results + "\n" == done.stdout


def test_only_the_user_may_read_the_store(session: Session, workspace: Path, cmd: Any) -> None:
    run(session, cmd("w1", "fs.write", path=".env", content="TOKEN=x"))
    assert session.state_folder is not None
    files = sorted(session.state_folder.glob(FILE_NAME + "*"))
    assert files
    assert {oct(path.stat().st_mode & 0o777) for path in files} == {"0o600"}


def test_a_run_committed_while_the_undo_waited_for_the_lock_is_not_undone(
    workspace: Path, state_dir: Path, session: Session, cmd: Any
) -> None:
    """The user is shown batch X and says undo; before the undo holds the write lock,
    another run commits batch Y. Undoing "the newest" then would undo Y unseen."""
    from llm_operator.core.changes import ChangeSet, FileChange
    from llm_operator.core.store.applying import apply_changeset
    from llm_operator.core.store.journal import Journal
    from llm_operator.core.store.lock import WorkspaceLock

    run(session, cmd("x1", "fs.write", path="a.txt", content="from the window"))
    shown = session.journal.last_batch()
    assert shown is not None
    folder = session.state_folder
    assert folder is not None
    other_run = WorkspaceLock(folder)
    assert other_run.acquire()
    waiting = threading.Event()
    session.on_wait = waiting.set
    reports: list[Any] = []
    undo = threading.Thread(target=lambda: reports.append(session.undo_last(expected=shown.id)))
    undo.start()
    try:
        assert waiting.wait(30), "the undo did not wait for the other run's lock"
        # The other run, holding the lock, records and commits its own batch.
        recorder = Journal(folder).begin_batch("y1")
        recorder.begin_command("y1", "fs.write")
        apply_changeset(
            Workspace(workspace), ChangeSet((FileChange("b.txt", None, b"from exec"),)), recorder
        )
        assert recorder.commit() is not None
    finally:
        other_run.release()
        undo.join(30)
    (report,) = reports
    assert report.refused
    assert "no longer the newest batch" in report.summary
    assert "'y1'" in report.summary
    assert (workspace / "b.txt").read_bytes() == b"from exec"  # the unseen batch stands
    assert (workspace / "a.txt").read_text() == "from the window"
    newest = session.journal.last_batch()
    assert newest is not None
    assert newest.label == "y1"
    assert not newest.undone
