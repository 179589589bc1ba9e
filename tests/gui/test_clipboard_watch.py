"""Clipboard watch: a copied reply runs by itself and the window comes forward."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.main_window import MainWindow

from .conftest import WindowFactory, command, reply


@pytest.fixture
def raised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(MainWindow, "raise_", lambda self: calls.append("raise"))
    monkeypatch.setattr(MainWindow, "activateWindow", lambda self: calls.append("activate"))
    return calls


def test_a_copied_reply_is_picked_up_run_and_the_window_raised(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, raised: list[str]
) -> None:
    window = make_window(workspace)
    raised.clear()  # showing the window activated it
    window.window_actions.watch.setChecked(True)
    text = reply(command("r1", "fs.read", path="a.txt"))
    with qtbot.waitSignal(window.flow.finished, timeout=5000):
        QApplication.clipboard().setText(text)
    assert window.paste.text() == text
    assert raised == ["raise", "activate"]
    results = QApplication.clipboard().text()
    assert results.startswith("OPERATOR_RESULT\nid: r1\nok: true")
    # The results the app just copied are never taken for a reply.
    qtbot.wait(300)
    assert window.history.runs.count() == 1
    assert raised == ["raise", "activate"]


def test_text_without_commands_and_the_watch_off_are_ignored(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, raised: list[str]
) -> None:
    window = make_window(workspace)
    raised.clear()
    assert window.settings.clipboard_watch is False  # off by default
    QApplication.clipboard().setText(reply(command("r1", "fs.read", path="a.txt")))
    window.window_actions.watch.setChecked(True)
    QApplication.clipboard().setText("just some prose that mentions OPERATOR_CMD once")
    QApplication.clipboard().setText("OPERATOR_RESULT\nid: x\nok: true\nEND_OPERATOR_RESULT")
    qtbot.wait(300)
    assert window.paste.text() == ""
    assert raised == []
    assert not window.flow.busy


def test_a_reply_copied_before_a_workspace_is_chosen_waits_in_the_pane(
    qtbot: QtBot, make_window: WindowFactory, raised: list[str]
) -> None:
    window = make_window()
    window.window_actions.watch.setChecked(True)
    text = reply(command("r1", "fs.read", path="a.txt"))
    QApplication.clipboard().setText(text)
    qtbot.waitUntil(lambda: window.paste.text() == text)
    assert "workspace" in window.statusBar().currentMessage().lower()
    assert not window.flow.busy
