"""The keyboard map and the small things: Ctrl+V anywhere, Tab, stale status, counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import Decision, Pending
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

from .conftest import WindowFactory, command, paste_and_run, reply

CTRL = Qt.KeyboardModifier.ControlModifier


def test_ctrl_v_pastes_into_the_reply_box_from_anywhere(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = reply(command("r1", "fs.read", path="a.txt"))
    QApplication.clipboard().setText(text)
    for elsewhere in (window.primer_button, window.results.view, window.workspace_bar.combo):
        window.paste.editor.clear()
        elsewhere.setFocus()
        qtbot.waitUntil(elsewhere.hasFocus)
        qtbot.keyClick(elsewhere, Qt.Key.Key_V, CTRL)
        assert window.paste.text() == text, elsewhere
        assert window.paste.editor.hasFocus()


def test_tab_moves_on_and_keeps_the_reply(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = reply(command("r1", "fs.read", path="a.txt"))
    paste_and_run(qtbot, window, text)
    editor = window.paste.editor
    assert editor.hasFocus()
    assert editor.textCursor().selectedText() != ""  # selected after the run
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert window.paste.text() == text  # not replaced by a tab
    assert not editor.hasFocus()
    editor.setFocus()
    editor.moveCursor(editor.textCursor().MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Tab, CTRL)  # Ctrl+Tab types a literal tab
    assert window.paste.text() == text + "\t"
    window.window_actions.literal_tab.setChecked(True)
    assert window.settings.tab_inserts_tab
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert window.paste.text() == text + "\t\t"
    assert editor.hasFocus()


def test_a_new_paste_clears_the_old_status(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    assert window.results.status.text().startswith("Copied to the clipboard")
    assert window.statusBar().currentMessage().startswith("Ran 1 command:")
    QApplication.clipboard().setText(reply(command("r2", "fs.read", path="a.txt")))
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_V, CTRL)
    assert "previous reply" in window.results.status.text()
    assert "Copied" not in window.results.status.text()
    assert window.statusBar().currentMessage() == ""


def test_a_rejection_counts_as_rejected_not_failed(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        return {item.index: Decision(False, "not now") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="b.txt", content="x"),
        command("r2", "fs.read", path="missing.txt"),
    )
    paste_and_run(qtbot, window, text)
    message = window.statusBar().currentMessage()
    assert message.startswith("Ran 3 commands: 1 ok, 1 failed, 1 rejected.")
    statuses = [window.paste.table.topLevelItem(i).text(1) for i in range(3)]
    assert statuses[0].startswith("ok: ")
    assert statuses[1] == "rejected: not now"
    assert statuses[2].startswith("failed: ")
    assert window.history.runs.item(0).text().endswith("1 ok, 1 failed, 1 rejected")
    page = window.results.view.toPlainText()
    assert "\u2298 w1  fs.write b.txt  (rejected by you)" in page
    assert "\u2718 r2  fs.read missing.txt" in page


def test_everything_fits_at_800_by_600(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(workspace)
    # With no saved geometry the window fits the screen, whatever its size.
    room = window.screen().availableGeometry()
    assert window.width() <= room.width()
    assert window.height() <= room.height()
    window.resize(800, 600)
    window.history_dock.show()
    long_name = "deeply/nested/" * 8 + "file.txt"
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path=long_name)))
    qtbot.wait(50)
    assert window.width() <= 800
    table = window.paste.table
    status_column = table.header().sectionSize(1)
    assert status_column >= 60
    assert table.header().sectionPosition(1) + status_column <= table.viewport().width() + 2
    item = table.topLevelItem(0)
    assert item.text(1).startswith("failed: fs.read failed (ERR_")
    assert item.toolTip(1) == item.text(1)
    bar = window.statusBar()
    assert bar.toolTip() == bar.currentMessage()  # the whole message, however it is cut
    for widget in (window.watch_label, window.clipboard_indicator):
        assert widget.isVisible()
        assert widget.geometry().right() <= bar.width()


def test_the_clipboard_watch_indicator_shows_and_switches_the_watch(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "raise_", lambda self: None)  # offscreen cannot raise
    window = make_window(workspace)
    indicator = window.clipboard_indicator
    assert indicator.text() == "clipboard: not watched"
    qtbot.mouseClick(indicator, Qt.MouseButton.LeftButton)
    assert indicator.text() == "clipboard: watching"
    assert window.window_actions.watch.isChecked()
    with qtbot.waitSignal(window.flow.finished, timeout=10000):  # the watch is really on
        QApplication.clipboard().setText(reply(command("r1", "fs.read", path="a.txt")))
    assert window.settings.clipboard_watch
    window.window_actions.watch.setChecked(False)
    assert indicator.text() == "clipboard: not watched"


def test_menus_use_plain_words(make_window: WindowFactory) -> None:
    window = make_window()
    texts = [action.text() for action in window.findChildren(type(window.window_actions.run))]
    assert not [text for text in texts if "session memory" in text.lower()]
    assert "&Start a new chat (command ids may be used again)" in texts


def test_the_dialog_only_renders_previews_made_in_the_worker(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from llm_operator.core.engines import diffing

    main = threading.get_ident()
    diffed_on: list[bool] = []
    original = diffing.LineDiff.unified

    def recording(
        self: diffing.LineDiff, path: str, *, context: int = 3, limit: int | None = None
    ) -> str:
        diffed_on.append(threading.get_ident() == main)
        return original(self, path, context=context, limit=limit)

    monkeypatch.setattr(diffing.LineDiff, "unified", recording)
    window = make_window(workspace)

    def approve() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ConfirmDialog)
        dialog.side_by_side.setChecked(True)
        dialog.next_file()
        qtbot.keyClick(dialog, Qt.Key.Key_Return, CTRL)

    QTimer.singleShot(300, approve)
    text = reply(
        command("w1", "fs.write", path="a.txt", text="alpha\ngamma\n"),
        command("w2", "fs.write", path="src/app.py", text="def main():\n    return 2\n"),
    )
    paste_and_run(qtbot, window, text)
    assert diffed_on == [False, False]  # two diffs, both in the worker
    assert (workspace / "a.txt").read_text() == "alpha\ngamma\n"
