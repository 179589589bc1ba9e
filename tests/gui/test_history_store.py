"""History reads the state store: every run of the workspace (this window, another one,
``exec``), with its results and its undo state, after a restart too; and no secret byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.main_window import MainWindow
from support.actions import cli

from .conftest import WindowFactory, command, paste_and_run, reply


def entries(window: MainWindow) -> list[str]:
    runs = window.history.runs
    return [runs.item(row).text()[10:] for row in range(runs.count())]


def detail_of(window: MainWindow, row: int) -> str:
    window.history.runs.setCurrentRow(row)
    return window.history.detail.toPlainText()


@pytest.mark.usefixtures("approve_everything")
def test_runs_survive_a_restart_with_their_results_and_undo_state(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    first = make_window(workspace)
    paste_and_run(qtbot, first, reply(command("w1", "fs.write", path="new.txt", text="one\n")))
    paste_and_run(qtbot, first, reply(command("r1", "fs.read", path="a.txt")))
    first.close()
    second = make_window(workspace)
    qtbot.waitUntil(lambda: second.history.runs.count() == 2)
    assert entries(second) == ["1 result, 0 not ok \u00b7 undoable", "1 result, 0 not ok"]
    page = detail_of(second, 0)
    assert "Undo: undoable, the newest batch (Ctrl+Alt+Z undoes it)" in page
    assert "\u2714 w1" in page
    page = detail_of(second, 1)
    assert "Undo: wrote nothing" in page
    assert "alpha\n    beta" in page  # the read's content, decoded as the chat got it
    assert second.history.detail.lineWrapMode() != second.history.detail.LineWrapMode.NoWrap


@pytest.mark.usefixtures("approve_everything")
def test_a_run_made_by_exec_shows_up_when_the_window_is_active_again(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    window.history_dock.show()
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="new.txt", text="one\n")))
    assert entries(window) == ["1 command: 1 ok, 0 failed, 0 rejected \u00b7 undoable"]
    text = reply(
        command("x1", "fs.write", path="exec.txt", text="from exec\n"),
        command("x2", "fs.read", path="missing.txt"),
    )
    state = str(tmp_path / "state")
    done = cli("exec", "--workspace", workspace, "--state-dir", state, "--yes", stdin=text)
    assert done.returncode in (0, 1), done.stderr
    assert (workspace / "exec.txt").read_text() == "from exec\n"
    assert window.history.runs.count() == 1  # not read yet
    QCoreApplication.sendEvent(window, QEvent(QEvent.Type.WindowActivate))
    assert entries(window) == [
        "1 command: 1 ok, 0 failed, 0 rejected \u00b7 undoable",
        "2 results, 1 not ok \u00b7 undoable",
    ]
    page = detail_of(window, 1)
    assert "\u2714 x1" in page
    assert "\u2718 x2" in page
    assert "Undo: undoable, the newest batch" in page
    # An undo made elsewhere changes the state the list shows, on a refresh.
    undone = cli("undo", "--yes", "--workspace", workspace, "--state-dir", state)
    assert undone.returncode == 0, undone.stderr
    assert not (workspace / "exec.txt").exists()
    qtbot.mouseClick(window.history.refresh_button, Qt.MouseButton.LeftButton)
    assert entries(window)[1] == "2 results, 1 not ok \u00b7 undone"
    assert "Undo: undoable, the newest batch" in detail_of(window, 0)
    # Coming back to the app from the terminal reads the store too.
    again = cli("exec", "--workspace", workspace, "--state-dir", state, "--yes", stdin=text)
    assert again.returncode in (0, 1), again.stderr
    assert window.history.runs.count() == 2
    app = QGuiApplication.instance()
    assert isinstance(app, QGuiApplication)
    app.applicationStateChanged.emit(Qt.ApplicationState.ApplicationActive)
    assert window.history.runs.count() == 3


@pytest.mark.usefixtures("approve_everything")
def test_no_secret_byte_reaches_the_history(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    (workspace / ".env").write_text("API_KEY=sk-live-SECRET-1234\n")
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("s1", "fs.read", path=".env")))
    assert "SECRET-1234" in QApplication.clipboard().text()  # the user let it through
    assert "SECRET-1234" not in detail_of(window, 0)
    window.close()
    again = make_window(workspace)
    qtbot.waitUntil(lambda: again.history.runs.count() == 1)
    page = detail_of(again, 0)
    assert "s1" in page
    assert "SECRET-1234" not in page
    # A write of a secret-looking file: the review showed its diff, the history does not.
    text = reply(
        command("w1", "fs.write", path=".env", text="API_KEY=sk-live-NEW-SECRET-99\n"),
        command("w2", "fs.write", path="a.txt", text="alpha\ngamma\n"),
    )
    paste_and_run(qtbot, again, text)
    page = detail_of(again, 1)
    assert "fs.write w1: approved" in page
    assert "Will write .env (+1 -1)" in page
    assert "(the diff of a secret-looking file is not kept in the history)" in page
    assert "SECRET" not in page
    assert "          2 + gamma" in page  # other files' diffs stay


@pytest.mark.usefixtures("approve_everything")
def test_a_pasted_again_reply_is_counted_as_repeats_in_the_history_as_in_the_status(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    text = reply(
        command("w1", "fs.write", path="new.txt", text="one\n"),
        command("r1", "fs.read", path="missing.txt"),
    )
    paste_and_run(qtbot, window, text)
    paste_and_run(qtbot, window, text)
    assert entries(window) == [
        "2 commands: 1 ok, 1 failed, 0 rejected \u00b7 undoable",
        "1 command: 0 ok, 1 failed, 0 rejected; 1 repeated, not run again",
    ]
