"""The secret-looking environment names, edited in the window: saved to the settings,
used by the next command, refused with what to fix when a line is not a pattern."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from llm_operator.core.store.settings import Settings
from llm_operator.core.store.workspace import DEFAULT_SECRET_ENVIRONMENT
from llm_operator.gui.dialogs.environment_patterns import EnvironmentPatternsDialog

from ..conftest import WindowFactory, command, reply

PRINT_ENV = f"{sys.executable} -c 'import os; print(sorted(os.environ))'"


def test_bad_lines_are_refused_and_the_dialog_stays(qtbot: QtBot) -> None:
    dialog = EnvironmentPatternsDialog(None, list(DEFAULT_SECRET_ENVIRONMENT))
    qtbot.addWidget(dialog)
    dialog.editor.setPlainText("*_TOKEN\nMY VAR\n")
    dialog.accept()
    assert dialog.result() == 0  # not accepted
    assert "line 2, MY VAR, is not a name pattern" in dialog.problem.text()
    dialog.editor.setPlainText("*_TOKEN\n\n  deploy_*  \n*_TOKEN\n")
    dialog.accept()
    assert dialog.patterns == ["*_TOKEN", "deploy_*"]


@pytest.mark.usefixtures("approve_everything")
def test_the_settings_menu_changes_what_the_next_command_sees(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DEPLOY_CODE", "c0de")
    monkeypatch.setenv("API_TOKEN", "t0ken")
    window = make_window(workspace)

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, EnvironmentPatternsDialog)
        dialog.editor.setPlainText("*_TOKEN\nDEPLOY_*\n")
        box = dialog.findChild(QDialogButtonBox)
        assert box is not None
        box.button(QDialogButtonBox.StandardButton.Ok).click()

    QTimer.singleShot(0, answer)
    window.window_actions.secret_environment.trigger()
    saved = Settings.load(tmp_path / "config" / "settings.json")
    assert saved.secret_environment == ["*_TOKEN", "DEPLOY_*"]
    window.paste.editor.setPlainText(reply(command("r1", "run.command", command=PRINT_ENV)))
    with qtbot.waitSignal(window.flow.finished, timeout=20000):
        window.run_reply()
    results = window.results.raw.toPlainText()
    line = next(line for line in results.splitlines() if "PATH" in line)
    seen = ast.literal_eval(line[line.index("[") :])
    assert "DEPLOY_CODE" not in seen
    assert "API_TOKEN" not in seen
    assert "PATH" in seen
