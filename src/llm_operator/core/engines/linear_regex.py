"""Regular expressions that run in time linear in the text: RE2 syntax, by google-re2.

A reply's regex must never hang the run (``(a+)+$`` takes Python's backtracking ``re``
exponential time), so fs.searchTree and fs.applyEdits compile their patterns here.

Invariants:
- The syntax is RE2's (https://github.com/google/re2/wiki/Syntax): Python ``re`` syntax
  without backreferences (``\\1`` in a pattern, ``(?P=name)``), lookaround (``(?=``,
  ``(?!``, ``(?<=``, ``(?<!``), atomic groups and possessive repeats; ``\\z`` ends the text
  (not ``\\Z``); repeat counts go up to 1000; at most MAX_GROUPS capturing groups.
  ``\\w``, ``\\d``, ``\\s`` and ``\\b`` are ASCII; ``\\pL``, ``\\pN`` and ``\\p{Greek}``
  name Unicode classes. A pattern RE2 refuses is ERR_INVALID_REGEX (or the caller's code)
  naming the construct and what to write.
- Patterns always run with multi-line ``^``/``$``. Matching happens on UTF-8 bytes: a text
  is encoded once per search, never once per match.
- ``whole_word`` accepts a match only with no letter, digit (any script) or ``_`` just
  before or after it, as ``(?<!\\w)...(?!\\w)`` does in Python: the pattern is wrapped as
  ``(?:^|[^\\pL\\pN_])(...)(?:$|[^\\pL\\pN_])`` and only the inner group is the match; the
  search after a match first tries the character just before the next position as the
  leading context, so adjacent matches are all found.
- Replacement templates (``\\1``, ``\\g<1>``, ``\\g<name>``, ``\\n``, ``\\t``, ``\\\\``) are
  expanded here, as Python's ``Match.expand`` does; an unmatched group inserts nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

_NOT_WORD = r"[^\pL\pN_]"

_LOOK = (
    "is not supported (RE2 has no lookaround): match the neighbouring text itself, and in a "
    "replacement capture it in a group and put it back with \\1"
)
_HINTS = (
    ("invalid escape sequence: \\Z", "\\Z is not supported; write \\z for the end of the text"),
    ("invalid escape sequence: \\u", "write \\x{00e9} for a code point, not \\u00e9"),
    (
        "invalid escape sequence: \\",
        "backreferences (\\1) and some escapes are not supported: write the repeated text "
        "out (e.g. (ab)ab, not (ab)\\1), or escape the character with \\ only if it is "
        "punctuation",
    ),
    ("invalid perl operator: (?=", f"lookahead (?=...) {_LOOK}"),
    ("invalid perl operator: (?!", f"negative lookahead (?!...) {_LOOK}"),
    ("invalid perl operator: (?<=", f"lookbehind (?<=...) {_LOOK}"),
    ("invalid perl operator: (?<!", f"negative lookbehind (?<!...) {_LOOK}"),
    ("invalid perl operator: (?>", "atomic groups (?>...) are not supported: write (?:...)"),
    (
        "invalid perl operator: (?P=",
        "backreferences (?P=name) are not supported: write the repeated text out",
    ),
    (
        "invalid perl operator: (?P",
        "backreferences (?P=name) are not supported: write the repeated text out",
    ),
    ("invalid perl operator: (?x", "the verbose flag (?x) is not supported: remove it"),
    ("invalid perl operator: (?#", "comments (?#...) are not supported: remove them"),
    ("bad repetition operator", "possessive repeats (a++, a*+) are not supported: write a+, a*"),
    ("invalid repetition size", "repeat counts above 1000 are not supported: use + or *"),
    ("pattern too large", "the pattern is too large: make it shorter"),
)


# RE2 tracks every capturing group of every thread it runs, so a match costs time that
# grows with the square of their count: 10,000 groups (21,000 characters, within one
# command) take 40 s a match, minutes for a small file, with no point to stop between.
# Python's re allowed 100 until 3.5; no real search or edit needs more.
MAX_GROUPS = 100


class PatternError(ValueError):
    """A pattern RE2 refuses: ``reason`` in RE2's words, ``hint`` on what to write."""

    def __init__(self, reason: str, hint: str) -> None:
        super().__init__(f"{reason}; {hint}" if hint else reason)
        self.reason = reason
        self.hint = hint


def _re2() -> Any:
    import re2

    return re2


def _options(case_sensitive: bool) -> Any:
    re2 = _re2()
    options = re2.Options()
    options.log_errors = False  # refusals are reported to the reply, not printed on stderr
    options.case_sensitive = case_sensitive
    return options


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def escape(text: str) -> str:
    """``text`` as a pattern matching it literally."""
    return _decode(_re2()._re2.RE2.QuoteMeta(_encode(text)))


@dataclass(frozen=True)
class LinearPattern:
    """A compiled RE2 pattern (see the module notes); offsets are bytes of UTF-8."""

    source: str
    case_sensitive: bool
    whole_word: bool
    groups: int  # the pattern's own capturing groups
    groupindex: dict[str, int]
    _compiled: Any = field(repr=False, compare=False)
    _after: Any = field(repr=False, compare=False, default=None)  # whole_word's continuation

    @classmethod
    def compile(
        cls,
        source: str,
        *,
        case_sensitive: bool = True,
        whole_word: bool = False,
        captures: bool = True,
    ) -> LinearPattern:
        """The compiled pattern; PatternError when RE2 refuses it. Without ``captures``
        (a search that needs where a match is, not its groups) groups cost nothing: RE2
        then finds matches with its DFA, however many groups or repeats of them."""
        re2 = _re2()
        options = _options(case_sensitive)
        options.never_capture = not captures
        plain = re2._re2.RE2(_encode("(?m)" + source), options)
        if not plain.ok():
            # RE2 quotes the pattern it was given: drop the (?m) added above.
            reason = plain.error().decode("utf-8", "replace").replace("(?m)", "", 1)
            hint = next((hint for key, hint in _HINTS if reason.startswith(key)), "")
            raise PatternError(reason, hint)
        groups = plain.NumberOfCapturingGroups()
        if groups > MAX_GROUPS:
            raise PatternError(
                f"the pattern has {groups} capturing groups; at most {MAX_GROUPS} are allowed",
                "write (?:...) for a group that no \\1 or \\g<name> of the replacement names",
            )
        names = {
            name.decode("utf-8", "replace"): index for name, index in plain.NamedCapturingGroups()
        }
        if not whole_word:
            return cls(source, case_sensitive, False, groups, names, plain)
        inner = f"({source})(?:$|{_NOT_WORD})"
        wrapped = re2._re2.RE2(_encode(f"(?m)(?:^|{_NOT_WORD}){inner}"), options)
        after = re2._re2.RE2(_encode(f"(?m){_NOT_WORD}{inner}"), options)
        if not wrapped.ok() or not after.ok():  # pragma: no cover - the pattern compiled
            raise PatternError(wrapped.error().decode("utf-8", "replace"), "")
        return cls(source, case_sensitive, True, groups, names, wrapped, after)

    def _match(
        self, compiled: Any, anchor: Any, data: bytes, pos: int, end: int
    ) -> list[tuple[int, int]] | None:
        spans: list[tuple[int, int]] = list(compiled.Match(anchor, data, pos, end))
        if spans[0][0] < 0:
            return None
        return spans[1:] if self.whole_word else spans

    def search(
        self, data: bytes, pos: int = 0, end: int | None = None
    ) -> list[tuple[int, int]] | None:
        """Group spans (group 0 first) of the first match at or after ``pos``, or None."""
        anchor = _re2()._Anchor
        return self._match(self._compiled, anchor.UNANCHORED, data, pos, _end(data, end))

    def finditer(
        self, data: bytes, pos: int = 0, end: int | None = None
    ) -> Iterator[list[tuple[int, int]]]:
        """Group spans of every match left to right, without overlap (empty matches step
        one byte on)."""
        anchor = _re2()._Anchor
        stop = _end(data, end)
        after = -1  # end of the previous match
        while pos <= stop:
            spans = None
            if self.whole_word and after > 0:
                back = after - 1
                while back > 0 and data[back] & 0xC0 == 0x80:
                    back -= 1  # to the first byte of the character before
                spans = self._match(self._after, anchor.ANCHOR_START, data, back, stop)
            if spans is None:
                spans = self._match(self._compiled, anchor.UNANCHORED, data, pos, stop)
            if spans is None:
                return
            yield spans
            start, finish = spans[0]
            after = finish
            pos = finish if finish > start else finish + 1


def _end(data: bytes, end: int | None) -> int:
    return len(data) if end is None else end


# -- replacement templates ------------------------------------------------------------

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a", "b": "\b"}
_SIMPLE_ESCAPES["\\"] = "\\"


class TemplateError(ValueError):
    """A replacement template that cannot be expanded (unknown group, bad escape)."""


@dataclass(frozen=True)
class Template:
    """A parsed replacement template: literal text and group numbers, in order."""

    pieces: tuple[str | int, ...]

    @classmethod
    def parse(cls, text: str, pattern: LinearPattern) -> Template:
        pieces: list[str | int] = []
        literal: list[str] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char != "\\":
                literal.append(char)
                i += 1
                continue
            if i + 1 >= len(text):
                raise TemplateError("a lone \\ at the end of the template; write \\\\")
            nxt = text[i + 1]
            group: int | None = None
            if nxt == "g":
                close = text.find(">", i + 2)
                if i + 2 >= len(text) or text[i + 2] != "<" or close < 0:
                    raise TemplateError("\\g must be followed by <number> or <name>")
                name = text[i + 3 : close]
                if name.isdigit() and name.isascii():
                    group = int(name)
                elif name in pattern.groupindex:
                    group = pattern.groupindex[name]
                else:
                    raise TemplateError(f"unknown group name {name!r} in \\g<{name}>")
                i = close + 1
            elif nxt.isdigit() and nxt.isascii():
                digits = nxt
                if i + 2 < len(text) and text[i + 2].isdigit() and text[i + 2].isascii():
                    digits += text[i + 2]
                if digits.startswith("0"):
                    raise TemplateError("octal escapes (\\0) are not supported in templates")
                group = int(digits)
                i += 1 + len(digits)
            elif nxt in _SIMPLE_ESCAPES:
                literal.append(_SIMPLE_ESCAPES[nxt])
                i += 2
                continue
            elif nxt.isascii() and nxt.isalpha():
                raise TemplateError(f"bad escape \\{nxt}")
            else:
                literal.append("\\" + nxt)  # as Python keeps unknown non-letter escapes
                i += 2
                continue
            if group > pattern.groups:
                raise TemplateError(f"invalid group reference {group}")
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(group)
        if literal:
            pieces.append("".join(literal))
        return cls(tuple(pieces))

    def expand(self, data: bytes, spans: list[tuple[int, int]]) -> str:
        out: list[str] = []
        for piece in self.pieces:
            if isinstance(piece, str):
                out.append(piece)
                continue
            start, end = spans[piece]
            if start >= 0:
                out.append(_decode(data[start:end]))
        return "".join(out)


class CharOffsets:
    """Byte offsets of ``data`` to character offsets, for offsets asked in rising order
    (each costs only the bytes since the last one)."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._byte = 0
        self._char = 0

    def __call__(self, offset: int) -> int:
        if offset < self._byte:
            return len(_decode(self._data[:offset]))
        self._char += len(_decode(self._data[self._byte : offset]))
        self._byte = offset
        return self._char


def encode(text: str) -> bytes:
    return _encode(text)
