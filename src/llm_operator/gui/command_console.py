"""The window's view of a command while it runs: its output as it comes, and a Stop button.

``WindowWatch`` is the ``core.store.command_watch.CommandWatch`` the run flow installs
around the work of a run (``gui.run_flow``). It is called on the worker thread that runs
the command and only sets flags and emits signals; the dialog, on the main thread, takes
the waiting lines when told some are there, so a command that prints without pause
costs one repaint per batch of lines, never one per line, and memory stays bounded
(``LiveLines`` keeps at most 2,000 lines between two repaints, the view the last 5,000).

Stop asks ``run_command`` to end the command now running (its whole process group:
SIGTERM, then SIGKILL); its result then says it was stopped by the user
(ERR_STOPPED_BY_USER). ``stop_all`` (the window closing) stops every command the run
starts from then on too. The output also stays in the result, so the results pane and the
run history keep it after the dialog is closed.
"""

from __future__ import annotations

import shlex
import threading

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QFont,
    QFontDatabase,
    QKeyEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.store.command_watch import Ended, LiveLines, Started
from ..core.store.signal_names import signal_name
from ..core.visible import shown, shown_lines
from .plain_text import set_plain

SHOWN_BLOCKS = 5000  # lines the view keeps; older ones scroll away


class WindowWatch(QObject):
    """A ``CommandWatch`` that reports to the main thread through queued signals."""

    began = Signal(object)  # Started
    lines_ready = Signal()
    ended_with = Signal(object)  # Ended

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._command = 0  # the number of the command that started last
        self._running = False
        self._stop_for = 0  # the number of the command the person stopped (0: none)
        self._closing = threading.Event()
        self.lines = LiveLines()

    # -- called on the worker thread ---------------------------------------------

    def started(self, started: Started) -> None:
        with self._lock:
            self._command += 1
            self._running = True
        self.began.emit(started)

    def output(self, chunk: bytes) -> None:
        if self.lines.feed(chunk):
            self.lines_ready.emit()

    def stop_asked(self) -> bool:
        with self._lock:
            return self._closing.is_set() or self._stop_for == self._command

    def ended(self, ended: Ended) -> None:
        with self._lock:
            self._running = False
        self.lines.flush()
        self.lines_ready.emit()
        self.ended_with.emit(ended)

    # -- called on the main thread -----------------------------------------------

    @property
    def running(self) -> bool:
        with self._lock:
            return self._running

    def stop(self) -> None:
        """End the command running now (not the ones the run starts after it)."""
        with self._lock:
            if self._running:
                self._stop_for = self._command

    def stop_all(self) -> None:
        """End the command running now and every one started after (the window closes)."""
        self._closing.set()


def ending_text(ended: Ended) -> str:
    took = f"{ended.seconds:.1f} s"
    if ended.stopped:
        return f"Stopped by you after {took}; it and all it started were ended."
    if ended.timed_out:
        return f"Timed out after {took}; it and all it started were ended."
    if ended.signal is not None:
        return f"Ended by signal {signal_name(ended.signal)} after {took}."
    if ended.status is None:  # an MCP server's stream broke off before the end
        return "Ended; how it ended did not reach the window (see its result)."
    return f"Exit {ended.status} in {took}."


class CommandOutputDialog(QDialog):
    """Non-modal: the output of the commands of a run, live, with Stop."""

    def __init__(self, parent: QWidget | None, watch: WindowWatch) -> None:
        super().__init__(parent)
        self.setObjectName("command-output")
        self.setWindowTitle("LLM Operator - Command output")
        self.setModal(False)
        self.resize(900, 520)
        self._watch = watch
        layout = QVBoxLayout(self)
        self.command = QLabel()
        self.command.setObjectName("command-line")
        self.command.setWordWrap(True)
        self.command.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bold = QFont(self.command.font())
        bold.setBold(True)
        self.command.setFont(bold)
        layout.addWidget(self.command)
        self.output = QPlainTextEdit()
        self.output.setObjectName("command-lines")
        self.output.setReadOnly(True)
        self.output.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.output.setMaximumBlockCount(SHOWN_BLOCKS)
        self.output.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout.addWidget(self.output, 1)
        row = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("command-status")
        self.status.setWordWrap(True)
        row.addWidget(self.status, 1)
        self.stop_button = QPushButton("&Stop")
        self.stop_button.setObjectName("stop-command")
        self.stop_button.setToolTip("End the command and every process it started")
        self.stop_button.clicked.connect(self._stop)
        row.addWidget(self.stop_button)
        self.close_button = QPushButton("&Close")
        self.close_button.clicked.connect(self.hide)
        row.addWidget(self.close_button)
        layout.addLayout(row)
        self._set_running(False)
        queued = Qt.ConnectionType.QueuedConnection
        watch.began.connect(self._began, queued)
        watch.lines_ready.connect(self._show_lines, queued)
        watch.ended_with.connect(self._ended, queued)

    def _set_running(self, running: bool) -> None:
        self.stop_button.setEnabled(running)
        # While a command runs the dialog stays: its Stop button is the way to end it.
        self.close_button.setEnabled(not running)

    def _began(self, started: Started) -> None:
        words = " ".join(shlex.quote(arg) for arg in started.argv)
        # One line, as in the view: an argument's line break is a marker, never a second
        # "$ ..." line under the real one.
        set_plain(self.command, f"$ {shown(words)}", rendered=True)
        where = (
            f"in folder {shown(started.cwd)} of the workspace, for at most {started.timeout:g} s"
        )
        self._append(f"$ {shown(words)}\n# {where}", own=True)
        set_plain(self.status, f"Running {where}...", rendered=True)
        self._set_running(True)
        if not self.isVisible():
            self.show()

    def _show_lines(self) -> None:
        lines, dropped = self._watch.lines.take()
        if dropped:
            self._append(f"# ... {dropped:,} lines came faster than shown: left out ...", True)
        if lines:
            self._append("\n".join(shown_lines(line) for line in lines))

    def _ended(self, ended: Ended) -> None:
        self._show_lines()
        text = ending_text(ended)
        self._append(f"# {text}", own=True)
        set_plain(self.status, text + " Its result holds the output too.", rendered=True)
        self._set_running(False)

    def _append(self, text: str, own: bool = False) -> None:
        """Add lines at the end, keeping the view at the start of the lines (a long line
        would otherwise scroll every line's beginning out of sight). The window's own lines
        (``own``: the ``$`` line, where, how it ended) are bold; a command's output never
        is, so output that prints ``$ rm -rf ...`` cannot pass for a command that ran."""
        bar = self.output.verticalScrollBar()
        at_end = bar.value() == bar.maximum()
        look = QTextCharFormat()
        look.setFontWeight(QFont.Weight.Bold if own else QFont.Weight.Normal)
        cursor = QTextCursor(self.output.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if not self.output.document().isEmpty():
            cursor.insertBlock(QTextBlockFormat(), look)
        cursor.insertText(text, look)
        if at_end:
            bar.setValue(bar.maximum())
        self.output.horizontalScrollBar().setValue(0)

    def _stop(self) -> None:
        self._watch.stop()
        self.stop_button.setEnabled(False)
        set_plain(self.status, "Stopping: ending the command and all it started...", rendered=True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self._watch.running:
            return  # Escape would only hide it: the command goes on
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._watch.running:
            event.ignore()
            return
        super().closeEvent(event)


class CommandConsole(QObject):
    """The window's watch and its dialog, made when the window is."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.watch = WindowWatch(self)
        self.dialog = CommandOutputDialog(parent, self.watch)

    def stop_all(self) -> None:
        self.watch.stop_all()
