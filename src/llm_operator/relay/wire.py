"""The relay's wire format: JSON objects with a ``type``, read into frozen values (pure).

Invariants:
- Every message from the extension is read here and nowhere else: a message that is not
  a JSON object of a known type, with every field of the right type and within its size,
  is a ``WireError`` whose text says what to send instead. Nothing is run for it.
- Sizes are bounded before anything is parsed: the server refuses a frame longer than
  ``MAX_MESSAGE`` bytes (websockets' ``max_size``), and each text field has its own cap.
- What goes out is built by the functions at the end, so the wire is written in one place.

    extension -> app   {"type": "pair", "code": ...}
                       {"type": "hello", "token", "site", "conversation", "existing"?: [ids]}
                       {"type": "reply", "conversation", "message_id", "text", "title"?}
                       {"type": "accepted", "message_id", "part"}, {"type": "ping"}
    app -> extension   {"type": "paired", "token"}, {"type": "ready"}, {"type": "pong"},
                       {"type": "results", "conversation", "message_id", "parts",
                        "needs_approval", "final"} (early results: final false),
                       {"type": "ignored", "message_id", "reason"},
                       {"type": "status", "state": paused|running|waiting_for_approval},
                       {"type": "error", "message"}
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..core.encodable_text import without_surrogates

MAX_MESSAGE = 1_000_000  # bytes of one frame: a reply the scanner reads (200,000 chars) fits
MAX_TEXT = 400_000  # characters of a reply's text
MAX_NAME = 200  # characters of a site, conversation, message id, title, code or token
MAX_EXISTING = 500  # message ids listed in a hello


class WireError(Exception):
    """A message the relay does not read; ``str()`` says what to send instead."""


@dataclass(frozen=True)
class Pair:
    """The one-time pairing code the person copied from the app."""

    code: str


@dataclass(frozen=True)
class Hello:
    """A connection's first message once paired: its token and the chat it relays."""

    token: str
    site: str
    conversation: str
    existing: tuple[str, ...] = ()  # assistant messages on the page before it connected


@dataclass(frozen=True)
class Reply:
    """A finished assistant message of the chat."""

    conversation: str
    message_id: str
    text: str
    title: str = ""


@dataclass(frozen=True)
class Accepted:
    """The extension placed part ``part`` of a message's results in the chat's input."""

    message_id: str
    part: int


@dataclass(frozen=True)
class Ping:
    """A keep-alive (a browser ends an idle extension worker, and its connections)."""


Incoming = Pair | Hello | Reply | Accepted | Ping


def _name(found: dict[str, object], key: str, required: bool = True) -> str:
    value = found.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value):
        raise WireError(f"{key!r} must be a non-empty string")
    if len(value) > MAX_NAME:
        raise WireError(f"{key!r} is longer than {MAX_NAME} characters")
    return without_surrogates(value)


def _title(value: object) -> str:
    """A chat's title, cut at ``MAX_NAME``: it only names the chat in the log and the
    review, and comes from the page (any page's own title, for the fallback), so a long
    one must not cost the reply."""
    if not isinstance(value, str):
        return ""
    return without_surrogates(value[:MAX_NAME])


def read_message(raw: str | bytes) -> Incoming:
    """One frame as a value; WireError for anything else."""
    if isinstance(raw, bytes):
        raise WireError("send text frames holding JSON, not binary frames")
    try:
        found = json.loads(raw)
    except ValueError:
        raise WireError("the message is not JSON") from None
    if not isinstance(found, dict):
        raise WireError("the message must be a JSON object with a 'type'")
    kind = found.get("type")
    if kind == "pair":
        return Pair(_name(found, "code"))
    if kind == "hello":
        existing = found.get("existing", [])
        if not isinstance(existing, list) or not all(isinstance(i, str) for i in existing):
            raise WireError("'existing' must be a list of message ids")
        if len(existing) > MAX_EXISTING:
            existing = existing[-MAX_EXISTING:]  # the newest: older ones are not sent again
        return Hello(
            _name(found, "token"),
            _name(found, "site"),
            _name(found, "conversation"),
            tuple(without_surrogates(i[:MAX_NAME]) for i in existing),
        )
    if kind == "reply":
        text = found.get("text")
        if not isinstance(text, str):
            raise WireError("'text' must be a string")
        if len(text) > MAX_TEXT:
            raise WireError(f"'text' is longer than {MAX_TEXT:,} characters")
        return Reply(
            _name(found, "conversation"),
            _name(found, "message_id"),
            # JSON may carry half a character (a lone surrogate): it could be neither
            # stored nor encoded, so it is shown as its escape, as a file name's would be.
            without_surrogates(text),
            _title(found.get("title")),
        )
    if kind == "accepted":
        part = found.get("part")
        if not isinstance(part, int) or isinstance(part, bool) or part < 0:
            raise WireError("'part' must be a whole number from 0")
        return Accepted(_name(found, "message_id"), part)
    if kind == "ping":
        return Ping()
    raise WireError("'type' must be one of pair, hello, reply, accepted, ping")


def _dump(message: dict[str, object]) -> str:
    return json.dumps(message, ensure_ascii=False)


def paired(token: str) -> str:
    return _dump({"type": "paired", "token": token})


def pong() -> str:
    return _dump({"type": "pong"})


def ready() -> str:
    return _dump({"type": "ready"})


def results(
    conversation: str,
    message_id: str,
    parts: tuple[str, ...],
    approval: bool,
    final: bool = True,
) -> str:
    """``final`` false: the early results of a reply whose other commands wait for
    approval; the final message with the rest follows."""
    return _dump(
        {
            "type": "results",
            "conversation": conversation,
            "message_id": message_id,
            "parts": list(parts),
            "needs_approval": approval,
            "final": final,
        }
    )


def ignored(message_id: str, reason: str) -> str:
    return _dump({"type": "ignored", "message_id": message_id, "reason": reason})


def status(state: str) -> str:
    return _dump({"type": "status", "state": state})


def error(message: str) -> str:
    return _dump({"type": "error", "message": message})
