"""How replaceFirst / replaceAll find their text: literally, or by the edit's options.

Rules (the protocol docs record them):
- Without ``regex``, ``caseSensitive: false`` or ``wholeWord: true`` the find text is
  matched exactly as ``str.find`` / ``str.count`` do, so edits written before the options
  existed behave as they always did.
- ``regex: true`` reads ``find`` as an RE2 pattern (``engines.linear_regex``: Python ``re``
  syntax without backreferences or lookaround, matched in linear time) with multi-line
  ``^`` and ``$``; ``.`` does not cross a line end. ``text`` is then a replacement
  template: ``\\1`` and ``\\g<name>`` insert groups, and template escapes (``\\n``) apply.
  Without ``regex``, ``text`` is inserted literally.
- ``caseSensitive: false`` matches ignoring case (Unicode simple case folding).
- ``wholeWord: true`` accepts only matches with no letter, digit or ``_`` on either side.
- Matches are found left to right without overlap. A pattern that matches empty text is
  refused: replacing "nothing" everywhere is never what an edit means.
- Patterns and templates are checked when the edit list is parsed, before any edit runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import OperatorError
from ..work_budget import check
from .linear_regex import (
    CharOffsets,
    LinearPattern,
    PatternError,
    Template,
    TemplateError,
    encode,
    escape,
)

INVALID_JSON = "ERR_INVALID_EDITS_JSON"


@dataclass(frozen=True)
class Finder:
    """The compiled form of one edit's find text and options."""

    find: str
    pattern: LinearPattern | None  # None: plain exact matching
    template: str
    regex: bool
    expansion: Template | None = None  # the parsed template of a regex edit

    def spans(self, text: str, limit: int | None = None) -> list[tuple[int, int, str]]:
        """``(start, end, replacement)`` of the first ``limit`` matches, left to right."""
        return list(self.iter_spans(text, limit))

    def iter_spans(self, text: str, limit: int | None = None) -> Iterator[tuple[int, int, str]]:
        """The matches of ``spans``, one at a time (a caller may stop early)."""
        found = 0
        if self.pattern is None:
            start = text.find(self.find)
            while start != -1 and (limit is None or found < limit):
                end = start + len(self.find)
                found += 1
                yield start, end, self.template
                if not found % 4096:
                    check("this edit")
                start = text.find(self.find, end)
            return
        data = encode(text)
        chars = CharOffsets(data)
        for spans in self.pattern.finditer(data):
            start, end = spans[0]
            replacement = (
                self.expansion.expand(data, spans) if self.expansion is not None else self.template
            )
            yield chars(start), chars(end), replacement
            found += 1
            check("this regex edit")  # one regex match can cost milliseconds: after each
            if limit is not None and found >= limit:
                return

    def options(self) -> str:
        """The options in force, in words ("" for plain matching)."""
        words = []
        if self.regex:
            words.append("regex")
        if self.pattern is not None and not self.pattern.case_sensitive:
            words.append("ignoring case")
        if self.pattern is not None and self.pattern.whole_word:
            words.append("whole words")
        return ", ".join(words)

    def describe(self) -> str:
        """`` (regex, ignoring case)`` for messages; "" for plain matching."""
        return f" ({self.options()})" if self.options() else ""


def compile_finder(
    find: str,
    text: str,
    *,
    regex: bool,
    case_sensitive: bool,
    whole_word: bool,
    where: str,
    index: int,
) -> Finder:
    """The finder for one edit, or ERR_INVALID_EDITS_JSON naming the edit and the problem."""
    if not regex and case_sensitive and not whole_word:
        return Finder(find, None, text, regex=False)
    source = find if regex else escape(find)
    try:
        pattern = LinearPattern.compile(
            source, case_sensitive=case_sensitive, whole_word=whole_word
        )
    except PatternError as error:
        raise OperatorError(
            "ERR_INVALID_REGEX",
            f"{where}: find pattern {find!r} is not valid RE2 syntax ({error}); patterns are "
            "RE2 (Python re without backreferences or lookaround, run in linear time): "
            "escape ( ) [ ] { } . * + ? ^ $ | \\ with a backslash to match them literally, or "
            "leave regex out for plain text",
            {"edit": index, "field": "find", "reason": error.reason},
        ) from None
    if pattern.search(b"") is not None:
        raise OperatorError(
            INVALID_JSON,
            f"{where}: the find pattern {find!r} can match empty text; a find must match at "
            "least one character (use + instead of *, or anchor it to real text)",
            {"edit": index, "position": 0, "field": "find"},
        )
    expansion = None
    if regex:
        try:
            expansion = Template.parse(text, pattern)
        except TemplateError as error:
            raise OperatorError(
                INVALID_JSON,
                f"{where}: text template is not valid ({error} in {text!r}); insert groups "
                "as \\1 or \\g<name> (only groups the find pattern defines) and write \\\\ "
                "for a backslash",
                {"edit": index, "field": "text"},
            ) from None
    return Finder(find, pattern, text, regex=regex, expansion=expansion)
