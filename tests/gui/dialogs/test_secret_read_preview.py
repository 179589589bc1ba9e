"""The review of a secret-looking read shows what would leave: the file's size and first
lines, each through the one renderer, and says that approving sends it to the chat."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from support.hostile_lines import raw_characters

from ..conftest import command

SECRET = "API_KEY=sk-live-7f3a\nOSC=\x1b]52;c;aGk=\x07 \u202eevil\u200b\nDEBUG=1\n"


def test_the_dialog_shows_the_size_and_first_lines_escaped(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    (workspace / ".env").write_text(SECRET, encoding="utf-8")
    session = Session(Workspace(workspace), tmp_path / "state")
    session.shows_secrets = True  # as the window's sessions do
    (item,) = session.prepare(command("s1", "fs.read", path=".env")).pending
    dialog = ConfirmDialog(None, [item])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    header = dialog.header.text()
    size = len(SECRET.encode("utf-8"))
    assert f"Approving sends all of it to the chat. .env holds {size} bytes:" in header
    assert "  | API_KEY=sk-live-7f3a" in header
    assert "  | OSC=<U+001B>]52;c;aGk=<U+0007> <U+202E>evil<U+200B>" in header
    assert "  | DEBUG=1" in header
    assert raw_characters(header) == []
