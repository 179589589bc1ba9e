"""A keyboard user reaches every pane: Tab runs workspace -> paste -> run -> command
table -> results -> history, and Alt+W opens the Workspace menu."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from pytestqt.qtbot import QtBot

from .conftest import OFFSCREEN_NOISE, WindowFactory, command, paste_and_run, reply


def test_tab_reaches_the_command_table_the_results_and_the_history(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.history_dock.show()
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="missing.txt")))
    history = window.history
    window.workspace_bar.combo.setFocus()
    qtbot.waitUntil(lambda: window.focusWidget() is window.workspace_bar.combo)
    order: list[QWidget | None] = [window.focusWidget()]
    for _ in range(40):
        focus = window.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
        if window.focusWidget() is order[0]:
            break
        order.append(window.focusWidget())
    wanted = [
        window.workspace_bar.combo,
        window.paste.editor,
        window.run_button,
        window.paste.table,
        window.results.view,
        history.runs,
        history.detail,
    ]
    assert all(widget in order for widget in wanted), [w.objectName() for w in order if w]
    assert sorted(wanted, key=order.index) == wanted
    # The results can be read and selected from the keyboard.
    window.results.view.setFocus()
    qtbot.keyClick(window.results.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert "r1" in window.results.view.textCursor().selectedText()


# A popup menu asks the offscreen platform to raise it and grab the keyboard; it cannot.
@pytest.mark.qt_log_ignore(
    OFFSCREEN_NOISE,
    "This plugin does not support raise",
    "This plugin does not support grabbing the keyboard",
)
def test_alt_w_opens_the_workspace_menu(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.paste.editor.setFocus()
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_W, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    assert menu.title() == "&Workspace"
    assert window.focusWidget() is not window.workspace_bar.combo
    menu.close()
    # The workspace box keeps a key of its own.
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_K, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.focusWidget() is window.workspace_bar.combo)
