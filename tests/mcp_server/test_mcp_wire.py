"""Every message a client sends gets an answer, on stdio and over HTTP: a request the
server cannot read is answered with a JSON-RPC error under its id (or id null when the
id cannot be read), never left waiting, and the server goes on reading."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.mcp_raw import RawHttp, RawStdio, line, raw_http, raw_stdio, tool_call

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX processes")

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
DIGITS = "9" * 5000
DEEP = "[" * 5000 + "]" * 5000
BIG = 5 * 1024 * 1024  # past the 4 MiB a message may have


def request(request_id: Any, arguments: str, tool: str = "fs_read") -> bytes:
    """A tools/call line with ``arguments`` written in as raw JSON text."""
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call"})[:-1]
    return f'{head}, "params": {{"name": "{tool}", "arguments": {arguments}}}}}\n'.encode()


# name: (bytes on the wire, code, id of the answer, words of its message)
REFUSED: dict[str, tuple[bytes, int, Any, str]] = {
    "a number of 5,000 digits": (
        request(8, f'{{"path": "a.txt", "start": {DIGITS}}}'),
        PARSE_ERROR,
        8,
        "a number has 5000 digits",
    ),
    "arrays 5,000 deep": (
        request("deep", f'{{"path": {DEEP}}}'),
        PARSE_ERROR,
        "deep",
        "nest too deeply",
    ),
    "NaN": (request(10, '{"path": "a.txt", "start": NaN}'), PARSE_ERROR, 10, "NaN is not JSON"),
    "bytes that are not UTF-8": (
        request(11, '{"path": "a.txt", "query": "@@"}').replace(b"@@", b"\xff\xfe"),
        PARSE_ERROR,
        11,
        "not UTF-8",
    ),
    "JSON cut short": (
        b'{"jsonrpc": "2.0", "id": 12, "method": "ping"\n',
        PARSE_ERROR,
        12,
        "not JSON",
    ),
    "a notification with bad JSON": (
        b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {\n',
        PARSE_ERROR,
        None,
        "not JSON",
    ),
    "a broken response (never answered under its id)": (
        b'{"jsonrpc": "2.0", "id": 13, "result": {\n',
        PARSE_ERROR,
        None,
        "not JSON",
    ),
    "a batch array": (
        line([{"jsonrpc": "2.0", "id": 14, "method": "ping"}]),
        INVALID_REQUEST,
        None,
        "batch",
    ),
    "a number": (b"42\n", INVALID_REQUEST, None, "must be a JSON object"),
    "a string": (b'"ping"\n', INVALID_REQUEST, None, "must be a JSON object"),
    "null": (b"null\n", INVALID_REQUEST, None, "must be a JSON object"),
    "an id that is true": (
        line({"jsonrpc": "2.0", "id": True, "method": "ping"}),
        INVALID_REQUEST,
        None,
        "string (UTF-8 text) or an integer",
    ),
    "a key twice": (
        request(17, '{"path": "a.txt", "path": "../outside.txt"}'),
        INVALID_REQUEST,
        17,
        "the key 'path' appears twice in one object",
    ),
    "no jsonrpc member": (line({"id": 15, "method": "ping"}), INVALID_REQUEST, 15, "JSON-RPC 2.0"),
    "a line past the limit, id first": (
        request(16, json.dumps({"path": "a.txt", "query": "x" * BIG})),
        INVALID_REQUEST,
        16,
        "the server reads at most",
    ),
    "a line past the limit, id last": (
        b'{"method": "tools/call", "params": {"name": "fs_read", "arguments": {"path": "'
        + b"x" * BIG
        + b'"}}, "jsonrpc": "2.0", "id": "last"}\n',
        INVALID_REQUEST,
        "last",
        "the server reads at most",
    ),
}


def _check(name: str, answers: list[dict[str, Any]]) -> None:
    _, code, answer_id, words = REFUSED[name]
    assert len(answers) == 1, (name, answers)
    (answer,) = answers
    assert answer["jsonrpc"] == "2.0"
    assert answer["id"] == answer_id, (name, answer)
    assert answer["error"]["code"] == code, (name, answer)
    assert words in answer["error"]["message"], (name, answer)


@pytest.fixture(scope="module")
def stdio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawStdio]:
    root = tmp_path_factory.mktemp("wire-stdio")
    (root / "ws").mkdir()
    (root / "ws" / "a.txt").write_text("alpha\n", encoding="utf-8")
    (root / "state").mkdir()
    with raw_stdio(root / "ws", root / "state", root / "stderr", "--approve", "yes") as client:
        yield client


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawHttp]:
    root = tmp_path_factory.mktemp("wire-http")
    (root / "ws").mkdir()
    (root / "ws" / "a.txt").write_text("alpha\n", encoding="utf-8")
    (root / "state").mkdir()
    with raw_http(root / "ws", root / "state", "--approve", "yes") as client:
        yield client


@pytest.mark.parametrize("name", REFUSED)
def test_stdio_answers_what_it_cannot_read(stdio: RawStdio, name: str) -> None:
    # The answer comes before the ping's: the server answered this line at once.
    _check(name, stdio.before_ping(REFUSED[name][0]))


@pytest.mark.parametrize("name", REFUSED)
def test_http_answers_what_it_cannot_read(http: RawHttp, name: str) -> None:
    status, answers = http.post(REFUSED[name][0])
    assert status == (413 if "past the limit" in name else 400), (status, answers)
    _check(name, answers)


LONE = request(20, '{"path": "new.txt", "content": "smile \\ud83d!"}', tool="fs_write")


def _lone_surrogate_refused(answer: dict[str, Any]) -> None:
    """The call reached the tool, which names the field the client sent."""
    result = answer["result"]
    assert result["isError"] is True
    (content,) = result["content"]
    text = content["text"]
    assert "(ERR_INVALID_FIELD)" in text, text
    assert "content holds a lone surrogate \\ud83d at character 7" in text, text
    assert "content_b64" not in text


def test_stdio_a_lone_surrogate_in_an_argument_reaches_the_tool(
    stdio: RawStdio, tmp_path: Path
) -> None:
    stdio.send(LONE)
    _lone_surrogate_refused(stdio.answer(20))
    stdio.send(line(tool_call(21, "fs_read", {"path": "a.txt"})))
    assert "alpha" in stdio.answer(21)["result"]["content"][0]["text"]


def test_http_a_lone_surrogate_in_an_argument_reaches_the_tool(http: RawHttp) -> None:
    status, answers = http.post(LONE)
    assert status == 200
    (answer,) = answers
    assert answer["id"] == 20
    _lone_surrogate_refused(answer)


def test_stdio_reads_lines_as_bytes_and_skips_blank_ones(stdio: RawStdio) -> None:
    # A CR LF line end is JSON whitespace; a blank line is no message (and gets no answer).
    assert stdio.before_ping(b"\r\n\n   \n") == []
    stdio.send(json.dumps(tool_call(22, "fs_stat", {"path": "a.txt"})).encode() + b"\r\n")
    assert stdio.answer(22)["result"]["isError"] is False


@pytest.mark.parametrize("kind", ["application/json, text/plain", "text/html ,application/json"])
@pytest.mark.parametrize("name", ["a key twice", "arrays 5,000 deep", "a number of 5,000 digits"])
def test_http_checks_every_body_the_sdk_would_read_as_json(
    http: RawHttp, name: str, kind: str
) -> None:
    # The SDK takes a body as JSON when any of the Content-Type's comma-separated types is
    # application/json: such a body is checked too, never read by the SDK alone (which
    # takes the last of two keys, and answers a deep array under the id "server-error").
    before = http.headers["Content-Type"]
    http.headers["Content-Type"] = kind
    try:
        status, answers = http.post(REFUSED[name][0])
    finally:
        http.headers["Content-Type"] = before
    assert status == 400, (status, answers)
    _check(name, answers)
