"""Find OPERATOR_CMD blocks in a pasted LLM reply.

Invariants (every rule here is tested against golden files in tests/data/scanner):

Rule 1: only the last 200,000 characters are scanned. When the cut falls inside a line,
        that partial line is dropped, so half a marker is never read as a marker.
Rule 2: CRLF, CR and LF all end a line. A marker line may carry surrounding whitespace.
Rule 3: a line whose first or last whitespace-separated token is OPERATOR_CMD or
        END_OPERATOR_CMD, but which holds other text, is a marker that is not alone:
        the block it opens (or closes) is ERR_MARKER_NOT_ALONE. A marker word inside a
        sentence is prose.
Rule 4: an OPERATOR_CMD (or an OPERATOR_RESULT marker) before the END of an open command
        block makes that block ERR_NESTED_BLOCK; the block runs to the next
        END_OPERATOR_CMD and swallows what it encloses, so nothing inside it runs.
Rule 5: OPERATOR_RESULT ... END_OPERATOR_RESULT blocks are never commands. They are
        counted, so the caller can warn about results the LLM wrote itself.
Rule 6: an END_OPERATOR_CMD with no open block is reported (ERR_MISSING_START_MARKER),
        because the command the LLM meant to send did not run.
Rule 7: every command block yields exactly one item, in message order: a CommandBlock
        or a BlockProblem. The scanner never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SCAN_LIMIT = 200_000
MAX_BLOCK_LINES = 200
MAX_BLOCK_CHARS = 50_000

CMD = "OPERATOR_CMD"
END_CMD = "END_OPERATOR_CMD"
RESULT = "OPERATOR_RESULT"
END_RESULT = "END_OPERATOR_RESULT"
_CMD_MARKERS = (CMD, END_CMD)

_KEY_VALUE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[ \t]*:(.*)\Z", re.DOTALL)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Printable ASCII and tab only: control characters could corrupt an echoed id or path.
_FORBIDDEN_CHAR = re.compile(r"[^\t\x20-\x7e]")
# Fields whose value is inline text: a line break in that text shows up as stray lines.
INLINE_TEXT_KEYS = frozenset({"content", "old_text", "new_text", "target", "dest_target"})


@dataclass(frozen=True)
class CommandBlock:
    """A well-formed block: its key-value lines, in order, and where it stood."""

    fields: tuple[tuple[str, str], ...]
    line: int  # 1-based line of the OPERATOR_CMD marker within the scanned text

    def get(self, key: str) -> str | None:
        for name, value in self.fields:
            if name == key:
                return value
        return None

    @property
    def fingerprint(self) -> str:
        """The block's content, for telling a true repeat from a reused id."""
        return "\n".join(f"{key}: {value}" for key, value in self.fields)


@dataclass(frozen=True)
class BlockProblem:
    """A block the scanner refuses. ``id`` is the block's id when one could be read."""

    code: str
    message: str
    line: int
    id: str | None = None


ScanItem = CommandBlock | BlockProblem


@dataclass(frozen=True)
class Scan:
    items: tuple[ScanItem, ...]
    result_blocks: int = 0  # OPERATOR_RESULT blocks found in the message (never run)
    truncated: bool = False  # the message was longer than SCAN_LIMIT


def _tokens(line: str) -> list[str]:
    return line.split()


def _marker(line: str) -> tuple[str | None, bool]:
    """(marker, alone) for a line: the CMD marker it carries, and whether it is alone."""
    tokens = _tokens(line)
    if not tokens:
        return None, False
    if len(tokens) == 1:
        return (
            (tokens[0], True)
            if tokens[0] in (CMD, END_CMD, RESULT, END_RESULT)
            else (
                None,
                False,
            )
        )
    for candidate in (tokens[0], tokens[-1]):
        if candidate in _CMD_MARKERS:
            return candidate, False
    return None, False


def _id_of(lines: list[str]) -> str | None:
    for line in lines:
        match = _KEY_VALUE.match(line.strip())
        if match and match.group(1) == "id":
            value = match.group(2).strip()
            if value and value.isascii() and value.isprintable():
                return value
    return None


def _parse_body(lines: list[str], start: int) -> CommandBlock | BlockProblem:
    """Check the lines between the markers; ``start`` is the OPERATOR_CMD line number."""
    block_id = _id_of(lines)
    chars = sum(len(line) + 1 for line in lines)
    if len(lines) > MAX_BLOCK_LINES or chars > MAX_BLOCK_CHARS:
        return BlockProblem(
            "ERR_BLOCK_TOO_LARGE",
            f"the block has {len(lines)} lines and {chars} characters between its markers; "
            f"the limits are {MAX_BLOCK_LINES} lines and {MAX_BLOCK_CHARS} characters: "
            "split the work into several commands",
            start,
            block_id,
        )
    fields: list[tuple[str, str]] = []
    previous_key: str | None = None
    for offset, raw in enumerate(lines, start=1):
        number = start + offset
        bad = _FORBIDDEN_CHAR.search(raw)
        if bad is not None:
            char = bad.group()
            kind = "non-ASCII" if not char.isascii() else "control"
            return BlockProblem(
                "ERR_NON_ASCII_IN_CMD",
                f"line {offset} of the block holds the {kind} character {char!r} "
                f"(U+{ord(char):04X}); use printable ASCII only, and put any other text in a "
                "*_b64 field",
                number,
                block_id,
            )
        text = raw.strip()
        match = _KEY_VALUE.match(text) if text else None
        if match is None and previous_key in INLINE_TEXT_KEYS:
            return BlockProblem(
                "ERR_CONTENT_HAS_NEWLINES",
                f"{previous_key} contains a line break; use {previous_key}_b64 "
                "(base64 of the UTF-8 text) for anything longer than one line",
                number,
                block_id,
            )
        if not text:
            return BlockProblem(
                "ERR_EMPTY_LINE_IN_CMD",
                f"line {offset} of the block is empty; remove empty lines between "
                "OPERATOR_CMD and END_OPERATOR_CMD",
                number,
                block_id,
            )
        if match is None:
            shown = text if len(text) <= 60 else text[:57] + "..."
            return BlockProblem(
                "ERR_NON_KEY_VALUE_LINE",
                f"line {offset} of the block is not a 'key: value' line: {shown!r}; "
                "only key: value lines are allowed inside OPERATOR_CMD (keys are letters, "
                "digits and _)",
                number,
                block_id,
            )
        previous_key = match.group(1)
        fields.append((previous_key, match.group(2).strip()))
    return CommandBlock(tuple(fields), start)


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
    index = 0
    total = len(lines)
    while index < total:
        marker, alone = _marker(lines[index])
        number = index + 1
        if marker == RESULT and alone:
            result_blocks += 1
            index = _skip_result(lines, index + 1)
            continue
        if marker == END_CMD:
            items.append(_stray_end(lines[index], alone, number))
            index += 1
            continue
        if marker != CMD:
            index += 1
            continue
        item, index = _read_block(lines, index, alone)
        items.append(item)
    return Scan(tuple(items), result_blocks, truncated)


def _skip_result(lines: list[str], index: int) -> int:
    """The index after an OPERATOR_RESULT block (an unterminated one ends at a CMD marker
    alone on its line; a result line that merely starts with the word stays in the result)."""
    while index < len(lines):
        marker, alone = _marker(lines[index])
        if marker == END_RESULT and alone:
            return index + 1
        if marker == CMD and alone:
            return index
        index += 1
    return index


def _stray_end(line: str, alone: bool, number: int) -> BlockProblem:
    if not alone:
        return BlockProblem(
            "ERR_MARKER_NOT_ALONE",
            f"line {number} carries END_OPERATOR_CMD together with other text; put every "
            "marker alone on its own line",
            number,
        )
    return BlockProblem(
        "ERR_MISSING_START_MARKER",
        f"END_OPERATOR_CMD on line {number} has no OPERATOR_CMD before it, so nothing ran; "
        "start every command with OPERATOR_CMD alone on its line",
        number,
    )


def _read_block(lines: list[str], start: int, start_alone: bool) -> tuple[ScanItem, int]:
    """Read the block opened at ``start``; return its item and the index after it."""
    body: list[str] = []
    nested_at: int | None = None
    index = start + 1
    number = start + 1
    while index < len(lines):
        marker, alone = _marker(lines[index])
        if marker == END_CMD:
            if not alone:
                # "path: x END_OPERATOR_CMD": the block ends here, but not cleanly.
                return _not_alone(body, number, index + 1), index + 1
            break
        if marker in (CMD, RESULT) and nested_at is None:
            if not start_alone:
                # A sentence ending in the marker word, then a real block: report the
                # sentence and let the real block be read on its own.
                return _not_alone(body, number, number), index
            nested_at = index + 1
        body.append(lines[index])
        index += 1
    else:
        if not start_alone:
            return _not_alone(body, number, number), index
        return (
            BlockProblem(
                "ERR_MISSING_END_MARKER",
                f"OPERATOR_CMD on line {number} is never closed; end the block with "
                "END_OPERATOR_CMD alone on its line",
                number,
                _id_of(body),
            ),
            index,
        )
    if nested_at is not None:
        return (
            BlockProblem(
                "ERR_NESTED_BLOCK",
                f"OPERATOR_CMD on line {number} is not closed before the marker on line "
                f"{nested_at}; close every block with END_OPERATOR_CMD before starting "
                "another (nothing in this span ran)",
                number,
                _id_of(body),
            ),
            index + 1,
        )
    if not start_alone:
        return _not_alone(body, number, number), index + 1
    return _parse_body(body, number), index + 1


def _not_alone(body: list[str], start: int, at: int) -> BlockProblem:
    return BlockProblem(
        "ERR_MARKER_NOT_ALONE",
        f"the marker on line {at} shares its line with other text; put OPERATOR_CMD and "
        "END_OPERATOR_CMD alone on their own lines",
        start,
        _id_of(body),
    )
