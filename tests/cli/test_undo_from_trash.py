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
