"""Files changed outside the app since the LLM read them are flagged."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import APPROVE, Pending
from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

from .conftest import WindowFactory, command, paste_and_run, reply


def test_a_file_changed_outside_after_a_read_gets_the_badge(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    window = make_window(workspace)
    assert window.watcher is not None
    assert window.watcher.running
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    time.sleep(0.05)  # a different mtime even on coarse file systems
    (workspace / "a.txt").write_text("alpha\nbeta\nedited elsewhere\n")
    qtbot.waitUntil(lambda: "a.txt" in window.watcher.changed_outside(), timeout=5000)
    assert window.watch_label.text() == "1 changed outside"

    badges: list[list[str]] = []

    def decide(parent: object, pending: list[Pending], outside: frozenset[str] = frozenset()):
        dialog = ConfirmDialog(None, pending, outside)
        badges.extend(state.badges[0] for state in dialog.states)
        dialog.deleteLater()
        return {item.index: APPROVE for item in pending}

    monkeypatch.setattr(ConfirmDialog, "ask", decide)
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="a.txt", content="x")))
    assert badges == [["edited", "outside"]]
    # The write showed the LLM's version of the file again: no longer flagged.
    assert window.watcher.changed_outside() == frozenset()
    assert window.watch_label.text() == "watching files"


@pytest.mark.usefixtures("approve_everything")
def test_the_apps_own_writes_are_not_flagged(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    paste_and_run(qtbot, window, reply(command("w1", "fs.write", path="a.txt", content="x")))
    assert window.watcher is not None
    qtbot.wait(600)  # let the observer deliver the events of that write
    assert window.watcher.changed_outside() == frozenset()


def test_a_watcher_that_cannot_start_is_reported_and_the_app_goes_on(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from watchdog.observers import Observer

    def refuse(self: object, *args: object, **kwargs: object) -> None:
        raise OSError(28, "inotify watch limit reached")

    monkeypatch.setattr(Observer, "start", refuse)
    window = make_window(workspace)
    assert window.watcher is not None
    assert not window.watcher.running
    assert window.watch_label.text() == "watcher off"
    assert "inotify watch limit reached" in window.watch_label.toolTip()
    assert "File watcher off" in window.statusBar().currentMessage()
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    assert "id: r1\nok: true" in window.results.raw.toPlainText()
