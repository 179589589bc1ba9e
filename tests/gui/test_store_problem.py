"""A window whose state store cannot be opened over a stopped run's batch says what the
disk holds, where it stays in sight.

The batch is real (recorded, applied, never committed, as a killed run leaves it); the
store's failure to open is SQLite's "disk I/O error" raised where the store sets itself
up (the seam an unwritable -shm fails at).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.changes import ChangeSet, FileChange
from llm_operator.core.store.applying import apply_changeset
from llm_operator.core.store.database import StateStore
from llm_operator.core.store.journal import Journal
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace

from .conftest import WindowFactory


def _stopped_batch(workspace: Path, state_dir: Path) -> None:
    store = StateStore(workspace_state_dir(state_dir, workspace.resolve()))
    recorder = Journal(store).begin_batch("stopped run")
    recorder.begin_command("w1", "fs.write")
    change = FileChange("a.txt", b"alpha\nbeta\n", b"changed\n")
    apply_changeset(Workspace(workspace), ChangeSet((change,)), recorder)
    store.close()  # no commit: the run stopped here


def _store_fails(self: StateStore) -> None:
    raise sqlite3.OperationalError("disk I/O error")


def test_a_store_that_cannot_open_over_a_stopped_batch_is_told_in_the_results_pane(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _stopped_batch(workspace, tmp_path / "state")
    monkeypatch.setattr(StateStore, "_setup", _store_fails)

    window = make_window(workspace)

    shown = window.results.raw.toPlainText()
    assert "The state store cannot be used (ERR_STATE_STORE_UNAVAILABLE)" in shown
    assert "a.txt still holds the changes of a run that stopped mid-batch" in shown
    assert "(of command w1, never remembered as run)" in shown
    assert "nothing was written" not in shown
    assert "stopped run's changes" in window.results.status.text()
    assert (workspace / "a.txt").read_text() == "changed\n"  # not taken back: it cannot be
    # Once the store opens (the next window, the next run), the batch is taken back.
    monkeypatch.undo()
    again = make_window(workspace)
    assert "cannot be used" not in again.results.raw.toPlainText()
    assert (workspace / "a.txt").read_text() == "alpha\nbeta\n"


def test_a_store_that_cannot_open_with_nothing_on_disk_leaves_the_results_pane_alone(
    make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(StateStore, "_setup", _store_fails)
    window = make_window(workspace)
    assert "cannot be used" not in window.results.raw.toPlainText()
    assert "unreadable" in window.history.journal.text()  # the undo line says it, as before
