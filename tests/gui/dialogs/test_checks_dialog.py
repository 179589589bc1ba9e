"""The Checks dialog: add, edit, rename and remove a workspace's checks, kept where
``llm-operator checks`` reads them; bad input is refused with what to fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.store.checks import list_checks
from llm_operator.core.store.database import StateStore
from llm_operator.gui.dialogs.checks_dialog import ChecksDialog

from ..conftest import WindowFactory

CLI = (sys.executable, "-m", "llm_operator.cli")


def checks_list(workspace: Path, state: Path) -> str:
    done = subprocess.run(
        [*CLI, "checks", "list", "--workspace", str(workspace), "--state-dir", str(state)],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _fill(qtbot: QtBot, dialog: ChecksDialog, name: str, line: str, keep: str = "") -> None:
    for field, text in ((dialog.name, name), (dialog.line, line), (dialog.keep, keep)):
        field.clear()
        qtbot.keyClicks(field, text)


def _store(window: object) -> StateStore:
    session = window.session  # type: ignore[attr-defined]
    assert session is not None
    assert session.state is not None
    assert session.state.store is not None
    store: StateStore = session.state.store
    return store


def test_add_edit_rename_and_remove_reach_the_checks_command(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    dialog = ChecksDialog(window, _store(window), workspace.name)
    qtbot.addWidget(dialog)
    _fill(qtbot, dialog, "test", "python -m pytest -q 'tests dir'", keep="PYPI_TOKEN")
    dialog.timeout.setValue(300)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert dialog.problem.text().startswith("Saved: test runs")
    assert dialog.checks.count() == 1
    listed = checks_list(workspace, tmp_path / "state")
    assert listed == ("test: python -m pytest -q 'tests dir' [timeout 300 s keeps PYPI_TOKEN]\n")

    # Edit: select it, change its line, save.
    dialog.checks.setCurrentRow(0)
    assert dialog.name.text() == "test"
    assert dialog.timeout.value() == 300
    _fill(qtbot, dialog, "test", "ruff check .")
    dialog.shell.setChecked(True)
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert checks_list(workspace, tmp_path / "state") == (
        "test: ruff check . (shell) [timeout 300 s]\n"
    )

    # Rename: the old name goes.
    dialog.checks.setCurrentRow(0)
    _fill(qtbot, dialog, "lint", "ruff check .")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    assert [c.name for c in list_checks(_store(window))] == ["lint"]

    # Remove.
    dialog.checks.setCurrentRow(0)
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    assert dialog.checks.count() == 0
    assert checks_list(workspace, tmp_path / "state") == ""
    assert not (workspace / ".llm-operator").exists()
    assert sorted(p.name for p in workspace.iterdir()) == ["a.txt", "src"]  # no file added


@pytest.mark.parametrize(
    ("name", "line", "keep", "says"),
    [
        ("", "pytest", "", "give the check a name"),
        ("a b", "pytest", "", "is not 1-40 letters, digits"),
        ("test", "   ", "", "give the command line to run"),
        ("test", "pytest 'open", "", "cannot be split into arguments"),
        ("test", "echo 'open | wc", "shell", "has a quote left open"),
        ("test", "pytest", "GOOD 9BAD", "'9BAD' is not an environment variable name"),
    ],
)
def test_bad_input_is_refused_with_what_to_fix(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    name: str,
    line: str,
    keep: str,
    says: str,
) -> None:
    window = make_window(workspace)
    dialog = ChecksDialog(window, _store(window), workspace.name)
    qtbot.addWidget(dialog)
    if keep == "shell":
        dialog.shell.setChecked(True)
        keep = ""
    _fill(qtbot, dialog, name, line, keep)
    assert not dialog.save()
    assert dialog.problem.text().startswith("Not saved: ")
    assert says in dialog.problem.text()
    assert "Traceback" not in dialog.problem.text()
    assert list_checks(_store(window)) == ()


def test_a_second_check_of_a_taken_name_is_refused(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    dialog = ChecksDialog(window, _store(window), workspace.name)
    qtbot.addWidget(dialog)
    _fill(qtbot, dialog, "test", "pytest")
    assert dialog.save()
    qtbot.mouseClick(dialog.new_button, Qt.MouseButton.LeftButton)
    _fill(qtbot, dialog, "test", "other")
    assert not dialog.save()
    assert "a check named test exists" in dialog.problem.text()
    assert [c.command for c in list_checks(_store(window))] == ["pytest"]


def test_the_run_menu_opens_the_dialog(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    seen: list[str] = []

    def close_it() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ChecksDialog)
        seen.append(dialog.windowTitle())
        dialog.reject()

    QTimer.singleShot(0, close_it)
    window.window_actions.checks.trigger()
    assert seen == ["LLM Operator - Checks of project"]


def test_without_a_workspace_the_menu_says_to_open_one(
    qtbot: QtBot, make_window: WindowFactory
) -> None:
    window = make_window()
    window.window_actions.checks.trigger()
    assert "Open a workspace first" in window.statusBar().currentMessage()
