"""Whatever the state store does, every command gets its result and nothing is lost.

Real conditions, real processes: a read-only state folder and a full one are small tmpfs
mounts (skipped where mounting is not allowed), a damaged store is a file of garbage, and
odd file names are real names that are not UTF-8.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="tmpfs mounts")


def exec_(workspace: Path, state_dir: Path, text: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    return subprocess.run(argv, input=text, capture_output=True, text=True, timeout=60, check=False)


def remount_read_only(folder: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def fill(folder: Path) -> None:
    """Write until the file system is full."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, b"\0" * size)
    finally:
        os.close(fd)


@pytest.mark.slow
def test_read_only_state_dir_runs_reads_and_refuses_writes(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    (workspace / "a.txt").write_bytes(b"zero")
    with mounted_tmpfs(tmp_path / "state", "4m") as state_dir:
        first = exec_(workspace, state_dir, cmd("w1", "fs.write", path="a.txt", content="one"))
        assert first.returncode == 0, first.stderr
        remount_read_only(state_dir)
        text = "\n".join(
            [
                cmd("r1", "fs.read", path="a.txt"),
                cmd("w2", "fs.write", path="a.txt", content="two"),
                cmd("w3", "fs.write", path="new.txt", content="three"),
            ]
        )
        done = exec_(workspace, state_dir, text)

    assert "Traceback" not in done.stderr
    assert done.returncode == 1
    read, *writes = parse_results(done.stdout)
    assert read.ok
    assert read.details == "one"
    assert [w.code for w in writes] == ["ERR_STATE_STORE_UNAVAILABLE"] * 2
    assert "read-only" in writes[0].summary
    assert "nothing was written" in writes[0].summary
    assert (workspace / "a.txt").read_bytes() == b"one"
    assert not (workspace / "new.txt").exists()


def test_a_state_dir_that_cannot_be_created_refuses_writes(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    with mounted_tmpfs(tmp_path / "state", "1m") as state_dir:
        remount_read_only(state_dir)
        done = exec_(
            workspace,
            state_dir,
            cmd("l", "fs.list", path=".") + "\n" + cmd("w", "fs.write", path="x.txt", content="x"),
        )
    listing, write = parse_results(done.stdout)
    assert listing.ok
    assert write.code == "ERR_STATE_STORE_UNAVAILABLE"
    assert not (workspace / "x.txt").exists()
    assert "Traceback" not in done.stderr


def test_full_state_dir_refuses_the_write_whose_undo_copy_does_not_fit(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    big = os.urandom(300_000).hex().encode()  # 600 KB of previous bytes to save
    (workspace / "big.txt").write_bytes(big)
    with mounted_tmpfs(tmp_path / "state", "512k") as state_dir:
        text = "\n".join(
            [
                cmd("r1", "fs.stat", path="big.txt"),
                cmd("w1", "fs.write", path="big.txt", content="small now"),
                cmd("w2", "fs.write", path="other.txt", content="fits"),
            ]
        )
        done = exec_(workspace, state_dir, text)
        again = exec_(workspace, state_dir, text)

    assert "Traceback" not in done.stderr
    stat_, w1, w2 = parse_results(done.stdout)
    assert stat_.ok
    assert w1.code == "ERR_STATE_STORE_UNAVAILABLE"
    assert "full" in w1.summary
    assert (workspace / "big.txt").read_bytes() == big  # nothing written for it
    assert w2.ok  # a write whose record fits still runs
    assert (workspace / "other.txt").read_text() == "fits"
    # Pasted again: the landed write is a repeat, never a second run.
    _, w1_again, w2_again = parse_results(again.stdout)
    assert w2_again.repeat
    assert not w1_again.ok


def test_disk_full_at_commit_takes_the_batch_back_and_says_so(
    workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "a.txt").write_text("before\n", encoding="utf-8")
    with mounted_tmpfs(tmp_path / "state", "2m") as state_dir:
        session = Session(Workspace(workspace), state_dir)
        text = "\n".join(
            cmd(f"w{n}", "fs.write", path=f"f{n}.txt", content="x" * 2000) for n in range(5)
        )
        text += "\n" + cmd("wa", "fs.write", path="a.txt", content="after")
        run = session.prepare(text)

        def full_before_commit(index: int, total: int, label: str) -> None:
            if label == "done":  # every write landed; the commit comes next
                fill(state_dir)

        results = session.execute(
            run, {p.index: APPROVE for p in run.pending}, progress=full_before_commit
        )
        (state_dir / "filler").unlink()
        again = Session(Workspace(workspace), state_dir)
        rerun = again.prepare(text)

    assert [r.ok for r in results] == [False] * 6
    assert {r.outcome.summary.split("(")[1].split(")")[0] for r in results} == {
        "ERR_STATE_STORE_FAILED"
    }
    for result in results:  # every summary says only what the disk shows below
        assert "taken back: its files are as they were before" in result.outcome.summary
        assert "full" in result.outcome.summary
        assert "the change was made" not in result.outcome.summary
        assert "nothing was written" not in result.outcome.summary
    assert sorted(p.name for p in workspace.iterdir() if p.name.startswith("f")) == []
    assert (workspace / "a.txt").read_text(encoding="utf-8") == "before\n"
    assert all(item.result is None for item in rerun.items)  # planned again, not repeats


def test_a_change_that_could_not_be_taken_back_is_named_and_the_others_are_not_claimed_on_disk(
    workspace: Path, tmp_path: Path, cmd: Any
) -> None:
    (workspace / "a.txt").write_text("before a\n", encoding="utf-8")
    (workspace / "b.txt").write_text("before b\n", encoding="utf-8")
    with mounted_tmpfs(tmp_path / "state", "2m") as state_dir:
        session = Session(Workspace(workspace), state_dir)
        text = cmd("wa", "fs.write", path="a.txt", content="after a") + "\n"
        text += cmd("wb", "fs.write", path="b.txt", content="after b")
        run = session.prepare(text)

        def full_and_edited_before_commit(index: int, total: int, label: str) -> None:
            if label == "done":
                (workspace / "b.txt").write_text("edited by hand\n", encoding="utf-8")
                fill(state_dir)

        results = session.execute(
            run, {p.index: APPROVE for p in run.pending}, progress=full_and_edited_before_commit
        )
        (state_dir / "filler").unlink()

    assert (workspace / "a.txt").read_text(encoding="utf-8") == "before a\n"
    assert (workspace / "b.txt").read_text(encoding="utf-8") == "edited by hand\n"
    taken, kept = results
    assert not taken.ok  # a.txt was restored: its result says so and claims no write
    assert "taken back: its files are as they were before" in taken.outcome.summary
    assert "Wrote" not in taken.outcome.summary
    # b.txt was changed by hand after the write: left as it is, and its result names it.
    assert "taken back, except where that was not possible: b.txt" in kept.outcome.summary


def test_damaged_store_file_gives_results_through_exec(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    (workspace / "a.txt").write_text("kept", encoding="utf-8")
    assert exec_(workspace, state_dir, cmd("r0", "fs.list", path=".")).returncode == 0
    store = workspace_state_dir(state_dir, Workspace(workspace).root) / FILE_NAME
    for extra in store.parent.glob(FILE_NAME + "-*"):
        extra.unlink()
    store.write_bytes(b"\x00garbage" * 512)
    text = (
        cmd("r1", "fs.read", path="a.txt") + "\n" + cmd("w", "fs.write", path="a.txt", content="z")
    )

    done = exec_(workspace, state_dir, text)

    assert "Traceback" not in done.stderr
    read, write = parse_results(done.stdout)
    assert read.ok
    assert write.code == "ERR_STATE_STORE_DAMAGED"
    assert "move the file state.sqlite3" in write.summary
    assert str(state_dir) not in done.stdout  # no absolute path reaches the chat
    assert (workspace / "a.txt").read_text() == "kept"
    assert store.read_bytes() == b"\x00garbage" * 512
    assert "writes are refused" in done.stderr
    assert f"the state folder is {store.parent}" in done.stderr  # where to move it from


def test_names_that_are_not_utf8_never_crash_a_run(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    os.close(os.open(os.fsencode(workspace) + b"/bad\xff.txt", os.O_CREAT | os.O_WRONLY))
    os.close(os.open(os.fsencode(workspace) + b"/ctl\x01.txt", os.O_CREAT | os.O_WRONLY))
    text = "\n".join(
        [
            cmd("w", "fs.write", path="landed.txt", content="once"),
            cmd("l", "fs.list", path="."),
            cmd("s", "fs.searchTree", path=".", query="once"),
        ]
    )

    first = exec_(workspace, state_dir, text)
    second = exec_(workspace, state_dir, text)

    for done in (first, second):
        assert "Traceback" not in done.stderr
        results = parse_results(done.stdout)
        assert [r.id for r in results] == ["w", "l", "s"]
        assert results[0].ok
        assert "bad\\xff.txt" in (results[1].details or "")
    assert parse_results(second.stdout)[0].repeat
    assert (workspace / "landed.txt").read_text() == "once"


def test_outlines_are_not_kept_on_a_nearly_full_disk_so_a_write_still_fits(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    for n in range(40):
        (workspace / "src" / f"m{n:02d}.py").write_text(f"def f{n}():\n    return {n}\n" * 20)
    (workspace / "big.txt").write_bytes(b"x" * 60_000)
    with mounted_tmpfs(tmp_path / "state", "400k") as state_dir:
        text = "\n".join(
            [
                cmd("o1", "fs.outline", path="."),
                cmd("w1", "fs.write", path="big.txt", content="small now"),
            ]
        )
        done = exec_(workspace, state_dir, text)
        assert done.returncode == 0, done.stderr
        outlined, wrote = parse_results(done.stdout)
        assert outlined.ok
        assert "def f39():" in outlined.details
        assert wrote.ok, wrote.summary  # the undo copy of big.txt found room
        assert (workspace / "big.txt").read_text() == "small now"
        (database,) = state_dir.rglob("state.sqlite3")
        with sqlite3.connect(database) as db:
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        assert "outlines" not in tables  # nothing kept: the disk has far less than 64 MiB


def fill_leaving(folder: Path, keep: int) -> None:
    """Write a filler so that about ``keep`` bytes stay free."""
    info = os.statvfs(folder)
    free = info.f_bavail * info.f_frsize
    (folder / "filler").write_bytes(b"\0" * max(0, free - keep))


def test_on_a_nearly_full_disk_a_big_read_result_gives_way_to_the_runs_write(
    workspace: Path, tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    """The run's history entry would hold the read's 120 KB result; the disk has room for
    the write's record but not for that too. The history keeps summaries only instead."""
    (workspace / "big.txt").write_text(("0123456789abcdef" * 4 + "\n") * 1900)
    (workspace / "t.txt").write_text("old\n")
    with mounted_tmpfs(tmp_path / "state", "2m") as state_dir:
        first = exec_(workspace, state_dir, cmd("init", "fs.write", path="i.txt", content="x"))
        assert first.returncode == 0, first.stderr
        fill_leaving(state_dir, 150 * 1024)
        reply = "\n".join(
            [
                cmd("r1", "fs.read", path="big.txt"),
                cmd("w1", "fs.write", path="t.txt", content="new"),
            ]
        )
        done = exec_(workspace, state_dir, reply)
        read, wrote = parse_results(done.stdout)
        assert read.ok
        assert len(read.details) > 120_000  # the chat still gets the whole read
        assert wrote.ok, wrote.summary
        assert (workspace / "t.txt").read_text() == "new"
        (database,) = state_dir.rglob("state.sqlite3")
        with sqlite3.connect(database) as db:
            (history,) = db.execute("SELECT results FROM runs ORDER BY n DESC LIMIT 1").fetchone()
        (kept_read, kept_write) = parse_results(history)
        assert kept_read.details is None
        assert "the state folder's disk was full" in kept_read.summary
        assert kept_write.ok
