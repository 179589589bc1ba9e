"""A command an MCP server runs after the window approved it: its output shows in the
window as it comes and the window's Stop ends it and all it started, in the server's
process. A real server process, a real window, real children."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from support.mcp_client import call, connected

from .test_command_console import FAMILY, alive
from .test_mcp_window_review import _in_thread, _review_dialog

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")


@pytest.mark.slow
def test_the_window_shows_and_stops_a_command_the_server_runs(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    script = tmp_path / "family.py"
    script.write_text(FAMILY)
    pids = tmp_path / "pids"
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening, timeout=60_000)
    line = f"{sys.executable} {script} {pids}"

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, tmp_path / "state", errlog=tmp_path / "err.txt") as s:
            return await call(s, "run_command", command=line, timeout=120)

    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        approve = dialog.findChild(QPushButton, "approve-all")
        assert approve is not None
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        console = window.console.dialog
        qtbot.waitUntil(lambda: "ready" in console.output.toPlainText(), timeout=60000)
        assert console.stop_button.isEnabled()
        child, grandchild = (int(word) for word in pids.read_text().split())
        assert alive(child)
        assert alive(grandchild)
        qtbot.mouseClick(console.stop_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert is_error
    assert "run.command failed (ERR_STOPPED_BY_USER)" in text
    assert "ready" in text
    qtbot.waitUntil(lambda: "Stopped by you" in console.status.text(), timeout=10000)
    qtbot.waitUntil(lambda: not alive(grandchild), timeout=10000)
    assert not alive(child)
    with pytest.raises(ProcessLookupError):
        os.killpg(child, 0)
