"""The window outlines an opened workspace ahead of time in a child process: the outlines
land in the workspace's state store, another workspace or closing the window stops the
child, and the environment switch keeps it from starting."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.gui import outline_warming

from .conftest import WindowFactory


def _kept(folder: Path | None) -> int:
    assert folder is not None
    with sqlite3.connect(folder / FILE_NAME) as db:
        made = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'outlines'")
        if made.fetchone()[0] == 0:
            return 0
        return int(db.execute("SELECT count(*) FROM outlines").fetchone()[0])


def _tree(root: Path, files: int) -> None:
    (root / "lib").mkdir(exist_ok=True)
    for n in range(files):
        (root / "lib" / f"m{n:03d}.py").write_text(f"def f{n}():\n    return {n}\n")


def test_the_tests_keep_it_off_by_the_declared_switch() -> None:
    assert outline_warming.DISABLE_ENV == "LLM_OPERATOR_NO_OUTLINE_WARMING"


@pytest.mark.slow
def test_opening_a_workspace_outlines_it_in_a_child_and_closing_stops_it(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(outline_warming.DISABLE_ENV)
    _tree(workspace, 30)
    window = make_window(workspace)
    assert window.session is not None
    folder = window.session.state_folder
    child = window.outline_warming.child
    assert child is not None
    # Reaped by the window as soon as it ends: no zombie left while the window stays open.
    qtbot.waitUntil(lambda: not Path(f"/proc/{child.pid}").exists(), timeout=60_000)
    assert child.returncode == 0
    assert _kept(folder) >= 30

    other = tmp_path / "other"
    other.mkdir()
    _tree(other, 1000)
    window.open_workspace(other)
    second = window.outline_warming.child
    assert second is not None
    assert second is not child
    window.close()  # stops the child at once, whatever it was doing
    assert second.poll() is not None
    assert window.outline_warming.child is None


def test_switched_off_it_starts_nothing(make_window: WindowFactory, workspace: Path) -> None:
    window = make_window(workspace)
    assert window.session is not None
    assert window.outline_warming.child is None


def _gone(pid: int) -> bool:
    """Exited: no such process, or a zombie nobody has reaped yet."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.slow
def test_a_window_killed_with_sigkill_leaves_no_child_running(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(outline_warming.DISABLE_ENV)
    _tree(workspace, 3000)
    state_dir = tmp_path / "state"
    folder = workspace_state_dir(state_dir, workspace.resolve())
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from llm_operator.gui.outline_warming import OutlineWarming\n"
        "warming = OutlineWarming()\n"
        "warming.start(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), [])\n"
        "print(warming.child.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    window = subprocess.Popen(
        [sys.executable, "-c", script, str(workspace), str(folder), str(state_dir)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert window.stdout is not None
    child = int(window.stdout.readline())
    window.kill()  # as kill -9 of the window: nothing runs in it any more
    window.wait()
    window.stdout.close()
    deadline = time.monotonic() + 60
    while not _gone(child):
        assert time.monotonic() < deadline, "the warmer outlived its window"
        time.sleep(0.05)
    assert _kept(folder) < 3000  # it stopped on its own, before the whole tree
