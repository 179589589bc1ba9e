"""The window outlines an opened workspace ahead of time in a child process: the outlines
land in the workspace's state store, another workspace or closing the window stops the
child, and the environment switch keeps it from starting."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.store.database import FILE_NAME
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
    qtbot.waitUntil(lambda: child.poll() is not None, timeout=60_000)
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
