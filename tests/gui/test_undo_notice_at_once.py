"""Undo: the question names each file once; the notice for the chat is copied at once, and
still leads the next results (told twice rather than never)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.panes.history import UndoQuestion
from llm_operator.gui.undo_source import BatchSummary

from .conftest import WindowFactory, command, paste_and_run, reply


@pytest.mark.usefixtures("approve_everything")
def test_the_undo_question_names_a_file_two_commands_changed_once(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def confirm(parent: object, batch: BatchSummary) -> bool:
        asked.append(batch.question())
        return False

    monkeypatch.setattr(UndoQuestion, "ask", confirm)
    window = make_window(workspace)
    text = reply(
        command("w1", "fs.write", path="a.txt", content="one"),
        command("w2", "fs.write", path="a.txt", content="two"),
        command("w3", "fs.write", path="new.txt", content="x"),
        command("w4", "fs.write", path="new.txt", content="y"),
    )
    paste_and_run(qtbot, window, text)
    window.window_actions.undo.trigger()
    assert len(asked) == 1
    lines = asked[0].split("\n")
    assert lines.count("  restores a.txt") == 1
    assert lines.count("  removes new.txt") == 1  # it did not exist before the batch
    assert not any("restores new.txt" in line for line in lines)
    assert "(2 files," in window.history.journal.text()


@pytest.mark.usefixtures("approve_everything")
def test_the_undo_notice_goes_on_the_clipboard_at_once(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: True)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="made.txt", content="n")))
    QApplication.clipboard().setText("something else")
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        window.window_actions.undo.trigger()
    assert not (workspace / "made.txt").exists()
    copied = QApplication.clipboard().text()
    assert copied.startswith("OPERATOR_RESULT\nid: undo-1\nok: true\n")
    assert "made.txt" in copied
    assert "Undo notice copied to the clipboard" in window.statusBar().currentMessage()
    # Copying it is not telling the chat: the user may copy the next reply before pasting
    # it. It is delivered when it leads the next results, and then only.
    paste_and_run(qtbot, window, reply(command("r1", "fs.list", path=".")))
    assert "".join(window.results.parts).startswith("OPERATOR_RESULT\nid: undo-1\n")
    paste_and_run(qtbot, window, reply(command("r2", "fs.list", path=".")))
    assert "undo-1" not in "".join(window.results.parts)
