"""A state store of schema 1 (before conversations) opens as schema 3, keeping what it held.

The old schema is written here as the earlier version wrote it, with a remembered write,
a committed batch and an undelivered notice: after the first open they all belong to
conversation 0 (the paste channel's until a primer starts another), the memory's key is
(conversation, id), and a new conversation may use an id the old one holds.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from llm_operator.core.store.conversations import (
    MCP,
    PASTE,
    current_conversation,
    start_conversation,
)
from llm_operator.core.store.database import FILE_NAME, StateStore
from llm_operator.core.store.memory import SessionMemory
from llm_operator.core.store.notices import undelivered

SCHEMA_1 = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE memory (
    id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, ok INTEGER NOT NULL,
    summary TEXT NOT NULL, details TEXT, at REAL NOT NULL, batch INTEGER
);
CREATE TABLE batches (
    id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, created TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'committed', 'undone')), undone_at TEXT
);
CREATE TABLE entries (
    batch INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
    command_id TEXT, action TEXT, path TEXT NOT NULL, kind TEXT NOT NULL, before TEXT,
    after TEXT, created_dirs TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (batch, seq)
);
CREATE TABLE blobs (
    batch INTEGER NOT NULL REFERENCES batches(id) ON DELETE CASCADE, digest TEXT NOT NULL,
    data BLOB NOT NULL, PRIMARY KEY (batch, digest)
);
CREATE TABLE notices (
    n INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL, summary TEXT NOT NULL,
    details TEXT NOT NULL, delivered INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE runs (
    n INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, commands INTEGER NOT NULL,
    failed INTEGER NOT NULL, results TEXT NOT NULL
);
INSERT INTO schema_version VALUES (1);
INSERT INTO batches (label, created, state) VALUES ('write-1', '2026-01-01', 'committed');
INSERT INTO memory VALUES ('write-1', 'fp-old', 1, 'Wrote notes.txt', NULL, 1.0, 1);
INSERT INTO memory VALUES ('read-1', 'fp-read', 1, 'Read a.txt', 'alpha', 2.0, NULL);
INSERT INTO notices (created, summary, details) VALUES ('2026-01-01', 'The user undid w0', '{}');
"""


def old_store(folder: Path) -> None:
    folder.mkdir(parents=True)
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.executescript(SCHEMA_1)


def test_a_schema_1_store_keeps_its_memory_batches_and_notices_in_conversation_0(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "state"
    old_store(folder)
    store = StateStore(folder)
    try:
        with store.reading() as db:
            assert db.execute("SELECT version FROM schema_version").fetchall() == [(3,)]
            assert db.execute("SELECT conversation FROM batches").fetchall() == [(0,)]
            keys = [
                str(row[1]) for row in db.execute("PRAGMA table_info(memory)").fetchall() if row[5]
            ]
            assert keys == ["conversation", "id"]
        memory = SessionMemory(store)
        kept = memory.lookup("write-1", 0)
        assert kept is not None
        assert (kept.fingerprint, kept.outcome.summary) == ("fp-old", "Wrote notes.txt")
        assert memory.lookup("read-1", 0) is not None
        assert [n.summary for n in undelivered(store, 0)] == ["The user undid w0"]
        assert current_conversation(store) == 0

        chat = start_conversation(store, PASTE)
        assert chat > 0
        assert current_conversation(store) == chat
        assert memory.lookup("write-1", chat) is None  # a new chat may use write-1 again
        from llm_operator.core.outcome import Outcome

        memory.remember("write-1", "fp-new", Outcome(True, "Wrote other.txt"), conversation=chat)
        again = memory.lookup("write-1", chat)
        assert again is not None
        assert again.fingerprint == "fp-new"
        old = memory.lookup("write-1", 0)
        assert old is not None
        assert old.fingerprint == "fp-old"  # the old chat's memory is its own
        assert undelivered(store, chat) == []  # the old notice is not the new chat's

        session = start_conversation(store, MCP)
        assert current_conversation(store) == chat  # an MCP session is not the paste chat
        assert session > chat
    finally:
        store.close()


def test_two_processes_opening_a_schema_1_store_at_once_migrate_it_once(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "state"
    old_store(folder)
    opened: list[StateStore] = []
    errors: list[Exception] = []
    start = threading.Barrier(3)

    def open_it() -> None:
        start.wait()
        try:
            opened.append(StateStore(folder))
        except Exception as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    try:
        memory = SessionMemory(opened[0])
        assert memory.lookup("write-1", 0) is not None
        assert len(memory) == 2
    finally:
        for store in opened:
            store.close()


def test_a_store_that_cannot_say_the_conversation_refuses_writes_and_runs_reads(
    workspace: Path, state_dir: Path, cmd: Any
) -> None:
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    session = Session(Workspace(workspace), state_dir)
    assert session.state is not None
    assert session.state.store is not None
    with session.state.store.transaction() as db:
        db.execute("DROP TABLE conversations")
    text = (
        cmd("read-1", "fs.read", path="README.md")
        + "\n"
        + cmd("write-1", "fs.write", path="new.txt", content="x")
    )
    run = session.prepare(text)
    assert any("writes are refused: ERR_STATE_STORE_UNAVAILABLE" in n for n in run.notices)
    results = session.execute(run, {p.index: APPROVE for p in run.pending})
    assert results[0].ok
    assert "# Demo" in (results[0].outcome.details or "")
    assert not results[1].ok
    assert "(ERR_STATE_STORE_UNAVAILABLE)" in results[1].outcome.summary
    assert not (workspace / "new.txt").exists()
