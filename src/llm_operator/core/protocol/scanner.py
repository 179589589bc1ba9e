"""Find OPERATOR_CMD blocks in a pasted LLM reply.

Invariants (every rule here is tested against golden files in tests/data/scanner):

Rule 1: only the last 200,000 characters are scanned. When the cut falls inside a line,
        that partial line is dropped, so half a marker is never read as a marker.
Rule 2: CRLF, CR and LF all end a line. A marker line may carry surrounding whitespace,
        and the space-like characters chat pages add (a BOM, no-break and zero-width
        spaces: lines.SPACE_LIKE) count as whitespace around a marker.
Rule 3: a line whose first or last whitespace-separated token is OPERATOR_CMD or
        END_OPERATOR_CMD, but which holds other text, is a marker that is not alone:
        the block it opens (or closes) is ERR_MARKER_NOT_ALONE. A marker word inside a
        sentence is prose. A code fence glued to a marker (```OPERATOR_CMD,
        END_OPERATOR_CMD```) makes the marker not alone; a glued END ends its block there,
        so the next block is never swallowed.
Rule 4: an OPERATOR_CMD (or an OPERATOR_RESULT marker) before the END of an open command
        block makes that block ERR_NESTED_BLOCK; the block runs to the next
        END_OPERATOR_CMD and swallows what it encloses, so nothing inside it runs.
Rule 5: OPERATOR_RESULT ... END_OPERATOR_RESULT blocks are never commands. They are
        counted, so the caller can warn about results the LLM wrote itself.
Rule 6: an END_OPERATOR_CMD with no open block is reported (ERR_MISSING_START_MARKER),
        because the command the LLM meant to send did not run; the id comes from the
        key-value lines right above it, if they show one.
Rule 7: every command block yields exactly one item, in message order: a CommandBlock
        or a BlockProblem. The scanner never raises.
Rule 8: a markdown-escaped marker alone on its line (OPERATOR\\_CMD) is recognised: its
        block is ERR_ESCAPED_MARKER, and the scan counts such lines so the caller can
        explain them.
Rule 9: every refusal carries the block's id when any of its lines shows one, even as
        `ID:` or markdown-escaped. The lines between the markers are checked in
        block_body.py (copy-damage tolerance, doubled line breaks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .block_body import (
    MAX_BLOCK_CHARS,
    MAX_BLOCK_LINES,
    BlockProblem,
    CommandBlock,
    Line,
    Swallowed,
    id_of,
    parse_body,
)
from .lines import tokens, unescaped_key

__all__ = [
    "MAX_BLOCK_CHARS",
    "MAX_BLOCK_LINES",
    "SCAN_LIMIT",
    "BlockProblem",
    "CommandBlock",
    "Scan",
    "ScanItem",
    "Swallowed",
    "scan",
]

SCAN_LIMIT = 200_000

CMD = "OPERATOR_CMD"
END_CMD = "END_OPERATOR_CMD"
RESULT = "OPERATOR_RESULT"
END_RESULT = "END_OPERATOR_RESULT"
_MARKERS = (CMD, END_CMD, RESULT, END_RESULT)
_CMD_MARKERS = (CMD, END_CMD)
_FENCE_CHARS = "`~"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")

ScanItem = CommandBlock | BlockProblem


@dataclass(frozen=True)
class Scan:
    """A scanned message: its command and refused blocks, in order, and what else it held."""

    items: tuple[ScanItem, ...]
    result_blocks: int = 0  # OPERATOR_RESULT blocks found in the message (never run)
    truncated: bool = False  # the message was longer than SCAN_LIMIT
    escaped_markers: int = 0  # markdown-escaped marker lines (OPERATOR\\_CMD) found


@dataclass(frozen=True)
class Mark:
    """The marker a line carries, and how: alone, glued to a code fence, or escaped."""

    word: str | None
    alone: bool = False
    fenced: bool = False  # ```OPERATOR_CMD: a code fence glued to the marker
    escaped: bool = False  # OPERATOR\\_CMD: copied as markdown source


_NONE = Mark(None)


def _unfenced(word: str) -> tuple[str, bool]:
    """``word`` without a code fence glued to either end, and whether there was one."""
    bare = word
    if bare.startswith(("```", "~~~")):
        bare = bare.lstrip(_FENCE_CHARS)
    if bare.endswith(("```", "~~~")):
        bare = bare.rstrip(_FENCE_CHARS)
    return bare, bare != word


def _marker(line: str) -> Mark:
    """The marker ``line`` carries; a marker word inside a sentence is no marker."""
    if "OPERATOR" not in line:  # most lines: prose and key-value lines
        return _NONE
    words = tokens(line)
    if not words:
        return _NONE
    if len(words) == 1:
        word = words[0]
        if word in _MARKERS:
            return Mark(word, alone=True)
        if "\\" in word and word.replace("\\_", "_") in _MARKERS:
            return Mark(word.replace("\\_", "_"), alone=True, escaped=True)
        bare, fenced = _unfenced(word)
        return Mark(bare, fenced=True) if fenced and bare in _CMD_MARKERS else _NONE
    for candidate in (words[0], words[-1]):
        bare, fenced = _unfenced(candidate)
        if bare in _CMD_MARKERS:
            return Mark(bare, fenced=fenced)
    return _NONE


def _split_lines(text: str) -> tuple[list[str], bool]:
    truncated = len(text) > SCAN_LIMIT
    if truncated:
        before = text[-SCAN_LIMIT - 1]
        text = text[-SCAN_LIMIT:]
        if before == "\r" and text.startswith("\n"):
            # The cut split a CRLF: the window starts with the rest of a line break.
            text = text[1:]
        elif before not in "\r\n":
            # The cut is mid-line: drop that partial line.
            first_break = _LINE_BREAK.search(text)
            text = text[first_break.end() :] if first_break else ""
    return _LINE_BREAK.split(text), truncated


def scan(text: str) -> Scan:
    """Every command block of ``text``, in order, each as one item."""
    lines, truncated = _split_lines(text)
    items: list[ScanItem] = []
    result_blocks = 0
    escaped = 0
    index = 0
    total = len(lines)
    while index < total:
        mark = _marker(lines[index])
        escaped += mark.escaped
        if mark.word == RESULT and mark.alone:
            result_blocks += 1
            index = _skip_result(lines, index + 1)
            continue
        if mark.word == END_CMD:
            items.append(_stray_end(lines, index, mark))
            index += 1
            continue
        if mark.word != CMD:
            index += 1
            continue
        item, after = _read_block(lines, index, mark)
        escaped += sum(_marker(line).escaped for line in lines[index + 1 : after])
        items.append(item)
        index = after
    return Scan(tuple(items), result_blocks, truncated, escaped)


def _skip_result(lines: list[str], index: int) -> int:
    """The index after an OPERATOR_RESULT block (an unterminated one ends at a CMD marker
    alone on its line; a result line that merely starts with the word stays in the result)."""
    while index < len(lines):
        mark = _marker(lines[index])
        if mark.word == END_RESULT and mark.alone:
            return index + 1
        if mark.word == CMD and mark.alone:
            return index
        index += 1
    return index


def _lines_before(lines: list[str], index: int) -> list[str]:
    """The key-value lines right above ``index``: a block whose start marker is missing."""
    found: list[str] = []
    while index > 0 and unescaped_key(lines[index - 1]) is not None:
        index -= 1
        found.append(lines[index])
    return found


def _stray_end(lines: list[str], index: int, mark: Mark) -> BlockProblem:
    number = index + 1
    block_id = id_of(_lines_before(lines, index))
    if not mark.alone:
        return _not_alone(mark, number, number, block_id, lines[index])
    if mark.escaped:
        return _escaped(number, number, block_id)
    return BlockProblem(
        "ERR_MISSING_START_MARKER",
        f"END_OPERATOR_CMD on line {number} has no OPERATOR_CMD before it, so nothing ran; "
        "start every command with OPERATOR_CMD alone on its line",
        number,
        block_id,
    )


def _read_block(lines: list[str], start: int, opened: Mark) -> tuple[ScanItem, int]:
    """Read the block opened at ``start``; return its item and the index after it."""
    body: list[Line] = []
    nested_at: int | None = None
    inner: list[int] = []  # body positions of the start markers inside the block
    closed: Mark | None = None
    index = start + 1
    number = start + 1
    while index < len(lines):
        mark = _marker(lines[index])
        if mark.word == END_CMD:
            closed = mark
            if not mark.alone and opened.alone:
                # "path: x END_OPERATOR_CMD": the block ends here, but not cleanly.
                raws = [line.raw for line in body]
                return _not_alone(mark, number, index + 1, id_of(raws), lines[index]), index + 1
            break
        if mark.word in (CMD, RESULT) and nested_at is None:
            if not opened.alone:
                # A sentence ending in the marker word, then a real block: report the
                # sentence and let the real block be read on its own.
                return _not_alone(opened, number, number, None, lines[start]), index
            nested_at = index + 1
        if mark.word == CMD and mark.alone:
            inner.append(len(body))
        body.append(Line(index + 1, lines[index]))
        index += 1
    raws = [line.raw for line in body]
    # The block's own id comes from its lines before any block it swallowed.
    block_id = id_of(raws[: inner[0]] if inner else raws)
    swallowed = _swallowed(body, inner)
    if not opened.alone:
        return _not_alone(opened, number, number, block_id, lines[start]), index + (
            closed is not None
        )
    if closed is None:
        return (
            BlockProblem(
                "ERR_MISSING_END_MARKER",
                f"OPERATOR_CMD on line {number} is never closed; end the block with "
                f"END_OPERATOR_CMD alone on its line{_swallowed_note(swallowed)}",
                number,
                block_id,
                swallowed,
            ),
            index,
        )
    if nested_at is not None:
        return (
            BlockProblem(
                "ERR_NESTED_BLOCK",
                f"OPERATOR_CMD on line {number} is not closed before the marker on line "
                f"{nested_at}; close every block with END_OPERATOR_CMD before starting "
                f"another (nothing in this span ran){_swallowed_note(swallowed)}",
                number,
                block_id,
                swallowed,
            ),
            index + 1,
        )
    if opened.escaped or closed.escaped:
        return _escaped(number, number if opened.escaped else index + 1, block_id), index + 1
    return parse_body(body, number, block_id), index + 1


def _swallowed(body: list[Line], inner: list[int]) -> tuple[Swallowed, ...]:
    """The blocks that started inside an unclosed block, each with the id its lines show."""
    found = []
    for n, at in enumerate(inner):
        upto = inner[n + 1] if n + 1 < len(inner) else len(body)
        found.append(Swallowed(body[at].number, id_of([line.raw for line in body[at + 1 : upto]])))
    return tuple(found)


def _swallowed_note(swallowed: tuple[Swallowed, ...]) -> str:
    if not swallowed:
        return ""
    named = ", ".join(block.describe() for block in swallowed)
    return f"; its END line is missing, so it swallowed {named}: send that again too"


def _not_alone(mark: Mark, start: int, at: int, block_id: str | None, text: str) -> BlockProblem:
    word = mark.word or CMD
    found = text.strip()
    found = found if len(found) <= 60 else found[:57] + "..."
    if mark.fenced:
        message = (
            f"line {at}: a code fence is glued to {word}; put the fence (```) on a line of "
            f"its own, or leave it out, and {word} alone on its line"
        )
    else:
        message = (
            f"the marker on line {at} shares its line with other text ({found!r}); put "
            "OPERATOR_CMD and END_OPERATOR_CMD alone on their own lines, and never start or "
            "end a sentence with a marker word"
        )
    return BlockProblem("ERR_MARKER_NOT_ALONE", message, start, block_id)


def _escaped(start: int, at: int, block_id: str | None) -> BlockProblem:
    return BlockProblem(
        "ERR_ESCAPED_MARKER",
        f"line {at} holds a markdown-escaped marker (OPERATOR\\_CMD): the reply was copied "
        "as markdown source. Write OPERATOR_CMD blocks as plain text (a ```text code block "
        "is fine) and never put a backslash before an underscore",
        start,
        block_id,
    )
