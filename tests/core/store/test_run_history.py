"""The run history as the window lists it: every run of the workspace, with the state of
its batch (from any process), and stores made before runs named their batch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from llm_operator.core.plan.session import Session
from llm_operator.core.store.database import FILE_NAME, StateStore
from llm_operator.core.store.history import UndoState, run_results, stored_runs
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace
from support.fixtures import RunReply, cmd


def test_each_run_names_its_batch_and_its_undo_state_follows_the_journal(
    workspace: Path, state_dir: Path, run_reply: RunReply
) -> None:
    run_reply(cmd("w1", "fs.write", path="one.txt", content_b64="MQ=="))
    run_reply(cmd("r1", "fs.read", path="one.txt"))
    run_reply(cmd("w2", "fs.write", path="two.txt", content_b64="Mg=="))
    session = Session(Workspace(workspace), state_dir)
    runs = session.stored_runs()
    assert [run.undo for run in runs] == [UndoState.UNDOABLE, UndoState.NONE, UndoState.UNDOABLE]
    assert [run.newest_undoable for run in runs] == [False, False, True]
    assert runs[1].batch is None
    assert "id: r1" in (session.run_results(runs[1].number) or "")
    session.undo_last()
    runs = session.stored_runs()
    assert [run.undo for run in runs] == [UndoState.UNDOABLE, UndoState.NONE, UndoState.UNDONE]
    assert [run.newest_undoable for run in runs] == [True, False, False]
    assert session.run_results(999) is None


def test_a_store_made_before_runs_named_their_batch_gets_the_column(
    workspace: Path, state_dir: Path, run_reply: RunReply
) -> None:
    run_reply(cmd("w1", "fs.write", path="one.txt", content_b64="MQ=="))
    folder = workspace_state_dir(state_dir, Workspace(workspace).root)
    with sqlite3.connect(folder / FILE_NAME) as db:
        db.execute("ALTER TABLE runs DROP COLUMN batch")  # as an older app made it
    store = StateStore(folder)
    try:
        (old,) = stored_runs(store)
        assert old.undo == UndoState.NONE  # an old run does not say: nothing is claimed
        assert "id: w1" in (run_results(store, old.number) or "")
    finally:
        store.close()
    run_reply(cmd("w2", "fs.write", path="two.txt", content_b64="Mg=="))
    store = StateStore(folder)
    try:
        assert [run.undo for run in stored_runs(store)] == [UndoState.NONE, UndoState.UNDOABLE]
    finally:
        store.close()
