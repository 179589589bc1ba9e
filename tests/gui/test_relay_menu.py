"""The window's Relay menu: it starts ``llm-operator relay`` for the open workspace, shows
the pairing code, reviews a relayed write in its own dialog naming the tab and the
conversation it came from, shows where the last run came from, pauses and stops."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot
from websockets.sync.client import connect

from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")
EXTENSION = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
WRITE = (
    "OPERATOR_CMD\nversion: 1\nid: w1\naction: fs.write\npath: relayed.txt\n"
    "content: from the relay\nEND_OPERATOR_CMD\n"
)


def _review_dialog() -> ConfirmDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, ConfirmDialog) and widget.isVisible():
            return widget
    return None


def _chat(port: int, code: str, out: dict[str, Any]) -> None:
    """The extension's side, in a thread: pair, say hello, relay one reply."""
    url = f"ws://127.0.0.1:{port}"
    try:
        with connect(url, origin=EXTENSION, open_timeout=30) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "pair", "code": code}))
            token = json.loads(ws.recv(timeout=30))["token"]
        with connect(url, origin=EXTENSION, open_timeout=30) as ws:  # type: ignore[arg-type]
            hello = {"type": "hello", "token": token, "site": "claude", "conversation": "/chat/9"}
            ws.send(json.dumps(hello))
            reply = {"type": "reply", "conversation": "/chat/9", "message_id": "m1"}
            ws.send(json.dumps({**reply, "text": WRITE, "title": "Fix the & bug"}))
            while True:
                answer = json.loads(ws.recv(timeout=120))
                if answer["type"] == "results":
                    out["answer"] = answer
                    return
    except BaseException as error:  # reported by the test
        out["error"] = error


def test_the_relay_menu_runs_a_relayed_write_through_the_window_review(
    qtbot: QtBot, make_window: Any, workspace: Path
) -> None:
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening)
    relay = window.relay
    assert relay.label.text() == "Relay: off"
    relay.port = 0  # any free port
    assert relay.start()
    try:
        qtbot.waitUntil(lambda: relay.state == "running" and bool(relay.code), timeout=60000)
        assert relay.code in relay.label.text()
        assert relay.code in relay.code_action.text()
        out: dict[str, Any] = {}
        thread = threading.Thread(target=_chat, args=(relay.port_in_use, relay.code, out))
        thread.start()
        try:
            qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
            dialog = _review_dialog()
            assert dialog is not None
            title = dialog.windowTitle()
            assert "(relay) asks for 1 command" in title
            assert 'claude tab "Fix the & bug" (conversation /chat/9)' in title
            assert relay.state == "waiting for approval"
            assert "claude tab" in relay.label.text()
            assert not (workspace / "relayed.txt").exists()
            approve = dialog.findChild(QPushButton, "approve-all")
            assert approve is not None
            qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
        finally:
            thread.join(timeout=60)
        assert "error" not in out, out.get("error")
        assert "ok: true" in out["answer"]["parts"][0]
        assert (workspace / "relayed.txt").read_text() == "from the relay"
        qtbot.waitUntil(lambda: relay.state == "running")
        # The menu names where the run came from; its '&' is not taken for a mnemonic.
        assert "Fix the && bug" in relay.chat_action.text()
        relay.pause_action.setChecked(True)
        qtbot.waitUntil(lambda: relay.state == "paused")
        assert "paused" in relay.label.text()
    finally:
        relay.stop()
    assert relay.state == "stopped"
    assert not relay.running
    assert relay.label.text() == "Relay: off"


def test_a_page_title_cannot_make_a_finished_run_look_like_one_waiting(qtbot: QtBot) -> None:
    # The fallback relays a selection from any page, titled with the page's own title:
    # that title sits inside the relay's log lines the window reads its state from.
    from PySide6.QtWidgets import QMainWindow

    from llm_operator.core.visible import shown
    from llm_operator.gui.relay_menu import PREFIX, RelayMenu
    from llm_operator.relay.channel import Chat

    window = QMainWindow()
    qtbot.addWidget(window)
    menu = RelayMenu(window, lambda: None, lambda _text: None)
    menu.state = "running"
    title = "x: 1 command(s) wait for the window"
    chat = Chat("fallback", "/page", title)
    menu._line(PREFIX + shown(f"{chat.describe()}: message m1: 2 result(s) in 1 part(s)"))
    assert menu.state == "running"
    assert menu.last_chat == chat.describe()
    conversation = Chat("fallback", "c: 1 command(s) wait for the window")
    menu._line(PREFIX + shown(f"connected: {conversation.describe()}"))
    assert menu.state == "running"
    # The relay's own line for a run that waits is still read as one.
    menu._line(PREFIX + shown(f"{chat.describe()}: 1 command(s) wait for the window"))
    assert menu.state == "waiting for approval"
    assert menu.last_chat == chat.describe()


def test_a_title_cannot_start_a_log_line_of_its_own(qtbot: QtBot, capsys: Any) -> None:
    # The relay writes every log line through core.visible: a line break in a title is a
    # marker, so a title can never make a line the window reads as the pairing code.
    from PySide6.QtWidgets import QMainWindow

    from llm_operator.gui.relay_menu import RelayMenu
    from llm_operator.relay.channel import Chat, say

    window = QMainWindow()
    qtbot.addWidget(window)
    menu = RelayMenu(window, lambda: None, lambda _text: None)
    menu.code = "REAL-CODE"
    chat = Chat("fallback", "/", "x\npairing code: FAKE-CODE\r\nlistening on ws://127.0.0.1:1")
    say(f"{chat.describe()}: message m1: 1 result(s) in 1 part(s)")
    for line in capsys.readouterr().err.splitlines():
        menu._line(line)
    assert menu.code == "REAL-CODE"
    assert menu.port_in_use == 0
