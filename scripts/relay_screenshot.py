"""Regenerate docs/images/relay.png: a chat page with the extension beside the window.

    .venv/bin/python scripts/relay_screenshot.py [OUT_DIR]

The window starts the relay from its Relay menu; Debian's chromium (``chromium`` on PATH,
or LLM_OPERATOR_CHROMIUM) loads the unpacked extension, pairs with the code the window
shows and opens the ChatGPT fixture page of tests/data/relay_pages. A streamed reply with a
read and a write comes through: the read's result is in the page's input while the window
reviews the write. The page and the window (its review dialog over it) are grabbed and put
side by side; the write is then rejected. Everything lives in a temporary folder.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshots import APP_PY_NEW, ROOT, command, make_workspace, settle, wait_for

PAGES = ROOT / "tests" / "data" / "relay_pages"
PAGE_SIZE = {"width": 720, "height": 820}


def reply() -> str:
    return (
        "Let me look at the file first, then make the change.\n\n"
        + command("r1", "fs.read", path="src/app.py")
        + "\n\n"
        + command("w1", "fs.write", path="notes.txt", content="checked greet()")
    )


def browse(base: Path, port: int, code: str, out: dict[str, Any], go: threading.Event) -> None:
    """In its own thread (Playwright's calls stay in one): pair, relay the reply, wait for
    ``go`` (the window shows the review), then grab the page."""
    from playwright.sync_api import expect, sync_playwright

    chromium = os.environ.get("LLM_OPERATOR_CHROMIUM") or shutil.which("chromium") or ""
    extension = base / "extension"
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_extension.py"),
            "--unpacked",
            str(extension),
            "--extra-match=chatgpt=http://127.0.0.1:*/chatgpt.html",
        ],
        check=True,
        capture_output=True,
    )

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(PAGES))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                str(base / "profile"),
                executable_path=chromium,
                headless=False,
                viewport=PAGE_SIZE,
                args=[
                    "--headless=new",
                    f"--disable-extensions-except={extension}",
                    f"--load-extension={extension}",
                ],
            )
            worker = context.service_workers or [context.wait_for_event("serviceworker")]
            options = context.new_page()
            options.goto(f"chrome-extension://{worker[0].url.split('/')[2]}/options.html")
            options.fill("#code", code)
            options.fill("#port", str(port))
            options.click("#pair")
            expect(options.locator("#result")).to_have_text("Paired.", timeout=30_000)
            options.close()
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{server.server_port}/chatgpt.html")
            page.wait_for_function(
                "document.querySelector('[data-llm-operator=status]')?.textContent"
                " === 'LLM Operator: running'"
            )
            page.evaluate("text => streamReply(text)", reply())
            page.wait_for_function(
                "document.querySelector('#prompt-textarea').innerText.includes('id: r1')",
                timeout=60_000,
            )
            out["ready"] = True
            go.wait(120)
            page.wait_for_function(
                "document.querySelector('[data-llm-operator=status]')?.textContent"
                " === 'LLM Operator: waiting for approval'"
            )
            out["page"] = page.screenshot()
            context.close()
    except BaseException as error:  # reported by the main thread
        out["error"] = error
    finally:
        server.shutdown()
        server.server_close()


def relay_shot(base: Path, out_dir: Path) -> Path:
    from llm_operator.core.store.settings import Settings
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
    from llm_operator.gui.main_window import MainWindow

    workspace = make_workspace(base)
    assert APP_PY_NEW
    window = MainWindow(Settings.load(), state_dir=base / "state", workspace=workspace)
    window.resize(1100, 820)
    window.show()
    wait_for(lambda: window.mcp_reviews.listening)
    window.relay.port = 0
    window.relay.start()
    wait_for(lambda: window.relay.state == "running" and bool(window.relay.code), 60)
    found: dict[str, Any] = {}
    go = threading.Event()
    thread = threading.Thread(
        target=browse, args=(base, window.relay.port_in_use, window.relay.code, found, go)
    )
    thread.start()

    def dialog() -> ConfirmDialog | None:
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, ConfirmDialog) and widget.isVisible():
                return widget
        return None

    wait_for(lambda: dialog() is not None or "error" in found, 120)
    if "error" in found:
        raise found["error"]
    shown = dialog()
    assert shown is not None
    shown.resize(1000, 600)
    settle()
    window_image = window.grab().toImage()
    dialog_image = shown.grab().toImage()
    go.set()
    wait_for(lambda: not thread.is_alive(), 120)
    if "error" in found:
        raise found["error"]
    page_image = QImage.fromData(found["page"])
    shown.reject()
    settle()
    window.relay.stop()
    window.close()
    gap = 16
    width = page_image.width() + gap + window_image.width()
    height = max(page_image.height(), window_image.height())
    picture = QImage(width, height, QImage.Format.Format_RGB32)
    picture.fill(QColor("#d0d4da"))
    painter = QPainter(picture)
    painter.drawImage(QPoint(0, 0), page_image)
    left = page_image.width() + gap
    painter.drawImage(QPoint(left, 0), window_image)
    painter.drawImage(QPoint(left + 50, 160), dialog_image)
    painter.end()
    target = out_dir / "relay.png"
    picture.save(str(target))
    return target


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        os.environ["LLM_OPERATOR_CONFIG_DIR"] = str(base / "config")
        os.environ["LLM_OPERATOR_STATE_DIR"] = str(base / "state")
        app = QApplication(sys.argv[:1])
        app.setApplicationName("LLM Operator")
        print(relay_shot(base, out))
        app.processEvents()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
