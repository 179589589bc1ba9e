"""The one confirmation dialog: safe defaults, per-command choices, reasons, keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import Decision, Pending
from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import Choice, ConfirmDialog

from ..conftest import WindowFactory, command, paste_and_run, reply


def pending_of(workspace: Path, tmp_path: Path, text: str) -> list[Pending]:
    session = Session(Workspace(workspace), tmp_path / "dialog-state")
    return session.prepare(text).pending


def test_per_command_decisions_and_reasons_reach_the_results(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[str]] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        seen.append([item.id for item in pending])
        return {
            pending[0].index: Decision(True),
            pending[1].index: Decision(False, "keep the old name"),
        }

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"),
        command("w1", "fs.write", path="new.txt", text="one\ntwo\n"),
        command("d1", "fs.delete", path="a.txt"),
    )
    paste_and_run(qtbot, window, text)
    assert seen == [["w1", "d1"]]  # one dialog for the whole batch, reads not in it
    assert (workspace / "new.txt").read_text() == "one\ntwo\n"
    assert (workspace / "a.txt").exists()
    copied = QApplication.clipboard().text()
    assert "id: r1\nok: true" in copied
    assert "id: w1\nok: true" in copied
    assert "id: d1\nok: false" in copied
    assert "rejected by the user: keep the old name" in copied


def test_the_real_dialog_approves_all_with_ctrl_return(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    shown: list[ConfirmDialog] = []

    def press_keys() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ConfirmDialog)
        shown.append(dialog)
        qtbot.keyClick(dialog, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    QTimer.singleShot(300, press_keys)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="b.txt", text="hi\n")))
    assert shown
    assert shown[0].choice is Choice.APPROVE_ALL
    assert (workspace / "b.txt").read_text() == "hi\n"
    assert "id: w1\nok: true" in QApplication.clipboard().text()


def test_escape_rejects_every_command(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)

    def press_escape() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ConfirmDialog)
        dialog.approve_selected()  # even a ticked box: Esc means none
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    QTimer.singleShot(300, press_escape)
    text = reply(
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="y"),
    )
    paste_and_run(qtbot, window, text)
    assert not (workspace / "b.txt").exists()
    assert not (workspace / "c.txt").exists()
    copied = QApplication.clipboard().text()
    assert copied.count("ok: false") == 2
    assert copied.count("ERR_REJECTED_BY_USER") == 2


def open_dialog(
    qtbot: QtBot, pending: list[Pending], outside: set[str] | None = None
) -> ConfirmDialog:
    dialog = ConfirmDialog(None, pending, changed_outside=outside or set())
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    return dialog


def alt(qtbot: QtBot, dialog: ConfirmDialog, key: Qt.Key) -> None:
    qtbot.keyClick(dialog.focusWidget() or dialog, key, Qt.KeyboardModifier.AltModifier)


def test_commands_start_rejected_and_the_keyboard_decides_each(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    text = reply(
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="y"),
    )
    pending = pending_of(workspace, tmp_path, text)
    dialog = open_dialog(qtbot, pending)
    assert not any(state.approved for state in dialog.states)
    assert dialog.focusWidget() is dialog.listing
    assert dialog.current is dialog.states[0]
    alt(qtbot, dialog, Qt.Key.Key_Y)  # approve the first
    alt(qtbot, dialog, Qt.Key.Key_Down)  # next file: the second command
    assert dialog.current is dialog.states[1]
    alt(qtbot, dialog, Qt.Key.Key_R)  # reject with a reason: the reason box takes the keys
    assert dialog.focusWidget() is dialog.reason
    qtbot.keyClicks(dialog.reason, "wrong folder")
    alt(qtbot, dialog, Qt.Key.Key_Up)
    assert dialog.current is dialog.states[0]
    assert dialog.approve.isChecked()
    dialog.listing.setFocus()
    qtbot.keyClick(dialog.listing, Qt.Key.Key_Space)  # Space in the list unticks
    assert not dialog.states[0].approved
    qtbot.keyClick(dialog.listing, Qt.Key.Key_Space)  # and ticks again
    assert dialog.states[0].approved
    alt(qtbot, dialog, Qt.Key.Key_A)
    assert dialog.choice is Choice.PER_COMMAND
    assert dialog.decisions() == {
        pending[0].index: Decision(True, ""),
        pending[1].index: Decision(False, "wrong folder"),
    }


def test_a_typed_reason_always_rejects_even_with_ctrl_return(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    text = reply(
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="y"),
        command("w3", "fs.write", path="d.txt", content="z"),
    )
    pending = pending_of(workspace, tmp_path, text)
    dialog = open_dialog(qtbot, pending)
    assert dialog.approve_button.text() == "Approve all 3 (Ctrl+Return)"
    dialog.next_file()
    dialog.approve_selected()
    qtbot.keyClicks(dialog.reason, "no")  # typing unticks it
    assert not dialog.approve.isChecked()
    assert dialog.approve_button.text() == "Approve 2, 1 stays rejected (Ctrl+Return)"
    assert "rejected: no" in dialog.command_rows[1].text(1)
    qtbot.keyClick(dialog.reason, Qt.Key.Key_Return)  # Return decides nothing
    assert dialog.isVisible()
    qtbot.keyClick(dialog.reason, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dialog.choice is Choice.APPROVE_ALL
    assert dialog.decisions() == {
        pending[0].index: Decision(True, ""),
        pending[1].index: Decision(False, "no"),
        pending[2].index: Decision(True, ""),
    }


def test_approving_again_clears_the_reason(qtbot: QtBot, workspace: Path, tmp_path: Path) -> None:
    pending = pending_of(
        workspace, tmp_path, reply(command("w1", "fs.write", path="b.txt", content="x"))
    )
    dialog = open_dialog(qtbot, pending)
    dialog.reject_selected()
    qtbot.keyClicks(dialog.reason, "hmm")
    assert dialog.approve_button.text() == "Approve 0, 1 stays rejected (Ctrl+Return)"
    assert not dialog.approve_button.isEnabled()
    qtbot.keyClick(dialog.reason, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dialog.isVisible()  # nothing to approve: Ctrl+Return does not close it
    dialog.approve_selected()
    assert dialog.reason.text() == ""
    assert dialog.decisions()[pending[0].index] == Decision(False, "")  # not applied yet
    dialog.apply_choices()
    assert dialog.decisions() == {pending[0].index: Decision(True, "")}


def test_twenty_files_listed_with_badges_and_each_diff_in_view(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    blocks = [
        command(f"w{n}", "fs.write", path=f"pkg/m{n:02d}.py", text=f"VALUE = {n}\n")
        for n in range(18)
    ]
    blocks.append(command("d1", "fs.delete", path="a.txt"))
    blocks.append(
        command("e1", "fs.write", path="src/app.py", text='def main():\n    return "bye"\n')
    )
    pending = pending_of(workspace, tmp_path, reply(*blocks))
    dialog = open_dialog(qtbot, pending, {"src/app.py"})
    assert len(dialog.file_rows) == 20
    assert "Seen 1 of 20 files." in dialog.counts.text()  # what Ctrl+Return skips
    badges = [row.text(1) for row in dialog.file_rows]
    assert badges[0] == "new"
    assert badges[18] == "deleted"
    assert badges[19] == "edited \u00b7 changed outside"
    for n in range(19):
        dialog.next_file()
        shown = dialog.diff.unified.toPlainText()
        path = dialog.listing.currentItem().toolTip(0)
        assert dialog.diff.preview is not None
        assert dialog.diff.preview.path == path
        if n < 17:
            assert f"VALUE = {n + 1}" in shown
    assert dialog.listing.currentItem() is dialog.file_rows[19]
    assert "Seen 20 of 20 files." in dialog.counts.text()
    assert "Will write src/app.py (+1 -1)" in dialog.header.text()
    dialog.previous_file()
    assert "Will delete a.txt (moved to the trash, undoable)" in dialog.header.text()
    assert "Deleted" not in dialog.header.text()


def test_line_numbers_changed_words_and_side_by_side(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    text = reply(
        command("e1", "fs.write", path="src/app.py", text='def main():\n    return "bye"\n')
    )
    pending = pending_of(workspace, tmp_path, text)
    dialog = open_dialog(qtbot, pending)
    lines = dialog.diff.unified.toPlainText().split("\n")
    # The numbers are in the gutter beside the text, the sign starts the text.
    gutters = dialog.diff.unified.gutters
    assert (gutters[1], lines[1]) == ("  1   1", "  def main():")
    assert (gutters[2], lines[2]) == ("  2    ", '-     return "hi"')
    assert (gutters[3], lines[3]) == ("      2", '+     return "bye"')
    backgrounds = block_backgrounds(dialog.diff.unified.document())
    assert "#ffb3b0" in backgrounds[2]  # the changed word on the old line
    assert "#abf2bc" in backgrounds[3]  # and on the new line
    assert "#dafbe1" in backgrounds[3]
    alt(qtbot, dialog, Qt.Key.Key_S)
    assert dialog.diff.side_by_side
    left = dialog.diff.left.toPlainText().split("\n")
    right = dialog.diff.right.toPlainText().split("\n")
    assert (dialog.diff.left.gutters[2], left[2]) == ("  2", '-     return "hi"')
    assert (dialog.diff.right.gutters[2], right[2]) == ("  2", '+     return "bye"')
    assert len(left) == len(right)


def test_the_side_by_side_columns_scroll_together(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    body = "".join(f"line {n}\n" for n in range(300))
    pending = pending_of(
        workspace, tmp_path, reply(command("n1", "fs.write", path="long.txt", text=body))
    )
    dialog = open_dialog(qtbot, pending)
    dialog.side_by_side.setChecked(True)
    qtbot.wait(50)
    left, right = dialog.diff.left.verticalScrollBar(), dialog.diff.right.verticalScrollBar()
    assert left.maximum() > 100
    assert right.maximum() == left.maximum()  # one row per line on both sides
    right.setValue(100)
    assert left.value() == 100


def block_backgrounds(document: object) -> list[set[str]]:
    found = []
    block = document.begin()  # type: ignore[attr-defined]
    while block.isValid():
        found.append({f.format.background().color().name() for f in block.layout().formats()})
        block = block.next()
    return found


def test_a_secret_looking_read_asks_in_the_same_dialog(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text("TOKEN=abc\n")
    asked: list[Pending] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.extend(pending)
        dialog = ConfirmDialog(None, pending)
        assert dialog.states[0].badges == [["secret"]]
        assert "Will send the content of" in dialog.header.text()
        dialog.deleteLater()
        return {item.index: Decision(False, "no secrets") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("s1", "fs.read", path=".env")))
    assert [item.reveal is not None for item in asked] == [True]
    copied = QApplication.clipboard().text()
    assert "id: s1\nok: false" in copied
    assert "TOKEN" not in copied


def test_an_edit_of_a_secret_file_asks_to_read_it_then_shows_the_diff(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    (workspace / ".env").write_text("TOKEN=abc\n")
    session = Session(Workspace(workspace), tmp_path / "dialog-state")
    run = session.prepare(command("e1", "fs.write", path=".env", content="TOKEN=new"))
    first = ConfirmDialog(None, run.pending)
    qtbot.addWidget(first)
    header = first.header.text()
    assert "Will read .env to plan the change" in header
    assert "TOKEN" not in header
    (shown,) = session.open_held(run, {run.pending[0].index: Decision(True)})
    second = ConfirmDialog(None, [shown])
    qtbot.addWidget(second)
    assert "Will read" not in second.header.text()
    assert "+TOKEN=new" in shown.previews[0].diff


def test_the_secret_patterns_are_a_setting(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui.window_actions import SecretPatternsQuestion

    (workspace / "vault.private").write_text("PIN=1234\n")
    (workspace / ".env").write_text("TOKEN=abc\n")
    asked: list[Pending] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.extend(pending)
        return {item.index: Decision(False, "no") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    monkeypatch.setattr(SecretPatternsQuestion, "ask", classmethod(lambda cls, p, c: ["*.private"]))
    window = make_window(workspace)
    window.window_actions.secrets.trigger()
    assert window.settings.secret_patterns == ["*.private"]
    paste_and_run(
        qtbot,
        window,
        reply(
            command("p1", "fs.read", path="vault.private"), command("e1", "fs.read", path=".env")
        ),
    )
    assert [item.id for item in asked] == ["p1"]
    copied = QApplication.clipboard().text()
    assert "PIN" not in copied
    assert "id: e1\nok: true" in copied
