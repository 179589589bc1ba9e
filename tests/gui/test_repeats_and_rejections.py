"""Repeats and earlier rejections in the window: counted apart from runs, styled apart
from a fresh ok, and a command rejected before says so when it is asked again."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import APPROVE, Decision, Pending
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from llm_operator.gui.panes.command_rows import OK_FG, REPEAT_FG

from .conftest import WindowFactory, command, paste_and_run, reply


def _status(window: object, row: int) -> str:
    return window.paste.table.topLevelItem(row).text(1)  # type: ignore[attr-defined]


def test_a_pasted_again_reply_is_counted_and_shown_as_repeats(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, approve_everything: None
) -> None:
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="b.txt", content="one"),
    )
    paste_and_run(qtbot, window, text)
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Ran 2 commands: 2 ok, 0 failed, 0 rejected.")
    )
    (workspace / "b.txt").write_text("changed by hand")
    paste_and_run(qtbot, window, text)
    message = window.statusBar().currentMessage()
    # The write is not run again; the read is (a read is never answered from memory).
    assert message.startswith("Ran 1 command: 1 ok, 0 failed, 0 rejected; 1 repeated, not run")
    assert (workspace / "b.txt").read_text() == "changed by hand"  # the write did not run
    assert window.paste.table.topLevelItem(0).text(1).startswith("ok: Read ")
    for row in (1,):
        item = window.paste.table.topLevelItem(row)
        assert item.text(1).startswith("repeat, not run again (first ran at ")
        assert not item.text(1).startswith("ok")
        assert item.foreground(1).color() == QColor(REPEAT_FG)
        assert item.foreground(1).color() != QColor(OK_FG)
        assert item.font(1).italic()
    assert window.paste.summary.text() == (
        "2 commands, 1 ran: 1 ok, 0 failed, 0 rejected; 1 repeated, not run again."
    )
    # The results view names it too, on its own title line.
    assert "(repeat, not run again)" in window.results.view.toPlainText()


def test_a_command_rejected_before_is_asked_again_with_its_reason(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[list[Pending]] = []
    answers = iter([Decision(False, "not this file"), APPROVE])
    statuses: list[str] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.append(list(pending))
        statuses.append(window.statusBar().currentMessage())
        statuses.append(_status(window, 0))
        answer = next(answers)
        return {item.index: answer for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    text = reply(command("w1", "fs.write", path="b.txt", content="one"))
    paste_and_run(qtbot, window, text)
    assert not (workspace / "b.txt").exists()
    assert _status(window, 0) == "rejected: not this file"
    paste_and_run(qtbot, window, text)
    assert len(asked) == 2  # asked again, not answered from memory
    again = asked[1][0]
    assert again.rejected_before is not None
    assert again.plan is not None
    assert again.plan.notes[-1].startswith("rejected before at ")  # the review's line
    # While the review was open, the list and the status said it was rejected before.
    assert statuses[2].startswith("Asking again: w1 was rejected before at ")
    assert statuses[2].endswith("(not this file).")
    assert statuses[3].startswith("needs approval again: rejected before at ")
    assert (workspace / "b.txt").read_text() == "one"
    status = _status(window, 0)
    assert status.startswith("ok: Wrote b.txt")
    assert "\nasked again: rejected before at " in status
    assert status.endswith("(not this file)")
    assert (
        window.statusBar()
        .currentMessage()
        .startswith("Ran 1 command: 1 ok, 0 failed, 0 rejected; 1 asked again (rejected before).")
    )


def test_the_selected_row_shows_its_whole_status_below(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, approve_everything: None
) -> None:
    window = make_window(workspace)
    long_path = "deep/" * 30 + "missing.txt"
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path=long_path)))
    details = window.paste.details
    assert details.isHidden()
    window.paste.table.setCurrentItem(window.paste.table.topLevelItem(0))
    assert details.isVisible()
    assert "failed: fs.read failed (ERR_" in details.toPlainText()
    assert long_path in details.toPlainText()
    assert window.paste.table.wordWrap()


def test_the_review_of_a_command_asked_again_says_when_it_was_rejected(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers: list[str] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        dialog = ConfirmDialog(window, pending, ())  # the real review, shown its first file
        qtbot.addWidget(dialog)
        headers.append(dialog.header.text())
        return {item.index: Decision(False, "too early") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    text = reply(command("w1", "fs.write", path="b.txt", content="one"))
    paste_and_run(qtbot, window, text)
    paste_and_run(qtbot, window, text)
    assert "rejected before" not in headers[0]
    assert "\nnote: rejected before at " in headers[1]
    assert headers[1].rstrip().endswith("(too early)")
