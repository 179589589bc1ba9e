"""A command's output kept within a fixed budget, however much it prints.

Invariants:
- Memory is bounded whatever the command prints: the first ``HEAD_LINES`` lines (at most
  ``HEAD_CHARS`` characters) are kept as they come, then only a window of the last
  ``TAIL_BYTES`` bytes; every other byte is only counted. A line longer than
  ``MAX_LINE_CHARS`` is cut, and says so.
- What is kept fits ``MAX_LINES`` lines and ``MAX_CHARS`` characters in all, the line that
  says how many lines were left out included.
- ANSI escape sequences (colours, cursor moves, window titles) are removed; every other
  control character stays, for the readable body to escape (``protocol.readable``), so a
  carriage return that would hide text on a terminal is visible to the model.
- Bytes that are not UTF-8 stay as surrogate escapes, which the readable body writes as
  ``\\xNN``: nothing is lost in decoding and nothing is invented.
- A CR LF line end counts as LF.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

MAX_LINES = 400
MAX_CHARS = 40_000
HEAD_LINES = 100
HEAD_CHARS = 10_000
MAX_LINE_CHARS = 2_000
# The tail window is raw bytes: enough for the last lines after colours are removed.
TAIL_BYTES = 256 * 1024
CUT_NOTE = " [line cut at 2,000 characters]"

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), other two-byte escapes, and the
# 8-bit CSI. Applied to the bytes of one line, before decoding.
_ANSI = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    rb"|\x1b[P^_][^\x1b]*(?:\x1b\\)?"
    rb"|\x1b[@-Z\\-_]"
    rb"|\x1b[ -/]+[0-~]"
)


def clean_line(raw: bytes) -> str:
    """One line of output as text: ANSI sequences removed, a final CR dropped, cut when long."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if b"\x1b" in raw:
        raw = _ANSI.sub(b"", raw)
    text = raw.decode("utf-8", "surrogateescape")
    if len(text) > MAX_LINE_CHARS:
        return text[:MAX_LINE_CHARS] + CUT_NOTE
    return text


@dataclass(frozen=True)
class KeptOutput:
    """What is kept of the output: its lines (the left-out note among them) and counts."""

    lines: tuple[str, ...]
    total_lines: int  # lines the command printed (a last line without newline included)
    left_out: int  # lines not kept
    total_bytes: int


def left_out_line(count: int) -> str:
    return f"# ... {count:,} lines left out ..."


class OutputKeeper:
    """Takes the output in chunks as it comes; ``finish`` gives what is kept."""

    def __init__(self) -> None:
        self._head: list[str] = []
        self._head_chars = 0
        self._head_full = False
        self._partial = bytearray()  # the head's unfinished line (bounded)
        self._partial_cut = False  # the unfinished line passed its cap: skip to its end
        self._tail = bytearray()
        self._tail_at_line_start = True  # the window's first byte begins a line
        self._newlines = 0
        self._bytes = 0

    def feed(self, chunk: bytes) -> None:
        if not chunk:
            return
        self._bytes += len(chunk)
        if not self._head_full:
            chunk = self._feed_head(chunk)
            if not chunk:
                return
        self._feed_tail(chunk)

    def _feed_head(self, chunk: bytes) -> bytes:
        """Take lines for the head; return what comes after the head is full."""
        start = 0
        while not self._head_full:
            end = chunk.find(b"\n", start)
            if end < 0:
                self._add_partial(chunk[start:])
                return b""
            self._add_partial(chunk[start:end])
            self._newlines += 1
            line = clean_line(bytes(self._partial))
            if self._partial_cut and not line.endswith(CUT_NOTE):
                line += CUT_NOTE
            self._partial.clear()
            self._partial_cut = False
            self._head.append(line)
            self._head_chars += len(line) + 1
            start = end + 1
            if len(self._head) >= HEAD_LINES or self._head_chars >= HEAD_CHARS:
                self._head_full = True
        return chunk[start:]

    def _add_partial(self, piece: bytes) -> None:
        if self._partial_cut:
            return
        room = 4 * MAX_LINE_CHARS + 64 - len(self._partial)
        if len(piece) > room:
            self._partial += piece[:room]
            self._partial_cut = True
        else:
            self._partial += piece

    def _feed_tail(self, chunk: bytes) -> None:
        self._newlines += chunk.count(b"\n")
        self._tail += chunk
        over = len(self._tail) - TAIL_BYTES
        if over > 0:
            self._tail_at_line_start = self._tail[over - 1] == 0x0A
            del self._tail[:over]

    def finish(self) -> KeptOutput:
        head = list(self._head)
        total = self._newlines
        if not self._head_full:
            if self._partial or self._partial_cut:
                line = clean_line(bytes(self._partial))
                if self._partial_cut and not line.endswith(CUT_NOTE):
                    line += CUT_NOTE
                head.append(line)
                total += 1
            return KeptOutput(tuple(head), total, 0, self._bytes)
        pieces = bytes(self._tail).split(b"\n")
        ends_with_newline = pieces[-1] == b""
        if ends_with_newline:
            pieces.pop()
        else:
            total += 1
        # The first piece is a whole line only when the window starts at a line start.
        if not self._tail_at_line_start and pieces:
            pieces.pop(0)
        room_lines = MAX_LINES - len(head) - 1
        room_chars = MAX_CHARS - self._head_chars - len(left_out_line(total)) - 1
        tail: deque[str] = deque()
        for raw in reversed(pieces):
            if len(tail) >= room_lines:
                break
            line = clean_line(raw)
            if len(line) + 1 > room_chars:
                break
            room_chars -= len(line) + 1
            tail.appendleft(line)
        left_out = total - len(head) - len(tail)
        kept = head + ([left_out_line(left_out)] if left_out else []) + list(tail)
        return KeptOutput(tuple(kept), total, left_out, self._bytes)
