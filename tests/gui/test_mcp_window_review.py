"""The window reviews the calls of `llm-operator mcp --approve window`: a real server
process, driven by the SDK's client in a thread, and the window's own confirmation dialog."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import types
from mcp.shared.exceptions import McpError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
from support.mcp_client import call, connected

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")


def _review_dialog() -> ConfirmDialog | None:
    for widget in QApplication.topLevelWidgets():
        if (
            isinstance(widget, ConfirmDialog)
            and widget.objectName() == "mcp-review"
            and widget.isVisible()
        ):
            return widget
    return None


def _in_thread(scenario: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(scenario())
        except BaseException as error:  # reported by the test
            out["error"] = error

    thread = threading.Thread(target=run, name="mcp-test-client")
    thread.start()
    return thread, out


def _cancel_while_reviewed(
    qtbot: QtBot, workspace: Path, tmp_path: Path, **client: str
) -> dict[str, Any]:
    """An MCP write its client cancels while the window shows its review; what the call
    gave (``out["value"]``). The window must be open and listening."""
    seen = threading.Event()

    async def scenario() -> BaseException | None:
        async with connected(
            workspace,
            tmp_path / "state",
            "--approve",
            "window",
            errlog=tmp_path / "stderr.txt",
            **client,
        ) as s:
            request_id = s._request_id
            waiting = asyncio.ensure_future(call(s, "fs_write", path="never.txt", content="x"))
            while not seen.is_set():
                await asyncio.sleep(0.05)
            await s.send_notification(
                types.ClientNotification(
                    types.CancelledNotification(
                        params=types.CancelledNotificationParams(requestId=request_id)
                    )
                )
            )
            try:
                await asyncio.wait_for(waiting, 30)
            except McpError as error:
                return error
            return None

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        seen.set()
        qtbot.waitUntil(lambda: _review_dialog() is None, timeout=30000)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        seen.set()
        thread.join(timeout=60)
    return out


def test_the_window_reviews_an_mcp_call_naming_the_client(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening)
    state = tmp_path / "state"

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, state, errlog=tmp_path / "stderr.txt") as s:
            return await call(s, "fs_write", path="from-mcp.txt", content="made over MCP\n")

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        assert "mcp (MCP) asks for 1 command" in dialog.windowTitle()
        banner = dialog.findChild(QLabel, "mcp-client")
        assert banner is not None
        assert "mcp (MCP)" in banner.text()
        assert not (workspace / "from-mcp.txt").exists()  # nothing before the approval
        approve = dialog.findChild(QPushButton, "approve-all")
        assert approve is not None
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert not is_error, text
    assert (workspace / "from-mcp.txt").read_text(encoding="utf-8") == "made over MCP\n"
    stderr = (tmp_path / "stderr.txt").read_text(encoding="utf-8")
    assert "approvals: the window" in stderr  # the default with a window open


@pytest.mark.slow
def test_a_cancelled_call_closes_its_review_and_runs_nothing(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening, timeout=60_000)
    out = _cancel_while_reviewed(qtbot, workspace, tmp_path)
    assert isinstance(out.get("value"), McpError), out
    assert not (workspace / "never.txt").exists()


def test_a_reason_typed_in_the_window_goes_back_to_the_client(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening)

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, tmp_path / "state", errlog=tmp_path / "e") as s:
            return await call(s, "fs_delete", path="a.txt")

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        dialog.listing.setCurrentItem(dialog.file_rows[0])
        qtbot.keyClicks(dialog.reason, "keep it")
        apply = next(
            button
            for button in dialog.findChildren(QPushButton)
            if button.text().startswith("Apply my choices")
        )
        qtbot.mouseClick(apply, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert is_error
    assert "(ERR_REJECTED_BY_USER): rejected by the user: keep it" in text
    assert (workspace / "a.txt").exists()


def test_a_secret_write_shows_its_change_before_it_runs(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    # First the person lets the window read the secret-looking file to plan the change;
    # then the change itself is shown, and only its approval lets it run.
    (workspace / ".env").write_text("API_KEY=sk-1\n", encoding="utf-8")
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening)
    edits = '{"version":1,"edits":[{"op":"replaceAll","find":"sk","text":"SK"}]}'

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, tmp_path / "state", errlog=tmp_path / "e") as s:
            return await call(s, "fs_applyEdits", path=".env", edits_json=edits)

    def approve_all(dialog: ConfirmDialog) -> None:
        button = dialog.findChild(QPushButton, "approve-all")
        assert button is not None
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        first = _review_dialog()
        assert first is not None
        assert "SK-1" not in first.diff.unified.toPlainText()  # no change is planned yet
        approve_all(first)
        qtbot.waitUntil(
            lambda: _review_dialog() is not None and _review_dialog() is not first,
            timeout=60000,
        )
        second = _review_dialog()
        assert second is not None
        assert "+ API_KEY=SK-1" in second.diff.unified.toPlainText()
        assert (workspace / ".env").read_text(encoding="utf-8") == "API_KEY=sk-1\n"
        approve_all(second)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert not is_error, text
    assert (workspace / ".env").read_text(encoding="utf-8") == "API_KEY=SK-1\n"


def test_a_client_naming_itself_with_markup_is_named_as_text(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    hostile = "<b>trusted</b>\u202eevil"
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening)

    async def scenario() -> tuple[bool, str]:
        async with connected(
            workspace, tmp_path / "state", errlog=tmp_path / "stderr.txt", client_name=hostile
        ) as s:
            return await call(s, "fs_write", path="named.txt", content="x\n")

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        assert "<b>trusted</b><U+202E>evil (MCP) asks for 1 command" in dialog.windowTitle()
        banner = dialog.findChild(QLabel, "mcp-client")
        assert banner is not None
        assert banner.textFormat() == Qt.TextFormat.PlainText
        assert banner.text().startswith("<b>trusted</b><U+202E>evil (MCP) asks for 1 command")
        dialog.reject()
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    assert not (workspace / "named.txt").exists()


@pytest.mark.slow
def test_a_change_edited_in_the_window_lands_as_edited_for_the_mcp_client(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening, timeout=60_000)
    state = tmp_path / "state"

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, state, errlog=tmp_path / "stderr.txt") as s:
            return await call(s, "fs_write", path="edited.txt", content="helo wrold\n")

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        dialog.listing.setCurrentItem(dialog.file_rows[0])
        dialog.edit_box.setChecked(True)
        dialog.editor.text.setPlainText("hello world\n")
        dialog.editor.flush()
        approve = dialog.findChild(QPushButton, "approve-all")
        assert approve is not None
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert not is_error, text
    assert (workspace / "edited.txt").read_text() == "hello world\n"
    assert "edited by the user before approval: edited.txt" in text
    assert "1: hello world" in text


@pytest.mark.slow
def test_a_withdrawn_review_names_its_client_with_markers_in_the_status_bar(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    # The client's own name (for the relay, a page's title) reached the status bar as
    # it came: a right-to-left override turned the rest of the message around.
    hostile = "trusted\u202eweiver sti werdhtiw"
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening, timeout=60_000)
    out = _cancel_while_reviewed(qtbot, workspace, tmp_path, client_name=hostile)
    assert isinstance(out.get("value"), McpError), out
    said = window.statusBar().currentMessage()
    assert "trusted<U+202E>weiver sti werdhtiw (MCP)" in said, said
    assert "withdr" in said
    assert "\u202e" not in said
    assert not (workspace / "never.txt").exists()
