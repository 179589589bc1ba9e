"""The window's two ways to start a chat, "Copy LLM primer" and the context builder's
"Copy for chat", start a new conversation: the new chat's model may send ``read-1`` and
``write-1`` again, for other files and content, and they run. Within one chat a pasted
reply pasted again is still a repeat."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.gui.main_window import MainWindow
from support.fixtures import Decoded, parse_results

from .conftest import WindowFactory, command, paste_and_run, reply

KEYS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def chat(read_path: str, content: str) -> str:
    return reply(
        command("read-1", "fs.read", path=read_path),
        command("write-1", "fs.write", path="notes.txt", content=content),
    )


def results(window: MainWindow) -> list[Decoded]:
    return parse_results("".join(window.results.parts))


def copy_with_the_builder(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window, Qt.Key.Key_B, KEYS)
    qtbot.waitUntil(lambda: getattr(window, "context_builder", None) is not None)
    dialog = window.context_builder
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.loaded)
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert dialog.status.text().startswith("Copied")
    dialog.close()
    window.activateWindow()  # the run key is the window's shortcut
    qtbot.waitUntil(window.isActiveWindow)


@pytest.mark.usefixtures("approve_everything")
@pytest.mark.parametrize("how", ["primer", "builder"])
def test_a_new_chat_may_send_read_1_and_write_1_again(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, how: str
) -> None:
    window = make_window(workspace)
    paste_and_run(qtbot, window, chat("a.txt", "first chat"))
    assert [(r.id, r.ok) for r in results(window)] == [("read-1", True), ("write-1", True)]

    if how == "primer":
        qtbot.keyClick(window.paste.editor, Qt.Key.Key_P, KEYS)
        assert "ids of the old chat may be used again" in window.statusBar().currentMessage()
    else:
        copy_with_the_builder(qtbot, window)

    paste_and_run(qtbot, window, chat("src/app.py", "second chat"))
    second = results(window)
    assert [(r.id, r.ok, r.code, r.repeat) for r in second] == [
        ("read-1", True, None, False),
        ("write-1", True, None, False),
    ]
    assert "return" in (second[0].details or "")
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "second chat"

    # The same reply pasted again in the same chat: the write is a repeat, not run again.
    (workspace / "notes.txt").write_text("edited by hand", encoding="utf-8")
    paste_and_run(qtbot, window, chat("src/app.py", "second chat"))
    assert [(r.id, r.ok, r.repeat) for r in results(window)] == [
        ("read-1", True, True),
        ("write-1", True, True),
    ]
    assert (workspace / "notes.txt").read_text(encoding="utf-8") == "edited by hand"


def test_a_chat_that_cannot_be_started_is_said_not_raised(
    make_window: WindowFactory, workspace: Path
) -> None:
    import contextlib
    import sqlite3

    window = make_window(workspace)
    assert window.session is not None
    assert window.session.state is not None
    assert window.session.state.store is not None
    with contextlib.closing(sqlite3.connect(window.session.state.store.path)) as db, db:
        db.execute("DROP TABLE conversations")
    window.window_actions.forget.trigger()
    message = window.statusBar().currentMessage()
    assert message.startswith("A new chat could not be started (ERR_STATE_STORE_")
    assert "the ids of the old chat are still taken" in message
