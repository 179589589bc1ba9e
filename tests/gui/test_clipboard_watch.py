"""Clipboard watch, on the real QClipboard: a copied reply runs by itself; the app's own
texts never do; a text quoting the primer's examples is asked about first; and the window
comes forward only when the person is needed.

Seams: ``MainWindow.raise_`` and ``MainWindow.activateWindow`` (all the window's coming
forward goes through ``MainWindow.come_forward``, which calls them), ``ConfirmDialog.ask``
(the review) and ``CopiedReplyQuestion.ask`` (the question about examples).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.context import build_context
from llm_operator.core.plan.run import APPROVE, Decision, Pending
from llm_operator.core.protocol.copied import CopiedAction, CopiedText
from llm_operator.core.protocol.primer import primer_text
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from llm_operator.gui.dialogs.copied_reply import CopiedReplyQuestion
from llm_operator.gui.main_window import MainWindow

from .conftest import WindowFactory, command, paste_and_run, reply

PRIMER_READ_1 = "\n".join(
    [
        "OPERATOR_CMD",
        "version: 1",
        "id: read-1",
        "action: fs.readSlice",
        "path: notes/plan.txt",
        "END_OPERATOR_CMD",
    ]
)


@pytest.fixture
def raised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(MainWindow, "raise_", lambda self: calls.append("raise"))
    monkeypatch.setattr(MainWindow, "activateWindow", lambda self: calls.append("activate"))
    return calls


@pytest.fixture
def reviews(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The review approves everything and records the ids it was shown."""
    shown: list[list[str]] = []

    def ask(parent: object, pending: list[Pending], outside: object = ()) -> dict[int, Decision]:
        shown.append([item.id for item in pending])
        return {item.index: APPROVE for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", ask)
    return shown


@pytest.fixture
def elsewhere(qtbot: QtBot) -> QWidget:
    """Another window in front: the chat the person copies from."""
    chat = QWidget()
    chat.setWindowTitle("chat")
    qtbot.addWidget(chat)
    chat.show()
    qtbot.waitExposed(chat)
    chat.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is chat)
    return chat


def watching(make_window: WindowFactory, workspace: Path | None) -> MainWindow:
    window = make_window(workspace)
    window.window_actions.watch.setChecked(True)
    return window


def picked_up(window: MainWindow) -> list[str]:
    """Every text the bridge hands to the window from now on (setText emits at once)."""
    handed: list[str] = []
    window.clipboard.reply_copied.connect(lambda text, *_verdict: handed.append(text))
    return handed


def test_a_reads_only_reply_runs_where_the_window_stands(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    raised: list[str],
    elsewhere: QWidget,
) -> None:
    window = watching(make_window, workspace)
    elsewhere.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is elsewhere)
    raised.clear()
    text = reply(command("r1", "fs.read", path="a.txt"), command("r2", "fs.list", path="."))
    with qtbot.waitSignal(window.flow.finished, timeout=10000):
        QApplication.clipboard().setText(text)
    assert window.paste.text() == text
    results = QApplication.clipboard().text()
    assert results.startswith("OPERATOR_RESULT\nid: r1\nok: true")  # auto-copy, as ever
    assert raised == []
    assert QApplication.activeWindow() is elsewhere
    message = window.statusBar().currentMessage()
    assert message.startswith("Copied reply run. Ran 2 commands: 2 ok")
    assert "Results copied" in message
    # The results the app just copied are never taken for a reply.
    assert window.history.runs.count() == 1
    assert not window.flow.busy


def test_a_reply_with_a_write_brings_the_window_forward_for_its_review(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    raised: list[str],
    reviews: list[list[str]],
    elsewhere: QWidget,
) -> None:
    window = watching(make_window, workspace)
    elsewhere.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is elsewhere)
    raised.clear()
    text = reply(command("w1", "fs.write", path="new.txt", text="hello\n"))
    with qtbot.waitSignal(window.flow.finished, timeout=10000):
        QApplication.clipboard().setText(text)
    assert reviews == [["w1"]]
    assert raised == ["raise", "activate"]
    assert (workspace / "new.txt").read_text() == "hello\n"
    assert QApplication.clipboard().text().startswith("OPERATOR_RESULT\nid: w1\nok: true")


def test_the_setting_brings_the_window_forward_for_every_reply(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, raised: list[str]
) -> None:
    window = watching(make_window, workspace)
    assert window.settings.raise_every_reply is False  # off by default
    window.window_actions.raise_every_reply.setChecked(True)
    assert window.settings.raise_every_reply is True
    assert window.settings.path is not None
    assert '"raise_every_reply": true' in window.settings.path.read_text()
    raised.clear()
    with qtbot.waitSignal(window.flow.finished, timeout=10000):
        QApplication.clipboard().setText(reply(command("r1", "fs.read", path="a.txt")))
    assert raised == ["raise", "activate"]


@pytest.mark.parametrize("damage", ["as copied", "crlf"])
def test_the_primer_copied_from_elsewhere_runs_nothing_and_stays_on_the_clipboard(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    raised: list[str],
    reviews: list[list[str]],
    damage: str,
) -> None:
    window = watching(make_window, workspace)
    raised.clear()
    handed = picked_up(window)
    text = primer_text()
    if damage == "crlf":
        text = text.replace("\n", "\r\n")
    QApplication.clipboard().setText(text)
    assert handed == []
    assert not window.flow.busy
    assert window.paste.text() == ""
    assert QApplication.clipboard().text() == text
    assert not (workspace / "notes").exists()
    assert reviews == []
    assert raised == []
    assert window.statusBar().currentMessage() == (
        "Copied text not run: it is the LLM primer, the app's own text."
    )


def test_a_context_message_runs_nothing(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, reviews: list[list[str]]
) -> None:
    (workspace / "chat.txt").write_text(reply(command("w1", "fs.delete", path="a.txt")))
    pack = build_context(Workspace(workspace), ["chat.txt", "src/app.py"], task="Look", limit=4000)
    window = watching(make_window, workspace)
    handed = picked_up(window)
    for part in [*pack.message.parts, pack.message.whole]:
        QApplication.clipboard().setText(part)
        assert QApplication.clipboard().text() == part
    assert len(pack.message.parts) > 1
    assert handed == []
    assert not window.flow.busy
    assert reviews == []
    assert (workspace / "a.txt").exists()


def test_results_and_the_app_s_own_copies_run_nothing(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, reviews: list[list[str]]
) -> None:
    saved = reply(command("w1", "fs.delete", path="a.txt"))
    (workspace / "chat.txt").write_text(saved)
    window = make_window(workspace)
    # A run the person pasted, whose results hold a whole reply as file content.
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="chat.txt")))
    results = QApplication.clipboard().text()
    assert "| OPERATOR_CMD" in results
    window.window_actions.watch.setChecked(True)
    handed = picked_up(window)
    QApplication.clipboard().setText("something else")
    QApplication.clipboard().setText(results)  # the results, copied again from the chat
    QApplication.clipboard().setText(results.replace("\n", "\r\n"))
    # Text the app put on the clipboard, copied back after many other copies and with the
    # damage a clipboard adds: never a reply, however long the window has been open.
    window.clipboard.copy(saved)
    for number in range(30):
        window.clipboard.copy(f"part {number}")
    QApplication.clipboard().setText("something else")
    QApplication.clipboard().setText(saved)
    QApplication.clipboard().setText(saved.replace("\n", "\r\n") + "  ")
    assert handed == []
    assert not window.flow.busy
    assert reviews == []
    assert (workspace / "a.txt").exists()
    assert window.history.runs.count() == 1


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> Callable[[bool], list[CopiedText]]:
    asked: list[CopiedText] = []

    def answer(yes: bool) -> list[CopiedText]:
        def ask(parent: object, verdict: CopiedText) -> bool:
            asked.append(verdict)
            return yes

        monkeypatch.setattr(CopiedReplyQuestion, "ask", ask)
        return asked

    return answer


def test_a_reply_quoting_a_primer_example_is_asked_about_first(
    qtbot: QtBot,
    make_window: WindowFactory,
    workspace: Path,
    raised: list[str],
    questions: Callable[[bool], list[CopiedText]],
    elsewhere: QWidget,
) -> None:
    window = watching(make_window, workspace)
    elsewhere.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is elsewhere)
    raised.clear()
    asked = questions(False)
    text = reply(PRIMER_READ_1, command("r2", "fs.read", path="a.txt"))
    QApplication.clipboard().setText(text)
    qtbot.waitUntil(lambda: len(asked) == 1)
    assert [verdict.examples for verdict in asked] == [("read-1",)]
    assert asked[0].action is CopiedAction.ASK
    assert raised == ["raise", "activate"]  # the question needs the person
    assert not window.flow.busy
    assert window.paste.text() == ""
    assert QApplication.clipboard().text() == text
    assert "not run" in window.statusBar().currentMessage()

    asked = questions(True)
    again = text.replace("r2", "r3")
    with qtbot.waitSignal(window.flow.finished, timeout=10000):
        QApplication.clipboard().setText(again)
    assert len(asked) == 2
    assert window.paste.text() == again
    assert QApplication.clipboard().text().startswith("OPERATOR_RESULT\nid: read-1\n")


def test_the_question_is_a_real_dialog_that_says_no_by_default(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, raised: list[str]
) -> None:
    window = watching(make_window, workspace)
    seen: list[str] = []

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(10, press_enter)  # not asked yet
            return
        seen.append(box.text())
        box.defaultButton().click()

    QTimer.singleShot(0, press_enter)
    QApplication.clipboard().setText(reply(PRIMER_READ_1))
    qtbot.waitUntil(lambda: len(seen) == 1)
    qtbot.waitUntil(lambda: "not run" in window.statusBar().currentMessage())
    assert "1 example command of the app (read-1)" in seen[0]
    assert not window.flow.busy
    assert window.paste.text() == ""


def test_text_without_commands_and_the_watch_off_are_ignored(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, raised: list[str]
) -> None:
    window = make_window(workspace)
    raised.clear()
    assert window.settings.clipboard_watch is False  # off by default
    QApplication.clipboard().setText(reply(command("r1", "fs.read", path="a.txt")))
    window.window_actions.watch.setChecked(True)
    QApplication.clipboard().setText("just some prose that mentions OPERATOR_CMD once")
    QApplication.clipboard().setText("OPERATOR_RESULT\nid: x\nok: true\nEND_OPERATOR_RESULT")
    qtbot.wait(300)
    assert window.paste.text() == ""
    assert raised == []
    assert not window.flow.busy


def test_a_reply_copied_before_a_workspace_is_chosen_waits_in_the_pane(
    qtbot: QtBot, make_window: WindowFactory, raised: list[str]
) -> None:
    window = watching(make_window, None)
    text = reply(command("r1", "fs.read", path="a.txt"))
    QApplication.clipboard().setText(text)
    qtbot.waitUntil(lambda: window.paste.text() == text)
    assert "workspace" in window.statusBar().currentMessage().lower()
    assert not window.flow.busy
    assert window.pickup.running is False
