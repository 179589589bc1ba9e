"""The window's Relay menu: ``llm-operator relay`` for the open workspace, started, paused
and stopped from here, its pairing code and what it does in sight.

The relay runs as a process of its own (``--approve window --control``): a slow or
hostile client of its socket holds that process, never the window. Its writes and secret
reads come to this window's review dialog through the review socket, as an MCP server's
do (``McpReviews``), titled with the tab and conversation they came from. The window reads
the relay's log lines on its standard error (the pairing code, refusals, which chat a run
came from) and writes ``pause``, ``resume`` and ``stop`` on its standard input.

Every text of a log line that came from a web page (site, title, conversation) is shown
through ``core.visible`` and set as plain text.
"""

from __future__ import annotations

import re
import sys
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QProcess, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu

from ..core.visible import shown

if TYPE_CHECKING:
    from ..core.plan.session import Session

DEFAULT_PORT = 8765
PREFIX = "llm-operator relay: "
_CODE = re.compile(r"^pairing code: ([A-Z0-9-]{4,20})$")
_LISTENING = re.compile(r"^listening on ws://127\.0\.0\.1:(\d+)$")
# A chat's title and conversation come from a web page and sit inside these lines: each
# pattern is anchored at both ends on the relay's own words, so a title holding
# ": 1 command(s) wait for the window" cannot make a finished run look like one waiting.
_WHERE = r"(?:the window|the terminal|nobody \(--approve (?:no|yes)\))"
_WAITS = re.compile(rf"^(.*): \d+ command\(s\) wait for {_WHERE}$")
_RAN = re.compile(
    r"^(.*): message (.*?): \d+ (?:early result\(s\)|result\(s\) in \d+ part\(s\)"
    r"(?: after review)?)$"
)
# The relay's own lines that may end with text from outside (a notice, an error, a
# header): never read as a chat's state.
_OWN = ("refused a connection", "cannot listen", "paired", "connected: ", "note: ", "internal")
STOP_WAIT_MS = 5000


def _menu_text(text: str) -> str:
    """``text`` for a menu item: invisible characters marked, ``&`` not a mnemonic."""
    return shown(text).replace("&", "&&")


class RelayMenu(QObject):
    def __init__(
        self,
        window: QMainWindow,
        session: Callable[[], Session | None],
        say: Callable[[str], None],
        port: int = DEFAULT_PORT,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._session = session
        self._say = say
        self.port = port
        self._process: QProcess | None = None
        self._buffer = b""
        self.log: deque[str] = deque(maxlen=200)
        self.code = ""
        self.state = "stopped"
        self.last_chat = ""
        menu = window.menuBar().addMenu("Re&lay")
        menu.setObjectName("relay-menu")
        self.menu = menu
        self.start_action = self._add(menu, "&Start the relay", self.start)
        self.pause_action = self._add(menu, "&Pause (relay nothing)", None)
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self.set_paused)
        self.stop_action = self._add(menu, "S&top the relay", self.stop)
        menu.addSeparator()
        self.code_action = self._add(menu, "", None)
        self.copy_action = self._add(menu, "&Copy the pairing code", self._copy_code)
        self.state_action = self._add(menu, "", None)
        self.chat_action = self._add(menu, "", None)
        for line in (self.code_action, self.state_action, self.chat_action):
            line.setEnabled(False)
        self.port_in_use = 0
        self.label = QLabel()
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a chat's title is shown in it
        self.label.setObjectName("relay-state")
        window.statusBar().addPermanentWidget(self.label)
        window.installEventFilter(self)
        self._show()

    def _add(self, menu: QMenu, text: str, slot: Callable[[], object] | None) -> QAction:
        action = QAction(text, self._window)
        if slot is not None:
            action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    @property
    def running(self) -> bool:
        return self._process is not None

    # -- the process -------------------------------------------------------------------

    def start(self) -> bool:
        """Start the relay for the open workspace; False (and said why) when it cannot."""
        session = self._session()
        if self.running:
            return True
        if session is None or session.state_dir is None:
            self._say("Open a workspace first: the relay serves the open workspace.")
            return False
        process = QProcess(self)
        process.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        process.setStandardOutputFile(QProcess.nullDevice())
        process.readyReadStandardError.connect(self._read)
        process.finished.connect(self._finished)
        arguments = ["-m", "llm_operator.cli", "relay", "--control", "--approve", "window"]
        arguments += ["--workspace", str(session.workspace.root)]
        arguments += ["--state-dir", str(session.state_dir), "--port", str(self.port)]
        self._process = process
        self.code, self.state, self.last_chat = "", "starting", ""
        process.start(sys.executable, arguments)
        self._show()
        return True

    def stop(self) -> None:
        process = self._process
        if process is None:
            return
        process.write(b"stop\n")
        process.closeWriteChannel()
        if not process.waitForFinished(STOP_WAIT_MS):
            process.kill()
            process.waitForFinished(STOP_WAIT_MS)
        self._finished()

    def set_paused(self, paused: bool) -> None:
        if self._process is not None:
            self._process.write(b"pause\n" if paused else b"resume\n")

    def _finished(self, *_args: object) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        self._read_from(process)
        process.deleteLater()
        self.code, self.state = "", "stopped"
        if self.pause_action.isChecked():
            self.pause_action.setChecked(False)
        self._show()

    def _read(self) -> None:
        if self._process is not None:
            self._read_from(self._process)

    def _read_from(self, process: QProcess) -> None:
        self._buffer += bytes(process.readAllStandardError().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for raw in lines:
            self._line(raw.decode("utf-8", "replace").rstrip("\r"))
        self._show()

    def _line(self, line: str) -> None:
        self.log.append(line)
        if found := _CODE.match(line):
            self.code = found.group(1)
            return
        text = line.removeprefix(PREFIX)
        if text.startswith(_OWN):
            if text.startswith(("refused a connection", "cannot listen", "paired")):
                self._say(f"Relay: {shown(text)}")
        elif found := _LISTENING.match(text):
            self.port_in_use = int(found.group(1))
            self.state = "running"
        elif text in ("paused", "running"):
            self.state = text
        elif found := _WAITS.match(text):
            self.state = "waiting for approval"
            self.last_chat = found.group(1)
        elif found := _RAN.match(text):
            self.state = "paused" if self.pause_action.isChecked() else "running"
            self.last_chat = found.group(1)

    # -- what the window shows ------------------------------------------------------

    def _show(self) -> None:
        running = self.running
        self.start_action.setEnabled(not running)
        self.stop_action.setEnabled(running)
        self.pause_action.setEnabled(running)
        self.copy_action.setEnabled(bool(self.code))
        self.code_action.setText(f"Pairing code: {self.code or '(start the relay)'}")
        self.state_action.setText(f"State: {self.state}")
        chat = _menu_text(self.last_chat) if self.last_chat else "none yet"
        self.chat_action.setText(f"Last run from: {chat}")
        words = {
            "stopped": "Relay: off",
            "starting": "Relay: starting...",
        }
        text = words.get(self.state, f"Relay: {self.state}")
        if self.code and self.state in ("running", "paused"):
            text += f" - pairing code {self.code}"
        if self.last_chat and self.state == "waiting for approval":
            text += f" ({shown(self.last_chat)})"
        self.label.setText(text)

    def _copy_code(self) -> None:
        if self.code:
            QGuiApplication.clipboard().setText(self.code)
            self._say("Pairing code copied: paste it into the extension's options.")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Close:
            self.stop()
        return False


def relay_menu_for(window: QMainWindow, session: Callable[[], Session | None]) -> RelayMenu:
    """The Relay menu of ``window``, its messages in the status bar."""
    return RelayMenu(window, session, lambda text: window.statusBar().showMessage(text, 10000))


__all__ = ["DEFAULT_PORT", "RelayMenu", "relay_menu_for"]
