"""Fixtures for the window's tests: offscreen Qt, a temporary config and state, and a
check that no test leaves a worker or a watcher thread running."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings
from llm_operator.gui.main_window import MainWindow
from llm_operator.gui.tasks import running_task_count
from support.actions import b64
from support.fixtures import cmd, reply

__all__ = ["WindowFactory", "command", "paste_and_run", "reply"]

# The offscreen platform cannot pass size hints to a window system it does not have, and
# says so whenever a window's minimum or maximum size changes. Nothing else is ignored.
OFFSCREEN_NOISE = r"This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def _private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing a test does may reach the real settings or undo journal."""
    monkeypatch.setenv("LLM_OPERATOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("LLM_OPERATOR_STATE_DIR", str(tmp_path / "state"))


@pytest.fixture(autouse=True)
def _no_dangling_threads(qapp: QApplication) -> Iterator[None]:
    """Fail a test that leaves a background task or a watcher thread running.

    Autouse fixtures are set up first, so this check runs after qtbot closed the widgets.
    """
    before = set(threading.enumerate())
    yield

    def leftovers() -> list[threading.Thread]:
        return [
            thread
            for thread in threading.enumerate()
            if thread not in before
            and thread.is_alive()
            and not isinstance(thread, threading._DummyThread)
        ]

    deadline = time.monotonic() + 5
    while (running_task_count() or leftovers()) and time.monotonic() < deadline:
        QCoreApplication.processEvents()
        time.sleep(0.01)
    assert running_task_count() == 0, "a background task was still running"
    assert not leftovers(), f"threads left running: {leftovers()}"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    (root / "a.txt").write_text("alpha\nbeta\n")
    (root / "src" / "app.py").write_text('def main():\n    return "hi"\n')
    return root


@pytest.fixture
def approve_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replace the confirmation dialog with one that approves every command."""
    from llm_operator.core.plan.run import APPROVE, Decision, Pending
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict[int, Decision]:
        return {item.index: APPROVE for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)


WindowFactory = Callable[..., MainWindow]


@pytest.fixture
def make_window(qtbot: QtBot, tmp_path: Path) -> WindowFactory:
    def make(workspace: Path | None = None, settings: Settings | None = None) -> MainWindow:
        loaded = settings or Settings.load(tmp_path / "config" / "settings.json")
        window = MainWindow(loaded, state_dir=tmp_path / "state", workspace=workspace)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
        if workspace is not None:
            qtbot.waitUntil(lambda: window.session is not None)
        return window

    return make


def command(command_id: str, action: str, **fields: str) -> str:
    """support's ``cmd``; ``text`` stands for ``content_b64`` of that text."""
    text = fields.pop("text", None)
    if text is not None:
        fields["content_b64"] = b64(text)
    return cmd(command_id, action, **fields)


def paste_and_run(qtbot: QtBot, window: MainWindow, text: str, timeout: int = 10000) -> None:
    """Put ``text`` on the clipboard, Ctrl+V into the paste pane, Ctrl+Return, wait."""
    QApplication.clipboard().setText(text)
    editor = window.paste.editor
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert window.paste.text() == text
    with qtbot.waitSignal(window.flow.finished, timeout=timeout):
        qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
