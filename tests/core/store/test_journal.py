from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from llm_operator.core.changes import ChangeSet, FileChange, digest
from llm_operator.core.errors import OperatorError
from llm_operator.core.store import applying, entries, journal
from llm_operator.core.store.applying import apply_changeset
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.journal import BatchChange, BatchInfo, Journal
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace
from support.actions import tree

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="freedesktop trash and POSIX modes"
)


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


def run(ws: Workspace, jr: Journal, label: str, *changesets: ChangeSet) -> BatchInfo | None:
    """One approved run, as the executor drives it."""
    recorder = jr.begin_batch(label)
    for changeset in changesets:
        apply_changeset(ws, changeset, recorder)
    return recorder.commit()


def cs(*changes: FileChange) -> ChangeSet:
    return ChangeSet(changes)


def rows(folder: Path, query: str) -> int:
    with contextlib.closing(sqlite3.connect(folder / FILE_NAME)) as db:
        return int(db.execute(query).fetchone()[0])


# -- recording --------------------------------------------------------------------------------


def test_batch_lists_what_it_changed(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    (root / "gone.txt").write_bytes(b"g")

    info = run(
        ws,
        jr,
        "reply 1",
        cs(FileChange("a.txt", b"a", b"A")),
        cs(FileChange("new/b.txt", None, b"b")),
        cs(FileChange("gone.txt", b"g", None)),
    )

    assert info is not None
    assert info.label == "reply 1"
    assert info.complete
    assert not info.undone
    assert info.changes == (
        BatchChange("a.txt", "edited"),
        BatchChange("new/b.txt", "created"),
        BatchChange("gone.txt", "deleted"),
    )
    assert jr.last_batch() == info
    assert jr.batches() == [info]


def test_journal_writes_nothing_inside_the_workspace(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"a")

    run(ws, jr, "r", cs(FileChange("a.txt", b"a", b"A")))

    assert set(tree(root)) == {"a.txt"}
    assert (state / FILE_NAME).is_file()


def test_batch_with_nothing_applied_is_not_kept(
    ws: Workspace, jr: Journal, root: Path, state: Path
) -> None:
    (root / "a.txt").write_bytes(b"changed by someone")
    recorder = jr.begin_batch("stale run")

    with pytest.raises(OperatorError):
        apply_changeset(ws, cs(FileChange("a.txt", b"a", b"A")), recorder)

    assert recorder.commit() is None
    assert jr.batches() == []
    assert jr.last_batch() is None
    assert rows(state, "SELECT count(*) FROM batches") == 0


def test_rolled_back_changeset_is_forgotten(
    ws: Workspace, jr: Journal, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"a")
    (root / "b.txt").write_bytes(b"b")
    recorder = jr.begin_batch("run")
    apply_changeset(ws, cs(FileChange("a.txt", b"a", b"A")), recorder)

    def no_space(src: Path, dst: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(entries, "rename_entry", no_space)
    with pytest.raises(OperatorError):
        apply_changeset(ws, cs(FileChange("b.txt", b"b", b"B")), recorder)
    info = recorder.commit()

    assert info is not None
    assert info.changes == (BatchChange("a.txt", "edited"),)
    # b.txt's saved copy went with its entry
    assert rows(jr.store.folder, "SELECT count(*) FROM blobs") == 1


def test_journal_survives_a_new_journal_object(ws: Workspace, root: Path, state: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    info = run(ws, Journal(state), "run", cs(FileChange("a.txt", b"a", b"A")))

    reopened = Journal(state)
    assert reopened.batches() == [info]

    report = reopened.undo_last(ws)
    assert report.ok
    assert (root / "a.txt").read_bytes() == b"a"


def test_crash_mid_batch_leaves_an_undoable_journal(ws: Workspace, root: Path, state: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    recorder = Journal(state).begin_batch("crashed run")
    apply_changeset(ws, cs(FileChange("a.txt", b"a", b"A")), recorder)
    # No commit: the app stopped here.

    reopened = Journal(state)
    last = reopened.last_batch()
    assert last is not None
    assert not last.complete
    assert last.changes == (BatchChange("a.txt", "edited"),)
    assert reopened.undo_last(ws).ok
    assert (root / "a.txt").read_bytes() == b"a"


def test_crash_between_record_and_write_undoes_cleanly(
    ws: Workspace, root: Path, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"a")
    recorder = Journal(state).begin_batch("crashed run")
    monkeypatch.setattr(recorder, "changeset_failed", lambda: None)  # the process died instead

    def die(src: Path, dst: Path) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(entries, "rename_entry", die)
    with pytest.raises(OperatorError):
        apply_changeset(ws, cs(FileChange("a.txt", b"a", b"A")), recorder)
    monkeypatch.undo()

    report = Journal(state).undo_last(ws)
    assert report.ok
    assert report.already_undone == ("a.txt",)
    assert (root / "a.txt").read_bytes() == b"a"


def test_journal_keeps_the_newest_batches(
    ws: Workspace, jr: Journal, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MAX_BATCHES", 3)
    content = None
    for n in range(5):
        run(ws, jr, f"run {n}", cs(FileChange("a.txt", content, b"%d" % n)))
        content = b"%d" % n

    kept = jr.batches()
    assert [b.label for b in kept] == ["run 4", "run 3", "run 2"]
    assert rows(jr.store.folder, "SELECT count(*) FROM batches") == 3
    assert rows(jr.store.folder, "SELECT count(*) FROM blobs") == 3  # older copies went too


# -- undo -------------------------------------------------------------------------------------


def test_undo_edit_restores_bytes_and_mode(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "a.py").write_bytes(b"old\r\n")
    (root / "a.py").chmod(0o640)
    before = tree(root)
    run(ws, jr, "edit", cs(FileChange("a.py", b"old\r\n", b"new\n")))
    (root / "a.py").chmod(0o600)  # a mode change alone is not a conflict

    report = jr.undo_last(ws)

    assert report.ok
    assert report.restored == ("a.py",)
    assert tree(root) == before
    assert "Undid 'edit'" in report.summary


def test_undo_create_removes_file_and_its_new_folders(
    ws: Workspace, jr: Journal, root: Path
) -> None:
    (root / "src").mkdir()
    before = tree(root)
    run(ws, jr, "create", cs(FileChange("src/pkg/sub/new.py", None, b"x\n")))
    assert (root / "src/pkg/sub/new.py").exists()

    report = jr.undo_last(ws)

    assert report.ok
    assert report.removed == ("src/pkg/sub/new.py", "src/pkg/sub", "src/pkg")
    assert tree(root) == before


def test_undo_keeps_a_created_folder_that_is_no_longer_empty(
    ws: Workspace, jr: Journal, root: Path
) -> None:
    run(ws, jr, "create", cs(FileChange("pkg/new.py", None, b"x\n")))
    (root / "pkg" / "mine.txt").write_bytes(b"added later by the user")

    report = jr.undo_last(ws)

    assert report.ok
    assert set(tree(root)) == {"pkg", "pkg/mine.txt"}


def test_undo_delete_file(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "a.sh").write_bytes(b"#!/bin/sh\n")
    (root / "a.sh").chmod(0o751)
    before = tree(root)
    run(ws, jr, "delete", cs(FileChange("a.sh", b"#!/bin/sh\n", None)))
    assert not (root / "a.sh").exists()

    report = jr.undo_last(ws)

    assert report.ok
    assert report.restored == ("a.sh",)
    assert tree(root) == before


def test_undo_delete_folder_tree(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "empty").mkdir()
    (root / "pkg" / "sub" / "m.py").write_bytes(b"x = 1\n")
    (root / "pkg" / "sub" / "run").write_bytes(b"\x00\xffbinary")
    (root / "pkg" / "sub" / "run").chmod(0o700)
    (root / "pkg" / "sub").chmod(0o750)
    (root / "pkg" / "ln").symlink_to("sub/m.py")
    (root / "pkg" / "dangling").symlink_to("nowhere")
    before = tree(root)
    run(ws, jr, "delete", cs(FileChange("pkg", None, None, before_is_dir=True)))
    assert not (root / "pkg").exists()

    report = jr.undo_last(ws)

    assert report.ok
    assert tree(root) == before


def test_undo_delete_symlink(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "target.txt").write_bytes(b"t")
    (root / "link").symlink_to("target.txt")
    before = tree(root)
    run(ws, jr, "delete", cs(FileChange("link", None, None, before_is_symlink=True)))
    assert not os.path.lexists(root / "link")

    report = jr.undo_last(ws)

    assert report.ok
    assert tree(root) == before


def test_undo_delete_over_the_size_cap_points_to_the_trash(
    ws: Workspace, jr: Journal, root: Path, trash: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(applying, "SNAPSHOT_CAP", 10)
    (root / "big.bin").write_bytes(b"x" * 100)
    run(ws, jr, "delete", cs(FileChange("big.bin", b"x" * 100, None)))

    report = jr.undo_last(ws)

    assert not report.ok
    assert report.restored == ()
    assert any("system trash" in problem for problem in report.problems)
    assert "system trash" in report.summary
    assert (trash / "big.bin").read_bytes() == b"x" * 100
    assert jr.last_batch() is None  # nothing more this undo could ever do


def test_undo_refused_when_a_path_changed_since(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    (root / "b.txt").write_bytes(b"b")
    run(
        ws,
        jr,
        "two edits",
        cs(FileChange("a.txt", b"a", b"A")),
        cs(FileChange("b.txt", b"b", b"B")),
        cs(FileChange("c.txt", None, b"C")),
    )
    (root / "b.txt").write_bytes(b"the user's later work")
    (root / "c.txt").unlink()
    (root / "c.txt").mkdir()
    before = tree(root)

    report = jr.undo_last(ws)

    assert report.refused
    assert not report.ok
    assert tree(root) == before
    assert [p.split(":")[0] for p in report.problems] == ["c.txt", "b.txt"]
    assert "b.txt" in report.summary
    assert "c.txt" in report.summary
    assert "Nothing was undone" in report.summary
    assert jr.last_batch() is not None  # still there to undo once resolved


def test_undo_accepts_a_path_already_put_back(ws: Workspace, jr: Journal, root: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    (root / "b.txt").write_bytes(b"b")
    run(ws, jr, "r", cs(FileChange("a.txt", b"a", b"A"), FileChange("b.txt", b"b", b"B")))
    (root / "a.txt").write_bytes(b"a")  # the user reverted this one by hand

    report = jr.undo_last(ws)

    assert report.ok
    assert report.already_undone == ("a.txt",)
    assert report.restored == ("b.txt",)
    assert (root / "b.txt").read_bytes() == b"b"


def test_two_batches_undone_in_turn(ws: Workspace, jr: Journal, root: Path) -> None:
    first = run(ws, jr, "first", cs(FileChange("a.txt", None, b"one")))
    second = run(ws, jr, "second", cs(FileChange("a.txt", b"one", b"two")))
    assert first is not None
    assert second is not None
    assert [b.id for b in jr.batches()] == [second.id, first.id]

    report = jr.undo_last(ws)
    assert report.ok
    assert report.batch is not None
    assert report.batch.id == second.id
    assert report.batch.undone
    assert (root / "a.txt").read_bytes() == b"one"
    last = jr.last_batch()
    assert last is not None
    assert last.id == first.id
    assert [b.undone for b in jr.batches()] == [True, False]

    assert jr.undo_last(ws).ok
    assert not (root / "a.txt").exists()

    nothing = jr.undo_last(ws)
    assert nothing.batch is None
    assert not nothing.ok
    assert "Nothing to undo" in nothing.summary


def test_same_path_twice_in_one_batch_goes_back_to_the_start(
    ws: Workspace, jr: Journal, root: Path
) -> None:
    run(
        ws,
        jr,
        "r",
        cs(FileChange("a.txt", None, b"v1")),
        cs(FileChange("a.txt", b"v1", b"v2")),
    )

    report = jr.undo_last(ws)

    assert report.ok
    assert report.removed == ("a.txt",)
    assert tree(root) == {}


def test_the_record_is_plain_sqlite_with_every_entry(
    ws: Workspace, jr: Journal, root: Path
) -> None:
    (root / "a.txt").write_bytes(b"a")
    info = run(ws, jr, "r", cs(FileChange("a.txt", b"a", b"A")))
    assert info is not None

    with sqlite3.connect(jr.store.path) as db:
        state = db.execute("SELECT state FROM batches WHERE id = ?", (int(info.id),)).fetchone()
        entries = db.execute("SELECT path, kind, after FROM entries").fetchall()
        (saved,) = db.execute("SELECT data FROM blobs").fetchone()

    assert state == ("committed",)
    assert entries == [("a.txt", "edited", digest(b"A"))]
    assert saved == b"a"


@pytest.mark.parametrize("kind", ["symlink", "folder"])
def test_undo_puts_back_what_stood_where_the_batch_wrote_a_file(
    ws: Workspace, jr: Journal, root: Path, kind: str
) -> None:
    (root / "target.txt").write_bytes(b"t")
    if kind == "symlink":
        (root / "spot").symlink_to("target.txt")
    else:
        (root / "spot").mkdir()
        (root / "spot" / "inner.txt").write_bytes(b"i")
    before = tree(root)
    delete = FileChange(
        "spot", None, None, before_is_symlink=kind == "symlink", before_is_dir=kind == "folder"
    )
    run(ws, jr, "r", cs(delete), cs(FileChange("spot", None, b"a plain file now")))
    assert (root / "spot").read_bytes() == b"a plain file now"

    report = jr.undo_last(ws)

    assert report.ok
    assert tree(root) == before


def test_file_created_and_deleted_in_one_batch_needs_nothing(
    ws: Workspace, jr: Journal, root: Path
) -> None:
    run(
        ws,
        jr,
        "r",
        cs(FileChange("tmp.txt", None, b"scratch")),
        cs(FileChange("tmp.txt", b"scratch", None)),
    )

    report = jr.undo_last(ws)

    assert report.ok
    assert report.already_undone == ("tmp.txt",)
    assert tree(root) == {}
