"""What a stopped run's batch left on disk is read without writing the store, and told.

The crashed state is made as a killed run leaves it: a batch recorded and applied, never
committed, its store files copied while the connection was still open (the log holds the
batch; nothing checkpointed it), or the store closed (every commit in the main file).
"""

from __future__ import annotations

import errno
import shutil
import sys
from pathlib import Path

import pytest

from llm_operator.core.changes import ChangeSet, FileChange
from llm_operator.core.store.applying import apply_changeset
from llm_operator.core.store.database import FILE_NAME, StateStore, store_error
from llm_operator.core.store.interrupted import LeftOnDisk, left_on_disk, told
from llm_operator.core.store.journal import Journal
from llm_operator.core.store.lock import WorkspaceLock
from llm_operator.core.store.workspace import Workspace

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX locks")

LEFT = "a.txt, b.txt still hold the changes of a run that stopped mid-batch"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    (folder / "a.txt").write_bytes(b"a")
    (folder / "b.txt").write_bytes(b"b")
    (folder / "c.txt").write_bytes(b"c")
    return folder


def _crash(root: Path, state: Path) -> StateStore:
    """Three commands applied, none committed: the run stopped here (still open)."""
    ws = Workspace(root)
    store = StateStore(state)
    recorder = Journal(store).begin_batch("stopped run")
    for command, name, old, new in (
        ("w1", "a.txt", b"a", b"A"),
        ("w2", "b.txt", b"b", b"B"),
        ("w3", "c.txt", b"c", b"C"),
    ):
        recorder.begin_command(command, "fs.write")
        apply_changeset(ws, ChangeSet((FileChange(name, old, new),)), recorder)
    return store


def _killed(root: Path, tmp_path: Path) -> Path:
    """The state folder a killed run leaves: the batch in the log, the -shm beside it."""
    store = _crash(root, tmp_path / "live")
    left = tmp_path / "left"
    left.mkdir()
    for suffix in ("", "-wal", "-shm"):
        shutil.copyfile(store.path.with_name(FILE_NAME + suffix), left / (FILE_NAME + suffix))
    store.close()
    return left


def _look(state: Path, root: Path) -> LeftOnDisk:
    return left_on_disk(state, Workspace(root), WorkspaceLock(state))


def test_a_batch_in_the_log_is_read_without_writing_the_shared_memory_file(
    root: Path, tmp_path: Path
) -> None:
    state = _killed(root, tmp_path)
    assert (state / (FILE_NAME + "-wal")).stat().st_size > 0
    (root / "c.txt").write_bytes(b"c")  # already back as it was
    shm = (state / (FILE_NAME + "-shm")).read_bytes()

    found = _look(state, root)

    assert found == LeftOnDisk(True, 1, ("a.txt", "b.txt"), ("w1", "w2"))
    assert (state / (FILE_NAME + "-shm")).read_bytes() == shm
    assert found.effect() is not None
    assert LEFT + " (of commands w1, w2, never remembered as run)" in found.effect()


def test_a_batch_in_the_database_file_alone_is_read_creating_no_file_beside_it(
    root: Path, tmp_path: Path
) -> None:
    state = tmp_path / "state"
    _crash(root, state).close()  # the close checkpoints: no log is left
    (root / "b.txt").write_bytes(b"edited by hand")  # not the batch's change any more
    assert not (state / (FILE_NAME + "-wal")).exists()

    found = _look(state, root)

    assert found.changed == ("a.txt", "c.txt")
    assert found.commands == ("w1", "w3")
    assert sorted(p.name for p in state.iterdir()) == [FILE_NAME, "write.lock"]


def test_a_batch_of_a_run_that_holds_the_lock_is_that_runs_own(root: Path, tmp_path: Path) -> None:
    state = _killed(root, tmp_path)
    live = WorkspaceLock(state)
    assert live.try_acquire()
    try:
        assert _look(state, root) == LeftOnDisk(True)
    finally:
        live.release()


def test_a_store_that_cannot_be_read_is_never_told_as_nothing_written(
    root: Path, tmp_path: Path
) -> None:
    state = _killed(root, tmp_path)
    (state / (FILE_NAME + "-shm")).unlink()  # the log cannot be read without it
    found = _look(state, root)
    assert not found.known
    cause = OSError(errno.EIO, "Input/output error")
    error = store_error(cause, "be opened", state)
    error.__cause__ = cause

    said = told(error, state, Workspace(root), WorkspaceLock(state))

    assert said.code == "ERR_STATE_STORE_UNAVAILABLE"
    assert "nothing was written" not in said.message
    assert "cannot be read either" in said.message
    assert said.tells_disk


def test_the_store_error_says_what_the_disk_holds_and_only_then(root: Path, tmp_path: Path) -> None:
    state = _killed(root, tmp_path)
    cause = OSError(errno.EIO, "Input/output error")
    error = store_error(cause, "be opened", state)
    error.__cause__ = cause

    said = told(error, state, Workspace(root), WorkspaceLock(state))

    assert said.message.startswith("the app's state store could not be opened: ")
    assert LEFT in said.message.replace(", c.txt", "")
    assert "nothing was written" not in said.message
    assert said.details["still_changed"] == ["a.txt", "b.txt", "c.txt"]
    assert told(said, state, Workspace(root), WorkspaceLock(state)) is said  # told once
    # Nothing of a stopped run on disk (taken back by hand): the error is as it was.
    for name in ("a", "b", "c"):
        (root / f"{name}.txt").write_bytes(name.encode())
    assert told(error, state, Workspace(root), WorkspaceLock(state)) is error
    assert "nothing was written" in error.message
