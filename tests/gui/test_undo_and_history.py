"""History of the session's runs, and Undo last batch through the shared journal."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings
from llm_operator.gui.panes.history import UndoQuestion
from llm_operator.gui.undo_source import BatchSummary

from .conftest import WindowFactory, command, paste_and_run, reply

CTRL_ALT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier


@pytest.mark.usefixtures("approve_everything")
def test_ctrl_alt_z_names_and_undoes_the_newest_batch(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    questions: list[BatchSummary] = []

    def confirm(parent: object, batch: BatchSummary) -> bool:
        questions.append(batch)
        return True

    monkeypatch.setattr(UndoQuestion, "ask", confirm)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("first", "fs.write", path="one.txt", content="1")))
    text = reply(
        command("w1", "fs.write", path="a.txt", text="changed\n"),
        command("w2", "fs.write", path="made.txt", content="new"),
    )
    paste_and_run(qtbot, window, text)
    assert (workspace / "a.txt").read_text() == "changed\n"
    assert window.history.undo_button.isEnabled()
    journal = window.history.journal.text()
    assert "newest of 2 batches: w1, w2 (2 files," in journal
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        qtbot.keyClick(window.paste.editor, Qt.Key.Key_Z, CTRL_ALT)
    # The newest batch, named with its commands, files and time; not the oldest.
    assert [q.commands for q in questions] == ["w1, w2"]
    assert questions[0].files == (("a.txt", "edited"), ("made.txt", "created"))
    question = questions[0].question()
    assert "commands w1, w2, made " in question
    assert "restores a.txt" in question
    assert "removes made.txt" in question
    assert (workspace / "a.txt").read_text() == "alpha\nbeta\n"
    assert not (workspace / "made.txt").exists()
    assert (workspace / "one.txt").read_text() == "1"  # the older batch stays
    report = window.results.raw.toPlainText()
    assert report.startswith("Undo report")
    assert "removed made.txt" in report
    # Only the notice for the chat is copyable, never the report.
    (notice,) = window.results.parts
    assert notice.startswith("OPERATOR_RESULT\nid: undo-1\nok: true\nsummary: The user undid")
    assert "For the chat:" in window.results.raw.toPlainText()
    assert "newest of 1 batch: first" in window.history.journal.text()
    assert [window.history.runs.item(i).text()[10:] for i in range(3)] == [
        "1 command: 1 ok, 0 failed, 0 rejected \u00b7 undoable",
        "2 commands: 2 ok, 0 failed, 0 rejected \u00b7 undone",
        "undo",
    ]
    # The app's own undo is not a change "outside".
    qtbot.wait(600)
    assert window.watcher is not None
    assert window.watcher.changed_outside() == frozenset()


@pytest.mark.usefixtures("approve_everything")
def test_an_undo_refuses_when_another_run_recorded_a_newer_batch(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.undo_source import UndoSource

    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="a.txt", content="x")))
    assert window.session is not None
    source = UndoSource(window.session)
    shown = source.newest()
    assert shown is not None
    # Meanwhile the command line (same state folder) records a newer batch.
    other = Session(Workspace(workspace), tmp_path / "state")
    run = other.prepare(reply(command("cli-1", "fs.write", path="b.txt", content="y")))
    other.execute(run, {item.index: APPROVE for item in run.pending})
    report = source.undo(shown)
    assert report.refused
    assert "no longer the newest batch" in report.summary
    assert (workspace / "a.txt").read_text() == "x"
    assert (workspace / "b.txt").read_text() == "y"
    newest = source.newest()
    assert newest is not None
    assert newest.commands == "cli-1"


def test_ctrl_z_in_the_reply_box_undoes_typing(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: pytest.fail("asked"))
    window = make_window(workspace)
    editor = window.paste.editor
    editor.setFocus()
    qtbot.keyClicks(editor, "hello")
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editor.toPlainText() == ""
    assert window.window_actions.undo.shortcut().toString() == "Ctrl+Alt+Z"


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
    assert "fs.write w1: approved" in page
    assert "Will write a.txt (+1 -1)" in page
    assert "alpha\n    beta" in page  # the read's content, decoded
    assert "details_b64" not in page
    assert "    2       - beta" in page  # old and new line numbers
    assert "          2 + gamma" in page
    assert "\u2714 w1  fs.write a.txt" in page


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
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """With auto-copy off the notice waits for the next copied results."""
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: True)
    settings = Settings.load(tmp_path / "config" / "settings.json")
    settings.auto_copy = False
    window = make_window(workspace, settings)
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

    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: True)
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


@pytest.mark.usefixtures("approve_everything")
def test_after_undo_the_command_list_shows_the_undone_commands_as_undone(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: True)
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.list", path="."),
        command("w1", "fs.write", path="made.txt", content="n"),
    )
    paste_and_run(qtbot, window, text)
    table = window.paste.table
    assert table.topLevelItem(1).text(1).startswith("ok: Wrote made.txt")
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        window.window_actions.undo.trigger()
    assert not (workspace / "made.txt").exists()
    assert table.topLevelItem(0).text(1).startswith("ok: Listed")  # a read stays as it was
    assert table.topLevelItem(1).text(1).startswith("undone: Wrote made.txt")
    assert (
        window.paste.summary.text() == "2 commands ran: 1 ok, 0 failed, 0 rejected, 1 undone since."
    )
