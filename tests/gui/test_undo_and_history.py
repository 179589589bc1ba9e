"""History of the session's runs, and Undo last batch through the shared journal."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.gui.panes.history import UndoQuestion

from .conftest import WindowFactory, command, paste_and_run, reply


@pytest.mark.usefixtures("approve_everything")
def test_ctrl_z_undoes_the_last_batch_after_asking(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions: list[str] = []

    def confirm(parent: object, label: str) -> bool:
        questions.append(label)
        return True

    monkeypatch.setattr(UndoQuestion, "ask", confirm)
    window = make_window(workspace)
    text = reply(
        command("w1", "fs.write", path="a.txt", text="changed\n"),
        command("w2", "fs.write", path="made.txt", content="new"),
    )
    paste_and_run(qtbot, window, text)
    assert (workspace / "a.txt").read_text() == "changed\n"
    assert window.history.undo_button.isEnabled()
    assert "w1, w2" in window.history.journal.text()
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        qtbot.keyClick(window.paste.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert questions == ["w1, w2"]
    assert (workspace / "a.txt").read_text() == "alpha\nbeta\n"
    assert not (workspace / "made.txt").exists()
    report = window.results.view.toPlainText()
    assert report.startswith("Undo report")
    assert "removed 1" in report
    # Only the notice for the chat is copyable, never the report.
    (notice,) = window.results.parts
    assert notice.startswith("OPERATOR_RESULT\nid: undo-1\nok: true\nsummary: The user undid")
    assert "For the chat:" in report
    assert "nothing to undo" in window.history.journal.text()
    assert [window.history.runs.item(i).text()[10:] for i in range(2)] == [
        "2 command(s), 0 failed",
        "undo",
    ]


@pytest.mark.usefixtures("approve_everything")
def test_declining_the_undo_question_changes_nothing(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, label: False)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="a.txt", content="x")))
    window.window_actions.undo.trigger()
    assert not window.flow.busy
    assert (workspace / "a.txt").read_text() == "x"


def test_undo_with_an_empty_journal_says_so(
    make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, label: pytest.fail("asked"))
    window = make_window(workspace)
    window.window_actions.undo.trigger()
    assert window.statusBar().currentMessage() == "Nothing to undo."


@pytest.mark.usefixtures("approve_everything")
def test_history_keeps_commands_diffs_and_results(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    assert window.history_dock.isVisible()
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="a.txt", text="alpha\ngamma\n"),
    )
    paste_and_run(qtbot, window, text)
    page = window.history.detail.toPlainText()
    assert "1. fs.read a.txt id r1" in page
    assert "approved:" in page
    assert "-beta" in page
    assert "+gamma" in page
    assert "id: w1\nok: true" in page


def test_an_unreadable_journal_costs_the_undo_not_the_window(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.core.store.journal import Journal

    def damaged(self: Journal) -> list[object]:
        raise ValueError("manifest is not JSON")

    monkeypatch.setattr(Journal, "batches", damaged)
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, label: pytest.fail("asked"))
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    assert window.window_actions.run.isEnabled()
    assert "unreadable" in window.history.journal.text()
    assert not window.history.undo_button.isEnabled()
    window.window_actions.undo.trigger()
    assert "Undo journal unreadable: manifest is not JSON" in window.statusBar().currentMessage()


@pytest.mark.usefixtures("approve_everything")
def test_after_undo_the_copied_results_begin_with_the_notice(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, label: True)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="made.txt", content="n")))
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        window.window_actions.undo.trigger()
    paste_and_run(qtbot, window, reply(command("r1", "fs.list", path=".")))
    copied = "".join(window.results.parts)
    assert copied.startswith("OPERATOR_RESULT\nid: undo-1\nok: true\n")
    assert "id: r1" in copied
    paste_and_run(qtbot, window, reply(command("r2", "fs.list", path=".")))
    assert "undo-1" not in "".join(window.results.parts)  # delivered once


@pytest.mark.usefixtures("approve_everything")
def test_undo_over_later_edits_asks_a_second_time_before_forcing(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui.panes.history import ForceUndoQuestion

    asked: list[tuple[str, ...]] = []

    def force(parent: object, paths: tuple[str, ...]) -> bool:
        asked.append(paths)
        return True

    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, label: True)
    monkeypatch.setattr(ForceUndoQuestion, "ask", force)
    window = make_window(workspace)
    original = (workspace / "a.txt").read_text()
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="a.txt", content="batch")))
    (workspace / "a.txt").write_text("edited by hand", encoding="utf-8")
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        window.window_actions.undo.trigger()
    assert asked == [("a.txt",)]
    qtbot.waitUntil(lambda: not window.flow.busy, timeout=5000)
    assert (workspace / "a.txt").read_text() == original


def test_a_memory_that_cannot_be_cleared_is_said_not_raised(
    make_window: WindowFactory, workspace: Path
) -> None:
    import contextlib
    import sqlite3

    window = make_window(workspace)
    assert window.session is not None
    assert window.session.state is not None
    assert window.session.state.store is not None
    with contextlib.closing(sqlite3.connect(window.session.state.store.path)) as db, db:
        db.execute("DROP TABLE memory")
    window.window_actions.forget.trigger()
    message = window.statusBar().currentMessage()
    assert message.startswith("The session memory could not be cleared (ERR_STATE_STORE_")
