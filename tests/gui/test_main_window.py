"""The main window: title, workspace, paste, live list, runs, copying, failures."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.gui.panes.workspace_bar import FolderQuestion

from .conftest import WindowFactory, command, paste_and_run, reply


def test_without_workspace_nothing_runs_and_the_window_says_why(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = make_window()
    assert window.windowTitle() == "LLM Operator - no workspace"
    assert window.paste.editor.hasFocus()  # ready for Ctrl+V at once
    assert not window.window_actions.run.isEnabled()
    assert "workspace" in window.window_actions.run.toolTip().lower()
    assert window.run_hint.isVisible()
    assert "Ctrl+O" in window.run_hint.text()
    window.paste.set_text(reply(command("r1", "fs.read", path="a.txt")))
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.results.parts == ()
    assert not window.flow.busy


def test_workspace_opens_from_the_command_line_argument(
    make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    assert window.windowTitle() == "LLM Operator - project"
    assert window.window_actions.run.isEnabled()
    assert not window.run_hint.isVisible()
    assert window.workspace_bar.combo.currentText() == str(workspace.resolve())


def test_opening_a_workspace_removes_temp_files_of_an_interrupted_write(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    leftover = workspace / ".a.txt.llmop-0123abcd.tmp"
    leftover.write_bytes(b"half a write")
    keep = workspace / "notes.tmp"
    keep.write_bytes(b"the user's own file")
    window = make_window(workspace)
    qtbot.waitUntil(lambda: not leftover.exists())
    qtbot.waitUntil(lambda: "temp file" in window.statusBar().currentMessage())
    assert keep.read_bytes() == b"the user's own file"


def test_ctrl_o_opens_the_folder_dialog_and_remembers_the_folder(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def pick(parent: object, start: str) -> Path:
        asked.append(start)
        return workspace

    monkeypatch.setattr(FolderQuestion, "ask", pick)
    window = make_window()
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    assert asked
    assert window.windowTitle() == "LLM Operator - project"
    assert window.settings.recent_workspaces[0] == str(workspace.resolve())
    assert window.window_actions.recent_menu.actions()[0].text().endswith(str(workspace.resolve()))


def test_a_bad_folder_keeps_the_window_without_workspace(
    make_window: WindowFactory, tmp_path: Path
) -> None:
    window = make_window()
    window.open_workspace(tmp_path / "missing")
    assert window.session is None
    assert window.windowTitle() == "LLM Operator - no workspace"
    assert "Cannot open" in window.statusBar().currentMessage()


def test_commands_are_listed_as_soon_as_text_is_pasted(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="b.txt", content="x"),
        command("bad", "fs.read"),
    )
    QApplication.clipboard().setText(text)
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    table = window.paste.table
    qtbot.waitUntil(lambda: table.topLevelItemCount() == 3, timeout=2000)
    rows = [[table.topLevelItem(i).text(c) for c in range(3)] for i in range(3)]
    assert rows[0] == ["1", "runs at once", "fs.read a.txt  (id r1)"]
    assert rows[1][1:] == ["needs approval", "fs.write b.txt  (id w1)"]
    assert rows[2][2].endswith("(id bad)")
    assert "ERR_ACTION_REQUIRES_PATH" in rows[2][1]
    assert table.topLevelItem(2).toolTip(1) == rows[2][1]  # elided text: the tooltip has it all
    assert "3 commands: 1 needs approval, 1 invalid" in window.paste.summary.text()
    assert not (workspace / "b.txt").exists()  # listing runs nothing


def test_invented_results_in_a_reply_are_flagged(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    fake = "OPERATOR_RESULT\nid: r0\nok: true\nsummary: done\nEND_OPERATOR_RESULT\n"
    window.paste.editor.setPlainText(reply(fake, command("r1", "fs.read", path="a.txt")))
    qtbot.waitUntil(lambda: "OPERATOR_RESULT block(s)" in window.paste.summary.text())


def test_pasted_results_and_escaped_markers_are_explained(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    from support.paths import DATA

    window = make_window(workspace)
    pastes = DATA / "scanner" / "real_pastes"
    results = (pastes / "results_pasted_back.txt").read_text("utf-8")
    window.paste.editor.setPlainText(results)
    qtbot.waitUntil(
        lambda: (
            "These are results, not commands: paste the LLM's reply" in window.paste.summary.text()
        )
    )
    window.paste.editor.setPlainText((pastes / "escaped_markers.txt").read_text("utf-8"))
    qtbot.waitUntil(lambda: "markdown-escaped" in window.paste.summary.text())
    row = window.paste.table.topLevelItem(0)
    assert any("ERR_ESCAPED_MARKER" in row.text(c) for c in range(row.columnCount()))


def test_a_read_runs_at_once_and_its_result_is_copied(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    copied = QApplication.clipboard().text()
    assert copied.startswith("OPERATOR_RESULT\nid: r1\nok: true\n")
    assert "\ndetails_lines: 2\n| alpha\n| beta\nEND_OPERATOR_RESULT" in copied
    assert window.results.raw.toPlainText() == copied
    assert "Copied" in window.results.status.text()
    # Ready for the next reply: focused, with everything selected so Ctrl+V replaces it.
    assert window.paste.editor.hasFocus()
    assert window.paste.editor.textCursor().selectedText() != ""
    assert window.history.runs.count() == 1
    status = window.paste.table.topLevelItem(0).text(1)
    assert status == "ok: Read a.txt (11 bytes, 2 lines)"


def test_auto_copy_off_leaves_the_clipboard_until_copy_is_pressed(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    window.window_actions.auto_copy.setChecked(False)
    assert window.settings.auto_copy is False
    text = reply(command("r1", "fs.read", path="a.txt"))
    paste_and_run(qtbot, window, text)
    assert QApplication.clipboard().text() == text
    qtbot.keyClick(
        window.paste.editor,
        Qt.Key.Key_C,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert QApplication.clipboard().text().startswith("OPERATOR_RESULT\nid: r1")


def test_long_results_are_copied_part_by_part(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    (workspace / "big.txt").write_text("0123456789\n" * 700)  # about 10 KB of base64
    window = make_window(workspace)
    window.settings.part_size = 5000
    text = reply(*(command(f"r{i}", "fs.read", path="big.txt") for i in range(1, 3)))
    paste_and_run(qtbot, window, text)
    parts = window.results.parts
    assert len(parts) > 2
    assert all(len(part) <= 5000 for part in parts)
    assert QApplication.clipboard().text() == parts[0]
    assert f"Part 1 of {len(parts)} copied" in window.results.status.text()
    assert window.results.next_button.isEnabled()
    keys = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    for number in range(2, len(parts) + 1):
        qtbot.keyClick(window.paste.editor, Qt.Key.Key_N, keys)
        assert QApplication.clipboard().text() == parts[number - 1]
        assert f"Part {number} of {len(parts)} copied" in window.results.status.text()
    assert not window.results.next_button.isEnabled()


def test_a_failing_run_shows_the_error_and_the_window_keeps_working(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(workspace)
    original = Session.prepare

    def broken(self: Session, text: str, progress: object = None) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Session, "prepare", broken)
    before = QApplication.clipboard().text()
    window.paste.set_text(reply(command("r1", "fs.read", path="a.txt")))
    with qtbot.waitSignal(window.flow.failed, timeout=5000):
        window.window_actions.run.trigger()
    assert "disk on fire" in window.results.view.toPlainText()
    assert "failed" in window.statusBar().currentMessage()
    assert QApplication.clipboard().text() == before
    assert window.window_actions.run.isEnabled()
    monkeypatch.setattr(Session, "prepare", original)
    paste_and_run(qtbot, window, reply(command("r2", "fs.read", path="a.txt")))
    assert QApplication.clipboard().text().startswith("OPERATOR_RESULT\nid: r2\nok: true")


def test_progress_reaches_the_status_bar(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    seen: list[tuple[int, int, str]] = []
    window.flow.progress.connect(lambda done, total, label: seen.append((done, total, label)))
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    assert seen
    assert seen[-1][0] == seen[-1][1]
    assert not window.progress.isVisible()


def test_copy_llm_primer_copies_what_the_primer_command_prints(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    import subprocess
    import sys

    printed = subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", "primer"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    window = make_window()
    keys = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.paste.editor, Qt.Key.Key_P, keys)
    primer = QApplication.clipboard().text()
    assert primer == printed
    assert primer.startswith("LLM OPERATOR PRIMER (commands use version: 1)")
    assert "operator.getInterfaceSpec" in primer
    assert "primer copied" in window.statusBar().currentMessage()


def test_geometry_and_recents_survive_a_new_window(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    first = make_window(workspace)
    first.resize(760, 560)  # the offscreen screen is 800x600
    first.window_actions.watch.setChecked(True)
    first.close()
    second = make_window()
    assert second.size().width() == 760
    assert second.size().height() == 560
    assert second.settings.recent_workspaces == [str(workspace.resolve())]
    assert second.settings.clipboard_watch is True
    assert second.workspace_bar.combo.findData(str(workspace.resolve())) >= 0
    # Reopened by default (a setting), and named in the title and the workspace box.
    qtbot.waitUntil(lambda: second.session is not None)
    assert second.windowTitle() == "LLM Operator - project"
    assert second.workspace_bar.combo.currentText() == str(workspace.resolve())
    assert second.clipboard_indicator.text() == "clipboard: watching"


def test_reopening_the_last_workspace_can_be_switched_off(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    first = make_window(workspace)
    assert first.window_actions.reopen.isChecked()
    first.window_actions.reopen.setChecked(False)
    first.close()
    second = make_window()
    qtbot.wait(200)
    assert second.session is None
    assert second.settings.reopen_last_workspace is False
    second.workspace_bar.combo.setCurrentIndex(1)
    second.workspace_bar.combo.activated.emit(1)
    assert second.windowTitle() == "LLM Operator - project"


def test_a_missing_last_workspace_is_not_reopened(
    qtbot: QtBot, make_window: WindowFactory, tmp_path: Path
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    first = make_window(gone)
    first.close()
    gone.rmdir()
    second = make_window()
    qtbot.wait(200)
    assert second.session is None
    assert "no workspace" in second.windowTitle()


def test_the_part_size_is_asked_and_saved(
    make_window: WindowFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.core.store.settings import Settings
    from llm_operator.gui.window_actions import PartSizeQuestion

    monkeypatch.setattr(PartSizeQuestion, "ask", lambda parent, current: current // 3)
    window = make_window()
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Settings")
    next(a for a in menu.actions() if a.text().startswith("Characters per")).trigger()
    assert window.settings.part_size == 10000
    assert Settings.load(tmp_path / "config" / "settings.json").part_size == 10000
