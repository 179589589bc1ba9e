"""A read-only exec loads no journal, recovery, undo or migration code, and still recovers
a batch a killed run left open before it reads anything.

Both are checked on real processes: ``-X importtime`` lists every module a run imported.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from llm_operator.core.plan.batch_writer import APPLY_DELAY_ENV
from llm_operator.core.store import database, migration

OLD = b"first line\nlast line\n"
NEW = b"first line\ninserted\nlast line\n"
FILES = 6
WRITE_ONLY = (
    "llm_operator.core.store.journal",
    "llm_operator.core.store.recovery",
    "llm_operator.core.store.undoing",
    "llm_operator.core.store.rewinding",
    "llm_operator.core.store.migration",
    "llm_operator.core.store.applying",
    "llm_operator.core.changes",
    "llm_operator.core.store.outline_cache",
)


def _argv(workspace: Path, state_dir: Path) -> list[str]:
    return [
        sys.executable,
        "-X",
        "importtime",
        "-m",
        "llm_operator.cli",
        "exec",
        "--yes",
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state_dir),
        "-",
    ]


def _imported(stderr: str) -> set[str]:
    return {
        line.rpartition("|")[2].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:")
    }


def _read(
    workspace: Path, state_dir: Path, cmd: Any, path: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        _argv(workspace, state_dir),
        input=cmd("r", "fs.read", path=path),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _inserts(cmd: Any) -> str:
    edits = json.dumps(
        {
            "version": 1,
            "edits": [{"op": "insertAfter", "anchor": "first line\n", "text": "inserted\n"}],
        }
    )
    payload = base64.b64encode(edits.encode()).decode()
    return "\n".join(
        cmd(f"e{n}", "fs.applyEdits", path=f"f{n}.txt", edits_b64=payload) for n in range(FILES)
    )


def _read_text(stdout: str) -> str:
    from llm_operator.core.protocol.result_reader import read_results

    (details,) = [result.details for result in read_results(stdout) if result.details]
    return details.decode()


def test_a_read_only_exec_loads_no_journal_recovery_undo_or_migration(
    tmp_path: Path, cmd: Any
) -> None:
    workspace, state_dir = tmp_path / "ws", tmp_path / "state"
    workspace.mkdir()
    (workspace / "a.txt").write_bytes(OLD)

    for _ in range(2):  # a new store, then an existing one
        done = _read(workspace, state_dir, cmd, "a.txt")
        assert done.returncode == 0, done.stderr
        assert "ok: true" in done.stdout
        loaded = _imported(done.stderr)
        assert "llm_operator.core.store.database" in loaded  # the parse sees real lines
        assert not loaded & set(WRITE_ONLY), loaded & set(WRITE_ONLY)


def test_a_write_still_loads_the_journal(tmp_path: Path, cmd: Any) -> None:
    workspace, state_dir = tmp_path / "ws", tmp_path / "state"
    workspace.mkdir()
    done = subprocess.run(
        _argv(workspace, state_dir),
        input=cmd("w", "fs.write", path="b.txt", content="x"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "llm_operator.core.store.journal" in _imported(done.stderr)
    assert (workspace / "b.txt").read_text() == "x"


def test_a_killed_batch_is_recovered_before_a_read_only_exec_reads(
    tmp_path: Path, cmd: Any
) -> None:
    workspace, state_dir = tmp_path / "ws", tmp_path / "state"
    workspace.mkdir()
    for n in range(FILES):
        (workspace / f"f{n}.txt").write_bytes(OLD)
    env = {**os.environ, APPLY_DELAY_ENV: "0.5"}
    argv = _argv(workspace, state_dir)
    with subprocess.Popen(
        argv, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True
    ) as child:
        assert child.stdin is not None
        child.stdin.write(_inserts(cmd))
        child.stdin.close()
        deadline = time.monotonic() + 30
        while (workspace / "f0.txt").read_bytes() == OLD:
            assert time.monotonic() < deadline, "the batch never started"
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
    assert (workspace / "f0.txt").read_bytes() == NEW  # half applied: f0 new, the rest old

    done = _read(workspace, state_dir, cmd, "f0.txt")

    assert done.returncode == 0, done.stderr
    # The read saw the file as it was before the killed batch, not its half-applied state.
    assert _read_text(done.stdout) == OLD.decode()
    assert "inserted" not in done.stdout
    assert "a run that stopped mid-batch was taken back: 1 path restored" in done.stderr
    assert "llm_operator.core.store.recovery" in _imported(done.stderr)
    assert {p.name: p.read_bytes() for p in workspace.iterdir()} == {
        f"f{n}.txt": OLD for n in range(FILES)
    }


def test_the_cheap_check_names_what_migration_imports() -> None:
    assert database.LEGACY_STATE_NAMES == (migration.MEMORY_FILE, migration.JOURNAL_FOLDER)
