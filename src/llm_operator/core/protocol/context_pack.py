"""A context message: primer, task, chosen files and an outline, cut into chat-sized parts.

Format (the served spec's CONTEXT MESSAGES section documents it for the LLM):

    ## Task
    <task text>

    ## Files (<n>)
    === FILE: <path> (<k> lines) ===
    1: <first line>
    ...
    === END FILE: <path> ===

    ## Outline of the rest of the workspace
    <fs.outline of the folder, without the files above>

File lines are numbered as fs.readSlice numbers them, so an edit can name lines at once.

Rules:
- Parts break only between lines. A file cut by a part boundary is closed with
  ``=== FILE <path> continues in the next part ===`` and reopened in the next part with
  ``=== FILE: <path> (continued from line <n>) ===``.
- A line longer than a part can hold is cut into pieces marked ``[line <n> continues]``.
- With more than one part, each starts with one plain line "LLM Operator context, part i
  of n"; every part, that line included, is at most ``limit`` characters.
- The token estimate is characters / 4 (rounded up): a common rule of thumb for English
  text and code with GPT- and Claude-style tokenizers; real counts vary by about 25%.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HEADER = "LLM Operator context, part {i} of {n}. More parts follow: wait for all of them."
LAST_HEADER = "LLM Operator context, part {i} of {n} (last part). Read all parts, then answer."
_HEADER_ROOM = len(HEADER.format(i=9999, n=9999)) + 2
_CLOSE = "=== FILE {path} continues in the next part ==="
_REOPEN = "=== FILE: {path} (continued from line {line}) ==="
MIN_LIMIT = 1000
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class PackedFile:
    """A file that goes into a context message whole: its path and text."""

    rel: str
    text: str  # decoded file text, LF line ends


@dataclass(frozen=True)
class ContextMessage:
    """A context message in parts of at most ``limit`` characters, to be pasted in order."""

    parts: tuple[str, ...]
    chars: int  # of the message as one piece (before any split)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.chars)

    @property
    def whole(self) -> str:
        return "\n\n".join(self.parts)


def estimate_tokens(chars: int) -> int:
    return math.ceil(chars / CHARS_PER_TOKEN)


def file_lines(text: str) -> list[str]:
    """Lines as fs.readSlice numbers them (only LF ends a line; a trailing CR is dropped)."""
    if not text:
        return []
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def file_section(packed: PackedFile) -> list[str]:
    lines = file_lines(packed.text)
    count = f"{len(lines)} line{'s' if len(lines) != 1 else ''}"
    body = [f"{number}: {line}" for number, line in enumerate(lines, start=1)]
    return [f"=== FILE: {packed.rel} ({count}) ===", *body, f"=== END FILE: {packed.rel} ==="]


def section_chars(packed: PackedFile) -> int:
    """Characters the file adds to a message (its section and the line break after it)."""
    return sum(len(line) + 1 for line in file_section(packed))


def message_lines(
    primer: str, task: str, files: list[PackedFile], outline: str | None
) -> list[tuple[str, str | None]]:
    """Every line of the message, each with the path of the file it belongs to (or None)."""
    lines: list[tuple[str, str | None]] = [(line, None) for line in primer.rstrip("\n").split("\n")]
    if task.strip():
        lines += [("", None), ("## Task", None)]
        lines += [(line, None) for line in task.strip("\n").split("\n")]
    if files:
        lines += [("", None), (f"## Files ({len(files)})", None)]
        for packed in files:
            lines += [(line, packed.rel) for line in file_section(packed)]
    if outline:
        lines += [("", None), ("## Outline of the rest of the workspace", None)]
        lines += [(line, None) for line in outline.rstrip("\n").split("\n")]
    return lines


def _pieces(line: str, width: int, number: str) -> list[str]:
    if len(line) <= width:
        return [line]
    mark = f" [line {number} continues]"
    step = max(1, width - len(mark))
    chunks = [line[i : i + step] for i in range(0, len(line), step)]
    return [chunk + mark for chunk in chunks[:-1]] + [chunks[-1]]


def _reopen(owner: str, line: str) -> str:
    number = line.split(":", 1)[0]
    if number.isdigit():
        return _REOPEN.format(path=owner, line=number)
    return f"=== FILE: {owner} (continued) ==="


def pack_message(
    primer: str, task: str, files: list[PackedFile], outline: str | None, limit: int
) -> ContextMessage:
    """The message, in parts of at most ``limit`` characters each (``limit`` >= 1000)."""
    lines = message_lines(primer, task, files, outline)
    whole = "\n".join(line for line, _ in lines)
    if len(whole) <= limit:
        return ContextMessage((whole,), len(whole))
    budget = max(limit, MIN_LIMIT) - _HEADER_ROOM
    parts: list[list[str]] = [[]]
    used = 0
    for line, owner in lines:
        close = _CLOSE.format(path=owner) if owner else ""
        reopen = _reopen(owner, line) if owner else ""
        # Room for a reopen line before, and a close line after, any piece of this line.
        reserve = (len(reopen) + 1 + len(close) + 1) if owner else 0
        number = line.split(":", 1)[0] if owner else "?"
        for piece in _pieces(line, max(40, budget - reserve - 1), number):
            cost = len(piece) + 1
            tail = len(close) + 1 if owner else 0
            if used + cost + tail > budget and parts[-1]:
                starts_file = line.startswith("=== FILE: ")
                if owner and not starts_file:
                    parts[-1].append(close)
                parts.append([])
                used = 0
                if owner and not starts_file:
                    parts[-1].append(reopen)
                    used = len(reopen) + 1
            parts[-1].append(piece)
            used += cost
    total = len(parts)
    texts = []
    for index, body in enumerate(parts, start=1):
        head = (LAST_HEADER if index == total else HEADER).format(i=index, n=total)
        texts.append(head + "\n\n" + "\n".join(body))
    return ContextMessage(tuple(texts), len(whole))
