"""When the state store itself fails, what the store and the results say is still true.

Real processes under real limits: a file-size limit (``ulimit -f``, RLIMIT_FSIZE) set in
the middle of a two-file change, one damaged page of the database written while no run
holds it, a full tmpfs under the undo, a read-only mount and a folder another user cannot
enter. Each test checks the disk, the results, the undo state and the notice.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux limits")

MOVED = "def moved():\n    return 1\n\n\ndef stay():\n    return 2\n"
BIG = "def big():\n" + "".join(f"    x{i} = {i!r} * 3\n" for i in range(6000)) + "    return 0\n"


def run_cli(
    *args: str | Path,
    stdin: str = "",
    limit: int | None = None,
    env: dict[str, str] | None = None,
    preexec: Callable[[], None] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``llm-operator ARGS``; ``limit``: the child's file-size limit in bytes (ulimit -f)."""
    if limit is not None:

        def preexec() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=preexec,
        env=env,
        check=False,
    )


def store_file(workspace: Path, state_dir: Path) -> Path:
    return workspace_state_dir(state_dir, Workspace(workspace).root) / FILE_NAME


def batches(workspace: Path, state_dir: Path) -> list[tuple[str, list[str]]]:
    """(state, paths of its entries) of every batch the store holds."""
    db = sqlite3.connect(store_file(workspace, state_dir))
    try:
        rows = db.execute("SELECT id, state FROM batches ORDER BY id").fetchall()
        return [
            (
                state,
                [p for (p,) in db.execute("SELECT path FROM entries WHERE batch = ?", (batch,))],
            )
            for batch, state in rows
        ]
    finally:
        db.close()


# -- 1. a file-size limit in the middle of a two-file change ---------------------------


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_move_whose_second_undo_copy_cannot_be_saved_leaves_nothing_to_undo(
    tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    """fs.moveStructure a.py -> b.py: a.py's undo copy fits under the limit, b.py's (124 KB)
    does not. Wherever the limit falls, the result names b.py's undo copy and the limit, both
    files are untouched, no committed batch holds an entry, and undo has nothing to undo and
    tells the chat nothing. (Limits are tried in steps, as where exactly the store's writes
    fail, the record of a.py or the forgetting of it, depends on the database's layout.)"""
    move = cmd(
        "m1",
        "fs.moveStructure",
        path="a.py",
        target="def moved():",
        position="end",
        dest_path="b.py",
    )
    seen_forget_failure = seen_b = False
    for limit in range(72_000, 96_001, 2_000):
        workspace, state_dir = tmp_path / f"ws{limit}", tmp_path / f"state{limit}"
        workspace.mkdir()
        (workspace / "a.py").write_text(MOVED, encoding="utf-8")
        (workspace / "b.py").write_text(BIG, encoding="utf-8")
        where = ("--workspace", workspace, "--state-dir", state_dir)

        done = run_cli("exec", "--yes", *where, stdin=move, limit=limit)

        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == 1
        (result,) = parse_results(done.stdout)
        assert not result.ok
        assert result.code == "ERR_STATE_STORE_UNAVAILABLE", result.summary
        # Which copy did not fit is named: a.py's when even the first record is over.
        named = re.search(r"could not save the undo copy of ([ab]\.py)", result.summary)
        assert named, (limit, result.summary)
        seen_b |= named.group(1) == "b.py"
        assert "ulimit -f" in result.summary
        assert "forget" not in result.summary  # the cause, not a later symptom
        assert (workspace / "a.py").read_text(encoding="utf-8") == MOVED
        assert (workspace / "b.py").read_text(encoding="utf-8") == BIG
        kept = batches(workspace, state_dir)
        seen_forget_failure |= any(paths for _, paths in kept)
        assert [b for b in kept if b[0] == "committed"] == [], (limit, kept)

        undo = run_cli("undo", "--yes", *where)
        assert undo.returncode == 0, undo.stderr
        assert undo.stdout.startswith("Nothing to undo"), (limit, undo.stdout)
        assert "For the chat" not in undo.stdout
        after = run_cli("exec", *where, stdin=cmd("r1", "fs.read", path="a.py"))
        (read,) = parse_results(after.stdout)  # no undo notice leads the next results
        assert read.id == "r1"
        assert read.details == MOVED
        assert batches(workspace, state_dir) == []  # the open record was rolled back
    # At least one limit let a.py's record in and kept the store from forgetting it.
    assert seen_forget_failure
    assert seen_b


# -- 2. undo checks the store before it touches a file ---------------------------------


def damage_root_page(store: Path, table: str) -> None:
    """Overwrite the first page of ``table`` (its b-tree root) with garbage, in the file
    itself, while no run holds the store (every run checkpoints and drops its WAL)."""
    assert not Path(f"{store}-wal").exists()
    db = sqlite3.connect(store)
    try:
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,))
        root = root[0]
    finally:
        db.close()
    with open(store, "r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xa5" * page_size)


@pytest.mark.parametrize("table", ["memory", "notices", "sqlite_sequence"])
def test_undo_with_a_damaged_page_refuses_before_touching_a_file(
    table: str, workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    (workspace / "a.txt").write_text("before\n", encoding="utf-8")
    where = ("--workspace", workspace, "--state-dir", state_dir)
    write = run_cli(
        "exec", "--yes", *where, stdin=cmd("w1", "fs.write", path="a.txt", content="after")
    )
    assert write.returncode == 0, write.stderr
    store = store_file(workspace, state_dir)
    damage_root_page(store, table)

    undo = run_cli("undo", "--yes", *where)

    assert (workspace / "a.txt").read_text(encoding="utf-8") == "after"  # untouched
    assert "Traceback" not in undo.stderr
    assert undo.returncode == 1
    assert "refused" in undo.stdout
    assert "ERR_STATE_STORE_DAMAGED" in undo.stdout
    assert "Nothing was undone" in undo.stdout
    assert "For the chat" not in undo.stdout  # nothing to tell: nothing changed
    db = sqlite3.connect(store)
    try:
        assert db.execute("SELECT state FROM batches").fetchall() == [("committed",)]
    finally:
        db.close()


def test_undo_whose_record_fails_after_the_files_came_back_says_so_and_gives_the_notice(
    workspace: Path,
    tmp_path: Path,
    cmd: Any,
    parse_results: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The store's disk fills up while undo restores the files (the write seam fills it
    after the first restored file): the report names what came back, says the store does
    not know, exits 1, and still prints the notice for the chat."""
    from llm_operator import cli
    from llm_operator.core.store import entries

    (workspace / "a.txt").write_text("before a\n", encoding="utf-8")
    (workspace / "b.txt").write_text("before b\n", encoding="utf-8")

    with mounted_tmpfs(tmp_path / "state", "2m") as state_dir:
        where = ["--workspace", str(workspace), "--state-dir", str(state_dir)]
        text = cmd("wa", "fs.write", path="a.txt", content="after a") + "\n"
        text += cmd("wb", "fs.write", path="b.txt", content="after b")
        assert run_cli("exec", "--yes", *where, stdin=text).returncode == 0
        original = entries.write_all

        def fill_after(fd: int, data: bytes) -> None:
            original(fd, data)
            if not (state_dir / "filler").exists():
                fill(state_dir)

        monkeypatch.setattr(entries, "write_all", fill_after)
        status = cli.main(["undo", "--yes", *where])
        out = capsys.readouterr().out
        (state_dir / "filler").unlink()

    assert status == 1
    assert (workspace / "a.txt").read_text(encoding="utf-8") == "before a\n"
    assert (workspace / "b.txt").read_text(encoding="utf-8") == "before b\n"
    assert "Undid 'wa, wb': restored 2 paths" in out
    assert "the state store could not record this undo (ERR_STATE_STORE_UNAVAILABLE" in out
    assert "paste it now" in out
    _, _, chat = out.partition("For the chat:")
    (notice,) = parse_results(chat.strip())
    assert notice.id.startswith("undo-")
    assert "The user undid 2 commands wa, wb" in notice.summary
    assert notice.json()["files"] == ["a.txt", "b.txt"]


def fill(folder: Path) -> None:
    """Write until the file system is full."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


# -- 3. the cause of an OS error is the operation's, not a library's pre-check ---------


@contextlib.contextmanager
def read_only_bind(source: Path, target: Path, writable: bool = False) -> Iterator[Path]:
    """``source`` mounted again, read-only unless ``writable``, at ``target`` (skipped where
    not allowed)."""
    target.mkdir()
    if os.geteuid() != 0:
        pytest.skip("a bind mount needs root")
    done = subprocess.run(["mount", "--bind", str(source), str(target)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {done.stderr.decode(errors='replace')}")
    try:
        if not writable:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(target)], check=True)
        yield target
    finally:
        subprocess.run(["umount", "-l", str(target)], capture_output=True, check=False)


@pytest.mark.parametrize("mount", ["bind", "tmpfs"])
def test_a_delete_on_a_read_only_mount_says_the_file_system_is_read_only(
    mount: str, tmp_path: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """As a write on the same mount does: ERR_READ_ONLY_FS, never "permission denied" (the
    trash library's access pre-check) or a trash that is unavailable."""
    source = tmp_path / "source"
    with contextlib.ExitStack() as stack:
        if mount == "bind":
            source.mkdir()
            (source / "a.txt").write_text("kept\n", encoding="utf-8")
            (source / "b.txt").write_text("kept\n", encoding="utf-8")
            workspace = stack.enter_context(read_only_bind(source, tmp_path / "ws"))
        else:
            workspace = stack.enter_context(mounted_tmpfs(tmp_path / "ws", "1m"))
            (workspace / "a.txt").write_text("kept\n", encoding="utf-8")
            (workspace / "b.txt").write_text("kept\n", encoding="utf-8")
            subprocess.run(["mount", "-o", "remount,ro", str(workspace)], check=True)
        where = ("--workspace", workspace, "--state-dir", state_dir)
        text = cmd("d1", "fs.delete", path="a.txt") + "\n"
        text += cmd("w1", "fs.write", path="b.txt", content="new")
        done = run_cli("exec", "--yes", *where, stdin=text)
        undo = run_cli("undo", "--yes", *where)
        assert sorted(p.name for p in workspace.iterdir()) == ["a.txt", "b.txt"]
        assert (workspace / "a.txt").read_text(encoding="utf-8") == "kept\n"

    assert "Traceback" not in done.stderr
    delete, write = parse_results(done.stdout)
    assert write.code == "ERR_READ_ONLY_FS", write.summary
    assert delete.code == "ERR_READ_ONLY_FS", delete.summary
    assert "the file system is read-only" in delete.summary
    assert "permission denied" not in delete.summary.lower()
    assert "nothing was changed" in delete.summary
    assert undo.stdout.startswith("Nothing to undo")
    assert "For the chat" not in undo.stdout


# -- 4. access errors at start; links delete as links ----------------------------------


def drop_dac_override() -> None:
    """In the child: drop the capabilities that let root ignore permission bits, so the
    process meets EACCES as another user would (prctl PR_CAPBSET_DROP)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


@pytest.mark.parametrize("command", ["exec", "undo", "pack"])
def test_a_workspace_behind_a_folder_the_user_cannot_enter_is_a_usage_error(
    command: str, tmp_path: Path, cmd: Any
) -> None:
    """The parent folder belongs to another user (nobody) with mode 0700; the run keeps
    root's uid but not its power over permission bits. Exit 2, the folder named as typed."""
    if os.geteuid() != 0:
        pytest.skip("needs root to hand a folder to another user")
    locked = tmp_path / "locked"
    (locked / "ws").mkdir(parents=True)
    (locked / "ws" / "a.txt").write_text("x\n", encoding="utf-8")
    os.chown(locked, 65534, 65534)
    locked.chmod(0o700)
    argv = [sys.executable, "-m", "llm_operator.cli", command, "--workspace", "locked/ws"]
    if command == "exec":
        argv += ["--state-dir", str(tmp_path / "state")]
    try:
        done = subprocess.run(
            argv,
            input=cmd("r1", "fs.read", path="a.txt"),
            capture_output=True,
            text=True,
            cwd=tmp_path,
            preexec_fn=drop_dac_override,
            timeout=60,
            check=False,
        )
    except subprocess.SubprocessError as exc:
        pytest.skip(f"cannot drop capabilities here: {exc}")
    finally:
        locked.chmod(0o755)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2
    assert done.stdout == ""
    assert "workspace locked/ws cannot be opened" in done.stderr
    assert "may not enter the folder locked on the way (permission denied)" in done.stderr
    assert str(tmp_path) not in done.stderr


def test_links_are_deleted_as_links_whatever_they_point_at(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """A loop (x -> y -> x), a link to itself and a dangling link: each goes as a link,
    the others and every target stay, and undo puts each link back as it was."""
    os.symlink("y", workspace / "x")
    os.symlink("x", workspace / "y")
    os.symlink("self", workspace / "self")
    os.symlink("missing.txt", workspace / "dangling")
    where = ("--workspace", workspace, "--state-dir", state_dir)
    text = "\n".join(cmd(f"d-{n}", "fs.delete", path=n) for n in ("x", "self", "dangling"))

    done = run_cli("exec", "--yes", *where, stdin=text)

    assert "Traceback" not in done.stderr
    results = parse_results(done.stdout)
    assert [r.ok for r in results] == [True] * 3, [r.summary for r in results]
    assert all("Deleted symlink" in r.summary for r in results)
    for name in ("x", "self", "dangling"):
        assert not os.path.lexists(workspace / name)
    assert os.readlink(workspace / "y") == "x"
    undo = run_cli("undo", "--yes", *where)
    assert undo.returncode == 0, undo.stdout + undo.stderr
    assert "restored 3 paths" in undo.stdout
    (notice,) = parse_results(undo.stdout.partition("For the chat:")[2].strip())
    assert sorted(notice.json()["files"]) == ["dangling", "self", "x"]
    assert os.readlink(workspace / "x") == "y"
    assert os.readlink(workspace / "self") == "self"
    assert os.readlink(workspace / "dangling") == "missing.txt"


def test_a_state_folder_behind_a_folder_the_user_cannot_enter_is_named_never_a_traceback(
    tmp_path: Path, workspace: Path, cmd: Any, parse_results: Any
) -> None:
    """exec still runs reads and refuses writes, naming the state folder; undo, which has
    nothing to work with, fails (exit 1: a failure of the run, not of what was typed)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to hand a folder to another user")
    (workspace / "a.txt").write_text("kept\n", encoding="utf-8")
    locked = tmp_path / "locked"
    locked.mkdir()
    os.chown(locked, 65534, 65534)
    locked.chmod(0o700)
    base = [sys.executable, "-m", "llm_operator.cli"]
    where = ["--workspace", str(workspace), "--state-dir", "locked/state"]
    text = (
        cmd("r1", "fs.read", path="a.txt") + "\n" + cmd("w1", "fs.write", path="a.txt", content="x")
    )
    runs = {}
    try:
        for name, argv in (
            ("exec", [*base, "exec", "--yes", *where]),
            ("undo", [*base, "undo", "--yes", *where]),
        ):
            runs[name] = subprocess.run(
                argv,
                input=text,
                capture_output=True,
                text=True,
                cwd=tmp_path,
                preexec_fn=drop_dac_override,
                timeout=60,
                check=False,
            )
    except subprocess.SubprocessError as exc:
        pytest.skip(f"cannot drop capabilities here: {exc}")
    finally:
        locked.chmod(0o755)
    done, undo = runs["exec"], runs["undo"]
    assert "Traceback" not in done.stderr + undo.stderr
    assert done.returncode == 1
    read, write = parse_results(done.stdout)
    assert read.ok
    assert read.details == "kept\n"
    assert write.code == "ERR_STATE_STORE_UNAVAILABLE"
    assert "permission denied" in write.summary
    assert (workspace / "a.txt").read_text(encoding="utf-8") == "kept\n"
    assert "the state folder is locked/state/workspaces/" in done.stderr
    assert undo.returncode == 1
    assert undo.stdout == ""
    assert "undo failed (ERR_STATE_STORE_UNAVAILABLE)" in undo.stderr
    assert "the state folder is locked/state/workspaces/" in undo.stderr
    assert not (locked / "state").exists()


def test_a_path_whose_rollback_failed_keeps_its_entry_so_undo_can_restore_it(
    workspace: Path, state_dir: Path, cmd: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """fs.moveStructure writes a.py, then b.py fails (EFBIG through the write seam), and
    putting a.py back fails too: a.py still holds the change, so its entry stays in the
    batch, the result says so, and undo restores it and tells the chat."""
    import errno

    from llm_operator.core.plan.session import Session
    from llm_operator.core.store import entries
    from support.fixtures import run_session

    (workspace / "a.py").write_text(MOVED, encoding="utf-8")
    (workspace / "b.py").write_text("def other():\n    return 3\n", encoding="utf-8")
    original = entries.write_all
    writes: list[int] = []

    def too_large_after_the_first(fd: int, data: bytes) -> None:
        writes.append(len(data))
        if len(writes) > 1:
            raise OSError(errno.EFBIG, "File too large")
        original(fd, data)

    monkeypatch.setattr(entries, "write_all", too_large_after_the_first)
    session = Session(Workspace(workspace), state_dir)
    move = cmd(
        "m1",
        "fs.moveStructure",
        path="a.py",
        target="def moved():",
        position="end",
        dest_path="b.py",
    )
    (result,) = run_session(session, move, True)
    monkeypatch.setattr(entries, "write_all", original)
    changed = (workspace / "a.py").read_text(encoding="utf-8")

    assert not result.ok
    assert result.code == "ERR_NO_SPACE", result.summary
    assert "could not write b.py" in result.summary
    assert "taking back the partial change also failed: a.py" in result.summary
    assert changed != MOVED  # a.py really still holds the change ...
    (kept,) = [b for b in batches(workspace, state_dir) if b[0] == "committed"]
    assert kept[1] == ["a.py"]  # ... and the batch says so
    report = session.undo_last()
    assert report.ok, report.summary
    assert report.restored == ("a.py",)
    assert (workspace / "a.py").read_text(encoding="utf-8") == MOVED
    assert report.notice is not None
    assert "m1" in report.notice.summary


def test_a_commit_over_the_file_size_limit_takes_the_change_back_and_names_the_limit(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """The write's record fits under ``ulimit -f``; the run's commit (its history holds a
    200 KB read result) does not: the write is taken back, its result names the limit, and
    nothing is left to undo or to tell the chat."""
    (workspace / "a.txt").write_text("before\n", encoding="utf-8")
    (workspace / "big.txt").write_text("ab" * 100_000, encoding="utf-8")
    where = ("--workspace", workspace, "--state-dir", state_dir)
    text = cmd("w1", "fs.write", path="a.txt", content="after") + "\n"
    text += cmd("r1", "fs.read", path="big.txt")

    done = run_cli("exec", "--yes", *where, stdin=text, limit=150_000)

    assert "Traceback" not in done.stderr
    write, read = parse_results(done.stdout)
    assert read.ok
    assert write.code == "ERR_STATE_STORE_FAILED", write.summary
    assert "file-size limit, ulimit -f" in write.summary
    assert "taken back: its files are as they were before" in write.summary
    assert (workspace / "a.txt").read_text(encoding="utf-8") == "before\n"
    assert [b for b in batches(workspace, state_dir) if b[0] == "committed"] == []
    undo = run_cli("undo", "--yes", *where)
    assert undo.stdout.startswith("Nothing to undo")
    assert "For the chat" not in undo.stdout


def test_an_undo_copy_kept_as_a_file_over_the_file_size_limit_writes_nothing(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """A 400 KB file's undo copy is a file beside the store (outside_copies); under a
    350 KB ``ulimit -f`` it cannot be written. The small new content would fit: the result
    names the undo copy and the limit, the file keeps its bytes, no part of the copy is
    left in the state folder and there is nothing to undo."""
    before = "".join(f"line {n:06d} of a big file\n" for n in range(16_000))  # 400,000 bytes
    (workspace / "big.txt").write_text(before, encoding="utf-8")
    where = ("--workspace", workspace, "--state-dir", state_dir)
    text = cmd("w1", "fs.write", path="big.txt", content="tiny")

    done = run_cli("exec", "--yes", *where, stdin=text, limit=350_000)

    assert "Traceback" not in done.stderr
    (write,) = parse_results(done.stdout)
    assert not write.ok
    assert "undo copy of big.txt" in write.summary
    assert "file-size limit, ulimit -f" in write.summary
    assert "nothing was written" in write.summary
    assert str(state_dir) not in done.stdout
    assert (workspace / "big.txt").read_text(encoding="utf-8") == before
    copies = store_file(workspace, state_dir).parent / "undo-copies"
    assert not copies.exists() or os.listdir(copies) == []
    undo = run_cli("undo", "--yes", *where)
    assert undo.stdout.startswith("Nothing to undo")


def test_a_read_only_file_on_another_mount_of_the_home_disk_is_trashed_as_its_rename_allows(
    tmp_path: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    """The workspace is a bind mount, so the trash copies across mounts; the run has no
    power over permission bits. A 0444 file in a folder the user may write can be moved:
    it goes to the trash (no "permission denied" from send2trash's check of the file's own
    write bit), and undo brings it back with its mode."""
    if os.geteuid() != 0:
        pytest.skip("a bind mount needs root")
    home = tmp_path / "home"  # made by the autouse trash fixture: HOME, with its trash
    source = tmp_path / "source"
    source.mkdir()
    (source / "ro.txt").write_text("kept\n", encoding="utf-8")
    (source / "ro.txt").chmod(0o444)
    with read_only_bind(source, tmp_path / "ws", writable=True) as workspace:
        where = ("--workspace", workspace, "--state-dir", state_dir)
        try:
            done = run_cli(
                "exec",
                "--yes",
                *where,
                stdin=cmd("d1", "fs.delete", path="ro.txt"),
                preexec=drop_dac_override,
            )
        except subprocess.SubprocessError as exc:
            pytest.skip(f"cannot drop capabilities here: {exc}")
        gone = not (workspace / "ro.txt").exists()
        undo = run_cli("undo", "--yes", *where)
        back = (workspace / "ro.txt").read_text(encoding="utf-8")
        mode = (workspace / "ro.txt").stat().st_mode & 0o777

    assert "Traceback" not in done.stderr
    (result,) = parse_results(done.stdout)
    assert result.ok, result.summary
    assert gone
    trashed = home / ".local" / "share" / "Trash" / "files" / "ro.txt"
    assert trashed.read_text(encoding="utf-8") == "kept\n"
    assert "restored 1 path" in undo.stdout
    assert back == "kept\n"
    assert mode == 0o444
