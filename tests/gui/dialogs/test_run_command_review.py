"""run.command in the review dialog: what will run, where, for how long, and no Undo."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

from ..conftest import command, reply


def test_the_dialog_shows_the_argument_list_folder_timeout_and_no_undo(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    (workspace / "sub").mkdir()
    text = reply(command("r1", "run.command", command="pytest -q 'a b'", cwd="sub", timeout=30))
    pending = Session(Workspace(workspace), tmp_path / "state").prepare(text).pending
    dialog = ConfirmDialog(None, pending)
    qtbot.addWidget(dialog)
    shown = dialog.header.text()
    assert "Will run a command" in shown
    assert "[pytest -q 'a b'] without a shell in folder 'sub'" in shown
    assert "at most 30 s" in shown
    assert "cannot be undone by Undo" in shown
    assert dialog.states[0].badges == []
    assert not dialog.states[0].approved  # nothing runs unless the person says so
