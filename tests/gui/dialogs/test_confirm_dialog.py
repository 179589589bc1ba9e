"""The one confirmation dialog: safe defaults, per-command choices, reasons, keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Decision, Pending, Session
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
        dialog.cards[0].approve.setChecked(True)  # even a ticked box: Esc means none
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


def test_boxes_start_unticked_and_apply_uses_them(
    qtbot: QtBot, workspace: Path, tmp_path: Path
) -> None:
    text = reply(
        command("w1", "fs.write", path="b.txt", content="x"),
        command("w2", "fs.write", path="c.txt", content="y"),
    )
    pending = pending_of(workspace, tmp_path, text)
    dialog = ConfirmDialog(None, pending)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    assert not any(card.approve.isChecked() for card in dialog.cards)
    assert dialog.focusWidget() is dialog.cards[0].approve
    qtbot.keyClick(dialog.cards[0].approve, Qt.Key.Key_Space)
    qtbot.keyClicks(dialog.cards[1].reason, "wrong folder")
    qtbot.keyClick(dialog, Qt.Key.Key_A, Qt.KeyboardModifier.AltModifier)
    assert dialog.choice is Choice.PER_COMMAND
    assert dialog.decisions() == {
        pending[0].index: Decision(True, ""),
        pending[1].index: Decision(False, "wrong folder"),
    }


def test_typing_a_reason_unticks_the_command(qtbot: QtBot, workspace: Path, tmp_path: Path) -> None:
    pending = pending_of(
        workspace, tmp_path, reply(command("w1", "fs.write", path="b.txt", content="x"))
    )
    dialog = ConfirmDialog(None, pending)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.cards[0].approve.setChecked(True)
    qtbot.keyClicks(dialog.cards[0].reason, "no")
    assert not dialog.cards[0].approve.isChecked()
    qtbot.keyClick(dialog.cards[0].reason, Qt.Key.Key_Return)  # Return decides nothing
    assert dialog.isVisible()
    assert dialog.decisions() == {pending[0].index: Decision(False, "no")}


def test_badges_and_coloured_diffs(qtbot: QtBot, workspace: Path, tmp_path: Path) -> None:
    text = reply(
        command("w1", "fs.write", path="fresh.py", text="def f():\n    return 1\n"),
        command("d1", "fs.delete", path="a.txt"),
        command("e1", "fs.write", path="src/app.py", text='def main():\n    return "bye"\n'),
    )
    pending = pending_of(workspace, tmp_path, text)
    dialog = ConfirmDialog(None, pending, changed_outside={"src/app.py"})
    qtbot.addWidget(dialog)
    assert [card.badges for card in dialog.cards] == [["new"], ["deleted"], ["edited", "outside"]]
    outside = dialog.cards[2].findChild(QLabel, "badge-outside")
    assert outside is not None
    assert outside.text() == "changed outside since read"
    from PySide6.QtWidgets import QPlainTextEdit

    diff = dialog.cards[2].findChild(QPlainTextEdit, "diff")
    assert '+    return "bye"' in diff.toPlainText()
    block = diff.document().begin()
    colours: dict[str, set[str]] = {}
    while block.isValid():
        formats = block.layout().formats()
        colours[block.text()] = {f.format.background().color().name() for f in formats}
        block = block.next()
    added = next(line for line in colours if line.startswith("+    return"))
    removed = next(line for line in colours if line.startswith("-    return"))
    hunk = next(line for line in colours if line.startswith("@@"))
    assert "#dafbe1" in colours[added]
    assert "#ffebe9" in colours[removed]
    assert "#ddf4ff" in colours[hunk]


def test_a_secret_looking_read_asks_in_the_same_dialog(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workspace / ".env").write_text("TOKEN=abc\n")
    asked: list[Pending] = []

    def decide(parent: object, pending: list[Pending], outside: object = ()) -> dict:
        asked.extend(pending)
        dialog = ConfirmDialog(None, pending)
        assert dialog.cards[0].badges == ["secret"]
        dialog.deleteLater()
        return {item.index: Decision(False, "no secrets") for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("s1", "fs.read", path=".env")))
    assert [item.reveal is not None for item in asked] == [True]
    copied = QApplication.clipboard().text()
    assert "id: s1\nok: false" in copied
    assert "TOKEN" not in copied


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
