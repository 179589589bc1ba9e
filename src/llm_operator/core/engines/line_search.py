"""Finding the lines of a file that match a query: a substring or a Python regex.

Invariants:
- Lines end at ``\\n`` only (as every other action numbers them); a CR before it is not
  shown. A line that matches several times is reported once.
- A regex is matched per line, with ``re.MULTILINE`` semantics: ``^`` and ``$`` match at
  each line's start and end, and a match never spans a line break (a match that would is
  checked again against its first line alone).
- The whole file is searched at once and only matching lines are cut out, so the cost is
  that of one ``bytes.find`` or one ``re.search`` pass over the file, not of a per-line loop.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import OperatorError

LONG_LINE = 1000


@dataclass(frozen=True)
class LineQuery:
    """A compiled query: a bytes needle for plain case-sensitive text, else a pattern."""

    text: str
    needle: bytes | None
    pattern: re.Pattern[str] | None

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
        return cls(text, None, pattern)

    def lines(self, data: bytes) -> Iterator[tuple[int, str]]:
        """(line number, line text) for every matching line of ``data``, in order."""
        if self.needle is not None:
            yield from _byte_lines(data, self.needle)
        else:
            assert self.pattern is not None
            yield from _pattern_lines(data.decode("utf-8", "replace"), self.pattern)


def shown(line: str) -> str:
    line = line.removesuffix("\r")
    return line if len(line) <= LONG_LINE else line[:LONG_LINE] + " [...]"


def _byte_lines(data: bytes, needle: bytes) -> Iterator[tuple[int, str]]:
    found = data.find(needle)
    line_no = 1
    scanned_to = 0
    while found >= 0:
        line_no += data.count(b"\n", scanned_to, found)
        line_start = data.rfind(b"\n", 0, found) + 1
        line_end = data.find(b"\n", found)
        if line_end < 0:
            line_end = len(data)
        yield line_no, shown(data[line_start:line_end].decode("utf-8", "replace"))
        scanned_to = line_end
        found = data.find(needle, line_end)


def _pattern_lines(text: str, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
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
