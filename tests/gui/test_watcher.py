"""Files changed outside the app since the LLM read them are flagged."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import APPROVE, Pending
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


@pytest.mark.slow
def test_a_storm_of_file_events_costs_a_few_ui_updates(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    window = make_window(workspace)
    watcher = window.watcher
    assert watcher is not None
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    changes: list[int] = []
    watcher.changed.connect(lambda: changes.append(1))
    storm = workspace / "build"
    storm.mkdir()
    started = time.monotonic()
    for n in range(3000):
        (storm / f"f{n}.o").write_bytes(b"x")
    for n in range(3000):
        (storm / f"f{n}.o").unlink()
    qtbot.waitUntil(lambda: watcher.events_seen >= 6000, timeout=20000)
    elapsed = time.monotonic() - started
    # At most one flush per 200 ms while events arrive, plus the last one.
    assert watcher.flushes <= elapsed / 0.2 + 3
    assert watcher.flushes < 100
    assert len(changes) <= 2 * watcher.flushes
    assert watcher.changed_outside() == frozenset()  # none of them was a file the LLM saw
    assert window.watch_label.text() == "watching files"
    assert "file events seen" in window.watch_label.toolTip()


def test_an_overflow_says_so_and_rechecks_every_tracked_file(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui import watcher as watcher_module

    window = make_window(workspace)
    watcher = window.watcher
    assert watcher is not None
    many = reply(*(command(f"w{n}", "fs.read", path=f"t{n}.txt") for n in range(8)))
    for n in range(8):
        (workspace / f"t{n}.txt").write_text(f"{n}\n")
    paste_and_run(qtbot, window, many)
    assert watcher.tracked == 8
    monkeypatch.setattr(watcher_module, "INBOX_LIMIT", 2)
    monkeypatch.setattr(watcher_module, "RESCAN_CHUNK", 3)
    states: list[str] = []
    watcher.changed.connect(lambda: states.append(window.watch_label.text()))
    time.sleep(0.05)
    for n in range(8):
        (workspace / f"t{n}.txt").write_text(f"{n} changed elsewhere\n")
    qtbot.waitUntil(lambda: len(watcher.changed_outside()) == 8, timeout=10000)
    assert watcher.overflows >= 1
    assert "watcher behind: rechecking" in states
    qtbot.waitUntil(lambda: not watcher.behind, timeout=5000)
    assert window.watch_label.text() == "8 changed outside"


def test_the_files_changed_outside_can_be_listed(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llm_operator.gui.dialogs.changed_outside import ChangedOutsideDialog

    shown: list[list[str]] = []
    monkeypatch.setattr(
        ChangedOutsideDialog, "ask", lambda parent, names, note, copy: shown.append(names)
    )
    window = make_window(workspace)
    text = reply(
        command("r1", "fs.read", path="a.txt"), command("r2", "fs.read", path="src/app.py")
    )
    paste_and_run(qtbot, window, text)
    time.sleep(0.05)
    (workspace / "src" / "app.py").write_text("changed\n")
    assert window.watcher is not None
    qtbot.waitUntil(lambda: len(window.watcher.changed_outside()) == 1, timeout=5000)
    qtbot.mouseClick(window.watch_label, Qt.MouseButton.LeftButton)
    assert shown == [["src/app.py"]]


def test_a_kernel_queue_overflow_makes_the_watcher_recheck(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path
) -> None:
    import logging
    import threading

    window = make_window(workspace)
    watcher = window.watcher
    assert watcher is not None
    paste_and_run(qtbot, window, reply(command("r1", "fs.read", path="a.txt")))
    with watcher._inbox.lock:  # the lost event: nobody tells the watcher about this write
        watcher._stamps["a.txt"] = (0, 0)
    # What watchdog logs from its reader thread when the kernel drops events.
    logger = logging.getLogger("watchdog.observers.inotify_c")
    thread = threading.Thread(
        target=lambda: logger.warning("Inotify queue overflowed; filesystem events were lost")
    )
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: watcher.overflows == 1, timeout=5000)
    qtbot.waitUntil(lambda: "a.txt" in watcher.changed_outside(), timeout=5000)
    assert not watcher.behind
