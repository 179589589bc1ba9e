"""Regenerate docs/images/mcp-review.png: the window reviewing a call of an MCP client.

    .venv/bin/python scripts/mcp_screenshot.py [OUT_DIR]

A real ``llm-operator mcp`` process (``--approve window``) gets one fs.write call from the
SDK's client; the open window shows it in its review dialog, which is grabbed offscreen
and then rejected (nothing is written). Everything lives in a temporary folder.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshots import APP_PY, APP_PY_NEW, ROOT, make_workspace, settle, wait_for


def mcp_review_shot(workspace: Path, state: Path, out: Path) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from llm_operator.core.store.settings import Settings
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
    from llm_operator.gui.main_window import MainWindow

    assert APP_PY in (workspace / "src" / "app.py").read_text()
    window = MainWindow(Settings.load(), state_dir=state, workspace=workspace)
    window.resize(1280, 800)
    window.show()
    wait_for(lambda: window.mcp_reviews.listening)
    params = StdioServerParameters(
        command=sys.executable,
        args=[
            "-m",
            "llm_operator.cli",
            "mcp",
            "--approve",
            "window",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state),
        ],
        env=dict(os.environ),
    )

    async def client() -> None:
        with open(os.devnull, "w") as quiet:
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await session.call_tool("fs_write", {"path": "src/app.py", "content": APP_PY_NEW})

    thread = threading.Thread(target=lambda: asyncio.run(client()))
    thread.start()

    def dialog() -> ConfirmDialog | None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, ConfirmDialog) and widget.isVisible():
                return widget
        return None

    wait_for(lambda: dialog() is not None, 60)
    shown = dialog()
    assert shown is not None
    shown.resize(1180, 700)
    settle()
    shown.grab().save(str(out / "mcp-review.png"))
    shown.reject()
    while thread.is_alive():
        settle()
    window.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        os.environ["LLM_OPERATOR_CONFIG_DIR"] = str(base / "config")
        os.environ["LLM_OPERATOR_STATE_DIR"] = str(base / "state")
        app = QApplication(sys.argv[:1])
        app.setApplicationName("LLM Operator")
        mcp_review_shot(make_workspace(base), base / "state", out)
        app.processEvents()
    print(out / "mcp-review.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
