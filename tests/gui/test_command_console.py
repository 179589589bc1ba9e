"""A command run from the window: its output shows while it runs, Stop ends it and all it
started, closing the window ends it too, and the output stays in the run history.

The children are real processes. They wait on gate files the test creates, never on the
clock, so "a line shows before the command ends" is checked without racing time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import Session
from llm_operator.core.store.command_watch import Ended, Started
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.command_console import CommandOutputDialog, WindowWatch, ending_text

from .conftest import WindowFactory, command, reply

# Prints a line, waits for the gate file, prints another, exits 3.
GATED = """\
import os, sys, time
print("first line", flush=True)
print("\\x1b[31mred\\x1b[0m and a bell \\x07", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
print("second line", flush=True)
sys.exit(3)
"""

# Starts a grandchild that sleeps, writes both process ids to a file, then sleeps itself.
FAMILY = """\
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(f"{__import__('os').getpid()} {child.pid}")
__import__("os").replace(sys.argv[1] + ".tmp", sys.argv[1])
print("ready", flush=True)
time.sleep(300)
"""


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _start(qtbot: QtBot, window: object, text: str) -> None:
    QApplication.clipboard().setText(text)
    editor = window.paste.editor  # type: ignore[attr-defined]
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)


def _run_line(script: Path, *args: Path) -> str:
    return " ".join([sys.executable, str(script), *(str(a) for a in args)])


@pytest.mark.usefixtures("approve_everything")
def test_output_shows_while_the_command_runs_and_stays_in_the_history(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    script = tmp_path / "gated.py"
    script.write_text(GATED)
    gate = tmp_path / "gate"
    window = make_window(workspace)
    _start(qtbot, window, reply(command("r1", "run.command", command=_run_line(script, gate))))
    dialog = window.console.dialog
    # Both lines come before the gate, but in two writes: wait for the second.
    qtbot.waitUntil(lambda: "and a bell" in dialog.output.toPlainText(), timeout=10000)
    assert "first line" in dialog.output.toPlainText()
    # The command is still running: it waits for the gate.
    assert window.flow.busy
    assert dialog.stop_button.isEnabled()
    assert not dialog.close_button.isEnabled()
    assert "second line" not in dialog.output.toPlainText()
    shown = dialog.output.toPlainText()
    assert "red and a bell <U+0007>" in shown  # colours removed, controls shown
    assert "\x1b" not in shown
    assert dialog.command.text().startswith("$ ")
    with qtbot.waitSignal(window.flow.finished, timeout=10000):
        gate.write_text("go")
    qtbot.waitUntil(lambda: "Exit 3" in dialog.status.text())
    assert "second line" in dialog.output.toPlainText()
    assert not dialog.stop_button.isEnabled()
    assert dialog.close_button.isEnabled()
    results = window.results.raw.toPlainText()
    assert "run.command failed (ERR_EXIT_STATUS): exit 3" in results
    # The run history keeps the output: in the window, and in the store for a later one.
    record = window.history.records[-1]
    assert record.results is not None
    assert "second line" in record.results.text
    assert "asked before it ran: runs the command [" in record.text
    assert "read the file" not in record.text
    later = Session(Workspace(workspace), tmp_path / "state")
    number = later.stored_runs()[-1].number
    kept = later.run_results(number)
    assert kept is not None
    assert "first line" in kept
    assert "second line" in kept


@pytest.mark.usefixtures("approve_everything")
def test_stop_ends_the_command_and_its_grandchild(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    script = tmp_path / "family.py"
    script.write_text(FAMILY)
    pids = tmp_path / "pids"
    window = make_window(workspace)
    _start(qtbot, window, reply(command("r1", "run.command", command=_run_line(script, pids))))
    dialog = window.console.dialog
    qtbot.waitUntil(lambda: "ready" in dialog.output.toPlainText(), timeout=10000)
    child, grandchild = (int(word) for word in pids.read_text().split())
    assert alive(child)
    assert alive(grandchild)
    assert os.getpgid(grandchild) == os.getpgid(child) == child
    with qtbot.waitSignal(window.flow.finished, timeout=15000):
        qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    assert not alive(child)
    qtbot.waitUntil(lambda: not alive(grandchild), timeout=5000)  # reaped by its new parent
    with pytest.raises(ProcessLookupError):
        os.killpg(child, 0)
    results = window.results.raw.toPlainText()
    assert "run.command failed (ERR_STOPPED_BY_USER): stopped by the user after" in results
    assert "ready" in results
    assert "Stopped by you" in dialog.status.text()


@pytest.mark.slow
@pytest.mark.usefixtures("approve_everything")
def test_closing_the_window_ends_a_running_command_and_all_it_started(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    script = tmp_path / "family.py"
    script.write_text(FAMILY)
    pids = tmp_path / "pids"
    window = make_window(workspace)
    _start(qtbot, window, reply(command("r1", "run.command", command=_run_line(script, pids))))
    qtbot.waitUntil(lambda: "ready" in window.console.dialog.output.toPlainText(), timeout=10000)
    child, grandchild = (int(word) for word in pids.read_text().split())
    window.close()  # waits for the run's worker, which ends the group
    assert not alive(child)
    qtbot.waitUntil(lambda: not alive(grandchild), timeout=5000)
    with pytest.raises(ProcessLookupError):
        os.killpg(child, 0)


# Prints many lines as fast as it can, then waits for the gate file.
FLOOD = """\
import os, sys, time
out = sys.stdout
for n in range(200_000):
    out.write(f"line {n} \\u202e hidden\\n")
out.write("flood done\\n")
out.flush()
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
"""


@pytest.mark.slow
@pytest.mark.usefixtures("approve_everything")
def test_a_flood_of_output_stays_bounded_in_the_view(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    from llm_operator.gui.command_console import SHOWN_BLOCKS

    script = tmp_path / "flood.py"
    script.write_text(FLOOD)
    gate = tmp_path / "gate"
    window = make_window(workspace)
    _start(qtbot, window, reply(command("r1", "run.command", command=_run_line(script, gate))))
    dialog = window.console.dialog
    qtbot.waitUntil(lambda: "flood done" in dialog.output.toPlainText(), timeout=60000)
    assert dialog.output.blockCount() <= SHOWN_BLOCKS
    text = dialog.output.toPlainText()
    assert "\u202e" not in text  # a bidi control is shown as a marker, never applied
    assert "line 199999 <U+202E> hidden" in text
    with qtbot.waitSignal(window.flow.finished, timeout=20000):
        gate.write_text("go")
    results = window.results.raw.toPlainText()
    assert "lines left out" in results  # the result keeps its own budget


@pytest.mark.usefixtures("approve_everything")
def test_stop_ends_only_the_command_running_not_the_next_one(
    qtbot: QtBot, make_window: WindowFactory, workspace: Path, tmp_path: Path
) -> None:
    script = tmp_path / "family.py"
    script.write_text(FAMILY)
    pids = tmp_path / "pids"
    after = f"{sys.executable} -c 'print(\"the next one ran\")'"
    text = reply(
        command("r1", "run.command", command=_run_line(script, pids)),
        command("r2", "run.command", command=after),
    )
    window = make_window(workspace)
    _start(qtbot, window, text)
    dialog = window.console.dialog
    qtbot.waitUntil(lambda: "ready" in dialog.output.toPlainText(), timeout=10000)
    with qtbot.waitSignal(window.flow.finished, timeout=15000):
        qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    results = window.results.raw.toPlainText()
    assert "run.command failed (ERR_STOPPED_BY_USER)" in results
    assert "the next one ran" in results
    assert "Exit 0" in dialog.status.text()


def test_the_ending_is_said_plainly() -> None:
    from llm_operator.core.store.command_watch import Ended
    from llm_operator.gui.command_console import ending_text

    assert ending_text(Ended(0, None, False, False, 1.25)) == "Exit 0 in 1.2 s."
    assert ending_text(Ended(None, 15, False, True, 2.0)).startswith("Stopped by you after 2.0 s")
    assert ending_text(Ended(None, 9, True, False, 120.0)).startswith("Timed out after 120.0 s")
    assert ending_text(Ended(None, 11, False, False, 0.5)) == "Ended by signal SIGSEGV after 0.5 s."
    assert "did not reach the window" in ending_text(Ended(None, None, False, False, 0.0))


def test_output_that_prints_a_command_line_cannot_pass_for_one_that_ran(qtbot: QtBot) -> None:
    # A command prints what the window's own lines look like; the window's lines are
    # bold, output never is, so the fake "$ rm -rf ." is told apart from the real one.
    watch = WindowWatch()
    dialog = CommandOutputDialog(None, watch)
    qtbot.addWidget(dialog)
    watch.started(Started(("make", "test"), ".", 120.0))
    qtbot.waitUntil(lambda: dialog.command.text() == "$ make test", timeout=10000)
    watch.started(Started(("echo", "a\n$ rm -rf ."), ".", 120.0))
    qtbot.waitUntil(lambda: "echo" in dialog.command.text(), timeout=10000)
    assert dialog.command.text() == "$ echo 'a<U+000A>$ rm -rf .'"
    dialog.output.clear()
    watch.started(Started(("make", "test"), ".", 120.0))
    fake = "$ rm -rf .\n# in folder . of the workspace, for at most 120 s\n# Exit 0 in 0.1 s.\n"
    watch.output(b"\x1b[1m" + fake.encode())
    watch.ended(Ended(3, None, False, False, 0.5))
    qtbot.waitUntil(lambda: "Exit 3" in dialog.output.toPlainText(), timeout=10000)
    document = dialog.output.document()
    blocks = [document.findBlockByNumber(n) for n in range(document.blockCount())]
    # Line by line: the cursor at a block's start reads the format of its first character.
    weights = []
    for block in blocks:
        cursor = QTextCursor(block)
        cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)
        weights.append((block.text(), cursor.charFormat().fontWeight() == QFont.Weight.Bold))
    assert weights == [
        ("$ make test", True),
        ("# in folder . of the workspace, for at most 120 s", True),
        ("$ rm -rf .", False),
        ("# in folder . of the workspace, for at most 120 s", False),
        ("# Exit 0 in 0.1 s.", False),
        ("# Exit 3 in 0.5 s.", True),
    ]


def test_an_ending_by_any_signal_is_said() -> None:
    assert ending_text(Ended(None, 40, False, False, 1.0)).startswith("Ended by signal SIGRTMIN+")
    assert ending_text(Ended(None, 15, False, False, 1.0)).startswith("Ended by signal SIGTERM")
