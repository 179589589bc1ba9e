"""Edges where an answer used to be untrue: a folder the trash cannot take whole (a mount
point, or a folder holding one) and a path longer than the system's limit for one name.

Real mounts (a tmpfs, a bind mount; skipped where mounting is not allowed) and real
``exec`` and ``undo`` processes; each test checks the disk, the results, the undo state
and the notice.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from support.actions import tree
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux mounts")


def run_cli(*args: str | Path, stdin: str = "", home: Path) -> subprocess.CompletedProcess[str]:
    """``llm-operator ARGS`` with its home (and so its trash) under the test's folder."""
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(home / ".local" / "share"))
    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def deep_tree(root: Path) -> dict[str, tuple[str, bytes | None, int]]:
    """Like ``support.actions.tree``, read by descriptors (paths past PATH_MAX)."""
    found: dict[str, tuple[str, bytes | None, int]] = {}
    for folder, dirnames, filenames, fd in os.fwalk(root, follow_symlinks=False):
        rel = os.path.relpath(folder, root)
        for name in dirnames:
            mode = stat.S_IMODE(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode)
            found[os.path.normpath(f"{rel}/{name}")] = ("dir", None, mode)
        for name in filenames:
            info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=fd)
            with os.fdopen(handle, "rb") as data:
                content = data.read()
            found[os.path.normpath(f"{rel}/{name}")] = ("file", content, stat.S_IMODE(info.st_mode))
    return found


def trashed(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if "Trash" in p.parts)


@contextlib.contextmanager
def bind_mounted(source: Path, target: Path) -> Iterator[Path]:
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {done.stderr.decode(errors='replace')}")
    try:
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


def test_deleting_a_mount_point_or_a_folder_holding_one_is_refused_before_anything_moves(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    home = tmp_path / "home"  # made by the autouse trash fixture: HOME, with its trash
    other = tmp_path / "other"
    other.mkdir()
    (other / "b.txt").write_text("bound\n", encoding="utf-8")
    (workspace / "outer").mkdir()
    (workspace / "outer" / "k.txt").write_text("k\n", encoding="utf-8")
    with contextlib.ExitStack() as mounts:
        mnt = mounts.enter_context(mounted_tmpfs(workspace / "mnt", "1m"))
        (mnt / "a.txt").write_text("one\n", encoding="utf-8")
        (mnt / "sub").mkdir()
        (mnt / "sub" / "c.txt").write_text("two\n", encoding="utf-8")
        mounts.enter_context(bind_mounted(other, workspace / "outer" / "inner"))
        before = tree(workspace)
        where = ("--workspace", workspace, "--state-dir", state_dir)
        text = cmd("d1", "fs.delete", path="mnt") + "\n" + cmd("d2", "fs.delete", path="outer")

        done = run_cli("exec", "--yes", *where, stdin=text, home=home)
        undo = run_cli("undo", "--yes", *where, home=home)

        assert tree(workspace) == before  # nothing moved, inside or outside the mounts
    assert trashed(home) == []
    assert "Traceback" not in done.stderr
    mount_point, holder = parse_results(done.stdout)
    assert mount_point.code == "ERR_FILE_BUSY", mount_point.summary
    assert "mnt is a mount point" in mount_point.summary
    assert "nothing was deleted" in mount_point.summary
    assert holder.code == "ERR_FILE_BUSY", holder.summary
    assert "outer holds a mount point, outer/inner" in holder.summary
    assert undo.stdout.startswith("Nothing to undo")
    assert "For the chat" not in undo.stdout
    assert (other / "b.txt").read_text(encoding="utf-8") == "bound\n"


def test_a_mount_that_appears_after_the_preview_is_refused_at_the_write(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any
) -> None:
    """Planned while ``box`` was a plain folder; a tmpfs is mounted on it before approval:
    the stale check just before the batch writes refuses it, and nothing moves."""
    (workspace / "box").mkdir()
    session = Session(Workspace(workspace), state_dir)
    run = session.prepare(cmd("d1", "fs.delete", path="box"))
    assert run.pending
    with mounted_tmpfs(workspace / "box", "1m") as box:
        (box / "inside.txt").write_text("kept\n", encoding="utf-8")
        (result,) = session.execute(run, {p.index: APPROVE for p in run.pending})
        assert (box / "inside.txt").read_text(encoding="utf-8") == "kept\n"
    assert not result.ok
    assert "(ERR_FILE_BUSY)" in result.outcome.summary
    assert "box is a mount point" in result.outcome.summary
    assert session.journal.last_batch() is None


def test_a_path_of_about_5000_bytes_is_written_and_undone(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    """Nested folders of 200-character names, past PATH_MAX (4096): a new file and an
    overwritten one, approved and written, then undone."""
    home = tmp_path / "home"  # made by the autouse trash fixture: HOME, with its trash
    deep = "/".join(f"{n:02d}" + "d" * 198 for n in range(24))
    old = f"{deep}/old.txt"
    new = f"{deep}/more/{'n' * 200}.txt"
    assert len(new.encode()) > 5000
    fd = os.open(workspace, os.O_RDONLY)
    try:  # made by descriptors: the names are too long for one path
        for name in deep.split("/"):
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(os.open("old.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), "w") as f:
            f.write("before\n")
    finally:
        os.close(fd)
    before = deep_tree(workspace)
    where = ("--workspace", workspace, "--state-dir", state_dir)
    text = cmd("w1", "fs.write", path=old, content="after") + "\n"
    text += cmd("w2", "fs.write", path=new, content="fresh")

    done = run_cli("exec", "--yes", *where, stdin=text, home=home)
    assert "Traceback" not in done.stderr
    assert [r.ok for r in parse_results(done.stdout)] == [True, True], done.stdout
    written = deep_tree(workspace)
    assert written[old] == ("file", b"after", 0o644)
    assert written[new][1] == b"fresh"

    undo = run_cli("undo", "--yes", *where, home=home)

    assert undo.returncode == 0, undo.stdout + undo.stderr
    assert "changed after the batch" not in undo.stdout
    assert "Undid 'w1, w2': restored 1 path, removed" in undo.stdout
    assert deep_tree(workspace) == before
    (notice,) = parse_results(undo.stdout.partition("For the chat:")[2].strip())
    assert sorted(notice.json()["files"]) == sorted([old, new])


def test_a_folder_the_trash_could_only_take_in_part_is_put_back_and_said(
    tmp_path: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """The workspace is a bind mount, so the home trash is across a mount: the trash
    copies the folder and removes it entry by entry, and an immutable file (chattr +i)
    stops it half way. What it had removed is put back from the undo copy, the result says
    so, and there is nothing to undo."""
    home = tmp_path / "home"  # made by the autouse trash fixture: HOME, with its trash
    source = tmp_path / "source"
    (source / "f" / "sub").mkdir(parents=True)
    for name, mode in (("a.txt", 0o644), ("z.txt", 0o640), ("m.txt", 0o600)):
        (source / "f" / name).write_text(name, encoding="utf-8")
        (source / "f" / name).chmod(mode)
    os.symlink("a.txt", source / "f" / "link")
    (source / "f" / "sub" / "b.txt").write_text("b\n", encoding="utf-8")
    stuck = source / "f" / "sub" / "b.txt"
    if subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        with bind_mounted(source, tmp_path / "ws") as workspace:
            before = tree(workspace)
            where = ("--workspace", workspace, "--state-dir", state_dir)
            done = run_cli(
                "exec", "--yes", *where, stdin=cmd("d1", "fs.delete", path="f"), home=home
            )
            undo = run_cli("undo", "--yes", *where, home=home)
            after = tree(workspace)
    finally:
        subprocess.run(["chattr", "-i", str(stuck)], capture_output=True, check=False)

    assert "Traceback" not in done.stderr
    (result,) = parse_results(done.stdout)
    assert result.code == "ERR_TRASH_UNAVAILABLE", result.summary
    assert after == before  # every entry back, with its bytes, mode and link text
    assert "nothing was deleted" in result.summary
    assert "put back from the undo copy, so the folder is as it was" in result.summary
    assert undo.stdout.startswith("Nothing to undo")
    assert "For the chat" not in undo.stdout


def test_a_folder_too_large_for_an_undo_copy_that_the_trash_took_in_part_names_what_is_gone(
    tmp_path: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """The same half-done trash on a folder over the undo-copy cap (a sparse 201 MiB file):
    nothing can be put back, so the answer must not say "nothing was deleted". It names
    every entry the trash took (each is gone from the workspace and in the trash), and no
    entry that is still there."""
    home = tmp_path / "home"
    source = tmp_path / "source"
    folder = source / "f"
    (folder / "sub").mkdir(parents=True)
    with open(folder / "big.bin", "wb") as big:
        big.truncate(201 * 1024 * 1024)
    for index in range(12):
        (folder / f"n{index:02}.txt").write_text(f"{index}\n", encoding="utf-8")
    (folder / "sub" / "b.txt").write_text("b\n", encoding="utf-8")
    # The trash removes entries in the folder's own order: the last one listed stays put,
    # so the others are gone before the removal fails.
    stuck = folder / os.listdir(folder)[-1]
    if subprocess.run(["chattr", "+i", str(stuck)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        with bind_mounted(source, tmp_path / "ws") as workspace:
            before = set(tree(workspace))
            where = ("--workspace", workspace, "--state-dir", state_dir)
            done = run_cli(
                "exec", "--yes", *where, stdin=cmd("d1", "fs.delete", path="f"), home=home
            )
            after = set(tree(workspace))
            in_trash = trashed(home)
    finally:
        subprocess.run(["chattr", "-i", str(stuck)], capture_output=True, check=False)

    assert "Traceback" not in done.stderr
    (result,) = parse_results(done.stdout)
    assert result.code == "ERR_TRASH_UNAVAILABLE", result.summary
    gone = before - after
    assert gone, "the trash removed nothing before failing: the case is not exercised"
    assert "nothing was deleted" not in result.summary
    assert "could not be put back" in result.summary
    named = set(json.loads(result.details or "{}")["details"]["lost"])
    top_gone = {path for path in gone if os.path.dirname(path) not in gone}
    assert named == top_gone
    assert all(any(name.endswith(f"/files/{path}") for name in in_trash) for path in named)
    assert str(stuck.relative_to(source)) in after


def test_a_named_pipe_in_a_deleted_folder_comes_back_with_undo(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    """The review says a folder delete is undoable: a named pipe in it (it holds no data,
    its mode is all there is) is rebuilt by undo like the files around it."""
    home = tmp_path / "home"
    folder = workspace / "run"
    folder.mkdir()
    (folder / "notes.txt").write_text("kept\n", encoding="utf-8")
    os.mkfifo(folder / "events")
    os.chmod(folder / "events", 0o620)
    where = ("--workspace", workspace, "--state-dir", state_dir)

    done = run_cli("exec", "--yes", *where, stdin=cmd("d1", "fs.delete", path="run"), home=home)
    assert [r.ok for r in parse_results(done.stdout)] == [True], done.stdout + done.stderr
    assert not folder.exists()

    undo = run_cli("undo", "--yes", *where, home=home)

    assert undo.returncode == 0, undo.stdout + undo.stderr
    assert "cannot be restored" not in undo.stdout
    info = os.lstat(folder / "events")
    assert stat.S_ISFIFO(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o620
    assert sorted(os.listdir(folder)) == ["events", "notes.txt"]
    assert (folder / "notes.txt").read_text(encoding="utf-8") == "kept\n"
