"""Finding the lines of a file that match a query: a substring or an RE2 regex.

Invariants:
- Lines end where reads end them: at LF, CRLF or a lone CR (``lf_breaks``), never at a
  form feed or U+2028, so line numbers agree with every other action; a line's break is
  not part of it (not shown, and ``$`` matches before it). A line that matches several
  times is reported once.
- A regex is RE2 syntax (``engines.linear_regex``: linear time, so no pattern can hang a
  search) matched per line: ``^`` and ``$`` match at each line's start and end, and a
  match never spans a line break (a match that would is checked again against its first
  line alone).
- The whole file is searched at once and only matching lines are cut out, so the cost is
  that of one pass over the file, not of a per-line loop. A literal (the query, or a run of
  plain characters every regex match must hold) is found by jumping between its rarest
  byte; a regex with such a literal is then tried only on the lines that hold it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..errors import OperatorError
from .linear_regex import LinearPattern, PatternError, escape

LONG_LINE = 1000


def required_literal(source: str, case_sensitive: bool) -> str:
    """The longest run of plain characters that every match of ``source`` contains, or "".

    Read from the pattern as Python's parser reads it: a run of top-level literals (outside
    any branch, group or repeat) must appear in each match, in RE2 syntax too; a pattern
    Python cannot parse gets none. Case-insensitive patterns get none.
    """
    if not case_sensitive:
        return ""
    import importlib

    try:
        sre_parse = importlib.import_module("re._parser")
    except ImportError:  # Python < 3.11
        sre_parse = importlib.import_module("sre_parse")
    try:
        parsed = sre_parse.parse(source, re.MULTILINE)
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
    pattern: LinearPattern | None
    literal: bytes = b""

    @classmethod
    def compile(cls, text: str, *, regex: bool, case_sensitive: bool) -> LineQuery:
        if not regex and case_sensitive:
            return cls(text, text.encode("utf-8"), None)
        source = text if regex else escape(text)
        try:
            pattern = LinearPattern.compile(source, case_sensitive=case_sensitive, captures=False)
        except PatternError as error:
            raise OperatorError(
                "ERR_INVALID_REGEX",
                f"the query is not a valid RE2 regular expression ({error}); regex queries "
                "are RE2 syntax (Python re without backreferences or lookaround, run in "
                "linear time): escape special characters with \\ or send regex: false to "
                "search for the text as it is",
                {"reason": error.reason},
            ) from None
        literal = required_literal(source, case_sensitive) if regex else ""
        return cls(text, None, pattern, literal.encode("utf-8"))

    def lines(self, data: bytes) -> Iterator[tuple[int, str]]:
        """(line number, line text) for every matching line of ``data``, in order."""
        if data.find(b"\r") >= 0:  # one byte: a memchr, where a two-byte find is slow
            data = lf_breaks(data)
        if self.needle is not None:
            yield from _byte_lines(data, self.needle)
            return
        assert self.pattern is not None
        if self.literal:
            # Only lines holding the literal can match: test those lines alone.
            yield from _candidate_lines(data, self.literal, self.pattern)
        else:
            yield from _pattern_lines(data, self.pattern)


def lf_breaks(data: bytes) -> bytes:
    """``data`` with every line break LF, as reads show a file: CRLF and a lone CR (classic
    Mac, or one in a file with mixed breaks) each end one line, so the numbers agree with
    fs.read, fs.readSlice and the edits (``textfile``), and ``$`` matches before them."""
    data = data.replace(b"\r\n", b"\n")
    return data.replace(b"\r", b"\n") if data.find(b"\r") >= 0 else data


def shown(line: str) -> str:
    return line if len(line) <= LONG_LINE else line[:LONG_LINE] + " [...]"


# Bytes of source code and prose, most common first; a byte not listed counts as rarer.
_COMMON = b" e\ntaoinsrlcdhupmf.g(y)_b,w=\"'v:k/-xE0TS1AR#I2NCOLDPMj;z>q<F[]{}3B*U4H5G9W68V7K+YJXQZ"
_RANK = {byte: rank for rank, byte in enumerate(_COMMON)}
_MISSES = 32  # false candidates per file before falling back to a plain find


@functools.lru_cache(maxsize=16)  # a tree search asks for the same needle in every file
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
        yield line_no, shown(line) if clip else line
        scanned_to = line_end
        found = find(data, line_end)


def _candidate_lines(
    data: bytes, literal: bytes, pattern: LinearPattern
) -> Iterator[tuple[int, str]]:
    find = _finder(literal)
    found = find(data, 0)
    line_no = 1
    scanned_to = 0
    while found >= 0:
        line_start = data.rfind(b"\n", 0, found) + 1
        line_end = data.find(b"\n", found)
        if line_end < 0:
            line_end = len(data)
        if pattern.search(data, line_start, line_end) is not None:
            line_no += data.count(b"\n", scanned_to, line_start)
            scanned_to = line_start
            yield line_no, shown(data[line_start:line_end].decode("utf-8", "replace"))
        found = find(data, line_end)


def _pattern_lines(data: bytes, pattern: LinearPattern) -> Iterator[tuple[int, str]]:
    line_no = 1
    scanned_to = 0
    position = 0
    size = len(data)
    while position <= size:
        spans = pattern.search(data, position)
        if spans is None:
            return
        start, end = spans[0]
        if start == size and (not data or data.endswith(b"\n")):
            return  # the empty "line" after a final newline is not a line
        line_start = data.rfind(b"\n", 0, start) + 1
        line_end = data.find(b"\n", start)
        if line_end < 0:
            line_end = size
        if end <= line_end or pattern.search(data, line_start, line_end) is not None:
            line_no += data.count(b"\n", scanned_to, line_start)
            scanned_to = line_start
            yield line_no, shown(data[line_start:line_end].decode("utf-8", "replace"))
        position = line_end + 1
