"""The JSON edit list of ``fs.applyEdits``: validated whole, applied in order, all or nothing.

Invariants:
- The whole document is validated before any edit runs, so a typo in edit 5 never leaves
  edits 0-4 half-applied; and nothing is returned on failure, so nothing is written.
- Each edit sees the text the previous edit produced. Edits are named by their 0-based
  index in the ``edits`` array and their op ("edit 2 (replaceFirst)").
- Text is LF text; CRLF in the JSON strings is normalised to LF before matching.

Decisions (the protocol docs record them):
- Occurrences are counted without overlap, left to right (as ``str.count`` does).
- insertAfter: if the anchor ends a line (the next character is a newline or the end of
  the text) and ``text`` does not start with "\\n", "\\n" is prepended (the spec's rule).
  insertBefore mirrors it: if the anchor starts a line and ``text`` does not end with
  "\\n", "\\n" is appended, so inserted lines stay lines.
- An empty ``anchor``, ``find`` or insert ``text`` is ERR_INVALID_EDITS_JSON.
- replaceFirst / replaceAll: no match is ERR_ANCHOR_NOT_FOUND (replaceAll too: a
  replaceAll that changes nothing is almost always a wrong ``find``). Their options
  ``regex``, ``caseSensitive`` and ``wholeWord`` are edit_matching's; ``expectedCount`` on
  replaceAll is checked before anything is replaced (ERR_COUNT_MISMATCH with the real
  count and the lines of the matches).
- replaceRange: ``startLine``..``endLine`` are 1-based and inclusive, over the current
  text's lines. ``text`` is a block of whole lines: one trailing "\\n" on it is optional,
  the file's final-newline state is kept, and ``""`` deletes the lines. ``startLine`` >
  ``endLine`` is ERR_INVALID_EDITS_JSON; a range past the last line is
  ERR_INVALID_LINE_RANGE (the JSON is fine, the file is shorter), naming the line count.
- The text an edit list makes is bounded: past max(4 x the text's length before the
  list, 10,000,000) characters it is ERR_EDIT_OUTPUT_TOO_LARGE. The size is checked while
  each replacement is built, so a list such as 30 edits turning ``a`` into ``aa`` stops at
  the bound, with memory bounded by it, instead of growing the text 2^30 times.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

from ..bounded_json import JsonLimit, load_bounded
from ..errors import OperatorError, mark, quote
from ..work_budget import check
from .edit_matching import Finder, compile_finder
from .edit_models import FORMAT as _FORMAT
from .edit_models import (
    EditList,
    EditModel,
    InsertAfter,
    InsertBefore,
    ReplaceAll,
    ReplaceFirst,
    ReplaceRange,
)
from .edit_models import check as check_document
from .textfile import split_lines

INVALID_JSON = "ERR_INVALID_EDITS_JSON"
NOT_FOUND = "ERR_ANCHOR_NOT_FOUND"
BAD_OCCURRENCE = "ERR_INVALID_ANCHOR_OCCURRENCE"
BAD_RANGE = "ERR_INVALID_LINE_RANGE"
COUNT_MISMATCH = "ERR_COUNT_MISMATCH"
TOO_LARGE = "ERR_EDIT_OUTPUT_TOO_LARGE"
OUTPUT_FLOOR = 10_000_000  # characters an edit list may always grow a text to
OUTPUT_FACTOR = 4  # ... or this many times the text's length before the list


@dataclass(frozen=True)
class EditsResult:
    """An edit list's outcome: the new text, how many edits it applied, and their summary."""

    text: str
    applied: int
    summary_note: str


def parse_edits(edits_json: str) -> EditList:
    """The decoded, validated edit list; ERR_INVALID_EDITS_JSON naming the first problem."""
    try:
        document = load_bounded(edits_json, object_pairs_hook=_unique_keys)
    except _DuplicateKeyError as exc:
        raise OperatorError(
            INVALID_JSON,
            f"the key {exc.key!r} is given twice in one object of the edits; give it once "
            f"(a second value would silently replace the first): {_FORMAT}",
            {"duplicate_key": exc.key},
        ) from None
    except JsonLimit as exc:
        raise OperatorError(
            INVALID_JSON, f"the edits cannot be read: {exc.message}; expected {_FORMAT}", {}
        ) from None
    except json.JSONDecodeError as exc:
        raise OperatorError(
            INVALID_JSON,
            f"edits are not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}); "
            f"expected {_FORMAT}",
            {"line": exc.lineno, "column": exc.colno},
        ) from None
    if not isinstance(document, dict):
        raise OperatorError(
            INVALID_JSON, f"the edits document must be a JSON object: {_FORMAT}", {}
        )
    _refuse_lone_surrogates(document, "the edits")
    problems, parsed = check_document(document)
    if parsed is None:
        rest = len(problems) - 1
        more = f" (and {rest} more problem{'s' if rest != 1 else ''})" if rest else ""
        details: dict[str, Any] = {"problems": [problem for problem, _ in problems]}
        if problems[0][1] is not None:
            details["edit"] = problems[0][1]
        raise OperatorError(INVALID_JSON, problems[0][0] + more, details)
    for index, edit in enumerate(parsed.edits):
        if isinstance(edit, ReplaceRange) and edit.startLine > edit.endLine:
            raise OperatorError(
                INVALID_JSON,
                f"edit {index} (replaceRange): startLine {edit.startLine} is after endLine "
                f"{edit.endLine}; the range is inclusive, so one line is startLine == endLine",
                {"edit": index},
            )
        if isinstance(edit, ReplaceFirst | ReplaceAll):
            _finder(edit, index)  # a bad pattern is refused before any edit runs
    return parsed


class _DuplicateKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


def _refuse_lone_surrogates(value: object, where: str) -> None:
    """ERR_INVALID_EDITS_JSON naming the first lone surrogate escape and where it stands."""
    if isinstance(value, dict):
        for key, item in value.items():
            _refuse_lone_surrogates(key, f"a key of {where}")
            _refuse_lone_surrogates(item, f"{where}.{key}" if where != "the edits" else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _refuse_lone_surrogates(item, f"{where}[{index}]")
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            code = ord(value[error.start])
            raise OperatorError(
                INVALID_JSON,
                f"{where} holds a lone surrogate \\u{code:04x} at character {error.start + 1}; "
                "write a character above U+FFFF as its surrogate pair (\\ud83d\\ude00) or "
                "plainly",
                {"at": where, "character": error.start + 1},
            ) from None


def _finder(edit: ReplaceFirst | ReplaceAll, index: int) -> Finder:
    return compile_finder(
        _lf(edit.find),
        _lf(edit.text),
        regex=edit.regex,
        case_sensitive=edit.caseSensitive,
        whole_word=edit.wholeWord,
        where=f"edit {index} ({edit.op})",
        index=index,
    )


def _lf(value: str) -> str:
    return value.replace("\r\n", "\n")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# The most similar line is a hint in an error, and difflib's ratio costs the product of the
# two lengths: a minified bundle's 300 KB line against a 5,000-character find took minutes.
# So both sides are compared by their first characters only, and at most so many lines get
# the full ratio (the cheap bounds skip most); a spent reply budget ends the search too.
NEAREST_CHARS = 200
NEAREST_RATIOS = 2000


def _nearest_line(text: str, wanted: str) -> tuple[int, str] | None:
    """The line most like the first non-blank line of ``wanted`` (line number, text),
    comparing the first NEAREST_CHARS characters of each."""
    probe = next((line.strip() for line in wanted.split("\n") if line.strip()), "")
    lines = text.split("\n")
    if not probe or not lines:
        return None
    import difflib  # only a failure needs it; start-up counts

    from ..work_budget import spent

    best, best_ratio, ratios = -1, 0.0, 0
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(probe[:NEAREST_CHARS])
    for number, line in enumerate(lines):
        candidate = line.strip()[:NEAREST_CHARS]
        if not candidate:
            continue
        if number % 1024 == 0 and spent():
            break
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() <= best_ratio or matcher.quick_ratio() <= best_ratio:
            continue
        ratio = matcher.ratio()
        if ratio > best_ratio:
            best, best_ratio = number, ratio
        ratios += 1
        if ratios >= NEAREST_RATIOS:
            break
    return None if best < 0 else (best + 1, lines[best])


def _not_found(
    where: str,
    label: str,
    wanted: str,
    text: str,
    index: int,
    how: str = "matching is exact, whitespace included",
) -> OperatorError:
    message = f"{where}: {label} {wanted!r} was not found ({how})"
    details: dict[str, Any] = {"edit": index, label: wanted}
    nearest = _nearest_line(text, wanted)
    if nearest is not None:
        number, line = nearest
        message += f"; the most similar line is line {number}: {quote(line)}"
        details["nearest_line"] = number
        details["nearest_text"] = mark(line)
    if "\n" in wanted:
        message += "; a multi-line anchor must match every line exactly, including indentation"
    return OperatorError(NOT_FOUND, message, details)


def _occurrence_start(
    text: str, anchor: str, occurrence: int | None, where: str, index: int
) -> int:
    count = text.count(anchor)
    if count == 0:
        raise _not_found(where, "anchor", anchor, text, index)
    if (occurrence is None and count > 1) or (occurrence or 1) > count:
        lines: list[int] = []
        start = text.find(anchor)
        while start != -1 and len(lines) < 10:
            lines.append(_line_of(text, start))
            start = text.find(anchor, start + len(anchor))
        at = ", ".join(str(line) for line in lines) + (", ..." if count > len(lines) else "")
        found = f"{count} time{'s' if count != 1 else ''} (at line{'s' if count != 1 else ''} {at})"
        if occurrence is None:
            message = (
                f'{where}: the anchor {anchor!r} occurs {found}; add "occurrence": N '
                "(1-based, file order) for the one meant, or a longer anchor"
            )
        else:
            message = (
                f"{where}: occurrence {occurrence} was asked for but the anchor {anchor!r} "
                f"occurs {found}"
            )
        raise OperatorError(
            BAD_OCCURRENCE,
            message,
            {"edit": index, "occurrence": occurrence, "count": count, "lines": lines},
        )
    occurrence = occurrence or 1
    start = -len(anchor)
    for _ in range(occurrence):
        start = text.find(anchor, start + len(anchor))
    return start


def _replace_range(text: str, edit: ReplaceRange, where: str, index: int) -> str:
    lines, final_newline = split_lines(text)
    if edit.endLine > len(lines):
        raise OperatorError(
            BAD_RANGE,
            f"{where}: lines {edit.startLine}-{edit.endLine} were asked for but the text has "
            f"{len(lines)} line{'s' if len(lines) != 1 else ''} at this point",
            {
                "edit": index,
                "start_line": edit.startLine,
                "end_line": edit.endLine,
                "line_count": len(lines),
            },
        )
    block = _lf(edit.text)
    if block.endswith("\n"):
        block = block[:-1]
    new_lines = block.split("\n") if edit.text else []
    lines[edit.startLine - 1 : edit.endLine] = new_lines
    if not lines:
        return ""
    return "\n".join(lines) + ("\n" if final_newline else "")


def output_limit(length: int) -> int:
    """The most characters an edit list may leave a text of ``length`` characters with."""
    return max(OUTPUT_FACTOR * length, OUTPUT_FLOOR)


def _too_large(where: str, index: int, size: int, limit: int) -> OperatorError:
    return OperatorError(
        TOO_LARGE,
        f"{where}: the text would grow to more than {limit} characters (at least {size}); "
        f"an edit list may make a file at most {OUTPUT_FACTOR} times its length or "
        f"{OUTPUT_FLOOR} characters, whichever is more. Nothing was changed; check the find "
        "text of the replaceAll edits, or write the file with fs.write",
        {"edit": index, "limit": limit},
    )


def _count_mismatch(
    where: str, index: int, finder: Finder, expected: int, count: int, lines: list[int]
) -> OperatorError:
    at = ", ".join(map(str, lines)) + (", ..." if count > len(lines) else "")
    return OperatorError(
        COUNT_MISMATCH,
        f"{where}: expectedCount is {expected} but find {finder.find!r}"
        f"{finder.describe()} matches {count} time{'s' if count != 1 else ''} "
        f"(at line{'s' if count != 1 else ''} {at}); nothing was changed. Check the "
        "matches, then send the real count or narrow the find text",
        {"edit": index, "expected": expected, "count": count, "lines": lines},
    )


def _replace_plain(
    text: str, edit: ReplaceAll, finder: Finder, where: str, index: int, limit: int
) -> tuple[str, str]:
    """replaceAll of plain text: counted and sized before anything is built."""
    count = text.count(finder.find)
    size = len(text) + count * (len(finder.template) - len(finder.find))
    if size > limit:
        raise _too_large(where, index, size, limit)
    if edit.expectedCount is not None and edit.expectedCount != count:
        lines = [_line_of(text, start) for start, _, _ in finder.iter_spans(text, 20)]
        raise _count_mismatch(where, index, finder, edit.expectedCount, count, lines)
    return text.replace(finder.find, finder.template), f"replaceAll ({count} replaced)"


def _replace(
    text: str, edit: ReplaceFirst | ReplaceAll, where: str, index: int, limit: int
) -> tuple[str, str]:
    finder = _finder(edit, index)
    first = isinstance(edit, ReplaceFirst)
    if finder.pattern is None and isinstance(edit, ReplaceAll) and finder.find in text:
        return _replace_plain(text, edit, finder, where, index, limit)
    out = io.StringIO()
    size = last = count = 0
    lines: list[int] = []
    for start, end, replacement in finder.iter_spans(text, 1 if first else None):
        if start == end:
            raise OperatorError(
                INVALID_JSON,
                f"{where}: the find pattern {finder.find!r} matches empty text at line "
                f"{_line_of(text, start)}; a find must match at least one character",
                {"edit": index, "line": _line_of(text, start)},
            )
        count += 1
        if len(lines) < 20:
            lines.append(_line_of(text, start))
        size += start - last + len(replacement)
        if size + len(text) - end > limit:
            raise _too_large(where, index, size + len(text) - end, limit)
        out.write(text[last:start])
        out.write(replacement)
        last = end
    if not count:
        how = "matching is exact, whitespace included"
        if finder.pattern is not None:
            how = f"matched as {finder.options()}"
        raise _not_found(where, "find", finder.find, text, index, how)
    expected = edit.expectedCount if isinstance(edit, ReplaceAll) else None
    if expected is not None and expected != count:
        raise _count_mismatch(where, index, finder, expected, count, lines)
    out.write(text[last:])
    if first:
        return out.getvalue(), f"replaceFirst at line {lines[0]}"
    return out.getvalue(), f"replaceAll ({count} replaced)"


def _apply_one(text: str, edit: EditModel, index: int, limit: int) -> tuple[str, str]:
    """The text after one edit, and a few words on what it did."""
    where = f"edit {index} ({edit.op})"
    if isinstance(edit, InsertAfter | InsertBefore):
        anchor, insert = _lf(edit.anchor), _lf(edit.text)
        start = _occurrence_start(text, anchor, edit.occurrence, where, index)
        if isinstance(edit, InsertAfter):
            at = start + len(anchor)
            ends_line = at == len(text) or text[at] == "\n"
            if ends_line and not insert.startswith("\n"):
                insert = "\n" + insert
        else:
            at = start
            starts_line = at == 0 or text[at - 1] == "\n"
            if starts_line and not insert.endswith("\n"):
                insert += "\n"
        return text[:at] + insert + text[at:], f"{edit.op} at line {_line_of(text, start)}"
    if isinstance(edit, ReplaceFirst | ReplaceAll):
        return _replace(text, edit, where, index, limit)
    note = f"replaceRange lines {edit.startLine}-{edit.endLine}"
    return _replace_range(text, edit, where, index), note


def apply_edits(text: str, edits_json: str) -> EditsResult:
    """Apply a ``{"version":1,"edits":[...]}`` list to LF ``text``, all or nothing."""
    parsed = parse_edits(edits_json)
    limit = output_limit(len(text))
    notes = []
    for index, edit in enumerate(parsed.edits):
        if index:
            check("this edit list")  # each edit may scan the whole text once or more
        text, note = _apply_one(text, edit, index, limit)
        if len(text) > limit:  # an insert or a range (their text is bounded by the list)
            raise _too_large(f"edit {index} ({edit.op})", index, len(text), limit)
        notes.append(note)
    count = len(parsed.edits)
    summary = f"{count} edit{'s' if count != 1 else ''} applied: {', '.join(notes)}"
    return EditsResult(text, count, summary)
