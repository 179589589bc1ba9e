"""An MCP client's call reviewed in the window while its file changes on disk: the dialog
shows the merged change, and the server, which runs its own plan, writes exactly that
merge (a real server process, its client in a thread)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from support.mcp_client import call, connected

from .test_mcp_window_review import _in_thread, _review_dialog

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Unix sockets")

LINES = "".join(f"line {n}\n" for n in range(1, 21))


@pytest.mark.slow
def test_the_server_writes_the_merge_the_window_showed(
    qtbot: QtBot, make_window: Any, workspace: Path, tmp_path: Path
) -> None:
    target = workspace / "notes.txt"
    target.write_text(LINES)
    window = make_window(workspace)
    qtbot.waitUntil(lambda: window.mcp_reviews.listening, timeout=60_000)
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "line 3\n", "text": "3!\n"}]}

    async def scenario() -> tuple[bool, str]:
        async with connected(workspace, tmp_path / "state", errlog=tmp_path / "err.txt") as s:
            return await call(s, "fs_applyEdits", path="notes.txt", edits_json=json.dumps(edits))

    outside = LINES.replace("line 6\n", "line 6 (outside)\n")
    thread, out = _in_thread(scenario)
    try:
        qtbot.waitUntil(lambda: _review_dialog() is not None, timeout=60000)
        dialog = _review_dialog()
        assert dialog is not None
        qtbot.waitUntil(lambda: dialog.live is not None and dialog.live.checks >= 1, timeout=60_000)
        target.write_text(outside)
        qtbot.waitUntil(lambda: bool(dialog.outside.found), timeout=5000)
        assert "notes.txt" in dialog.outside_banner.text()
        preview = dialog.diff.preview
        assert preview is not None
        assert "-line 3\n+3!\n line 4\n line 5\n line 6 (outside)\n" in preview.diff
        approve = dialog.findChild(QPushButton, "approve-all")
        assert approve is not None
        qtbot.mouseClick(approve, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not thread.is_alive(), timeout=60000)
    finally:
        thread.join(timeout=60)
    assert "error" not in out, out.get("error")
    is_error, text = out["value"]
    assert not is_error, text
    assert "merged: notes.txt" in text
    assert target.read_text() == outside.replace("line 3\n", "3!\n")
