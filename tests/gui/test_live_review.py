"""A file changed on disk while its review is open: flagged in the real dialog at once,
merged when apart from the edit (after the merged diff was shown), refused with the
lines named when it overlaps, and undone back to the outside edit."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from llm_operator.gui.live_review import LiveReview
from llm_operator.gui.panes.history import UndoQuestion

from .conftest import WindowFactory, command, paste_and_run, reply

LINES = "".join(f"line {n}\n" for n in range(1, 21))
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier


def edit(cmd_id: str, find: str, text: str, path: str = "notes.txt") -> str:
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": find, "text": text}]}
    return command(cmd_id, "fs.applyEdits", path=path, edits_json=json.dumps(edits))


def during_review(qtbot: QtBot, act: Callable[[ConfirmDialog], None]) -> list[Exception]:
    """Run ``act`` on the open dialog from inside its event loop; failures are kept (an
    exception there would be lost in Qt) and the dialog is rejected so the run ends."""
    failures: list[Exception] = []

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ConfirmDialog):
            QTimer.singleShot(20, step)  # the worker is still preparing the reply
            return
        try:
            assert isinstance(dialog.live, LiveReview)
            live = dialog.live
            qtbot.waitUntil(lambda: live.checks >= 1, timeout=5000)  # the check at opening
            act(dialog)
        except Exception as error:
            failures.append(error)
            dialog.reject()

    QTimer.singleShot(0, step)
    return failures


def test_an_edit_apart_from_the_outside_change_lands_merged_and_undo_gives_it_back(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES)
    window = make_window(workspace)
    outside = LINES.replace("line 5\n", "line 5 (edited outside)\n")
    seen: dict[str, str] = {}

    def act(dialog: ConfirmDialog) -> None:
        assert dialog.outside_banner.isHidden()
        target.write_text(outside)
        qtbot.waitUntil(lambda: bool(dialog.outside.found), timeout=5000)
        seen["banner"] = dialog.outside_banner.text()
        seen["badge"] = dialog.file_rows[0].text(1)
        seen["header"] = dialog.header.text()
        preview = dialog.diff.preview
        assert preview is not None
        seen["diff"] = preview.diff
        qtbot.keyClick(dialog, Qt.Key.Key_Return, CTRL)

    failures = during_review(qtbot, act)
    paste_and_run(qtbot, window, reply(edit("e1", "line 3\n", "line three\n")))
    assert not failures, failures
    assert seen["banner"].startswith("1 file changed outside the app")
    assert "notes.txt" in seen["banner"]
    assert "changed outside the app while this review is open" in seen["banner"]
    assert "Alt+O" in seen["banner"]
    assert seen["badge"] == "changed outside: merged \u00b7 edited"
    assert (
        "changed outside the app while this review was open (line 5 of the file now)"
        in (seen["header"])
    )
    # The diff shown is the edit merged into the file as it is now: the line changed
    # outside is among its unchanged lines.
    assert "-line 3\n+line three\n line 4\n line 5 (edited outside)\n" in seen["diff"]
    merged = outside.replace("line 3\n", "line three\n")
    assert target.read_text() == merged
    copied = QApplication.clipboard().text()
    assert "id: e1\nok: true" in copied
    assert "[merged: notes.txt (changed outside the app: line 5 of it now)" in copied

    monkeypatch.setattr(UndoQuestion, "ask", lambda parent, batch: True)
    with qtbot.waitSignal(window.flow.undone, timeout=5000):
        window.window_actions.undo.trigger()
    assert target.read_text() == outside  # the outside edit, not the text of the plan


def test_an_overlapping_outside_change_is_named_and_nothing_is_written(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES)
    window = make_window(workspace)
    outside = LINES.replace("line 3\n", "line 3 (edited outside)\n")
    seen: dict[str, str] = {}

    def act(dialog: ConfirmDialog) -> None:
        target.write_text(outside)
        qtbot.waitUntil(lambda: bool(dialog.outside.found), timeout=5000)
        seen["banner"] = dialog.outside_banner.text()
        seen["badge"] = dialog.file_rows[0].text(1)
        seen["header"] = dialog.header.text()
        qtbot.keyClick(dialog, Qt.Key.Key_Return, CTRL)

    failures = during_review(qtbot, act)
    text = reply(edit("e1", "line 3\n", "line three\n"), edit("e2", "line 9\n", "line nine\n"))
    paste_and_run(qtbot, window, text)
    assert not failures, failures
    assert "cannot be merged and will not be written" in seen["banner"]
    assert seen["badge"] == "changed outside: overlaps \u00b7 edited"
    assert "line 3 of the file now overlaps this edit (line 3 of the file it was" in seen["header"]
    assert target.read_text() == outside
    copied = QApplication.clipboard().text()
    assert "id: e1\nok: false\nsummary: fs.applyEdits failed (ERR_STALE_FILE)" in copied
    assert "line 3 of the file now overlaps this edit" in copied
    # The second edit builds on the first: refused too, nothing of the file written.
    assert "id: e2\nok: false" in copied


def test_approving_first_shows_a_merged_change_not_yet_seen(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES)
    window = make_window(workspace)
    outside = LINES.replace("line 18\n", "line 18 (edited outside)\n")
    seen: dict[str, object] = {}

    def act(dialog: ConfirmDialog) -> None:
        assert dialog.listing.currentItem() is dialog.file_rows[0]  # a.txt
        target.write_text(outside)
        qtbot.waitUntil(lambda: bool(dialog.outside.found), timeout=5000)
        assert dialog.listing.currentItem() is dialog.file_rows[0]  # not moved by itself
        qtbot.keyClick(dialog, Qt.Key.Key_Return, CTRL)
        seen["open after the first approval"] = dialog.isVisible()
        seen["row"] = dialog.listing.currentItem().text(0)
        seen["banner"] = dialog.outside_banner.text()
        qtbot.keyClick(dialog, Qt.Key.Key_Up, ALT)
        qtbot.keyClick(dialog, Qt.Key.Key_O, ALT)  # the changed file, one key away
        seen["alt+o"] = dialog.listing.currentItem().text(0)
        qtbot.keyClick(dialog, Qt.Key.Key_Return, CTRL)

    failures = during_review(qtbot, act)
    text = reply(
        command("w1", "fs.write", path="a.txt", text="alpha\nBETA\n"),
        edit("e1", "line 3\n", "line three\n"),
    )
    paste_and_run(qtbot, window, text)
    assert not failures, failures
    assert seen["open after the first approval"] is True
    assert str(seen["row"]).startswith("notes.txt")
    assert "its new diff is shown now" in str(seen["banner"])
    assert str(seen["alt+o"]).startswith("notes.txt")
    assert target.read_text() == outside.replace("line 3\n", "line three\n")
    assert (workspace / "a.txt").read_text() == "alpha\nBETA\n"


def test_a_file_changed_back_is_no_longer_flagged(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    """Each comparison replaces the last: the flag, badge and merged diff go when the file
    holds again what the edit was planned on, and the approval carries no merge."""
    from llm_operator.core.plan.outside_merge import rebase_pending
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace

    target = workspace / "notes.txt"
    target.write_text(LINES)
    session = Session(Workspace(workspace), tmp_path / "dialog-state")
    pending = session.prepare(reply(edit("e1", "line 3\n", "line three\n"))).pending
    dialog = ConfirmDialog(None, pending)
    qtbot.addWidget(dialog)
    planned = dialog.diff.preview
    target.write_text(LINES.replace("line 5\n", "line 5 (outside)\n"))
    dialog.show_outside(rebase_pending(session.workspace, pending))
    assert not dialog.outside_banner.isHidden()
    assert dialog.file_rows[0].text(1) == "changed outside: merged \u00b7 edited"
    assert dialog.diff.preview is not planned
    assert dialog.decisions()[pending[0].index].merged == ()  # not approved: nothing carried
    dialog.approve_selected()
    dialog.apply_choices()
    (merge,) = dialog.decisions()[pending[0].index].merged  # shown, so carried
    assert merge.path == "notes.txt"
    target.write_text(LINES)
    dialog.show_outside(rebase_pending(session.workspace, pending))
    assert dialog.outside_banner.isHidden()
    assert dialog.file_rows[0].text(1) == "edited"
    assert dialog.diff.preview is planned
    dialog.apply_choices()
    assert dialog.decisions()[pending[0].index].approved
    assert dialog.decisions()[pending[0].index].merged == ()


def test_two_open_reviews_are_watched_apart(qtbot: QtBot, workspace: Path) -> None:
    """A paste's review and an MCP client's may be open at once: closing one leaves the
    other's files watched."""
    from llm_operator.gui.watcher import WorkspaceWatcher

    (workspace / "b.txt").write_text("b\n")
    watcher = WorkspaceWatcher(workspace)
    assert watcher.start()
    try:
        first = watcher.review({"a.txt"})
        watcher.review({"b.txt"})
        watcher.end_review(first)
        with qtbot.waitSignal(watcher.review_touched, timeout=5000) as got:
            (workspace / "b.txt").write_text("changed outside\n")
        assert got.args == [frozenset({"b.txt"})]
    finally:
        watcher.stop()
