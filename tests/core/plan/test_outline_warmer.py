"""The outline warmer: a real child process that outlines the workspace ahead of time into
the state store, so the first fs.outline parses nothing; it keeps no secret-looking file's
outline, stops when told to, and refuses bad settings without a traceback."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions.outline import clear_outline_cache
from llm_operator.core.plan import outline_warmer
from llm_operator.core.store.database import FILE_NAME, StateStore
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import DEFAULT_SECRET_PATTERNS, Workspace

IDS = itertools.count(1)


def _tree(root: Path, files: int) -> None:
    for n in range(files):
        path = root / f"pkg{n % 7}" / f"m{n:04d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"class Item{n}:\n    def run_{n}(self):\n        return {n}\n")


def _start(workspace: Path, state_dir: Path) -> subprocess.Popen[bytes]:
    asked = {
        "workspace": str(workspace),
        "state_folder": str(workspace_state_dir(state_dir, workspace.resolve())),
        "state_dir": str(state_dir),
        "secret_patterns": list(DEFAULT_SECRET_PATTERNS),
    }
    child = subprocess.Popen(
        [sys.executable, "-m", "llm_operator.core.plan.outline_warmer"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdin is not None
    child.stdin.write(json.dumps(asked).encode() + b"\n")
    child.stdin.flush()
    return child


def _kept(workspace: Path, state_dir: Path) -> list[str]:
    db_path = workspace_state_dir(state_dir, workspace.resolve()) / FILE_NAME
    with sqlite3.connect(db_path) as db:
        made = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'outlines'")
        if made.fetchone()[0] == 0:
            return []  # it stopped before it kept anything
        return [row[0] for row in db.execute("SELECT lines FROM outlines")]


def _finish(child: subprocess.Popen[bytes], close_stdin: bool = False) -> tuple[bytes, bytes]:
    """Wait for the child, with its stdin kept open (the window's, as long as it runs)
    unless ``close_stdin``; its output pipes get a few bytes at most."""
    assert child.stdin is not None
    assert child.stdout is not None
    assert child.stderr is not None
    if close_stdin:
        child.stdin.close()
    child.wait(timeout=120)
    out, err = child.stdout.read(), child.stderr.read()
    for pipe in (child.stdin, child.stdout, child.stderr):
        pipe.close()
    assert child.returncode == 0, err
    return out, err


def test_the_first_outline_after_warming_parses_nothing(
    workspace: Path,
    state_dir: Path,
    run_reply: Any,
    cmd: Any,
    outline_parses: list[str],
) -> None:
    _tree(workspace / "lib", 40)
    (workspace / "lib" / ".env.py").write_text("def secret_helper():\n    pass\n")
    out, err = _finish(_start(workspace, state_dir))
    assert out == err == b""  # it reports nothing
    kept = _kept(workspace, state_dir)
    assert len(kept) == 43  # and the fixture's src/main.py, src/pkg/util.py and README.md
    assert not any("secret_helper" in lines for lines in kept)

    clear_outline_cache()
    (result,) = run_reply(cmd(f"w{next(IDS)}", "fs.outline", path="."), False)
    assert result.ok
    assert "    2-3: def run_39(self):" in result.details
    assert "secret_helper" not in result.details
    assert "# left out: 1 secret-looking file(s), never opened" in result.details
    # Every public file came from the store; the secret-looking one was never kept, nor
    # parsed: a folder outline passes over it unread.
    assert outline_parses == []


@pytest.mark.slow
def test_closing_its_stdin_stops_it_after_the_current_folder_outline(
    workspace: Path, state_dir: Path
) -> None:
    _tree(workspace / "lib", 1000)
    child = _start(workspace, state_dir)
    _finish(child, close_stdin=True)
    assert len(_kept(workspace, state_dir)) <= 300  # one fs.outline call's worth at most
    child = _start(workspace, state_dir)
    _finish(child)  # left to run, it outlines the whole tree
    assert len(_kept(workspace, state_dir)) == 1003


def test_it_stops_at_its_file_limit(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(workspace / "lib", 700)
    monkeypatch.setattr(outline_warmer, "MAX_FILES", 300)
    clear_outline_cache()  # what this process outlined before is not written again
    store = StateStore(tmp_path / "warm-state")
    try:
        outlined = outline_warmer.warm(Workspace(workspace), store, lambda: False)
        with store.reading() as db:
            rows = db.execute("SELECT count(*) FROM outlines").fetchone()[0]
    finally:
        store.close()
    assert outlined == 300
    assert rows == 300


@pytest.mark.parametrize("line", [b"", b"not json\n", b'{"workspace": "x"}\n', b"[1, 2]\n"])
def test_bad_settings_are_refused_without_a_traceback(line: bytes) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "llm_operator.core.plan.outline_warmer"],
        input=line,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == b""


@pytest.mark.slow
def test_it_runs_at_lower_priority(workspace: Path, state_dir: Path) -> None:
    _tree(workspace / "lib", 1000)
    child = _start(workspace, state_dir)
    seen: set[int] = set()
    while child.poll() is None:
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
            seen.add(int(fields[16]))  # field 19 of stat: the nice value
    _finish(child)
    started_at = os.nice(0)  # a child starts with its parent's
    assert min(started_at + outline_warmer.NICENESS, 19) in seen


def test_told_to_stop_it_stops_after_the_file_it_is_on(workspace: Path, tmp_path: Path) -> None:
    _tree(workspace / "lib", 700)
    clear_outline_cache()
    asked: list[int] = []

    def stop_after_ten() -> bool:
        asked.append(1)
        return len(asked) > 10  # asked before each file (and before each folder outline)

    store = StateStore(tmp_path / "warm-state")
    try:
        outlined = outline_warmer.warm(Workspace(workspace), store, stop_after_ten)
        with store.reading() as db:
            rows = db.execute("SELECT count(*) FROM outlines").fetchone()[0]
    finally:
        store.close()
    assert outlined == 9  # one question before the first outline, then one per file
    assert rows == 9  # what it made before stopping is kept
