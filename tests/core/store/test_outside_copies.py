"""Undo copies of big files are files beside the state store: durable before their row,
exact on undo, checked against their digest, and tidied when nothing names them."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import sys
from pathlib import Path

import pytest

from llm_operator.core.changes import ChangeSet, FileChange, digest
from llm_operator.core.errors import OperatorError
from llm_operator.core.store import entries, journal, outside_copies
from llm_operator.core.store.applying import apply_changeset
from llm_operator.core.store.database import FILE_NAME, StateStore
from llm_operator.core.store.journal import BatchInfo, Journal
from llm_operator.core.store.outside_copies import FOLDER, OUTSIDE_MIN
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="freedesktop trash and POSIX modes"
)

BIG = b"".join(b"line %06d of a big file\n" % n for n in range(12_000))  # 300,000 bytes


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


@pytest.fixture
def ws(root: Path) -> Workspace:
    return Workspace(root)


@pytest.fixture
def state(tmp_path: Path, root: Path) -> Path:
    return workspace_state_dir(tmp_path / "state", root)


@pytest.fixture
def jr(state: Path) -> Journal:
    return Journal(state)


def run(ws: Workspace, jr: Journal, label: str, *changes: FileChange) -> BatchInfo | None:
    recorder = jr.begin_batch(label)
    apply_changeset(ws, ChangeSet(changes), recorder)
    return recorder.commit()


def blob_rows(state: Path) -> list[tuple[int, str, int, int]]:
    with contextlib.closing(sqlite3.connect(state / FILE_NAME)) as db:
        query = "SELECT batch, digest, length(data), outside FROM blobs ORDER BY batch"
        return [(int(b), str(d), int(n), int(o)) for b, d, n, o in db.execute(query)]


def copies(state: Path) -> list[str]:
    folder = state / FOLDER
    return sorted(os.listdir(folder)) if folder.exists() else []


def test_a_big_copy_is_a_private_file_and_undo_gives_it_back_exactly(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    assert len(BIG) >= OUTSIDE_MIN
    (root / "big.txt").write_bytes(BIG)
    (root / "small.txt").write_bytes(b"small\n")
    changed = BIG.replace(b"line 005000", b"LINE 005000")
    run(
        ws,
        jr,
        "edit both",
        FileChange("big.txt", BIG, changed),
        FileChange("small.txt", b"small\n", b"SMALL\n"),
    )
    assert (root / "big.txt").read_bytes() == changed

    rows = blob_rows(state)
    big_row = [r for r in rows if r[1] == digest(BIG)]
    small_row = [r for r in rows if r[1] == digest(b"small\n")]
    assert big_row == [(big_row[0][0], digest(BIG), 0, 1)]  # no bytes in the database
    assert small_row == [(small_row[0][0], digest(b"small\n"), 6, 0)]  # small ones stay in
    name = f"{big_row[0][0]}-{digest(BIG).removeprefix('sha256:')}"
    assert copies(state) == [name]
    assert (state / FOLDER / name).read_bytes() == BIG
    assert stat.S_IMODE((state / FOLDER).stat().st_mode) == 0o700
    assert stat.S_IMODE((state / FOLDER / name).stat().st_mode) == 0o600

    report = jr.undo_last(ws)
    assert report.ok, report.summary
    assert (root / "big.txt").read_bytes() == BIG
    assert (root / "small.txt").read_bytes() == b"small\n"


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every copy of 8 bytes or more goes outside (the tests stay small and fast)."""
    monkeypatch.setattr(journal, "OUTSIDE_MIN", 8)


@pytest.mark.usefixtures("small_threshold")
def test_a_missing_copy_refuses_the_undo_and_names_the_file(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"first version\n")
    run(ws, jr, "edit", FileChange("a.txt", b"first version\n", b"second version\n"))
    (name,) = copies(state)
    os.unlink(state / FOLDER / name)

    report = jr.undo_last(ws)
    assert not report.ok
    assert "a.txt: its saved copy is missing" in report.summary
    assert (root / "a.txt").read_bytes() == b"second version\n"  # nothing was undone


@pytest.mark.usefixtures("small_threshold")
def test_a_changed_copy_refuses_the_undo(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"first version\n")
    run(ws, jr, "edit", FileChange("a.txt", b"first version\n", b"second version\n"))
    (name,) = copies(state)
    (state / FOLDER / name).write_bytes(b"first versioN\n")

    report = jr.undo_last(ws)
    assert not report.ok
    assert "a.txt: its saved copy does not match its digest" in report.summary
    assert (root / "a.txt").read_bytes() == b"second version\n"


@pytest.mark.usefixtures("small_threshold")
def test_an_unreadable_copy_refuses_the_undo_with_its_reason(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"first version\n")
    run(ws, jr, "edit", FileChange("a.txt", b"first version\n", b"second version\n"))
    (name,) = copies(state)
    os.unlink(state / FOLDER / name)
    (state / FOLDER / name).mkdir()  # read() fails with EISDIR, not "missing"

    report = jr.undo_last(ws)
    assert not report.ok
    assert "a.txt: its saved copy cannot be read (" in report.summary
    assert str(state) not in report.summary


@pytest.mark.usefixtures("small_threshold")
def test_a_copy_is_never_read_through_a_symlink(
    ws: Workspace, jr: Journal, root: Path, state: Path, tmp_path: Path
) -> None:
    (root / "a.txt").write_bytes(b"first version\n")
    run(ws, jr, "edit", FileChange("a.txt", b"first version\n", b"second version\n"))
    (name,) = copies(state)
    decoy = tmp_path / "decoy"
    decoy.write_bytes(b"first version\n")  # even the right bytes, behind a link
    os.unlink(state / FOLDER / name)
    os.symlink(decoy, state / FOLDER / name)

    report = jr.undo_last(ws)
    assert not report.ok
    assert "a.txt: its saved copy cannot be read (" in report.summary


@pytest.mark.usefixtures("small_threshold")
def test_pruned_batches_take_their_copies_with_them(
    ws: Workspace, jr: Journal, root: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MAX_BATCHES", 2)
    content = None
    for n in range(5):
        new = b"version number %d\n" % n
        run(ws, jr, f"run {n}", FileChange("a.txt", content, new))
        content = new
    # Run 0 created the file (no copy); runs 3 and 4 are kept, each with one copy.
    kept = {int(row[0]) for row in blob_rows(state)}
    assert len(kept) == 2
    assert {int(name.split("-")[0]) for name in copies(state)} == kept
    assert len(copies(state)) == 2


@pytest.mark.usefixtures("small_threshold")
def test_a_taken_back_change_leaves_no_copy_once_its_batch_is_committed(
    ws: Workspace, jr: Journal, root: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"first version\n")

    def fail(src: Path, dst: Path) -> None:
        raise OSError(5, "Input/output error")

    recorder = jr.begin_batch("failed write")
    monkeypatch.setattr(entries, "rename_entry", fail)
    with pytest.raises(OperatorError):
        apply_changeset(
            ws, ChangeSet((FileChange("a.txt", b"first version\n", b"second\n"),)), recorder
        )
    monkeypatch.undo()
    assert len(copies(state)) == 1  # its batch is still open: kept until it ends
    assert recorder.commit() is None
    assert copies(state) == []
    assert (root / "a.txt").read_bytes() == b"first version\n"


def test_leftovers_of_a_crash_are_swept_and_open_batches_are_not(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    store = StateStore(state)
    folder = state / FOLDER
    folder.mkdir(mode=0o700)
    hexd = "ab" * 32
    # A copy whose row was never committed (killed between the two), a temp file of a
    # killed save, and a file that is not one of ours.
    (folder / f"999-{hexd}").write_bytes(b"x")
    (folder / f"999-{hexd}.tmp-12345").write_bytes(b"x")
    (folder / "notes.txt").write_bytes(b"the user's")
    recorder = jr.begin_batch("in progress")  # sweeps once it has begun
    assert copies(state) == ["notes.txt"]
    # A file of the batch still open (its run is between the file and its row) stays.
    (folder / f"{recorder.batch}-{hexd}").write_bytes(b"x")
    (folder / f"{recorder.batch}-{hexd}.tmp-1").write_bytes(b"x")
    with store.reading() as db:
        assert outside_copies.sweep(db, state) == []
    assert len(copies(state)) == 3
    assert recorder.commit() is None  # it changed nothing: its files go
    assert copies(state) == ["notes.txt"]
    store.close()


def test_a_full_disk_while_saving_a_copy_writes_nothing(
    ws: Workspace, jr: Journal, root: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "big.txt").write_bytes(BIG)
    real_write = os.write

    def full(fd: int, data: bytes | memoryview) -> int:
        if len(data) >= OUTSIDE_MIN:
            raise OSError(28, "No space left on device")
        return real_write(fd, data)

    recorder = jr.begin_batch("big edit")
    monkeypatch.setattr(outside_copies.os, "write", full)
    with pytest.raises(OperatorError) as caught:
        apply_changeset(ws, ChangeSet((FileChange("big.txt", BIG, b"tiny\n"),)), recorder)
    monkeypatch.undo()
    assert "the disk holding it is full" in caught.value.message
    assert "nothing was written" in caught.value.message
    assert (root / "big.txt").read_bytes() == BIG
    assert copies(state) == []  # the temp file went too
    assert recorder.commit() is None


def test_a_store_made_before_outside_copies_gets_the_column(
    ws: Workspace, root: Path, state: Path
) -> None:
    Journal(state).store.close()
    with contextlib.closing(sqlite3.connect(state / FILE_NAME)) as db:
        db.execute("ALTER TABLE blobs DROP COLUMN outside")
        db.commit()
    jr = Journal(state)
    (root / "big.txt").write_bytes(BIG)
    run(ws, jr, "edit", FileChange("big.txt", BIG, b"short\n"))
    assert [row[3] for row in blob_rows(state)] == [1]
    assert jr.undo_last(ws).ok
    assert (root / "big.txt").read_bytes() == BIG
