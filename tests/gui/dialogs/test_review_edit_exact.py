"""The person's text for a change is exactly what the editor shows: opening the editor
and typing nothing is no edit, and a word typed changes that word and nothing else, even
in a text holding no-break spaces and line separators the editor's plain text would turn
into spaces and line breaks."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

from ..conftest import command, reply

PROPOSED = "price:\u00a0100\u00a0EUR\nconst s = 'a\u2028b';\nlast line\n"


def _review(qtbot: QtBot, session: Session, text: str) -> tuple[ConfirmDialog, object]:
    run = session.prepare(reply(command("w1", "fs.write", path="a.txt", text=text)))
    dialog = ConfirmDialog(None, run.pending)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.edit_box.setChecked(True)
    return dialog, run


def test_opening_the_editor_and_typing_nothing_lands_the_proposed_bytes(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    session = Session(Workspace(workspace), tmp_path / "s")
    dialog, run = _review(qtbot, session, PROPOSED)
    assert not dialog.editor.text.isReadOnly()
    dialog.approve_selected()
    dialog.apply_choices()
    decision = dialog.decisions()[run.pending[0].index]  # type: ignore[attr-defined]
    assert decision.edited == ()  # nobody edited anything
    (result,) = session.execute(run, dialog.decisions())  # type: ignore[arg-type]
    assert result.ok, result.outcome.summary
    assert "edited by the user" not in result.outcome.summary
    assert (workspace / "a.txt").read_bytes() == PROPOSED.encode()


def test_a_word_typed_changes_that_word_only(qtbot: QtBot, workspace: Path, tmp_path: Path) -> None:
    session = Session(Workspace(workspace), tmp_path / "s")
    dialog, run = _review(qtbot, session, PROPOSED)
    cursor = dialog.editor.text.document().find("last")
    cursor.insertText("LAST")
    dialog.editor.flush()
    dialog.approve_selected()
    dialog.apply_choices()
    (result,) = session.execute(run, dialog.decisions())  # type: ignore[arg-type]
    assert result.ok, result.outcome.summary
    assert "edited by the user" in result.outcome.summary
    expected = PROPOSED.replace("last line", "LAST line")
    assert (workspace / "a.txt").read_bytes() == expected.encode()


def test_a_text_the_editor_cannot_keep_is_not_offered_for_editing(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    session = Session(Workspace(workspace), tmp_path / "s")
    dialog, _run = _review(qtbot, session, "one\u2029two\n")
    assert dialog.editor.text.isReadOnly()
    assert "U+2029" in dialog.editor.note.text()
