"""Finding the lines of a file that match a query: a substring or a Python regex.

Invariants:
- Lines end at ``\\n`` only (as every other action numbers them); a CR before it is not
  part of the line (not shown, and ``$`` matches before it). A line that matches several
  times is reported once.
- A regex is matched per line, with ``re.MULTILINE`` semantics: ``^`` and ``$`` match at
  each line's start and end, and a match never spans a line break (a match that would is
  checked again against its first line alone).
- The whole file is searched at once and only matching lines are cut out, so the cost is
  that of one pass over the file, not of a per-line loop. A literal (the query, or a run of
  plain characters every regex match must hold) is found by jumping between its rarest
  byte; a regex with such a literal is then tried only on the lines that hold it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..errors import OperatorError

LONG_LINE = 1000


def required_literal(pattern: re.Pattern[str]) -> str:
    """The longest run of plain characters that every match of ``pattern`` contains, or "".

    Read from the parsed pattern: a run of top-level literals (outside any branch, group or
    repeat) must appear in each match. Case-insensitive patterns get none.
    """
    if pattern.flags & re.IGNORECASE:
        return ""
    import importlib

    try:
        sre_parse = importlib.import_module("re._parser")
    except ImportError:  # Python < 3.11
        sre_parse = importlib.import_module("sre_parse")
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except Exception:  # a private API: any surprise only costs the fast path
        return ""
    best = run = ""
    for op, value in parsed:
        if str(op) == "LITERAL":
            run += chr(value)
            best = max(best, run, key=len)
        else:
            run = ""
    return best


@dataclass(frozen=True)
class LineQuery:
    """A compiled query: a bytes needle for plain case-sensitive text, else a pattern
    (with, when it has one, a literal every match holds, to find candidate lines fast)."""

    text: str
    needle: bytes | None
    pattern: re.Pattern[str] | None
    literal: bytes = b""

    @classmethod
    def compile(cls, text: str, *, regex: bool, case_sensitive: bool) -> LineQuery:
        if not regex and case_sensitive:
            return cls(text, text.encode("utf-8"), None)
        flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
        source = text if regex else re.escape(text)
        try:
            pattern = re.compile(source, flags)
        except re.error as error:
            position = error.pos if error.pos is not None else 0
            raise OperatorError(
                "ERR_INVALID_REGEX",
                f"the query is not a valid Python regular expression: {error.msg} at position "
                f"{position} (counting from 0); escape special characters with \\ or send "
                "regex: false to search for the text as it is",
                {"position": position},
            ) from None
        return cls(text, None, pattern, required_literal(pattern).encode("utf-8"))

    def lines(self, data: bytes) -> Iterator[tuple[int, str]]:
        """(line number, line text) for every matching line of ``data``, in order."""
        if self.needle is not None:
            yield from _byte_lines(data, self.needle)
        elif self.literal:
            assert self.pattern is not None
            # Only lines holding the literal can match: test those lines alone.
            pattern = self.pattern
            for number, line in _byte_lines(data, self.literal, clip=False):
                if pattern.search(line) is not None:
                    yield number, shown(line)
        else:
            assert self.pattern is not None
            yield from _pattern_lines(data.decode("utf-8", "replace"), self.pattern)


def shown(line: str) -> str:
    line = line.removesuffix("\r")
    return line if len(line) <= LONG_LINE else line[:LONG_LINE] + " [...]"


# Bytes of source code and prose, most common first; a byte not listed counts as rarer.
_COMMON = b" e\ntaoinsrlcdhupmf.g(y)_b,w=\"'v:k/-xE0TS1AR#I2NCOLDPMj;z>q<F[]{}3B*U4H5G9W68V7K+YJXQZ"
_RANK = {byte: rank for rank, byte in enumerate(_COMMON)}
_MISSES = 32  # false candidates per file before falling back to a plain find


def _finder(needle: bytes) -> Callable[[bytes, int], int]:
    """``find(data, start)`` for ``needle``, jumping between the needle's rarest byte.

    ``bytes.find`` of a single byte is a memchr, many times faster than a find of a
    substring whose bytes are frequent in the text; once a file holds that byte too often,
    the search falls back to ``bytes.find`` of the whole needle.
    """
    if len(needle) < 2:
        return lambda data, start: data.find(needle, start)
    offset = max(range(len(needle)), key=lambda i: _RANK.get(needle[i], len(_COMMON)))
    anchor = needle[offset : offset + 1]

    def find(data: bytes, start: int) -> int:
        misses = 0
        position = data.find(anchor, start + offset)
        while position >= 0:
            at = position - offset
            if data.startswith(needle, at):
                return at
            misses += 1
            if misses > _MISSES:
                return data.find(needle, at + 1)
            position = data.find(anchor, position + 1)
        return -1

    return find


def _byte_lines(data: bytes, needle: bytes, clip: bool = True) -> Iterator[tuple[int, str]]:
    find = _finder(needle)
    found = find(data, 0)
    line_no = 1
    scanned_to = 0
    while found >= 0:
        line_no += data.count(b"\n", scanned_to, found)
        line_start = data.rfind(b"\n", 0, found) + 1
        line_end = data.find(b"\n", found)
        if line_end < 0:
            line_end = len(data)
        line = data[line_start:line_end].decode("utf-8", "replace")
        yield line_no, shown(line) if clip else line.removesuffix("\r")
        scanned_to = line_end
        found = find(data, line_end)


def _pattern_lines(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    # A CR before a line break is not part of the line ($ matches before it), as in the
    # literal path, which tests each line without it.
    text = text.replace("\r\n", "\n")
    line_no = 1
    scanned_to = 0
    position = 0
    while position <= len(text):
        match = pattern.search(text, position)
        if match is None:
            return
        start = match.start()
        if start == len(text) and (not text or text.endswith("\n")):
            return  # the empty "line" after a final newline is not a line
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        if line_end < 0:
            line_end = len(text)
        line = text[line_start:line_end]
        if match.end() <= line_end or pattern.search(line) is not None:
            line_no += text.count("\n", scanned_to, line_start)
            scanned_to = line_start
            yield line_no, shown(line)
        position = line_end + 1
