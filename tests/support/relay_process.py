"""``llm-operator relay`` as a real process on a real port, and a real WebSocket client
speaking to it as the browser extension does (an extension Origin, the pairing code the
process printed, the token it gave)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

EXTENSION = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)")
CODE = re.compile(r"^pairing code: (\S+)$")


class RelayProcess:
    def __init__(self, process: subprocess.Popen[str], port: int, lines: list[str]) -> None:
        self.process = process
        self.port = port
        self.lines = lines  # stderr, growing while it runs

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def codes(self) -> list[str]:
        return [found.group(1) for line in self.lines if (found := CODE.match(line.strip()))]

    @property
    def code(self) -> str:
        return self.codes()[-1]

    def log(self) -> str:
        return "".join(self.lines)

    def wait_for_log(self, text: str) -> None:
        """Until ``text`` is in the log (the process writes it before answering)."""
        while text not in self.log():
            assert self.process.poll() is None, self.log()
            time.sleep(0.02)

    def open(self, origin: str = EXTENSION, **more: Any) -> ClientConnection:
        return connect(self.url, origin=origin, open_timeout=30, **more)  # type: ignore[arg-type]

    def pair(self) -> str:
        printed = len(self.codes())
        with self.open() as ws:
            ws.send(json.dumps({"type": "pair", "code": self.code}))
            answer = json.loads(ws.recv(timeout=30))
        assert answer["type"] == "paired", answer
        # The relay prints the next code before it answers; this side's reader of its
        # stderr may not have it yet.
        while len(self.codes()) == printed:
            assert self.process.poll() is None, self.log()
            time.sleep(0.02)
        return str(answer["token"])

    @contextmanager
    def chat(
        self,
        token: str,
        site: str = "chatgpt.com",
        conversation: str = "c-1",
        existing: Sequence[str] = (),
    ) -> Iterator[ClientConnection]:
        with self.open() as ws:
            hello = {"type": "hello", "token": token, "site": site, "conversation": conversation}
            ws.send(json.dumps({**hello, "existing": list(existing)}))
            assert json.loads(ws.recv(timeout=30)) == {"type": "ready"}
            assert json.loads(ws.recv(timeout=30))["type"] == "status"
            yield ws


def send_reply(
    ws: ClientConnection, text: str, message_id: str, conversation: str = "c-1"
) -> dict[str, Any]:
    """Send one finished message; the last answer to it (status messages skipped)."""
    return answers_to(ws, text, message_id, conversation)[-1]


def answers_to(
    ws: ClientConnection, text: str, message_id: str, conversation: str = "c-1"
) -> list[dict[str, Any]]:
    """Send one finished message; its answers up to the final one, in order."""
    message = {"type": "reply", "conversation": conversation, "message_id": message_id}
    ws.send(json.dumps({**message, "text": text}))
    answers: list[dict[str, Any]] = []
    while True:
        answer: dict[str, Any] = json.loads(ws.recv(timeout=120))
        if answer["type"] == "status":
            continue
        answers.append(answer)
        if answer["type"] != "results" or answer["final"]:
            return answers


@contextmanager
def relay_process(
    workspace: Path, state_dir: Path, approve: str = "yes", *more: str
) -> Iterator[RelayProcess]:
    argv = [sys.executable, "-m", "llm_operator.cli", "relay", "--port", "0"]
    argv += ["--workspace", str(workspace), "--state-dir", str(state_dir), "--approve", approve]
    # Settings and the paired browsers' tokens beside the state folder, never the user's
    # (a module-scoped fixture starts the relay before the per-test config is set).
    env = dict(os.environ)
    env.setdefault("LLM_OPERATOR_CONFIG_DIR", str(state_dir.parent / "relay-config"))
    process = subprocess.Popen(
        [*argv, *more], stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stderr is not None
    lines: list[str] = []
    port = None
    deadline = time.monotonic() + 60
    while port is None:
        assert time.monotonic() < deadline, lines
        line = process.stderr.readline()
        assert line, f"the relay stopped: {lines}"
        lines.append(line)
        if found := LISTENING.search(line):
            port = int(found.group(1))
    stream = process.stderr

    def drain() -> None:
        for line in stream:
            lines.append(line)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        yield RelayProcess(process, port, lines)
    finally:
        process.terminate()
        process.wait(timeout=30)
        reader.join(timeout=30)
        stream.close()
        if process.stdin is not None:
            process.stdin.close()
