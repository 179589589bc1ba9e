"""The extension in a real browser: Debian's chromium, driven by Playwright with the
browser's executable given (nothing is downloaded), loads the unpacked extension and the
fixture chat pages of tests/data/relay_pages (built from public knowledge of each site's
structure), served from a local HTTP server; the relay runs as the real command with
``--approve window``, and the window's side of the review socket answers the review.

A streamed reply with two reads and a write is relayed once: the reads' results appear in
the chat's input while the write waits for the review, and once it is approved (and the
person sent the first results), the write's result appears. A message on the page before
the extension started is never relayed, and a page script trying to reach the relay,
even holding the extension's own token, gets nothing.

Headless extension loading needs Chromium's new headless mode (``--headless=new``):
Playwright's own headless switch starts the old one, which loads no extension.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.review_link import Review, ReviewListener
from llm_operator.core.plan.run import APPROVE
from llm_operator.core.store.state import workspace_state_dir
from support.paths import ROOT
from support.relay_process import RelayProcess, relay_process

pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("LLM_OPERATOR_CHROMIUM") or shutil.which("chromium") or ""
PAGES = ROOT / "tests" / "data" / "relay_pages"
SITES = {
    "chatgpt": "#prompt-textarea",
    "claude": ".ProseMirror",
    "gemini": "rich-textarea div[contenteditable]",
}
SEND = {
    "chatgpt": 'button[data-testid="send-button"]',
    "claude": 'button[aria-label="Send message"]',
    "gemini": "button.send-button",
}


def block(command_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"]) + "\n"


def reply(site: str) -> str:
    return (
        "I will read both files, then write the summary.\n\n"
        + block("r1", "fs.read", path="a.txt")
        + block("r2", "fs.read", path="b.txt")
        + block("w1", "fs.write", path=f"{site}.txt", content=f"written from {site}")
    )


@dataclass
class Browser:
    context: Any
    http_port: int
    relay: RelayProcess
    reviews: queue.Queue[Review]
    workspace: Path
    token: str


def quiet_handler(directory: Path) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    return functools.partial(Handler, directory=str(directory))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    if not CHROMIUM or not Path(CHROMIUM).exists():
        where = CHROMIUM or "no chromium on PATH"
        pytest.skip(
            f"chromium is absent ({where}): apt-get install chromium, or set "
            "LLM_OPERATOR_CHROMIUM to its path; the relay's browser test cannot run"
        )
    from playwright.sync_api import expect, sync_playwright

    base = tmp_path_factory.mktemp("relay-browser")
    workspace = base / "ws"
    workspace.mkdir()
    (workspace / "a.txt").write_text("alpha\n")
    (workspace / "b.txt").write_text("beta\n")
    state_dir = base / "state"
    folder = workspace_state_dir(state_dir, workspace.resolve())
    folder.mkdir(parents=True)
    reviews: queue.Queue[Review] = queue.Queue()
    listener = ReviewListener(folder, reviews.put, lambda _review: None)
    extension = base / "extension"
    extra = [f"--extra-match={site}=http://127.0.0.1:*/{site}.html" for site in SITES]
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "build_extension.py"),
            "--unpacked",
            str(extension),
            *extra,
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), quiet_handler(PAGES))
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        with relay_process(workspace, state_dir, "window") as relay, sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                str(base / "profile"),
                executable_path=CHROMIUM,
                headless=False,  # the new headless mode, given below, loads extensions
                args=[
                    "--headless=new",
                    f"--disable-extensions-except={extension}",
                    f"--load-extension={extension}",
                ],
            )
            try:
                worker = context.service_workers or [context.wait_for_event("serviceworker")]
                extension_id = worker[0].url.split("/")[2]
                options = context.new_page()
                options.goto(f"chrome-extension://{extension_id}/options.html")
                options.fill("#code", relay.code)
                options.fill("#port", str(relay.port))
                options.click("#pair")
                # The extension's pages allow no evaluated strings (CSP): a locator waits.
                expect(options.locator("#result")).to_have_text("Paired.", timeout=30_000)
                token = worker[0].evaluate("chrome.storage.local.get('token')")["token"]
                options.close()
                yield Browser(context, server.server_port, relay, reviews, workspace, token)
            finally:
                context.close()
    finally:
        server.shutdown()
        server.server_close()
        listener.stop()


def input_text(page: Any, site: str) -> str:
    text: str = page.eval_on_selector(SITES[site], "e => e.innerText")
    return text


@pytest.mark.parametrize("site", sorted(SITES))
def test_a_streamed_reply_comes_through_once_and_its_write_waits_for_the_review(
    browser: Browser, site: str
) -> None:
    page = browser.context.new_page()
    page.goto(f"http://127.0.0.1:{browser.http_port}/{site}.html")
    badge = "[data-llm-operator=status]"
    page.wait_for_function(
        f"document.querySelector('{badge}')?.textContent === 'LLM Operator: running'"
    )
    page.evaluate("text => streamReply(text)", reply(site))
    selector = json.dumps(SITES[site])
    page.wait_for_function(
        f"document.querySelector({selector}).innerText.includes('id: r2')", timeout=60_000
    )
    shown = input_text(page, site)
    assert "id: r1" in shown
    assert "alpha" in shown
    assert "beta" in shown
    assert "id: old-1" not in shown  # on the page before: never relayed
    # The write waits for the review: its file is not there, its result is not in.
    review = browser.reviews.get(timeout=60)
    assert review.channel == "relay"
    assert site in review.client
    assert "id: w1" in review.reply
    written = browser.workspace / f"{site}.txt"
    assert not written.exists()
    assert "id: w1" not in input_text(page, site)
    assert review.answer({2: APPROVE})  # the third block, the write
    browser.relay.wait_for_log(f"{site}.html): message")
    # The person sends the first results; then the write's result takes their place.
    page.click(SEND[site])
    page.wait_for_function(
        f"document.querySelector({selector}).innerText.includes('id: w1')", timeout=60_000
    )
    final = input_text(page, site)
    assert "ok: true" in final
    assert written.read_text() == f"written from {site}"
    assert page.evaluate("window.sent.length") == 1
    # Relayed once: one early answer and one final one for the message, no more.
    log = browser.relay.log()
    assert log.count(f"{site}.html): message") == 2, log
    assert "old-1" not in log
    page.close()


def test_a_page_script_cannot_reach_the_relay_even_with_the_token(browser: Browser) -> None:
    page = browser.context.new_page()
    page.goto(f"http://127.0.0.1:{browser.http_port}/chatgpt.html")
    before = browser.relay.log().count("refused a connection")
    got = page.evaluate(
        "([port, token]) => reachRelay(port, token)", [browser.relay.port, browser.token]
    )
    assert got["opened"] is False
    assert got["messages"] == []
    browser.relay.wait_for_log("is not a browser extension's")
    assert browser.relay.log().count("refused a connection") > before
    page.close()


def test_a_new_chat_that_takes_its_address_while_streaming_is_still_relayed(
    browser: Browser,
) -> None:
    """ChatGPT opens a new chat at "/" and gives it its /c/<id> address while the first
    reply is written: that reply is new (the messages of a chat opened from the list are
    old: see the first test's old-1)."""
    page = browser.context.new_page()
    page.goto(f"http://127.0.0.1:{browser.http_port}/chatgpt.html")
    page.wait_for_function(
        "document.querySelector('[data-llm-operator=status]')?.textContent"
        " === 'LLM Operator: running'"
    )
    page.evaluate("history.pushState({}, '', '/')")  # a new chat, as the site opens one
    browser.relay.wait_for_log("(conversation /)")
    text = block("n1", "fs.read", path="a.txt")
    page.evaluate("text => streamReply(text, 6, 150, '/c/new-chat')", text)
    page.wait_for_function(
        "document.querySelector('#prompt-textarea').innerText.includes('id: n1')",
        timeout=60_000,
    )
    assert "alpha" in input_text(page, "chatgpt")
    assert "id: old-1" not in input_text(page, "chatgpt")
    assert "(conversation /c/new-chat): message" in browser.relay.log()
    page.close()
