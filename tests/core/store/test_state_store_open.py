"""Opening the state store while others open or read it.

SQLite refuses a switch to WAL with "database is locked" at once, whatever the busy
timeout, when another connection is reading the file. Two front ends started on a new
workspace at the same moment must both open the store, and a program that reads the
database (the sqlite3 shell, a backup tool) only delays the first open.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from llm_operator.core.store.database import FILE_NAME, SCHEMA_VERSION, StateStore, StoreError

ROUNDS = 60
OPENERS = 4


def test_first_opens_at_the_same_moment_all_succeed(tmp_path: Path) -> None:
    failures: list[StoreError] = []
    for round_ in range(ROUNDS):
        folder = tmp_path / f"state{round_}"
        start = threading.Barrier(OPENERS)

        def open_store(folder: Path = folder, start: threading.Barrier = start) -> None:
            start.wait()
            try:
                StateStore(folder).close()
            except StoreError as error:
                failures.append(error)

        threads = [threading.Thread(target=open_store) for _ in range(OPENERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not failures, f"round {round_}: {failures[0]}"
        with sqlite3.connect(folder / FILE_NAME) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert db.execute("SELECT version FROM schema_version").fetchall() == [
                (SCHEMA_VERSION,)
            ]


def test_a_reader_holding_an_old_database_only_delays_the_first_open(tmp_path: Path) -> None:
    tmp_path.mkdir(exist_ok=True)
    reader = sqlite3.connect(
        tmp_path / FILE_NAME, isolation_level=None, timeout=0, check_same_thread=False
    )
    reader.execute("CREATE TABLE other (x)")
    reader.execute("BEGIN")
    reader.execute("SELECT * FROM other").fetchall()  # holds a shared lock (rollback mode)
    released = threading.Timer(0.3, lambda: reader.execute("COMMIT"))
    released.start()
    begun = time.monotonic()
    try:
        store = StateStore(tmp_path)
    finally:
        released.join()
        reader.close()
    assert time.monotonic() - begun >= 0.25  # it waited for the reader, then switched
    with store.reading() as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()
