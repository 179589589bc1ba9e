"""How replaceFirst / replaceAll find their text: literally, or by the edit's options.

Rules (the protocol docs record them):
- Without ``regex``, ``caseSensitive: false`` or ``wholeWord: true`` the find text is
  matched exactly as ``str.find`` / ``str.count`` do, so edits written before the options
  existed behave as they always did.
- ``regex: true`` reads ``find`` as a Python ``re`` pattern with ``re.MULTILINE`` (``^`` and
  ``$`` match at every line); ``.`` does not cross a line end. ``text`` is then a
  replacement template: ``\\1`` and ``\\g<name>`` insert groups, and template escapes
  (``\\n``) apply. Without ``regex``, ``text`` is inserted literally.
- ``caseSensitive: false`` matches ignoring case (``re.IGNORECASE``).
- ``wholeWord: true`` accepts only matches with no letter, digit or ``_`` on either side.
- Matches are found left to right without overlap. A pattern that matches empty text is
  refused: replacing "nothing" everywhere is never what an edit means.
- Patterns and templates are checked when the edit list is parsed, before any edit runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import OperatorError

INVALID_JSON = "ERR_INVALID_EDITS_JSON"


@dataclass(frozen=True)
class Finder:
    """The compiled form of one edit's find text and options."""

    find: str
    pattern: re.Pattern[str] | None  # None: plain exact matching
    template: str
    regex: bool

    def spans(self, text: str, limit: int | None = None) -> list[tuple[int, int, str]]:
        """``(start, end, replacement)`` of the first ``limit`` matches, left to right."""
        found: list[tuple[int, int, str]] = []
        if self.pattern is None:
            start = text.find(self.find)
            while start != -1 and (limit is None or len(found) < limit):
                end = start + len(self.find)
                found.append((start, end, self.template))
                start = text.find(self.find, end)
            return found
        for match in self.pattern.finditer(text):
            found.append((match.start(), match.end(), self._replacement(match)))
            if limit is not None and len(found) >= limit:
                break
        return found

    def _replacement(self, match: re.Match[str]) -> str:
        return match.expand(self.template) if self.regex else self.template

    def options(self) -> str:
        """The options in force, in words ("" for plain matching)."""
        words = []
        if self.regex:
            words.append("regex")
        if self.pattern is not None and self.pattern.flags & re.IGNORECASE:
            words.append("ignoring case")
        if self.pattern is not None and self.pattern.pattern.startswith(_WORD_START):
            words.append("whole words")
        return ", ".join(words)

    def describe(self) -> str:
        """`` (regex, ignoring case)`` for messages; "" for plain matching."""
        return f" ({self.options()})" if self.options() else ""


_WORD_START = r"(?<!\w)(?:"
_WORD_END = r")(?!\w)"


def _bad(where: str, index: int, what: str, error: re.error, source: str) -> OperatorError:
    position = error.pos if error.pos is not None else 0
    return OperatorError(
        INVALID_JSON,
        f"{where}: {what} is not valid ({error.msg} at position {position} of {source!r}); "
        "write Python re syntax, escape ( ) [ ] { } . * + ? ^ $ | \\ with a backslash to "
        "match them literally, or leave regex out for plain text",
        {"edit": index, "position": position, "field": what.split()[0]},
    )


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
    """The finder for one edit, or ERR_INVALID_EDITS_JSON naming the edit and the position."""
    if not regex and case_sensitive and not whole_word:
        return Finder(find, None, text, regex=False)
    source = find if regex else re.escape(find)
    if whole_word:
        source = f"{_WORD_START}{source}{_WORD_END}"
    flags = re.MULTILINE | (0 if case_sensitive else re.IGNORECASE)
    try:
        pattern = re.compile(source, flags)
    except re.error as error:
        if whole_word and error.pos is not None:
            # Report the position in the pattern as written, not in the wrapped one.
            error.pos = max(0, error.pos - len(_WORD_START))
        raise _bad(where, index, "find pattern", error, find) from None
    if pattern.fullmatch("") is not None or pattern.search("") is not None:
        raise OperatorError(
            INVALID_JSON,
            f"{where}: the find pattern {find!r} can match empty text; a find must match at "
            "least one character (use + instead of *, or anchor it to real text)",
            {"edit": index, "position": 0, "field": "find"},
        )
    if regex:
        try:
            # Substituting into "" parses the template without needing a match.
            pattern.sub(text, "")
        except re.error as error:
            raise _bad(where, index, "text template", error, text) from None
        except IndexError as error:  # an unknown group name, on Python < 3.12
            raise OperatorError(
                INVALID_JSON,
                f"{where}: text template is not valid ({error} in {text!r}); name only groups "
                "the find pattern defines, as \\g<name>",
                {"edit": index, "field": "text"},
            ) from None
    return Finder(find, pattern, text, regex=regex)
