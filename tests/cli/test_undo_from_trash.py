"""Undo of a delete takes the file back out of the real (freedesktop) trash, with its
times and mode; and ``llm-operator undo`` asks on a terminal, naming the batch.

The trash is a real one under tmp_path (the autouse ``trash`` fixture points HOME and
XDG_DATA_HOME there, for the children too); the terminal is a real pseudo-terminal.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from support.actions import cli
from support.terminal import spawn

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="freedesktop trash and POSIX terminals"
)

OLD = (1_577_934_245_123_456_789, 1_577_934_245_987_654_321)  # (atime, mtime) in 2020


def _deleted(workspace: Path, state_dir: Path, cmd: Any, trash: Path) -> Path:
    """a.txt (mode 0640, times of 2020) deleted by an approved exec: in the trash now."""
    target = workspace / "a.txt"
    target.write_bytes(b"first line\nsecond\n")
    target.chmod(0o640)
    os.utime(target, ns=OLD)
    where = ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    done = cli("exec", *where, "--yes", stdin=cmd("d1", "fs.delete", path="a.txt"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert not target.exists()
    assert (trash / "a.txt").read_bytes() == b"first line\nsecond\n"
    assert (trash.parent / "info" / "a.txt.trashinfo").is_file()
    return target


def _undo(workspace: Path, state_dir: Path, *extra: str) -> Any:
    return cli("undo", *extra, "--workspace", workspace, "--state-dir", state_dir, stdin="")


def test_undo_takes_the_file_back_out_of_the_trash_with_its_times_and_mode(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    undone = _undo(workspace, state_dir, "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert "restored 1 path" in undone.stdout
    info = target.stat()
    assert target.read_bytes() == b"first line\nsecond\n"
    assert oct(info.st_mode & 0o7777) == oct(0o640)
    assert info.st_mtime_ns == OLD[1]
    # No second copy is left in the trash: neither the file nor its .trashinfo.
    assert sorted(os.listdir(trash)) == []
    assert sorted(os.listdir(trash.parent / "info")) == []


def test_a_copy_changed_in_the_trash_is_left_there_and_the_undo_says_so(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    (trash / "a.txt").write_bytes(b"edited in the trash\n")
    undone = _undo(workspace, state_dir, "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert target.read_bytes() == b"first line\nsecond\n"  # the journal's copy
    assert target.stat().st_mtime_ns == OLD[1]
    assert "a.txt: restored from the undo journal's copy" in undone.stdout
    assert "changed there" in undone.stdout
    assert (trash / "a.txt").read_bytes() == b"edited in the trash\n"  # not the app's to drop
    assert (trash.parent / "info" / "a.txt.trashinfo").is_file()


def test_a_copy_gone_from_the_trash_is_restored_from_the_journal(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    (trash / "a.txt").unlink()
    undone = _undo(workspace, state_dir, "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert target.read_bytes() == b"first line\nsecond\n"
    assert oct(target.stat().st_mode & 0o7777) == oct(0o640)
    assert "its copy in the system trash was gone" in undone.stdout


def test_undo_without_a_terminal_or_yes_undoes_nothing(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    refused = _undo(workspace, state_dir)
    assert refused.returncode == 1
    assert "no terminal can ask; nothing was undone" in refused.stderr
    assert "d1 (1 file," in refused.stderr  # the batch it would have undone
    assert "Use --yes" in refused.stderr
    assert refused.stdout == ""
    assert not target.exists()
    assert (trash / "a.txt").is_file()


@pytest.mark.parametrize(("answer", "undone"), [(b"y\n", True), (b"n\n", False), (b"\n", False)])
def test_undo_on_a_terminal_names_the_batch_and_asks(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path, answer: bytes, undone: bool
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    argv = [sys.executable, "-m", "llm_operator.cli", "undo"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    pid, screen = spawn(argv)
    try:
        asked = screen.read_until("[y]es / [N]o: ")
        screen.type(answer)
        screen.drain()
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(screen.fd)
    assert "Undo the newest batch of writes: commands d1, made 20" in asked
    assert "brings back a.txt" in asked
    assert "Traceback" not in screen.text
    assert os.waitstatus_to_exitcode(status) == (0 if undone else 1)
    assert target.exists() is undone
    assert (trash / "a.txt").exists() is not undone
    if undone:
        assert "Undid 'd1'" in screen.text
        assert target.stat().st_mtime_ns == OLD[1]
    else:
        assert "nothing was undone" in screen.text


def test_another_file_trashed_under_the_same_name_is_never_removed(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path
) -> None:
    # The trash is emptied, and the user trashes another file of the same name and bytes
    # (an empty __init__.py, a copied licence): the trash gives it the freed name. It is
    # the user's, not the app's copy: the undo must leave it and its .trashinfo alone.
    target = _deleted(workspace, state_dir, cmd, trash)
    info = trash.parent / "info" / "a.txt.trashinfo"
    (trash / "a.txt").unlink()
    info.unlink()
    (trash / "a.txt").write_bytes(b"first line\nsecond\n")
    theirs = "[Trash Info]\nPath=/elsewhere/a.txt\nDeletionDate=2026-01-01T00:00:00\n"
    info.write_text(theirs, encoding="utf-8")
    undone = _undo(workspace, state_dir, "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert target.read_bytes() == b"first line\nsecond\n"
    assert (trash / "a.txt").read_bytes() == b"first line\nsecond\n"
    assert info.read_text(encoding="utf-8") == theirs
    assert "restored from the undo journal's copy" in undone.stdout


def test_a_link_put_in_the_trash_in_place_of_the_file_is_left_alone(
    workspace: Path, state_dir: Path, cmd: Any, trash: Path, tmp_path: Path
) -> None:
    target = _deleted(workspace, state_dir, cmd, trash)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_bytes(b"first line\nsecond\n")
    (trash / "a.txt").unlink()
    (trash / "a.txt").symlink_to(elsewhere)
    undone = _undo(workspace, state_dir, "--yes")
    assert undone.returncode == 0, undone.stdout + undone.stderr
    assert target.read_bytes() == b"first line\nsecond\n"
    assert (trash / "a.txt").is_symlink()
    assert elsewhere.read_bytes() == b"first line\nsecond\n"
