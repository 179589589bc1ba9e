"""The lines between OPERATOR_CMD and END_OPERATOR_CMD: key-value lines, or what to fix.

Checks run line by line and the first problem wins: a character a command may not hold
(ERR_NON_ASCII_IN_CMD, naming the character, its line and column), a plain text value
continued on the next line (ERR_CONTENT_HAS_NEWLINES), a base64 value wrapped over several
lines (ERR_INVALID_BASE64, naming the field and the payload's length), an empty line
(ERR_EMPTY_LINE_IN_CMD), anything else that is not ``key: value`` (ERR_NON_KEY_VALUE_LINE).
The size limit is checked first (ERR_BLOCK_TOO_LARGE).

A block in which every line is followed by exactly one empty line is read as if
single-spaced: chat pages that put each line in a paragraph of its own double every line
break, and the model cannot see that. A single stray empty line is still refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .lines import (
    BASE64_FRAGMENT,
    KeyValue,
    bad_char,
    is_blank,
    key_value,
    trim,
    unescaped_key,
)

MAX_BLOCK_LINES = 200
MAX_BLOCK_CHARS = 50_000
# Fields whose value is inline text: a line break in that text shows up as stray lines.
INLINE_TEXT_KEYS = frozenset({"content", "old_text", "new_text", "target", "dest_target"})
_TWINNED_KEYS = INLINE_TEXT_KEYS | {"query", "q", "anchor"}


@dataclass(frozen=True)
class Line:
    """One line of a block's body as pasted, and its number in the scanned text."""

    number: int  # 1-based line number within the scanned text
    raw: str


@dataclass(frozen=True)
class CommandBlock:
    """A well-formed block: its key-value lines, in order, and where it stood."""

    fields: tuple[tuple[str, str], ...]
    line: int  # 1-based line of the OPERATOR_CMD marker within the scanned text
    # The line of each field, in the same order (for messages; not part of the content).
    field_lines: tuple[int, ...] = field(default=(), compare=False)

    def get(self, key: str) -> str | None:
        for name, value in self.fields:
            if name == key:
                return value
        return None

    def line_of(self, key: str) -> int:
        """The line of the first ``key`` line, or the start marker's line if unknown."""
        for (name, _value), number in zip(self.fields, self.field_lines, strict=False):
            if name == key:
                return number
        return self.line

    @property
    def fingerprint(self) -> str:
        """The block's content, for telling a true repeat from a reused id."""
        return "\n".join(f"{key}: {value}" for key, value in self.fields)


@dataclass(frozen=True)
class BlockProblem:
    """A block the scanner refuses. ``id`` is the block's id when one could be read;
    ``swallowed`` names the blocks that started inside it (its END line is missing), so
    nothing of them ran."""

    code: str
    message: str
    line: int
    id: str | None = None
    swallowed: tuple[Swallowed, ...] = ()


@dataclass(frozen=True)
class Swallowed:
    """A block that started inside an unclosed one: where, and the id it shows."""

    line: int
    id: str | None = None

    def describe(self) -> str:
        named = f"the block {self.id}" if self.id else "a block without an id"
        return f"{named} (from line {self.line})"


def id_of(lines: Sequence[str]) -> str | None:
    """The id any line shows, even in the wrong case (``ID:``) or markdown-escaped."""
    for raw in lines:
        parsed = unescaped_key(raw)
        if parsed is not None and parsed.key.lower() == "id":
            value = parsed.value
            if value and value.isascii() and value.isprintable():
                return value
    return None


def undouble(body: Sequence[Line]) -> list[Line]:
    """``body`` read single-spaced when every line is followed by exactly one empty line."""
    if len(body) < 2 or not is_blank(body[-1].raw):
        # A doubled block always ends with the empty line before its end marker.
        return list(body)
    for offset in (0, 1):
        # offset 1: the start marker is followed by an empty line too.
        if offset == 1 and not is_blank(body[0].raw):
            continue
        rest = body[offset:]
        if len(rest) % 2:
            continue
        filled = rest[0::2]
        gaps = rest[1::2]
        if all(not is_blank(line.raw) for line in filled) and all(
            is_blank(line.raw) for line in gaps
        ):
            return list(filled)
    return list(body)


def _where(line: Line, start: int) -> str:
    return f"line {line.number} (line {line.number - start} of the block)"


def parse_body(
    body: Sequence[Line], start: int, block_id: str | None
) -> CommandBlock | BlockProblem:
    """Check the lines between the markers; ``start`` is the OPERATOR_CMD line number."""
    lines = undouble(body)
    chars = sum(len(line.raw) + 1 for line in lines)
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
    numbers: list[int] = []
    previous_key: str | None = None
    for position, line in enumerate(lines):
        parsed = _line_problem(lines, position, previous_key, start)
        if isinstance(parsed, tuple):
            code, message = parsed
            return BlockProblem(code, message, line.number, block_id)
        previous_key = parsed.key
        fields.append((parsed.key, parsed.value))
        numbers.append(line.number)
    return CommandBlock(tuple(fields), start, tuple(numbers))


def _line_problem(
    lines: Sequence[Line], position: int, previous_key: str | None, start: int
) -> KeyValue | tuple[str, str]:
    """The line as ``key: value``, or (code, message) saying what is wrong with it."""
    line = lines[position]
    where = _where(line, start)
    bad = bad_char(line.raw)
    if bad is not None:
        holder = f"the value of {bad.in_value_of}" if bad.in_value_of else "it"
        return (
            "ERR_NON_ASCII_IN_CMD",
            f"{where}, column {bad.column}: {holder} holds {bad.described}; use printable "
            f"ASCII only inside OPERATOR_CMD: {_ascii_fix(bad.char, bad.in_value_of)}",
        )
    parsed = key_value(line.raw)
    if parsed is not None:
        return parsed
    if previous_key in INLINE_TEXT_KEYS:
        return (
            "ERR_CONTENT_HAS_NEWLINES",
            f"{previous_key} contains a line break; use {previous_key}_json (the text as one "
            f"line of JSON, line breaks written \\n) or {previous_key}_b64 for anything "
            f"longer than one line ({where} continues it)",
        )
    text = trim(line.raw)
    if previous_key is not None and previous_key.endswith("_b64") and BASE64_FRAGMENT.match(text):
        return ("ERR_INVALID_BASE64", _wrapped_base64(lines, position, previous_key, start))
    if not text:
        return (
            "ERR_EMPTY_LINE_IN_CMD",
            f"{where} is empty; remove empty lines between OPERATOR_CMD and END_OPERATOR_CMD",
        )
    escaped = unescaped_key(line.raw)
    if escaped is not None:
        return (
            "ERR_NON_KEY_VALUE_LINE",
            f"{where} has a markdown-escaped key {text[:40]!r}: write the key as "
            f"{escaped.key!r}, without backslashes",
        )
    shown = text if len(text) <= 60 else text[:57] + "..."
    hint = ""
    if text.startswith(("```", "~~~")):
        hint = "a code fence belongs outside the markers, on its own line; "
    elif text[:2] in ("- ", "* ", "+ ") and key_value(text[2:]) is not None:
        hint = "drop the list bullet; "
    return (
        "ERR_NON_KEY_VALUE_LINE",
        f"{where} is not a 'key: value' line: {shown!r}; {hint}only key: value lines are "
        "allowed inside OPERATOR_CMD (keys are letters, digits and _)",
    )


def _ascii_fix(char: str, key: str | None) -> str:
    """What to write instead of a character a command line may not hold."""
    code = ord(char)
    escape = f"\\u{code:04x}"
    if code > 0xFFFF:  # JSON writes it as a surrogate pair
        high, low = divmod(code - 0x10000, 0x400)
        escape = f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"
    if key is not None and key.endswith("_json"):
        return f"write it as {escape} inside the JSON"
    if key in _TWINNED_KEYS:
        return f"use {key}_json and write this character as {escape} (or {key}_b64)"
    return f"put other text in a *_json field, writing this character as {escape}"


def _wrapped_base64(lines: Sequence[Line], position: int, key: str, start: int) -> str:
    """The message for a base64 value broken over several lines (often at 76 columns)."""
    head = key_value(lines[position - 1].raw)
    pieces = [head.value if head is not None else ""]
    for line in lines[position:]:
        text = trim(line.raw)
        if not BASE64_FRAGMENT.match(text):
            break
        pieces.append(text)
    total = sum(len(piece) for piece in pieces)
    widest = max(len(piece) for piece in pieces)
    return (
        f"{key} is broken over {len(pieces)} lines (from line {lines[position - 1].number}, "
        f"up to {widest} characters each; the payload is {total} characters in all): a "
        f"base64 value must be one line, no breaks; put the whole value on the {key} line "
        "(split large content over several commands instead)"
    )
