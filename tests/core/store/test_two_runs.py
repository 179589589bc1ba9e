"""Two runs on one workspace at once: two execs, or the window's session and an exec.

No approved edit may be reported done and missing from disk: each edit is either on disk
and ok, or refused (ERR_STALE_FILE after waiting for the other run) and absent. A run
that has to wait says so, and a reply pasted into both front ends writes once.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.batch_writer import APPLY_DELAY_ENV
from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace

FILES = 12


def _insert(cmd: Any, cmd_id: str, path: str, line: str) -> str:
    edits = {"version": 1, "edits": [{"op": "insertAfter", "anchor": "top\n", "text": line}]}
    payload = base64.b64encode(json.dumps(edits).encode()).decode()
    return cmd(cmd_id, "fs.applyEdits", path=path, edits_b64=payload)


def _reply(cmd: Any, run: str) -> str:
    return "\n".join(
        _insert(cmd, f"{run}-{n}", f"c{n:02d}.txt", f"{run} was here\n") for n in range(FILES)
    )


Exec = Callable[[Path, Path, Path, str], "subprocess.Popen[str]"]


@pytest.fixture(name="start_exec")
def exec_fixture() -> Iterator[Exec]:
    """Starts ``exec`` runs; any still running when the test ends (a failed assertion)
    is killed and reaped, so it cannot outlive its test."""
    started: list[subprocess.Popen[str]] = []

    def start(workspace: Path, state_dir: Path, reply: Path, delay: str) -> subprocess.Popen[str]:
        argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
        argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
        env = {**os.environ, APPLY_DELAY_ENV: delay}
        child = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        started.append(child)
        return child

    yield start
    for child in started:
        if child.poll() is None:
            child.kill()
        child.communicate()


def _check_truth(workspace: Path, results: dict[str, list[Any]]) -> int:
    """Every ok edit is on disk exactly once; every failed one is absent. Returns ok count."""
    landed = 0
    for run, outcomes in results.items():
        for n, ok in enumerate(outcomes):
            text = (workspace / f"c{n:02d}.txt").read_text(encoding="utf-8")
            assert text.count(f"{run} was here\n") == (1 if ok else 0), (run, n, ok, text)
            landed += ok
    return landed


def _seed(workspace: Path) -> None:
    for n in range(FILES):
        (workspace / f"c{n:02d}.txt").write_text("top\n", encoding="utf-8")


@pytest.mark.slow
def test_two_execs_on_the_same_files_report_exactly_what_is_on_disk(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any, start_exec: Exec
) -> None:
    _seed(workspace)
    total_ok = 0
    waited = 0
    for round_ in range(3):
        replies = {}
        for run in (f"a{round_}", f"b{round_}"):
            replies[run] = tmp_path / f"{run}.txt"
            replies[run].write_text(_reply(cmd, run), encoding="utf-8")
        children = {
            run: start_exec(workspace, state_dir, path, "0.02") for run, path in replies.items()
        }
        results = {}
        for run, child in children.items():
            out, err = child.communicate(timeout=120)
            assert "Traceback" not in err
            waited += "waiting for another run on this workspace" in err
            parsed = parse_results(out)
            assert [r.id for r in parsed] == [f"{run}-{n}" for n in range(FILES)]
            assert {r.code for r in parsed if not r.ok} <= {"ERR_STALE_FILE"}
            results[run] = [r.ok for r in parsed]
        total_ok += _check_truth(workspace, results)
    assert total_ok >= 3 * FILES  # at least one whole run per round landed
    assert waited >= 1  # the runs really overlapped at least once


def test_the_window_session_waits_for_an_exec_then_rechecks(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any, start_exec: Exec
) -> None:
    _seed(workspace)
    (workspace / "own.txt").write_text("top\n", encoding="utf-8")
    reply = tmp_path / "exec.txt"
    reply.write_text(_reply(cmd, "exec"), encoding="utf-8")
    window = Session(Workspace(workspace), state_dir)
    text = _insert(cmd, "win-own", "own.txt", "window was here\n") + "\n" + _reply(cmd, "window")
    run = window.prepare(text)  # planned before the exec writes anything
    waits: list[float] = []
    window.on_wait = lambda: waits.append(time.monotonic())

    child = start_exec(workspace, state_dir, reply, "0.05")
    deadline = time.monotonic() + 30
    while (workspace / "c00.txt").read_text() == "top\n":  # the exec holds the lock now
        assert time.monotonic() < deadline
        assert child.poll() is None
        time.sleep(0.005)
    results = window.execute(run, {p.index: APPROVE for p in run.pending})
    out, err = child.communicate(timeout=60)

    assert waits, "the window's run did not wait for the exec's"
    exec_results = parse_results(out)
    assert all(r.ok for r in exec_results), err
    by_id = {r.id: r for r in results}
    assert by_id["win-own"].ok  # a file the exec did not touch is written after the wait
    assert "window was here" in (workspace / "own.txt").read_text()
    window_ok = [by_id[f"window-{n}"].ok for n in range(FILES)]
    assert not any(window_ok)  # the exec changed those files after the preview
    assert {by_id[f"window-{n}"].outcome.summary.split("(")[1][:14] for n in range(FILES)} == {
        "ERR_STALE_FILE"
    }
    _check_truth(workspace, {"exec": [True] * FILES, "window": window_ok})


def test_a_reply_pasted_into_both_front_ends_writes_once_and_says_when(
    workspace: Path, state_dir: Path, tmp_path: Path, cmd: Any, parse_results: Any, start_exec: Exec
) -> None:
    _seed(workspace)
    text = _reply(cmd, "same")
    reply = tmp_path / "same.txt"
    reply.write_text(text, encoding="utf-8")
    window = Session(Workspace(workspace), state_dir)
    run = window.prepare(text)
    child = start_exec(workspace, state_dir, reply, "0.02")
    done = threading.Event()

    def execute() -> None:
        window.execute(run, {p.index: APPROVE for p in run.pending})
        done.set()

    worker = threading.Thread(target=execute)
    worker.start()
    out, _ = child.communicate(timeout=60)
    worker.join(timeout=60)
    assert done.is_set()
    _check_truth(workspace, {"same": [True] * FILES})  # exactly once, whoever won
    again = window.prepare(text)
    assert all(item.result is not None and item.result.repeat for item in again.items)
    summary = again.items[0].result.outcome.summary if again.items[0].result else ""
    assert "[repeat: this id already ran at 20" in summary
    assert "UTC with identical content" in summary
    del out


def test_reads_never_wait_and_a_write_waits_saying_so(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    from llm_operator.core.store.lock import WorkspaceLock
    from llm_operator.core.store.state import workspace_state_dir

    Session(Workspace(workspace), state_dir)  # creates the state folder
    held = WorkspaceLock(workspace_state_dir(state_dir, Workspace(workspace).root))
    assert held.acquire()
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    try:
        read = subprocess.run(
            argv,
            input=cmd("r", "fs.list", path="."),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert read.returncode == 0
        assert "waiting" not in read.stderr
        writer = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert writer.stdin is not None
        assert writer.stderr is not None
        writer.stdin.write(cmd("w", "fs.write", path="late.txt", content="after the wait"))
        writer.stdin.close()
        line = writer.stderr.readline()
        assert line == "llm-operator: waiting for another run on this workspace...\n"
        assert not (workspace / "late.txt").exists()  # it really waits
    finally:
        held.release()
    with writer:
        assert writer.stdout is not None
        out = writer.stdout.read()
        writer.stderr.read()
    assert writer.wait(timeout=60) == 0
    assert parse_results(out)[0].ok
    assert (workspace / "late.txt").read_text() == "after the wait"
