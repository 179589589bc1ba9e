"""Writes that go wrong, through the session: nothing is lost and nothing is left behind.

Real faults are used where a test can make them (a folder where a file was, a file edited
between preview and write, a process killed mid-write); the write seams of
store/entries.py stand in for a full disk and a refused rename.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE, Decision
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import encode_results
from llm_operator.core.store import entries
from llm_operator.core.store.workspace import Workspace
from support.actions import (
    b64,
    cli,
    edits_b64,
    run_decided,
    temp_leftovers,
    tree,
)

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="freedesktop trash and POSIX modes"
)

EDIT_MAIN = {"op": "replaceFirst", "find": "hello", "text": "bye"}


def approve_all(session: Session, run: Any) -> list[Any]:
    return session.execute(run, {p.index: APPROVE for p in run.pending})


# -- a write failing midway -----------------------------------------------------------------


def test_disk_full_midway_keeps_the_original(
    run_reply: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tree(workspace)

    def disk_full(fd: int, data: bytes) -> None:
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(entries, "write_all", disk_full)
    (result,) = run_reply(
        cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(EDIT_MAIN))
    )
    assert result.code == "ERR_NO_SPACE", result.summary
    assert "disk is full" in result.summary
    assert tree(workspace) == before
    assert temp_leftovers(workspace) == []


def test_permission_denied_on_the_rename_keeps_the_original(
    run_reply: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tree(workspace)

    def denied(src: Path, dst: Path) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(dst))

    monkeypatch.setattr(entries, "rename_entry", denied)
    (result,) = run_reply(cmd("w1", "fs.write", path="README.md", content_b64=b64("new\n")))
    assert result.code == "ERR_PERMISSION_DENIED", result.summary
    assert "permission denied" in result.summary
    assert tree(workspace) == before


def test_target_replaced_by_a_folder_between_preview_and_apply(
    make_session: Any, cmd: Any, workspace: Path
) -> None:
    session = make_session()
    run = session.prepare(cmd("w1", "fs.write", path="README.md", content="new"))
    (workspace / "README.md").unlink()
    (workspace / "README.md").mkdir()
    (workspace / "README.md" / "inside.txt").write_bytes(b"someone else's")
    before = tree(workspace)
    (result,) = approve_all(session, run)
    assert not result.ok
    assert "ERR_STALE_FILE" in result.outcome.summary
    assert "a folder" in result.outcome.summary
    assert tree(workspace) == before


def test_target_replaced_by_a_folder_during_the_write(
    run_reply: Any, cmd: Any, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_write = entries.write_all
    target = workspace / "README.md"

    def swap(fd: int, data: bytes) -> None:
        target.unlink()
        target.mkdir()
        (target / "inside.txt").write_bytes(b"someone else's")
        real_write(fd, data)

    monkeypatch.setattr(entries, "write_all", swap)
    (result,) = run_reply(cmd("w1", "fs.write", path="README.md", content="new"))
    assert result.code == "ERR_IS_A_DIRECTORY", result.summary
    assert (target / "inside.txt").read_bytes() == b"someone else's"
    assert temp_leftovers(workspace) == []


# -- a process killed during a write -------------------------------------------------------------

SLOW_EXEC = textwrap.dedent(
    """
    import os, sys, time
    from llm_operator import cli
    from llm_operator.core.store import entries

    def slow_write(fd, data):
        os.write(fd, data[:64])
        print("writing", flush=True)
        time.sleep(60)
        os.write(fd, data[64:])

    entries.write_all = slow_write
    sys.exit(cli.main(sys.argv[1:]))
    """
)


def test_killed_during_a_write_leaves_the_original_and_one_temp_file(
    cmd: Any, workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    original = tree(workspace)
    reply = tmp_path / "reply.txt"
    reply.write_text(
        cmd("w1", "fs.write", path="src/main.py", content_b64=b64("print('new')\n" * 500)),
        encoding="utf-8",
    )
    argv = ["exec", "--workspace", str(workspace), "--state-dir", str(state_dir), "--yes"]
    # The with block closes both pipes and reaps the child, whatever the asserts do.
    with subprocess.Popen(
        [sys.executable, "-c", SLOW_EXEC, *argv, str(reply)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None
            line = child.stdout.readline()
            assert line == "writing\n", child.stderr.read() if child.stderr else ""
            os.kill(child.pid, signal.SIGKILL)
            assert child.wait(timeout=10) == -signal.SIGKILL
        finally:
            if child.poll() is None:
                child.kill()

    leftovers = temp_leftovers(workspace)
    assert len(leftovers) == 1
    assert leftovers[0].startswith("src/.main.py.llmop-")
    assert {k: v for k, v in tree(workspace).items() if k not in leftovers} == original

    # Opening the workspace again recovers the killed run, its temp file included.
    session = Session(Workspace(workspace), state_dir)
    assert tree(workspace) == original
    assert session.clean_leftovers() == ()


# -- a file changed between preview and write ---------------------------------------------------


@pytest.mark.parametrize(
    "action",
    ["fs.write", "fs.patch", "fs.applyEdits", "fs.delete", "fs.insertRegion"],
)
def test_file_changed_after_preview_is_stale_and_the_change_is_kept(
    make_session: Any, cmd: Any, workspace: Path, action: str
) -> None:
    fields = {
        "fs.write": {"content": "from the llm"},
        "fs.patch": {"patch_b64": b64("@@ -5 +5 @@\n-    print('hello')\n+    print('bye')\n")},
        "fs.applyEdits": {"edits_b64": edits_b64(EDIT_MAIN)},
        "fs.delete": {},
        "fs.insertRegion": {
            "marker_id": "extra",
            "anchor": "return 0",
            "content_b64": b64("x = 1\n"),
        },
    }[action]
    session = make_session()
    run = session.prepare(cmd("c1", action, path="src/main.py", **fields))
    assert len(run.pending) == 1
    outside = (workspace / "src" / "main.py").read_bytes() + b"# edited in the IDE\n"
    (workspace / "src" / "main.py").write_bytes(outside)
    before = tree(workspace)
    (result,) = approve_all(session, run)
    assert not result.ok
    assert f"{action} failed (ERR_STALE_FILE)" in result.outcome.summary
    assert (workspace / "src" / "main.py").read_bytes() == outside
    assert tree(workspace) == before


# -- the trash is missing ----------------------------------------------------------------------


def test_missing_trash_keeps_the_file_and_leaves_no_temp(
    run_reply: Any, cmd: Any, workspace: Path, trash: Path
) -> None:
    trash.parent.write_text("a file where the trash folder should be")
    before = tree(workspace)
    (result,) = run_reply(cmd("d1", "fs.delete", path="src/main.py"))
    assert result.code == "ERR_TRASH_UNAVAILABLE", result.summary
    assert tree(workspace) == before
    assert temp_leftovers(workspace) == []


# -- pasting the same reply twice ---------------------------------------------------------------


def test_same_reply_in_two_sessions_writes_once(
    make_session: Any, cmd: Any, parse_results: Any, workspace: Path
) -> None:
    text = (
        cmd("w1", "fs.write", path="out.txt", content="written once")
        + "\n"
        + cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(EDIT_MAIN))
    )
    first = run_decided(make_session(), text, {"w1": APPROVE, "e1": APPROVE}, parse_results)
    assert [r.ok for r in first] == [True, True]
    stats = {p: os.stat(workspace / p) for p in ("out.txt", "src/main.py")}
    snap = tree(workspace)

    second_session = make_session()
    run = second_session.prepare(text)
    assert run.pending == []  # nothing to approve: both already ran
    second = parse_results(encode_results(second_session.execute(run, {})))
    assert [(r.id, r.ok, r.repeat) for r in second] == [("w1", True, True), ("e1", True, True)]
    assert tree(workspace) == snap
    for path, before in stats.items():
        now = os.stat(workspace / path)
        assert (now.st_ino, now.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_same_reply_through_two_exec_runs_writes_once(
    cmd: Any, parse_results: Any, workspace: Path, tmp_path: Path
) -> None:
    state = tmp_path / "cli-state"
    reply = tmp_path / "reply.txt"
    reply.write_text(
        "Sure.\n\n" + cmd("w1", "fs.write", path="notes/todo.txt", content="buy milk") + "\n",
        encoding="utf-8",
    )
    args = ("exec", "--workspace", workspace, "--state-dir", state, "--yes", reply)
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    (one,) = parse_results(first.stdout)
    assert one.ok
    assert not one.repeat
    target = workspace / "notes" / "todo.txt"
    before = os.stat(target)

    second = cli(*args)
    assert second.returncode == 0, second.stderr
    (two,) = parse_results(second.stdout)
    assert (two.id, two.ok, two.repeat) == ("w1", True, True)
    assert two.summary.startswith(one.summary)
    now = os.stat(target)
    assert (now.st_ino, now.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert target.read_bytes() == b"buy milk"


# -- several writes in one reply ----------------------------------------------------------------


def test_two_edits_of_one_file_build_on_each_other(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    first = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(EDIT_MAIN))
    second = cmd(
        "e2",
        "fs.applyEdits",
        path="src/main.py",
        edits_b64=edits_b64({"op": "replaceFirst", "find": "'bye'", "text": "'bye', sys.argv"}),
    )
    results = run_reply(first + "\n" + second)
    assert [r.ok for r in results] == [True, True], [r.summary for r in results]
    assert b"print('bye', sys.argv)" in (workspace / "src" / "main.py").read_bytes()


def test_rejecting_the_first_of_two_edits_fails_the_second(
    make_session: Any, cmd: Any, parse_results: Any, workspace: Path
) -> None:
    first = cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(EDIT_MAIN))
    second = cmd(
        "e2",
        "fs.applyEdits",
        path="src/main.py",
        edits_b64=edits_b64({"op": "replaceFirst", "find": "'bye'", "text": "'ciao'"}),
    )
    before = tree(workspace)
    decide = {"e1": Decision(False, "not this one"), "e2": APPROVE}
    one, two = run_decided(make_session(), first + "\n" + second, decide, parse_results)
    assert one.code == "ERR_REJECTED_BY_USER"
    assert two.code == "ERR_STALE_FILE"
    assert tree(workspace) == before


def test_a_folder_made_by_an_earlier_write_of_the_reply_can_be_deleted(
    run_reply: Any, cmd: Any, workspace: Path, trash: Path
) -> None:
    write = cmd("w1", "fs.write", path="scratch/notes.txt", content="draft")
    delete = cmd("d1", "fs.delete", path="scratch")
    results = run_reply(write + "\n" + delete)
    assert [r.ok for r in results] == [True, True], [r.summary for r in results]
    assert "made by earlier writes of this reply" in results[1].summary
    assert not (workspace / "scratch").exists()
    assert (trash / "scratch" / "notes.txt").read_bytes() == b"draft"


def test_deleting_a_planned_folder_fails_cleanly_when_its_write_is_rejected(
    make_session: Any, cmd: Any, parse_results: Any, workspace: Path
) -> None:
    write = cmd("w1", "fs.write", path="scratch/notes.txt", content="draft")
    delete = cmd("d1", "fs.delete", path="scratch")
    before = tree(workspace)
    decide = {"w1": Decision(False, "no"), "d1": APPROVE}
    one, two = run_decided(make_session(), write + "\n" + delete, decide, parse_results)
    assert one.code == "ERR_REJECTED_BY_USER"
    assert two.code == "ERR_STALE_FILE"
    assert "earlier command of the same reply" in two.summary
    assert tree(workspace) == before


def test_a_read_after_a_write_sees_the_written_content(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    write = cmd("w1", "fs.write", path="src/main.py", content_b64=b64("print('rewritten')\n"))
    read = cmd("r1", "fs.read", path="src/main.py")
    results = run_reply(read + "\n" + write + "\n" + read.replace("id: r1", "id: r2"))
    assert [r.ok for r in results] == [True, True, True]
    assert "print('hello')" in (results[0].details or "")
    assert results[2].details == "print('rewritten')\n"


def test_a_rejected_reply_changes_nothing(run_reply: Any, cmd: Any, workspace: Path) -> None:
    before = tree(workspace)
    text = "\n".join(
        [
            cmd("w1", "fs.write", path="new/file.txt", content="x"),
            cmd("e1", "fs.applyEdits", path="src/main.py", edits_b64=edits_b64(EDIT_MAIN)),
            cmd("d1", "fs.delete", path="src/pkg"),
        ]
    )
    results = run_reply(text, False)
    assert [r.code for r in results] == ["ERR_REJECTED_BY_USER"] * 3
    assert tree(workspace) == before
