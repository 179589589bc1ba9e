"""kill -9 at random moments of a 30-file batch: all or nothing, exactly once, undoable.

Each trial runs ``llm-operator exec --yes`` on a reply of 30 non-idempotent edits (each
inserts a line, so an edit applied twice shows), kills it with SIGKILL a random moment
after its first file changed (the apply loop is slowed through the documented test seam
LLM_OPERATOR_TEST_APPLY_DELAY so the kill can land mid-batch), then checks:
- every file is wholly old or wholly new;
- the next opener recovers: every file is old again, unless the batch had committed;
- pasting the same reply again leaves every edit applied exactly once;
- undo restores the pre-batch state.
"""

from __future__ import annotations

import base64
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.batch_writer import APPLY_DELAY_ENV
from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace

FILES = 30
TRIALS = 50
OLD = b"first line\nlast line\n"
NEW = b"first line\ninserted\nlast line\n"


def _reply(cmd: Any) -> str:
    edits = json.dumps(
        {
            "version": 1,
            "edits": [{"op": "insertAfter", "anchor": "first line\n", "text": "inserted\n"}],
        }
    )
    payload = base64.b64encode(edits.encode()).decode()
    return "\n".join(
        cmd(f"e{n:02d}", "fs.applyEdits", path=f"f{n:02d}.txt", edits_b64=payload)
        for n in range(FILES)
    )


def _files(workspace: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(workspace.iterdir())}


def _run_and_kill(workspace: Path, state_dir: Path, reply: Path, rng: random.Random) -> str:
    env = {**os.environ, APPLY_DELAY_ENV: "0.004"}
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), str(reply)]
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 30
        first = workspace / "f00.txt"
        while first.read_bytes() == OLD and child.poll() is None:
            assert time.monotonic() < deadline, "the batch never started"
            time.sleep(0.002)
        time.sleep(rng.uniform(0, 0.16))
        child.send_signal(signal.SIGKILL)
        code = child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return "finished" if code == 0 else "killed"


@pytest.mark.slow
def test_fifty_kills_mid_batch_leave_all_or_nothing_and_apply_once(
    tmp_path: Path, cmd: Any
) -> None:
    rng = random.Random(1010)
    reply = tmp_path / "reply.txt"
    text = _reply(cmd)
    reply.write_text(text, encoding="utf-8")
    seen: Counter[str] = Counter()
    for trial in range(TRIALS):
        workspace = tmp_path / f"ws{trial}"
        workspace.mkdir()
        for n in range(FILES):
            (workspace / f"f{n:02d}.txt").write_bytes(OLD)
        state_dir = tmp_path / f"state{trial}"

        outcome = _run_and_kill(workspace, state_dir, reply, rng)

        after_kill = _files(workspace)
        temp_files = [name for name in after_kill if name.startswith(".")]
        wholly = {name: data for name, data in after_kill.items() if name not in temp_files}
        assert set(wholly.values()) <= {OLD, NEW}, f"trial {trial}: a file is half written"
        new_count = sum(data == NEW for data in wholly.values())
        seen["mid-batch" if 0 < new_count < FILES else f"{new_count}/{FILES} new"] += 1

        session = Session(Workspace(workspace), state_dir)  # the next opener recovers
        recovered = _files(workspace)
        assert set(recovered.values()) in ({OLD}, {NEW}), f"trial {trial}: not all or nothing"
        committed = set(recovered.values()) == {NEW}

        run = session.prepare(text)
        results = session.execute(run, {p.index: APPROVE for p in run.pending})
        assert [r.ok for r in results] == [True] * FILES, [r.outcome.summary for r in results]
        assert all(r.repeat for r in results) == committed
        assert _files(workspace) == {f"f{n:02d}.txt": NEW for n in range(FILES)}

        report = session.undo_last()
        assert report.ok, report.summary
        assert _files(workspace) == {f"f{n:02d}.txt": OLD for n in range(FILES)}
        del outcome
    # The kills must really land in the middle of batches, not only before or after them.
    assert seen["mid-batch"] >= TRIALS // 2, seen


def test_the_next_exec_recovers_first_and_says_so(tmp_path: Path, cmd: Any) -> None:
    workspace, state_dir = tmp_path / "ws", tmp_path / "state"
    workspace.mkdir()
    for n in range(FILES):
        (workspace / f"f{n:02d}.txt").write_bytes(OLD)
    reply = tmp_path / "reply.txt"
    reply.write_text(_reply(cmd), encoding="utf-8")
    env = {**os.environ, APPLY_DELAY_ENV: "0.5"}
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    with subprocess.Popen([*argv, str(reply)], env=env) as child:
        deadline = time.monotonic() + 30
        while (workspace / "f00.txt").read_bytes() == OLD:
            assert time.monotonic() < deadline
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
    assert (workspace / "f00.txt").read_bytes() == NEW

    done = subprocess.run(
        [*argv, "-"],
        input=cmd("r", "fs.read", path="f00.txt"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0
    assert "a run that stopped mid-batch was taken back: 1 path restored" in done.stderr
    assert _files(workspace) == {f"f{n:02d}.txt": OLD for n in range(FILES)}


def test_a_left_open_batch_that_changed_nothing_gets_no_recovery_note(
    tmp_path: Path, cmd: Any
) -> None:
    """A run that could not commit (a full state disk) takes its files back itself and
    leaves its batch open; the next run forgets it without claiming a run was taken back."""
    import sqlite3

    workspace, state_dir = tmp_path / "ws", tmp_path / "state"
    workspace.mkdir()
    (workspace / "a.txt").write_bytes(OLD)
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--yes"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), "-"]

    def run(reply: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv, input=reply, capture_output=True, text=True, timeout=60, check=False
        )

    assert run(cmd("w1", "fs.write", path="b.txt", content="x")).returncode == 0
    (database,) = state_dir.rglob("state.sqlite3")
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO batches (label, created, state) VALUES ('w2', 'now', 'open')")
    db.close()

    done = run(cmd("r1", "fs.read", path="a.txt"))

    assert done.returncode == 0, done.stderr
    assert "taken back" not in done.stderr, done.stderr
    assert (workspace / "a.txt").read_bytes() == OLD
    with sqlite3.connect(database) as db:
        left = db.execute("SELECT COUNT(*) FROM batches WHERE state = 'open'").fetchone()[0]
    db.close()
    assert left == 0
