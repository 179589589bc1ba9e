"""The "changed outside" list offers a note for the chat: the files changed since the LLM
last saw them, what changed where the app kept the earlier bytes, never a secret's bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.dialogs.changed_outside import ChangedOutsideDialog

from .conftest import WindowFactory, command, paste_and_run, reply


@pytest.mark.usefixtures("approve_everything")
def test_copy_note_for_the_chat_names_the_files_and_what_changed(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    (workspace / ".env").write_text("API_KEY=old-SECRET-1\n")
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("r2", "fs.read", path=".env"),
        command("w1", "fs.write", path="src/app.py", text="def main():\n    return 1\n"),
    )
    paste_and_run(qtbot, window, text)
    assert window.watcher is not None
    (workspace / "a.txt").write_text("alpha\nBETA changed\n")
    (workspace / ".env").write_text("API_KEY=new-SECRET-2\n")
    (workspace / "src" / "app.py").write_text("def main():\n    return 2\n")
    wanted = {"a.txt", ".env", "src/app.py"}
    qtbot.waitUntil(lambda: window.watcher.changed_outside() == wanted, timeout=10000)
    QApplication.clipboard().setText("before")
    seen: list[ChangedOutsideDialog] = []

    def press_copy() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ChangedOutsideDialog)
        seen.append(dialog)
        assert [dialog.listing.item(n).text() for n in range(3)] == [
            ".env",
            "a.txt",
            "src/app.py",
        ]
        assert dialog.focusWidget() is dialog.copy_button
        qtbot.keyClick(dialog.copy_button, Qt.Key.Key_Space)
        assert dialog.status.text() == "Copied: paste the note into the chat."
        dialog.reject()

    QTimer.singleShot(0, press_copy)
    qtbot.mouseClick(window.watch_label, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(seen))
    note = QApplication.clipboard().text()
    assert note == seen[0].copied
    assert note.startswith("Note from LLM Operator: 3 files changed outside the app")
    assert "read each one again before you edit them" in note
    assert "- a.txt: changed; what changed since you saw it:" in note
    assert "    -beta\n    +BETA changed" in note
    assert "-    return 1\n    +    return 2" in note  # what the LLM wrote, then the edit
    assert "- .env: changed (secret-looking: its content is not shown here)" in note
    assert "SECRET" not in note
    assert "OPERATOR_CMD" not in note  # plain text: nothing in it runs if pasted back


def test_with_nothing_changed_there_is_no_note_to_copy(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    notes: list[str] = []
    dialog = ChangedOutsideDialog(window, [], lambda: "unused", notes.append)
    qtbot.addWidget(dialog)
    assert not dialog.copy_button.isEnabled()
    assert notes == []


def test_hostile_names_are_listed_as_text(qtbot: QtBot) -> None:
    names = ["prod\u202etxt.env", "<b>bold<br>.txt", "line\nbreak.txt"]
    dialog = ChangedOutsideDialog(None, names, lambda: "", lambda text: None)
    qtbot.addWidget(dialog)
    listed = [dialog.listing.item(n).text() for n in range(3)]
    assert listed == ["prod<U+202E>txt.env", "<b>bold<br>.txt", "line<U+000A>break.txt"]
