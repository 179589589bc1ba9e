"""The extension's fallback (any page, by the context menu) names a page's chat by its host
and path: two sites' pages at the same path are two chats for the relay, so one is never
answered from memory with the other's results (the selection's id is a hash of its text,
the same on both) nor given the other's undo notices."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

EXTENSION = Path(__file__).resolve().parents[2] / "extension"
NODE = shutil.which("node")

SCRIPT = """
const vm = require("vm");
const fs = require("fs");
const [folder, adapter, href] = process.argv.slice(1);
const url = new URL(href);
const context = {
  location: { host: url.host, pathname: url.pathname },
  document: { addEventListener() {}, querySelector() { return null; }, title: "" },
  HTMLTextAreaElement: class {},
};
context.globalThis = context;
vm.createContext(context);
for (const name of ["common.js", adapter]) {
  vm.runInContext(fs.readFileSync(`${folder}/sites/${name}`, "utf8"), context);
}
process.stdout.write(JSON.stringify(context.LLMOperatorInput.conversation()));
"""


def conversation(adapter: str, href: str) -> str:
    assert NODE is not None
    found = subprocess.run(
        [NODE, "-e", SCRIPT, str(EXTENSION), adapter, href],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return str(json.loads(found.stdout))


@pytest.mark.skipif(NODE is None, reason="needs node")
def test_two_sites_pages_at_one_path_are_two_chats() -> None:
    one = conversation("fallback.js", "https://chat.internal.example/")
    other = conversation("fallback.js", "https://evil.example/")
    assert one != other
    assert one == "chat.internal.example/"
    # A supported site's chat is still named by its path alone.
    assert conversation("claude.js", "https://claude.ai/chat/9") == "/chat/9"
