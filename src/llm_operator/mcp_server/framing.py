"""JSON-RPC messages as they arrive, checked before the SDK sees them, on every transport.

The SDK's stdio transport parses each line with pydantic and, when that fails, only logs
it: the client waits for an answer that never comes (a lone surrogate escape, a number of
5,000 digits, arrays 5,000 deep). Its HTTP transport answers, but under the id
``"server-error"``, and some of the same input makes it fail with an internal error.
So every message passes ``check`` first:

Rule 1: every message the server does not read is answered at once: -32700 (parse error)
for bytes that are not UTF-8 JSON, or JSON past the bounds of ``core.bounded_json``;
-32600 (invalid request) for JSON that is not one JSON-RPC message object (a batch
array, a scalar, an id that is neither a string nor an integer, a key twice in one
object, where readers disagree on which value counts) and for a message longer than
``MAX_MESSAGE_BYTES``.
Rule 2: the answer goes under the request's id when the id can be read from the text (a
top-level ``"id"`` of an object that also has a ``"method"``: a response the client sends
is never answered); else under id null, as JSON-RPC 2.0 says.
Rule 3: a message that passes is handed on as it was sent, nothing changed. A lone
surrogate inside a string passes too: it is valid JSON syntax, and the tool that gets it
refuses it naming its field (a JavaScript client sends one when a model splits an emoji).
Rule 4: a message longer than the limit is not kept: only its first and last
``KEPT_BYTES`` are, to read its id.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..core.bounded_json import JsonLimit, load_bounded
from ..core.protocol.block_body import MAX_BLOCK_CHARS

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
KEPT_BYTES = 64 * 1024  # of a message past the limit: its head and tail, for its id
PARSE_ERROR = -32700
INVALID_REQUEST = -32600

# A string token runs to its closing quote or, unterminated, to the end of the text: every
# character is looked at once, whatever the text (no rescans from each quote).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\Z)|[{}\[\]:,]|[^\s{}\[\]:,"]+')
_ID_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]{0,29})\Z")
# The last member of an object, at its very end: where a JavaScript client puts the id.
_LAST_ID = re.compile(rb',\s*"id"\s*:\s*(-?[0-9]{1,30}|"(?:[^"\\]|\\.){0,200}")\s*}\s*\Z')


def error_answer(request_id: int | str | None, code: int, message: str) -> bytes:
    """One JSON-RPC error response as a line of ASCII JSON."""
    answer = {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
    return json.dumps(answer, ensure_ascii=True).encode("ascii") + b"\n"


class Collected:
    """The bytes of one message as they arrive: whole up to ``MAX_MESSAGE_BYTES``, past
    that only the head and the tail (Rule 4)."""

    def __init__(self, limit: int = MAX_MESSAGE_BYTES) -> None:
        self._limit = limit
        self._parts: list[bytes] = []
        self._head: bytes | None = None
        self._tail = b""
        self.size = 0

    @property
    def cut(self) -> bool:
        return self.size > self._limit

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if not self.cut:
            self._parts.append(chunk)
        elif self._head is None:  # the limit is passed now: from here on, keep the ends
            kept = b"".join([*self._parts, chunk])
            self._head, self._tail, self._parts = kept[:KEPT_BYTES], kept[-KEPT_BYTES:], []
        else:
            self._tail = (self._tail + chunk)[-KEPT_BYTES:]

    def whole(self) -> bytes:
        assert not self.cut
        return b"".join(self._parts)

    def head_and_tail(self) -> tuple[bytes, bytes]:
        assert self._head is not None
        return self._head, self._tail


@dataclass(frozen=True)
class Verdict:
    """What to do with one message: hand ``message`` (the decoded object) on, or send
    ``answer`` (a JSON-RPC error line); neither for a blank line."""

    message: dict[str, Any] | None = None
    answer: bytes | None = None


def check(collected: Collected) -> Verdict:
    """Rules 1 to 4 for one message (a line of stdio, the body of an HTTP request)."""
    if collected.cut:
        head, tail = collected.head_and_tail()
        members = _top_members(head.decode("utf-8", "replace"))
        request_id = _request_id(members)
        if request_id is None and '"id"' not in members and _is_request(members):
            request_id = _last_id(tail)
        return Verdict(
            answer=error_answer(
                request_id,
                INVALID_REQUEST,
                f"the message has {collected.size} bytes; the server reads at most "
                f"{MAX_MESSAGE_BYTES} per message (a call's command holds at most "
                f"{MAX_BLOCK_CHARS:,} characters: split the work into several calls)",
            )
        )
    data = collected.whole()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        at = error.start
        return _refused(
            data.decode("utf-8", "replace"),
            PARSE_ERROR,
            f"the message is not UTF-8: byte {at + 1} (0x{data[at]:02x}) cannot start or "
            "continue a character; send JSON as UTF-8 text",
        )
    if not text.strip():
        return Verdict()
    try:
        decoded = load_bounded(text, object_pairs_hook=_unique_keys)
    except _KeyTwice as error:
        return _refused(
            text,
            INVALID_REQUEST,
            f"the key {error.key!r} appears twice in one object; give it once (readers of "
            "the message would not agree on which value counts)",
        )
    except json.JSONDecodeError as error:
        return _refused(
            text, PARSE_ERROR, f"the message is not JSON: {error.msg} at character {error.pos + 1}"
        )
    except JsonLimit as error:
        return _refused(text, PARSE_ERROR, f"the message cannot be read: {error.message}")
    if isinstance(decoded, list):
        return _refused(
            "",
            INVALID_REQUEST,
            "a batch (a JSON array of messages) is not accepted; send each message on its own",
        )
    if not isinstance(decoded, dict):
        return _refused("", INVALID_REQUEST, "a message must be a JSON object")
    if "id" in decoded and _valid_id(decoded["id"]) is None:
        return _refused(
            "", INVALID_REQUEST, "the id of a request must be a string (UTF-8 text) or an integer"
        )
    return Verdict(message=decoded)


def invalid_message(message: dict[str, Any]) -> bytes:
    """The answer to a JSON object that is not a JSON-RPC 2.0 message (the SDK's check)."""
    request_id = _valid_id(message.get("id")) if "method" in message else None
    return error_answer(
        request_id,
        INVALID_REQUEST,
        "the message is not a JSON-RPC 2.0 request, notification or response: it needs "
        '"jsonrpc": "2.0", and a "method" (a string, with "params" an object) or, '
        'answering a request, its "id" and a "result" or an "error"',
    )


class _KeyTwice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _KeyTwice(key)
        found[key] = value
    return found


def _refused(text: str, code: int, message: str) -> Verdict:
    return Verdict(answer=error_answer(_readable_id(text), code, message))


def _valid_id(value: Any) -> int | str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return value
    return None


def _token_id(token: str) -> int | str | None:
    if _ID_NUMBER.match(token):
        return int(token)
    if token.startswith('"'):
        try:
            return _valid_id(json.loads(token))
        except json.JSONDecodeError:
            return None
    return None


def _top_members(text: str) -> dict[str, str]:
    """The top-level members of the object ``text`` holds whose values are scalars (key
    and value as JSON tokens), as far as the object is well formed from its start."""
    members: dict[str, str] = {}
    depth = 0
    expect = "open"
    key = ""
    for found in _TOKEN.finditer(text):
        token = found.group()
        if depth > 1:  # inside a member's value
            if token in ("{", "["):
                depth += 1
            elif token in ("}", "]"):
                depth -= 1
            continue
        if expect == "open" and token == "{":
            depth, expect = 1, "key"
        elif expect == "key" and token.startswith('"'):
            key, expect = token, "colon"
        elif expect == "colon" and token == ":":
            expect = "value"
        elif expect == "value" and token not in ("}", "]", ",", ":"):
            if token in ("{", "["):
                depth += 1
            else:
                members[key] = token
            expect = "comma"
        elif expect == "comma" and token == ",":
            expect = "key"
        else:
            break
    return members


def _is_request(members: dict[str, str]) -> bool:
    return members.get('"method"', "").startswith('"')


def _request_id(members: dict[str, str]) -> int | str | None:
    """Rule 2: the id of a request, None for anything else."""
    return _token_id(members.get('"id"', "")) if _is_request(members) else None


def _readable_id(text: str) -> int | str | None:
    return _request_id(_top_members(text))


def _last_id(tail: bytes) -> int | str | None:
    found = _LAST_ID.search(tail)
    return None if found is None else _token_id(found.group(1).decode("utf-8", "replace"))


__all__ = ["MAX_MESSAGE_BYTES", "Collected", "Verdict", "check", "error_answer", "invalid_message"]
