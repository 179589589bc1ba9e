"""The window's counts and labels say what happened, not what was expected to."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Decision, Pending
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from support.actions import edits_b64

from .conftest import WindowFactory, command, paste_and_run, reply

SECRET = "API_KEY=sk-live-token-4d1f\nDEBUG=1\n"


def _decline_all(monkeypatch: pytest.MonkeyPatch) -> list[Pending]:
    asked: list[Pending] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.extend(pending)
        return {item.index: Decision(False, "") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    return asked


def _similar_edit_on_secret() -> str:
    """An edit of .env whose find text is close to a line of it: the failure quotes it."""
    edit = {"op": "replaceFirst", "find": "API_KEY=sk-live-token-4d2f", "text": "x"}
    return command("e1", "fs.applyEdits", path=".env", edits_b64=edits_b64(edit))


def test_after_the_run_the_header_counts_what_happened_not_what_needs_approval(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, approve_everything: None
) -> None:
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="x"),
        command("w3", "fs.write", path="d.txt", content="x"),
    )
    window.paste.set_text(text)
    assert window.paste.summary.text() == "4 commands: 3 need approval, 0 invalid."
    paste_and_run(qtbot, window, text)
    header = window.paste.summary.text()
    assert "need approval" not in header
    assert header == "4 commands ran: 4 ok, 0 failed, 0 rejected."
    window.paste.set_text(reply(command("w4", "fs.write", path="e.txt", content="x")))
    assert window.paste.summary.text() == "1 command: 1 needs approval, 0 invalid."


def test_a_read_of_a_secret_looking_file_is_listed_as_needing_approval(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    asked = _decline_all(monkeypatch)
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("s1", "fs.read", path=".env"),
        command("l1", "fs.list", path="."),
    )
    window.paste.set_text(text)
    assert window.paste.summary.text() == "3 commands: 1 needs approval, 0 invalid."
    rows = [window.paste.table.topLevelItem(i).text(1) for i in range(3)]
    assert rows == ["runs at once", "needs approval (secret-looking file)", "runs at once"]
    paste_and_run(qtbot, window, text)
    assert [p.id for p in asked] == ["s1"]  # the list said what the run then asked


def test_a_declined_secret_failure_is_a_failure_not_a_rejection(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    asked = _decline_all(monkeypatch)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(_similar_edit_on_secret()))
    assert [p.id for p in asked] == ["e1"]
    assert asked[0].reveal is not None
    assert not asked[0].reveal.approved.ok
    copied = window.results.raw.toPlainText()
    assert "ERR_REJECTED_BY_USER" not in copied
    assert "sk-live-token-4d1f" not in copied  # the line on disk
    status = window.paste.table.topLevelItem(0).text(1)
    assert status.startswith("failed: ")
    assert "ERR_ANCHOR_NOT_FOUND" in status
    assert window.paste.summary.text() == "1 command ran: 0 ok, 1 failed, 0 rejected."
    assert window.statusBar().currentMessage().startswith("Ran 1 command: 0 ok, 1 failed, 0")
    page = window.results.view.toPlainText()
    assert "rejected by you" not in page
    assert "\u2718 e1  fs.applyEdits .env" in page
    assert window.history.runs.item(0).text().endswith("0 ok, 1 failed, 0 rejected")


def test_the_history_says_an_error_message_was_held_back_not_file_content(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text(SECRET)
    _decline_all(monkeypatch)
    window = make_window(workspace)
    paste_and_run(
        qtbot, window, reply(_similar_edit_on_secret(), command("s1", "fs.read", path=".env"))
    )
    history = window.history.records[-1].text
    assert "e1: rejected" in history
    assert "s1: rejected" in history
    edit_part = history.split("e1: rejected", 1)[1].split("s1: rejected", 1)[0]
    read_part = history.split("s1: rejected", 1)[1]
    assert "wanted to send an error message quoting the file to the chat" in edit_part
    assert "file content" not in edit_part
    assert "wanted to send file content to the chat" in read_part
    page = window.results.view.toPlainText()
    assert "\u2298 s1  fs.read .env  (rejected by you)" in page  # a real rejection stays one
