"""The stream of a command an MCP server runs to the window: what the window takes from
it, how Stop goes back, and that no window means no watch (the command runs as before)."""

from __future__ import annotations

import base64
import json
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from llm_operator.core.plan.watch_link import RemoteWatch, follow_watch
from llm_operator.core.store.command_watch import Ended, LiveLines, Started, watching
from llm_operator.core.store.commands import run_command
from llm_operator.core.store.workspace import Workspace

FIRST = {"watch": {"client": "c", "argv": ["pytest", "-q"], "cwd": ".", "timeout": 30}}


class Shown:
    """The window's console, as far as the stream reaches it."""

    def __init__(self, stop: bool = False) -> None:
        self.stop = stop
        self.begun: list[Started] = []
        self.endings: list[Ended] = []
        self.lines = LiveLines()

    def started(self, started: Started) -> None:
        self.begun.append(started)

    def output(self, chunk: bytes) -> None:
        self.lines.feed(chunk)

    def stop_asked(self) -> bool:
        return self.stop

    def ended(self, ended: Ended) -> None:
        self.endings.append(ended)


@pytest.fixture
def pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    server, window = socket.socketpair()
    with server, window:
        yield server, window


def _line(message: object) -> bytes:
    return json.dumps(message).encode() + b"\n"


def test_the_window_takes_output_and_the_ending(pair: tuple[socket.socket, socket.socket]) -> None:
    server, window = pair
    shown = Shown()
    server.sendall(_line({"output": base64.b64encode(b"one\ntwo\n").decode()}))
    server.sendall(_line({"ended": {"status": 1, "signal": None, "seconds": 0.5}}))
    follow_watch(window, FIRST, shown)
    assert shown.begun == [Started(("pytest", "-q"), ".", 30.0)]
    assert shown.lines.take() == (["one", "two"], 0)
    assert shown.endings == [Ended(1, None, False, False, 0.5)]


def test_a_malformed_stream_ends_the_watch_and_shows_nothing_more(
    pair: tuple[socket.socket, socket.socket],
) -> None:
    server, window = pair
    shown = Shown()
    server.sendall(b"not json\n" + _line({"output": base64.b64encode(b"late\n").decode()}))
    follow_watch(window, FIRST, shown)
    assert shown.lines.take() == ([], 0)
    assert len(shown.endings) == 1
    assert shown.endings[0].status is None


def test_a_bad_first_line_starts_no_watch(pair: tuple[socket.socket, socket.socket]) -> None:
    _server, window = pair
    shown = Shown()
    follow_watch(window, {"watch": {"argv": "rm -rf /", "cwd": ".", "timeout": 1}}, shown)
    assert shown.begun == []
    assert shown.endings == []


def test_stop_goes_back_to_the_server(pair: tuple[socket.socket, socket.socket]) -> None:
    server, window = pair
    shown = Shown(stop=True)
    thread = threading.Thread(target=follow_watch, args=(window, FIRST, shown))
    thread.start()
    got = b""
    while b"\n" not in got:
        got += server.recv(100)
    assert json.loads(got) == {"stop": True}
    server.sendall(_line({"ended": {"status": None, "signal": 15, "stopped": True}}))
    thread.join(10)
    assert shown.endings[0].stopped


def test_without_a_window_the_command_runs_unwatched(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    with watching(RemoteWatch(state, "client")):
        done = run_command(Workspace(tmp_path), (sys.executable, "-c", "print('alone')"))
    assert done.status == 0
    assert done.output.lines == ("alone",)
