"""A workspace's checks in its state store: kept, replaced, removed; a schema 2 store gets
the table on its first open, keeping everything else."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from llm_operator.core.actions.base import Outcome
from llm_operator.core.errors import OperatorError
from llm_operator.core.store.checks import Check, add_check, list_checks, remove_check
from llm_operator.core.store.database import FILE_NAME, SCHEMA_VERSION, StateStore
from llm_operator.core.store.memory import SessionMemory


def test_checks_are_kept_replaced_and_removed(tmp_path: Path) -> None:
    store = StateStore(tmp_path / "state")
    try:
        assert list_checks(store) == ()
        add_check(store, Check("test", "python -m pytest -q"))
        add_check(store, Check("lint", "ruff check . && ruff format --check .", shell=True))
        add_check(store, Check("test", "pytest -x", timeout=600, keep=("CI_TOKEN",)))
        assert list_checks(store) == (
            Check("lint", "ruff check . && ruff format --check .", shell=True),
            Check("test", "pytest -x", timeout=600, keep=("CI_TOKEN",)),
        )
        assert remove_check(store, "lint")
        assert not remove_check(store, "lint")
        assert [c.name for c in list_checks(store)] == ["test"]
    finally:
        store.close()
    reopened = StateStore(tmp_path / "state")
    try:
        assert [c.command for c in list_checks(reopened)] == ["pytest -x"]
    finally:
        reopened.close()


@pytest.mark.parametrize(
    "check",
    [
        Check("", "true"),
        Check("-x", "true"),
        Check("a b", "true"),
        Check("x" * 41, "true"),
        Check("ok", "echo 'open"),
        Check("ok", ""),
        Check("ok", "true", timeout=0),
        Check("ok", "true", timeout=1801),
    ],
)
def test_a_bad_check_is_refused_and_nothing_is_kept(tmp_path: Path, check: Check) -> None:
    store = StateStore(tmp_path / "state")
    try:
        with pytest.raises(OperatorError) as caught:
            add_check(store, check)
        assert caught.value.code == "ERR_INVALID_FIELD"
        assert list_checks(store) == ()
    finally:
        store.close()


def test_a_schema_2_store_gets_the_checks_table_and_keeps_its_memory(tmp_path: Path) -> None:
    folder = tmp_path / "state"
    store = StateStore(folder)
    SessionMemory(store).remember("write-1", "fp", Outcome(True, "Wrote a.txt"))
    store.close()
    # As the previous version left it: schema 2, no checks table.
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.execute("DROP TABLE checks")
        db.execute("UPDATE schema_version SET version = 2")
    store = StateStore(folder)
    try:
        with store.reading() as db:
            assert db.execute("SELECT version FROM schema_version").fetchall() == [
                (SCHEMA_VERSION,)
            ]
            assert db.execute("SELECT id FROM memory").fetchall() == [("write-1",)]
        add_check(store, Check("test", "pytest"))
        assert [c.name for c in list_checks(store)] == ["test"]
    finally:
        store.close()
    assert SCHEMA_VERSION == 3
