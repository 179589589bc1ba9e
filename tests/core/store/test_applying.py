from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from llm_operator.core.changes import ChangeSet, FileChange
from llm_operator.core.errors import OperatorError
from llm_operator.core.store import entries
from llm_operator.core.store.applying import apply_changeset, clean_stale_temp_files
from llm_operator.core.store.entries import capture_entry
from llm_operator.core.store.saved import SavedTooLarge
from llm_operator.core.store.workspace import Workspace
from support.actions import temp_leftovers, tree

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


def one(change: FileChange) -> ChangeSet:
    return ChangeSet((change,))


def chmod_stops_writes(folder: Path) -> bool:
    probe = folder / "probe"
    probe.mkdir()
    probe.chmod(0o500)
    try:
        (probe / "x").write_bytes(b"")
    except PermissionError:
        return True
    finally:
        probe.chmod(0o700)
        for child in probe.iterdir():
            child.unlink()
        probe.rmdir()
    return False


# -- writes ------------------------------------------------------------------------------------


def test_write_new_file_creates_parents_with_default_mode(ws: Workspace, root: Path) -> None:
    apply_changeset(ws, one(FileChange("a/b/new.txt", None, b"hello\n")), None)

    assert (root / "a" / "b" / "new.txt").read_bytes() == b"hello\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((root / "a/b/new.txt").stat().st_mode) == 0o666 & ~umask
    assert temp_leftovers(root) == []


def test_overwrite_keeps_permission_bits(ws: Workspace, root: Path) -> None:
    script = root / "run.sh"
    script.write_bytes(b"echo old\n")
    script.chmod(0o755)

    apply_changeset(ws, one(FileChange("run.sh", b"echo old\n", b"echo new\n")), None)

    assert script.read_bytes() == b"echo new\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o755
    assert temp_leftovers(root) == []


def test_write_through_nothing_but_the_real_file(ws: Workspace, root: Path) -> None:
    (root / "real.txt").write_bytes(b"x")
    (root / "link.txt").symlink_to("real.txt")

    apply_changeset(ws, one(FileChange("real.txt", b"x", b"y")), None)

    assert os.readlink(root / "link.txt") == "real.txt"
    assert (root / "real.txt").read_bytes() == b"y"


# -- stale checks ------------------------------------------------------------------------------


def test_file_changed_since_preview_is_stale(ws: Workspace, root: Path) -> None:
    (root / "a.txt").write_bytes(b"edited by someone else\n")
    before = tree(root)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("a.txt", b"as previewed\n", b"new\n")), None)

    assert info.value.code == "ERR_STALE_FILE"
    assert "changed on disk since it was previewed" in info.value.message
    assert "Read it again" in info.value.message
    assert tree(root) == before


def test_file_created_by_someone_else_is_stale(ws: Workspace, root: Path) -> None:
    (root / "new.txt").write_bytes(b"theirs")
    before = tree(root)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("new.txt", None, b"ours")), None)

    assert info.value.code == "ERR_STALE_FILE"
    assert tree(root) == before


def test_stale_second_file_means_nothing_written(ws: Workspace, root: Path) -> None:
    (root / "a.py").write_bytes(b"a = 1\n")
    (root / "b.py").write_bytes(b"b = 2, changed\n")
    before = tree(root)
    changes = ChangeSet(
        (FileChange("a.py", b"a = 1\n", b"a = 10\n"), FileChange("b.py", b"b = 2\n", b"b = 20\n"))
    )

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_STALE_FILE"
    assert info.value.details["path"] == "b.py"
    assert tree(root) == before


def test_new_file_path_now_a_folder_is_stale(ws: Workspace, root: Path) -> None:
    (root / "out").mkdir()
    (root / "out" / "keep.txt").write_bytes(b"keep")
    before = tree(root)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("out", None, b"data")), None)

    assert info.value.code == "ERR_STALE_FILE"
    assert "a folder" in info.value.message
    assert tree(root) == before


# -- write failures ----------------------------------------------------------------------------


def test_second_replace_fails_restores_the_first(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.py").write_bytes(b"a = 1\n")
    (root / "a.py").chmod(0o750)
    (root / "b.py").write_bytes(b"b = 2\n")
    real_replace = entries.rename_entry
    calls: list[Path] = []

    def replace_into_a_folder(src: Path, dst: Path) -> None:
        # A real fault: just before the second replace, b.py becomes a non-empty folder.
        calls.append(dst)
        if len(calls) == 2:
            dst.unlink()
            dst.mkdir()
            (dst / "inside").write_bytes(b"someone's file")
        real_replace(src, dst)

    monkeypatch.setattr(entries, "rename_entry", replace_into_a_folder)
    changes = ChangeSet(
        (
            FileChange("a.py", b"a = 1\n", b"a = 10\n"),
            FileChange("b.py", b"b = 2\n", b"b = 20\n"),
            FileChange("new/c.py", None, b"c = 3\n"),
        )
    )

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_IS_A_DIRECTORY"
    assert "b.py" in info.value.message
    assert "a folder now stands at that path" in info.value.message
    assert (root / "a.py").read_bytes() == b"a = 1\n"
    assert stat.S_IMODE((root / "a.py").stat().st_mode) == 0o750
    assert (root / "b.py" / "inside").read_bytes() == b"someone's file"
    assert not (root / "new").exists()
    assert temp_leftovers(root) == []


def test_created_folders_removed_when_a_later_write_fails(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "b.txt").write_bytes(b"b")
    before = tree(root)
    real_replace = entries.rename_entry

    def fail_second(src: Path, dst: Path) -> None:
        if dst.name == "b.txt":
            raise OSError(errno.ENOSPC, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(entries, "rename_entry", fail_second)
    changes = ChangeSet((FileChange("x/y/new.txt", None, b"new"), FileChange("b.txt", b"b", b"bb")))

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_NO_SPACE"
    assert "disk is full" in info.value.message
    assert tree(root) == before


def test_disk_full_during_write_leaves_no_temp(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"old")
    before = tree(root)

    def disk_full(fd: int, data: bytes) -> None:
        os.write(fd, data[:1])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(entries, "write_all", disk_full)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("a.txt", b"old", b"new content")), None)

    assert info.value.code == "ERR_NO_SPACE"
    assert "a.txt" in info.value.message
    assert "the disk is full" in info.value.message
    assert tree(root) == before


def test_permission_denied_on_replace(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"old")
    before = tree(root)

    def denied(src: Path, dst: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(entries, "rename_entry", denied)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("a.txt", b"old", b"new")), None)

    assert info.value.code == "ERR_PERMISSION_DENIED"
    assert "permission denied" in info.value.message
    assert tree(root) == before


def test_read_only_folder(ws: Workspace, root: Path, tmp_path: Path) -> None:
    if not chmod_stops_writes(tmp_path):
        pytest.skip("running with privileges that chmod does not restrict (see parent-is-a-file)")
    (root / "locked").mkdir()
    (root / "locked" / "a.txt").write_bytes(b"old")
    (root / "locked").chmod(0o500)
    before = tree(root)
    try:
        with pytest.raises(OperatorError) as info:
            apply_changeset(ws, one(FileChange("locked/a.txt", b"old", b"new")), None)
        assert info.value.code == "ERR_PERMISSION_DENIED"
        assert "permission denied" in info.value.message
        assert tree(root) == before
    finally:
        (root / "locked").chmod(0o700)


def test_parent_path_is_a_file(ws: Workspace, root: Path) -> None:
    # A real OS fault even for root: a folder cannot be created where a file stands.
    (root / "notes").write_bytes(b"a file, not a folder")
    (root / "other.txt").write_bytes(b"other")
    before = tree(root)
    changes = ChangeSet(
        (FileChange("other.txt", b"other", b"changed"), FileChange("notes/x/a.txt", None, b"a"))
    )

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_NOT_A_DIRECTORY"
    assert "notes/x/a.txt" in info.value.message
    assert tree(root) == before


def test_target_replaced_by_folder_during_write(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_bytes(b"old")
    real_write = entries.write_all

    def swap_target(fd: int, data: bytes) -> None:
        (root / "a.txt").unlink()
        (root / "a.txt").mkdir()
        (root / "a.txt" / "child").write_bytes(b"c")
        real_write(fd, data)

    monkeypatch.setattr(entries, "write_all", swap_target)

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("a.txt", b"old", b"new")), None)

    assert info.value.code == "ERR_IS_A_DIRECTORY"
    assert (root / "a.txt" / "child").read_bytes() == b"c"
    assert temp_leftovers(root) == []


CHILD = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from llm_operator.core.store import entries
    from llm_operator.core.changes import ChangeSet, FileChange
    from llm_operator.core.store.workspace import Workspace

    def slow_write(fd, data):
        os.write(fd, data[:100])
        print("writing", flush=True)
        time.sleep(60)
        os.write(fd, data[100:])

    entries.write_all = slow_write
    root = Path(sys.argv[1])
    old = (root / "big.txt").read_bytes()
    change = FileChange("big.txt", old, b"new line\\n" * 10000)
    from llm_operator.core.store.applying import apply_changeset
    apply_changeset(Workspace(root), ChangeSet((change,)), None)
    """
)


def test_killed_mid_write_leaves_original_and_at_most_a_temp_file(
    ws: Workspace, root: Path
) -> None:
    original = b"original line\n" * 5000
    (root / "big.txt").write_bytes(original)
    with subprocess.Popen(
        [sys.executable, "-c", CHILD, str(root)], stdout=subprocess.PIPE, text=True
    ) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline() == "writing\n"
            os.kill(child.pid, signal.SIGKILL)
            assert child.wait(timeout=10) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()

    assert (root / "big.txt").read_bytes() == original
    leftovers = temp_leftovers(root)
    assert len(leftovers) <= 1
    assert set(tree(root)) == {"big.txt", *leftovers}
    assert leftovers, "the child was killed mid-write, so its temp file should remain"

    assert clean_stale_temp_files(ws) == tuple(leftovers)
    assert set(tree(root)) == {"big.txt"}


def test_clean_stale_temp_files_touches_only_its_own_names(ws: Workspace, root: Path) -> None:
    (root / "sub").mkdir()
    (root / "sub" / ".a.py.llmop-0123abcd.tmp").write_bytes(b"half")
    (root / ".b.llmop-deadbeef.tmp").mkdir()  # a half-built folder restore
    (root / ".b.llmop-deadbeef.tmp" / "f").write_bytes(b"f")
    keep = [".hidden", "x.tmp", ".a.llmop-XYZ.tmp", "a.llmop-0123abcd.tmp"]
    for name in keep:
        (root / "sub" / name).write_bytes(b"keep")
    (root / ".git").mkdir()
    (root / ".git" / ".HEAD.llmop-0123abcd.tmp").write_bytes(b"git's business")

    removed = clean_stale_temp_files(ws)

    assert sorted(removed) == [".b.llmop-deadbeef.tmp", "sub/.a.py.llmop-0123abcd.tmp"]
    kept = [".git", ".git/.HEAD.llmop-0123abcd.tmp", "sub", *(f"sub/{name}" for name in keep)]
    assert sorted(tree(root)) == sorted(kept)


# -- deletes -----------------------------------------------------------------------------------


def test_delete_file_goes_to_trash(ws: Workspace, root: Path, trash: Path) -> None:
    (root / "old.txt").write_bytes(b"bye")

    apply_changeset(ws, one(FileChange("old.txt", b"bye", None)), None)

    assert not (root / "old.txt").exists()
    assert (trash / "old.txt").read_bytes() == b"bye"


def test_delete_folder_goes_to_trash(ws: Workspace, root: Path, trash: Path) -> None:
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "sub" / "m.py").write_bytes(b"x = 1\n")

    apply_changeset(ws, one(FileChange("pkg", None, None, before_is_dir=True)), None)

    assert not (root / "pkg").exists()
    assert (trash / "pkg" / "sub" / "m.py").read_bytes() == b"x = 1\n"


def test_delete_symlink_trashes_only_the_link(ws: Workspace, root: Path, trash: Path) -> None:
    (root / "target").mkdir()
    (root / "target" / "data.txt").write_bytes(b"precious")
    (root / "link").symlink_to("target")

    apply_changeset(ws, one(FileChange("link", None, None, before_is_symlink=True)), None)

    assert not os.path.lexists(root / "link")
    assert (root / "target" / "data.txt").read_bytes() == b"precious"
    assert os.readlink(trash / "link") == "target"


def test_delete_dangling_symlink_unlinks_it(ws: Workspace, root: Path) -> None:
    (root / "gone").symlink_to("missing.txt")

    apply_changeset(ws, one(FileChange("gone", None, None, before_is_symlink=True)), None)

    assert not os.path.lexists(root / "gone")


def test_missing_trash_erases_nothing(ws: Workspace, root: Path, trash: Path) -> None:
    (root / "a.txt").write_bytes(b"a")
    (root / "old.txt").write_bytes(b"keep me")
    before = tree(root)
    trash.parent.write_text("a file where the trash folder should be")
    changes = ChangeSet(
        (FileChange("a.txt", b"a", b"written"), FileChange("old.txt", b"keep me", None))
    )

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_TRASH_UNAVAILABLE"
    assert "old.txt" in info.value.message
    assert "nothing was deleted" in info.value.message
    assert tree(root) == before


def test_second_delete_failing_rebuilds_the_first(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.core.store import trashing

    (root / "tree" / "inner").mkdir(parents=True)
    (root / "tree" / "inner" / "f.sh").write_bytes(b"#!/bin/sh\n")
    (root / "tree" / "inner" / "f.sh").chmod(0o700)
    (root / "tree" / "empty").mkdir()
    (root / "tree" / "ln").symlink_to("inner/f.sh")
    (root / "second.txt").write_bytes(b"2")
    before = tree(root)
    real_rename = trashing._trash_rename

    def only_first(src_dir_fd: int, name: str, files_fd: int, dest: str) -> None:
        if name == "second.txt":
            raise OSError(errno.EIO, "Input/output error")
        real_rename(src_dir_fd, name, files_fd, dest)

    monkeypatch.setattr(trashing, "_trash_rename", only_first)
    changes = ChangeSet(
        (FileChange("tree", None, None, before_is_dir=True), FileChange("second.txt", b"2", None))
    )

    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, changes, None)

    assert info.value.code == "ERR_TRASH_UNAVAILABLE"
    assert tree(root) == before


def test_delete_is_stale_when_the_kind_changed(ws: Workspace, root: Path) -> None:
    (root / "was_dir").write_bytes(b"now a file")
    (root / "was_link").write_bytes(b"now a file")
    before = tree(root)

    for change in (
        FileChange("was_dir", None, None, before_is_dir=True),
        FileChange("was_link", None, None, before_is_symlink=True),
        FileChange("was_dir", b"old bytes", None),
    ):
        with pytest.raises(OperatorError) as info:
            apply_changeset(ws, one(change), None)
        assert info.value.code == "ERR_STALE_FILE"
    assert tree(root) == before


def test_delete_of_root_refused(ws: Workspace, root: Path) -> None:
    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange(".", None, None, before_is_dir=True)), None)
    assert info.value.code == "ERR_PATH_PROTECTED"
    assert root.is_dir()


def test_capture_over_cap_records_only_the_size_and_the_names(root: Path) -> None:
    (root / "d" / "sub").mkdir(parents=True)
    (root / "d" / "f").write_bytes(b"x" * 60)
    (root / "d" / "sub" / "g").write_bytes(b"x" * 40)

    assert capture_entry(root / "d", cap=99) == SavedTooLarge(100, ("sub", "f", "sub/g"))
    assert not isinstance(capture_entry(root / "d", cap=100), SavedTooLarge)


def test_an_entry_missing_at_the_trash_rename_is_stale_not_a_trash_failure(
    ws: Workspace, root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in a whole-suite run of the folder/symlink swap race: the entry was missing for
    the instant of the rename and back when checked; "free or fix the trash" was untrue."""
    from llm_operator.core.store import trashing

    (root / "gone.txt").write_bytes(b"g")
    before = tree(root)

    def missing_for_a_moment(src_dir_fd: int, name: str, files_fd: int, dest: str) -> None:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory")

    monkeypatch.setattr(trashing, "_trash_rename", missing_for_a_moment)
    with pytest.raises(OperatorError) as info:
        apply_changeset(ws, one(FileChange("gone.txt", b"g", None)), None)

    assert info.value.code == "ERR_STALE_FILE"
    assert "trash" not in info.value.message
    assert tree(root) == before
