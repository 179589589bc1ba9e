"""Strict unified-diff application for one file: the engine behind ``fs.patch``.

Invariants:
- Text in and out is LF text (``TextFile.text``). The patch's own CRLF line ends are
  normalised to LF before parsing, so a patch pasted from a CRLF clipboard still applies.
- A file is a list of lines plus one flag, "ends with a newline". ``"a\\nb\\n"`` and
  ``"a\\nb"`` have the same lines; only the flag differs, and a line without its newline
  never matches a patch line that has one (``\\ No newline at end of file`` says which).
  The flag of the result follows the patch: it changes only where a hunk ends at the end
  of the file.
- Each hunk is matched against the original lines on its own, whatever the hunk order:
  it goes to the place nearest the line its header states (the old side, ``-a``), as
  ``git apply`` looks at offsets +1, -1, +2, -2, ...; the offsets used are reported.
  Context and removed lines match exactly: no fuzz factor, no whitespace leniency.
- Stricter than git where a model's line numbers mislead: two places equally near the
  stated line refuse (ERR_PATCH_AMBIGUOUS, both lines named); hunks whose places overlap
  refuse (ERR_PATCH_OVERLAP); a hunk whose new side already stands where it would go, or
  stands near its line while its old side is nowhere, refuses as "looks already applied
  at line N" (ERR_PATCH_ALREADY_APPLIED), as GNU patch detects previously applied patches.
- A hunk with no old-side lines (pure insertion, no context) is only tried at its stated
  line: there is nothing to recognise it by anywhere else. ``@@ -0,0 +1,N @@`` as the only
  hunk creates the whole file, with or without ``/dev/null`` headers, and is refused on a
  file that has lines.
- ``new file mode 100755`` / ``new mode 100755`` make the file executable (100644: not);
  the result carries it for the write. A result also lists the runs of untouched lines,
  so a file with mixed line breaks keeps each untouched line's own break.
- The text is never split into lines on success: each hunk's old lines, joined, are
  found with ``str.find`` and their line number counted with ``str.count``; the result is
  one join of slices. Applying a few hunks to a big file is linear and runs mostly in C.
  Only a failing hunk splits the text, to show the nearest place.

Decisions (the protocol docs record them):
- Counts are checked against the body, read up to the next ``@@`` header (or the end);
  a header whose counts disagree is recounted from its lines as ``git apply --recount``
  does (patch_recount.py), and the result says so. A body cut short by a line that is no
  hunk line is ERR_INVALID_PATCH naming the hunk and both counts.
- A completely empty body line (a chat UI may strip the single space of an empty context
  line) counts as an empty context line only when that keeps the hunk's counts
  consistent. Empty lines inside a hunk are always taken as context; empty lines at its
  end are taken as context only as far as the header's counts need them, and the rest
  are blank separators.
- The new-side start (``+c``) is not checked: hunks are placed by their old-side start.
- Unlike ``git apply``, a hunk with uneven context is not pinned to the start or end of the
  file; LLM-written hunks often carry uneven context, and their stated line places them.
- ``---``/``+++`` headers are optional; present, they must name the command's file
  (``a/``/``b/`` prefixes and tab-separated timestamps allowed). ``--- /dev/null`` creates
  a file and needs empty text; ``+++ /dev/null`` is accepted only when every line is
  removed and gives empty text (fs.delete, not fs.patch, removes files).
- ``diff --git`` (or a plain ``diff ...`` command line), ``index``, ``old mode`` and
  ``deleted file mode`` lines are tolerated before the headers;
  renames, copies, binary patches and a second file are refused.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..errors import OperatorError, mark, quote
from ..wording import counted
from ..work_budget import check
from .patch_recount import counts, names_a_file, recount, recount_note
from .textfile import split_lines

if TYPE_CHECKING:
    from .diffing import LineDiff

INVALID = "ERR_INVALID_PATCH"
MISMATCH = "ERR_PATCH_CONTEXT_MISMATCH"

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
_TOLERATED_GIT_LINES = ("index ", "old mode ", "deleted file mode ")
_MODE_LINES = ("new file mode ", "new mode ")
_MODES = {"100644": False, "100755": True}
_TWO_FILE_GIT_LINES = (
    "rename from ",
    "rename to ",
    "copy from ",
    "copy to ",
    "similarity index ",
    "dissimilarity index ",
)
# How many lines of a failing hunk the message shows; details always carry all of them.
_SHOWN_LINES = 30


# The engine's other records are named tuples: as cheap to use, and a module that makes
# frozen dataclasses pays about half a millisecond for each when it is first imported.
@dataclass(frozen=True)
class PatchResult:
    """An applied patch: the new text, the hunk count and each hunk's offset from its stated
    line, the summary note, and the file mode it sets (None: left as it was)."""

    text: str
    hunks: int
    offsets: tuple[int, ...]
    summary_note: str
    executable: bool | None = None
    # Runs of untouched lines: (first old line, first new line, count), 0-based, so the
    # encoder gives each its own line break back in a file with mixed breaks.
    kept: tuple[tuple[int, int, int], ...] = ()
    # What each hunk replaced, in file order: the only places where ``text`` differs from
    # the old text, so the review diff is worked out there alone (``line_diff``). Like the
    # line counts of the old text and of ``text``, they follow from the fields above.
    splices: tuple[Splice, ...] = field(default=(), compare=False, repr=False)
    old_lines: int = field(default=0, compare=False, repr=False)
    new_lines: int = field(default=0, compare=False, repr=False)
    # ``text`` in UTF-8, when it was put together from the caller's bytes (``raw``).
    data: bytes | None = field(default=None, compare=False, repr=False)

    def line_diff(self, before: str) -> LineDiff:
        """The diff of ``before`` (the text this result was made from) to ``text``, built
        from what the hunks replaced: the text between them is copied unchanged, so only
        the hunks' own lines are diffed, not the whole file."""
        from .diffing import LineDiff

        return LineDiff.spliced(before, self.text, self.splices, self.old_lines, self.new_lines)


class Splice(NamedTuple):
    """One hunk as applied: old lines ``old_line`` (0-based) on, ``old_count`` of them in
    characters ``old_start``..``old_end`` of the old text, replaced by ``new_count`` lines
    from ``new_line`` on, in characters ``new_start``..``new_end`` of the new text."""

    old_line: int
    old_count: int
    old_start: int
    old_end: int
    new_line: int
    new_count: int
    new_start: int
    new_end: int


class Hunk(NamedTuple):
    number: int  # 1-based, as the messages name it
    header: str
    old_start: int
    old_count: int
    new_count: int
    old: tuple[str, ...]
    new: tuple[str, ...]
    old_no_eol: bool  # the old side's last line has no newline (it ends the file)
    new_no_eol: bool
    kinds: str = ""  # one of " ", "-", "+" per body line: which lines are context
    # The header's (old, new) counts when they disagreed with the lines and were recounted.
    stated_counts: tuple[int, int] | None = None

    @property
    def stated_index(self) -> int:
        """0-based index of the first old line, or the insertion point for ``-a,0``."""
        return self.old_start if self.old_count == 0 else self.old_start - 1


class ParsedPatch(NamedTuple):
    hunks: tuple[Hunk, ...]
    creates: bool  # --- /dev/null, or a hunk @@ -0,0 ... @@ that makes the whole file
    deletes: bool  # +++ /dev/null
    executable: bool | None = None  # new (file) mode 100755 / 100644; None: unchanged
    # The patch line that makes it a creation, as messages quote it ("'new file mode
    # 100755' (patch line 2)"); empty when it creates nothing.
    creation_line: str = ""


def _fail(message: str, **details: object) -> OperatorError:
    return OperatorError(INVALID, message, details)


def _header_name(raw: str) -> str:
    """The file name of a ``---``/``+++`` line, without timestamp or quoting."""
    name = raw.split("\t", 1)[0].rstrip()
    if len(name) >= 2 and name.startswith('"') and name.endswith('"'):
        name = name[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return name


def _normal_path(path: str) -> str:
    path = path.replace("\\", "/")
    normal = posixpath.normpath(path) if path else path
    return normal[2:] if normal.startswith("./") else normal


def _names_file(name: str, path: str) -> bool:
    wanted = _normal_path(path)
    candidates = {_normal_path(name)}
    if name.startswith(("a/", "b/")):
        candidates.add(_normal_path(name[2:]))
    return wanted in candidates


def _check_name(line: str, name: str, path: str, side: str) -> None:
    if not _names_file(name, path):
        raise _fail(
            f"the patch header {line!r} names another file; this command patches {path!r}: "
            f"write '--- a/{path}' and '+++ b/{path}', or leave both header lines out",
            header=line,
            path=path,
            side=side,
        )


def _hunk_label(number: int, header: str) -> str:
    return f"hunk {number} ({header})"


def parse_patch(patch: str, path: str) -> ParsedPatch:
    """Parse a single-file unified diff; raise ERR_INVALID_PATCH when it is malformed."""
    lines = patch.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    old_name: str | None = None
    new_name: str | None = None
    seen_git_line = False
    executable: bool | None = None
    creation_line = ""
    while i < len(lines) and not lines[i].startswith("@@"):
        line = lines[i]
        if line.strip() == "":
            pass
        elif line.startswith("diff --git "):
            if seen_git_line or old_name is not None:
                raise _two_files(i)
            seen_git_line = True
        elif line.startswith("diff ") and not seen_git_line and old_name is None:
            seen_git_line = True  # the command line of a plain diff ("diff -u a/f b/f")
        elif line.startswith(_TOLERATED_GIT_LINES):
            pass
        elif line.startswith(_MODE_LINES):
            mode = line.split()[-1]
            if mode not in _MODES:
                raise _fail(
                    f"line {i + 1} ({line!r}): only the modes 100644 (regular) and 100755 "
                    "(executable) can be set by fs.patch",
                    line=i + 1,
                )
            executable = _MODES[mode]
            if line.startswith("new file mode ") and not creation_line:
                # git's new file: it must not exist; with no hunk, it is created empty.
                creation_line = f"{line.strip()!r} (patch line {i + 1})"
        elif line.startswith(_TWO_FILE_GIT_LINES):
            raise _fail(
                f"line {i + 1} ({line!r}): renames and copies name two files; "
                "fs.patch changes the content of one file only",
                line=i + 1,
            )
        elif line.startswith("--- "):
            if old_name is not None:
                raise _two_files(i)
            old_name = _header_name(line[4:])
            if old_name == "/dev/null" and not creation_line:
                creation_line = f"'--- /dev/null' (patch line {i + 1})"
            if i + 1 >= len(lines) or not lines[i + 1].startswith("+++ "):
                raise _fail(
                    f"line {i + 1} ({line!r}) must be followed by a '+++ ' line",
                    line=i + 1,
                )
            i += 1
            new_name = _header_name(lines[i][4:])
            if old_name != "/dev/null":
                _check_name(line, old_name, path, "old")
            if new_name != "/dev/null":
                _check_name(lines[i], new_name, path, "new")
            if old_name == new_name == "/dev/null":
                raise _fail("both header lines name /dev/null", line=i + 1)
        elif line.startswith("+++ "):
            raise _fail(f"line {i + 1} ({line!r}) must follow a '--- ' line", line=i + 1)
        elif line.startswith("```"):
            raise _fail(
                f"line {i + 1} is a markdown fence ({line!r}); send the bare diff without ```",
                line=i + 1,
            )
        elif line.startswith(("Binary files ", "GIT binary patch")):
            raise _fail("binary patches are not supported; fs.patch changes text files")
        else:
            raise _fail(
                f"line {i + 1} ({line!r}) is not part of a unified diff header; before the "
                "first '@@ -a,b +c,d @@' only '--- a/<path>', '+++ b/<path>', 'diff --git' "
                "and 'index' lines are allowed",
                line=i + 1,
            )
        i += 1

    hunks: list[Hunk] = []
    first_hunk_line = i + 1
    while i < len(lines):
        line = lines[i]
        if line.startswith("@@"):
            hunk, i = _parse_hunk(lines, i, len(hunks) + 1)
            hunks.append(hunk)
        elif line.strip() == "":
            i += 1  # a blank separator that no hunk count asked for
        elif line.startswith(("--- ", "+++ ", "diff --git ")):
            raise _two_files(i)
        else:
            after = f" after {_hunk_label(hunks[-1].number, hunks[-1].header)}" if hunks else ""
            raise _fail(
                f"line {i + 1} ({line!r}){after} is neither a hunk line (starting with ' ', "
                "'+', '-' or '\\') nor a hunk header '@@ -a,b +c,d @@'; the previous hunk's "
                "counts are already complete",
                line=i + 1,
            )
    if not hunks and executable is not None:
        return ParsedPatch((), bool(creation_line), False, executable, creation_line)
    if not hunks:
        raise _fail(
            "the patch has no hunks: expected at least one '@@ -a,b +c,d @@' header "
            "followed by context (' '), removed ('-') and added ('+') lines"
        )
    for hunk in hunks[:-1]:
        if hunk.old_no_eol or hunk.new_no_eol:
            raise _fail(
                f"{_hunk_label(hunk.number, hunk.header)} ends the file ('\\ No newline at end "
                "of file') but more hunks follow it",
                hunk=hunk.number,
            )
    # "@@ -0,0 +1,N @@" as the only hunk makes the whole file, with or without headers.
    whole = len(hunks) == 1 and hunks[0].old_start == 0 and hunks[0].old_count == 0
    if whole and not creation_line:
        creation_line = f"its only hunk {hunks[0].header!r} (patch line {first_hunk_line})"
    creates = bool(creation_line)
    deletes = new_name == "/dev/null"
    if creates and any(h.old for h in hunks):
        raise _fail(
            f"the patch creates the file ({creation_line}) but its hunks have old lines; a "
            "change to an existing file has no '--- /dev/null' or 'new file mode' line"
        )
    if deletes and any(h.new for h in hunks):
        raise _fail("the patch deletes the file (+++ /dev/null) but its hunks add lines")
    return ParsedPatch(tuple(hunks), creates, deletes, executable, creation_line)


def _two_files(index: int) -> OperatorError:
    return _fail(
        f"line {index + 1} starts a second file; fs.patch takes a diff of exactly one file "
        "(send one command per file)",
        line=index + 1,
    )


def _parse_hunk(lines: list[str], start: int, number: int) -> tuple[Hunk, int]:
    header_line = lines[start]
    match = _HUNK_HEADER.match(header_line)
    if match is None:
        raise _fail(
            f"line {start + 1} ({header_line!r}) is not a valid hunk header; expected "
            "'@@ -a,b +c,d @@' (counts optional, default 1), e.g. '@@ -12,4 +12,5 @@'",
            line=start + 1,
            hunk=number,
        )
    old_start = int(match.group(1))
    old_count = int(match.group(2)) if match.group(2) is not None else 1
    new_count = int(match.group(4)) if match.group(4) is not None else 1
    header = header_line[: match.start(5)].rstrip()
    label = _hunk_label(number, header)
    if old_start == 0 and old_count != 0:
        raise _fail(f"{label}: old start 0 is only valid with count 0", hunk=number)

    # Read the body greedily up to the next header, so a count mismatch is reported as one.
    end = start + 1
    while end < len(lines):
        line = lines[end]
        if line.startswith("@@") or line.startswith("diff --git "):
            break
        if line.startswith("--- ") and end + 1 < len(lines) and lines[end + 1].startswith("+++ "):
            body_old, body_new = counts(lines[start + 1 : end])
            if body_old >= old_count and body_new >= new_count:
                break  # a second file's header, not a removed line "-- ..."
        if line and line[0] not in " +-\\":
            break
        end += 1
    body = lines[start + 1 : end]

    # Trailing empty lines: context only as far as the header's counts need them.
    trailing = 0
    while trailing < len(body) and body[len(body) - 1 - trailing] == "":
        trailing += 1
    core = body[: len(body) - trailing]
    core_old, core_new = counts(core)
    needed = old_count - core_old
    if 0 <= needed <= trailing and new_count - core_new == needed:
        body = core + [""] * needed
        end = start + 1 + len(body)
    body_old, body_new = counts(body)
    stated: tuple[int, int] | None = None
    stray = ""
    if end < len(lines) and lines[end] and lines[end][0] not in " +-\\@":
        stray = f"; line {end + 1} ({lines[end]!r}) is not a hunk line"
    if (body_old, body_new) != (old_count, new_count) and not stray and not names_a_file(body):
        # The lines are read as written and the header recounted from them (patch_recount).
        stated = (old_count, new_count)
        body, old_count, new_count = recount(body)
        end = start + 1 + len(body)
        body_old, body_new = old_count, new_count
        if old_start == 0 and old_count != 0:
            raise _fail(f"{label}: old start 0 is only valid with count 0", hunk=number)
    if (body_old, body_new) != (old_count, new_count):
        empty_note = ""
        if "" in body:
            empty_note = (
                " (empty lines count as empty context lines; give real context lines a "
                "leading space)"
            )
        raise _fail(
            f"{label}: the header counts {old_count} old and {new_count} new lines, but the "
            f"body has {body_old} old (' ' and '-') and {body_new} new (' ' and '+') lines"
            f"{empty_note}{stray}; fix the counts in the header or the hunk lines",
            hunk=number,
            header=header,
            header_counts=[old_count, new_count],
            body_counts=[body_old, body_new],
        )
    if not body or all(line.startswith("\\") for line in body):
        raise _fail(f"{label} has no lines", hunk=number)

    old: list[str] = []
    new: list[str] = []
    old_no_eol = new_no_eol = False
    previous: str | None = None
    for offset, line in enumerate(body):
        where = f"{label}, line {start + 2 + offset}"
        if line.startswith("\\"):
            if previous is None or previous.startswith("\\"):
                raise _fail(
                    f"{where}: '\\ No newline at end of file' must follow a hunk line",
                    hunk=number,
                )
            kind = previous[:1] or " "
            old_no_eol = old_no_eol or kind in " -"
            new_no_eol = new_no_eol or kind in " +"
        else:
            kind = line[:1] or " "
            if (old_no_eol and kind in " -") or (new_no_eol and kind in " +"):
                raise _fail(
                    f"{where}: a line follows '\\ No newline at end of file' on the same side; "
                    "the marker belongs after the last line of the file",
                    hunk=number,
                )
            if kind in " -":
                old.append(line[1:])
            if kind in " +":
                new.append(line[1:])
        previous = line
    return (
        Hunk(
            number,
            header,
            old_start,
            old_count,
            new_count,
            tuple(old),
            tuple(new),
            old_no_eol,
            new_no_eol,
            "".join(line[:1] or " " for line in body if not line.startswith("\\")),
            stated,
        ),
        end,
    )


class _Place(NamedTuple):
    """Where a hunk applies: its first old line, and the characters its old lines span."""

    line: int
    start: int
    end: int


def _fits_end(text: str, hunk: Hunk, end: int) -> bool:
    """Whether old lines ending at character ``end`` agree with the hunk about the file's end."""
    at_end = end == len(text)
    lacks_final_newline = bool(text) and not text.endswith("\n")
    if hunk.old_no_eol and not (at_end and lacks_final_newline):
        return False
    if hunk.new_no_eol and not at_end:
        return False
    # Lines added after a last line that lacks its newline would change that line too.
    return bool(hunk.old) or not (at_end and lacks_final_newline)


def _offset_of_line(text: str, start: int, count: int) -> int | None:
    """Character offset of the line ``count`` lines after the line starting at ``start``."""
    if count == 0:
        return start
    # The regex engine walks the lines in C; a Python loop over find() would not.
    match = re.compile(f"(?:[^\n]*\n){{{count}}}").match(text, start)
    return None if match is None else match.end()


class _Counted:
    """Character offsets of one text whose line is known (0 is line 0), so that the
    hunks placed one after another count each newline about once, not once each."""

    def __init__(self) -> None:
        self.chars = [0]
        self.lines = [0]  # the lines of ``chars``: ascending as they are

    def below(self, char: int) -> tuple[int, int]:
        """The known offset nearest ``char`` from below, and its line."""
        at = bisect_right(self.chars, char) - 1
        return self.chars[at], self.lines[at]

    def up_to_line(self, line: int) -> tuple[int, int]:
        """The last known offset on line ``line`` or before it, and its line."""
        at = bisect_right(self.lines, line) - 1
        return self.chars[at], self.lines[at]

    def note(self, char: int, line: int) -> None:
        at = bisect_right(self.chars, char)
        if self.chars[at - 1] != char:
            self.chars.insert(at, char)
            self.lines.insert(at, line)


def _nearest(
    text: str,
    needle: str,
    stated: int,
    fits: Callable[[int], bool],
    known: _Counted | None = None,
) -> list[_Place]:
    """The places nearest line ``stated`` where ``needle`` (whole lines) occurs: one, or two
    equally near (one above, one below). Occurrences come from ``str.find`` over the text,
    never split; the line of each is counted incrementally, from the nearest offset whose
    line ``known`` holds, and the scan stops at the first place at or below the stated
    line, or once it is farther below it than the best place found.

    With ``known`` offsets (earlier hunks of the patch), the scan starts at the last one
    on or before the stated line: a place found from there nearer than that offset's line
    is nearer than any place before it, so the text before it is not searched; otherwise
    the whole text is."""
    if known is not None:
        start, start_line = known.up_to_line(stated)
        if start:
            best, line, counted_to = _scan(text, needle, stated, fits, start, start_line)
            if best and abs(best[0].line - stated) < stated - start_line:
                known.note(counted_to, line)
                return best
    found = text.find(needle)
    line = counted_to = 0
    if known is not None and found != -1:
        counted_to, line = known.below(found)
    best, line, counted_to = _scan(text, needle, stated, fits, counted_to, line, found)
    if known is not None and counted_to:
        known.note(counted_to, line)
    return best


def _scan(
    text: str,
    needle: str,
    stated: int,
    fits: Callable[[int], bool],
    counted_to: int,
    line: int,
    found: int | None = None,
) -> tuple[list[_Place], int, int]:
    """``_nearest``'s scan from character ``counted_to`` (on line ``line``), or from the
    occurrence ``found`` at or after it: the best places, and the last offset counted
    with its line."""
    best: list[_Place] = []
    best_distance = 0
    steps = 0
    if found is None:
        found = text.find(needle, counted_to)
    while found != -1:
        steps += 1
        if steps % 4096 == 0:  # a line repeated a million times is a million steps
            check("placing the patch's hunks")
        line += text.count("\n", counted_to, found)
        counted_to = found
        distance = abs(line - stated)
        if best and line - stated > best_distance:
            break
        end = found + len(needle)
        if (found == 0 or text[found - 1] == "\n") and fits(end):
            if not best or distance < best_distance:
                best, best_distance = [_Place(line, found, end)], distance
            elif distance == best_distance and best[-1].line != line:
                best.append(_Place(line, found, end))
            if line >= stated:
                break  # a later place starts a later line: farther below, never as near
        found = text.find(needle, found + 1)
    return best, line, counted_to


def _locate(text: str, hunk: Hunk, known: _Counted | None = None) -> list[_Place]:
    """Where the hunk's old lines are nearest its stated line, anywhere in the file."""
    stated = hunk.stated_index
    if not hunk.old:
        # Nothing to recognise the place by: only the stated line will do.
        start = _offset_of_line(text, 0, stated)
        if start is None or not _fits_end(text, hunk, start):
            return []
        return [_Place(stated, start, start)]
    needle = "\n".join(hunk.old) + ("" if hunk.old_no_eol else "\n")
    if not needle:
        return []  # an empty last line without newline: no text holds one
    return _nearest(text, needle, stated, lambda end: _fits_end(text, hunk, end), known)


def _applied_at(
    text: str, hunk: Hunk, place: _Place | None, known: _Counted | None = None
) -> int | None:
    """The line where the hunk's new side already stands, when the file looks patched:
    its new lines are found near the stated line, covering the place its old lines match
    (an append applied before), or where its old lines are not found at all."""
    if not hunk.new or hunk.new == hunk.old or not hunk.old:
        # A pure insertion has no context to tell a second copy from the first.
        return None
    needle = "\n".join(hunk.new) + ("" if hunk.new_no_eol else "\n")
    found = _nearest(text, needle, hunk.stated_index, lambda end: True, known)
    for done in found:
        if place is None or (done.start <= place.start and place.end <= done.end):
            return done.line
    return None


def _misses_its_edge(text: str, hunk: Hunk, place: _Place) -> bool:
    """git apply's edge rule: a hunk with context but none after its last change must
    match at the end of the file, and one with none before its first change, stated at
    line 1, at the beginning. Where its old lines match elsewhere, the lines it appends
    (or prepends) may already stand there: only then is the new side looked for around
    the place. A hunk with no context at all (diff -U0) has no edge to keep."""
    leading = len(hunk.kinds) - len(hunk.kinds.lstrip(" "))
    trailing = len(hunk.kinds) - len(hunk.kinds.rstrip(" "))
    if leading == 0 and trailing == 0:
        return False
    if trailing == 0 and place.end != len(text):
        return True
    return leading == 0 and hunk.stated_index == 0 and place.start != 0


def _nearest_place(lines: list[str], hunk: Hunk, low: int) -> int:
    """The position where most of the hunk's old lines match (ties: nearest the stated line).

    A place may run past the file's end (a hunk whose last context lines the file does not
    have): it is shown where its lines match, not pulled back onto lines that do not."""
    high = max(len(lines) - 1, 0)
    if high < low:
        low = 0
    wanted: dict[str, list[int]] = {text: [] for text in hunk.old}
    for index, text in enumerate(hunk.old):
        wanted[text].append(index)
    votes: Counter[int] = Counter()
    for line_no, text in enumerate(lines):
        for index in wanted.get(text, ()):
            pos = line_no - index
            if low <= pos <= high:
                votes[pos] += 1
    stated = hunk.stated_index
    if not votes:
        return min(max(stated, low), high)
    return max(votes, key=lambda pos: (votes[pos], -abs(pos - stated), -pos))


def _mismatch(text: str, hunk: Hunk, low: int, path: str) -> OperatorError:
    """ERR_PATCH_CONTEXT_MISMATCH showing the hunk next to the file's nearest lines."""
    lines, eol = split_lines(text)
    label = _hunk_label(hunk.number, hunk.header)
    pos = _nearest_place(lines, hunk, low)
    found = lines[pos : pos + len(hunk.old)]
    first_diff = next(
        (i for i, (want, have) in enumerate(zip(hunk.old, found, strict=False)) if want != have),
        min(len(hunk.old), len(found)),
    )
    out = [
        f"{label} does not apply to {path}: its context and removed lines were not found "
        f"at line {hunk.stated_index + 1} or at any offset (matching is exact).",
    ]
    stated_end = hunk.stated_index + len(hunk.old)
    if stated_end > len(lines):
        out.append(
            f"The hunk's old lines run from line {hunk.stated_index + 1} to line {stated_end}, "
            f"but {path} ends at line {len(lines)}."
        )
    if first_diff < len(hunk.old) and first_diff < len(found):
        want, have = hunk.old[first_diff], found[first_diff]
        if want.strip() == have.strip() or want.split() == have.split():
            out.append(
                f"Line {pos + first_diff + 1} differs only in whitespace "
                f"(patch {want!r}, file {quote(have)})."
            )
    elif first_diff == len(found) < len(hunk.old):
        out.append(f"The file ends after line {len(lines)}, before the hunk's old lines do.")
    elif hunk.old_no_eol or hunk.new_no_eol or (pos + len(found) == len(lines) and not eol):
        out.append(
            "The lines match but the end of file does not: check '\\ No newline at end of "
            f"file' (the file {'ends' if eol else 'does not end'} with a newline)."
        )
    out.append(f"Expected (the hunk's ' ' and '-' lines, from line {hunk.stated_index + 1}):")
    out.extend(_numbered(hunk.old, hunk.stated_index, first_diff))
    if found:
        out.append(
            f"The file at the nearest place, lines {pos + 1}-{pos + len(found)} "
            f"(first difference marked '>'):"
        )
        out.extend(_numbered([mark(line) for line in found], pos, first_diff))
    else:
        out.append(f"The file has {counted(len(lines), 'line')}; there is nothing at that place.")
    out.append("Read the file around that place again and resend the patch with exact lines.")
    return OperatorError(
        MISMATCH,
        "\n".join(out),
        {
            "hunk": hunk.number,
            "header": hunk.header,
            "expected": list(hunk.old),
            "found_at_line": pos + 1,
            "found": [mark(line) for line in found],
        },
    )


def _numbered(lines: Sequence[str], first_index: int, marked: int) -> list[str]:
    start = max(0, min(marked - _SHOWN_LINES // 2, len(lines) - _SHOWN_LINES))
    shown = lines[start : start + _SHOWN_LINES]
    out = [f"  ... ({start} lines above not shown)"] if start else []
    for i, line in enumerate(shown, start=start):
        mark = ">" if i == marked else " "
        out.append(f"{mark}{first_index + i + 1:6d} | {line}")
    rest = len(lines) - start - len(shown)
    if rest > 0:
        out.append(f"  ... ({rest} lines below not shown)")
    return out


def apply_unified_diff(
    text: str, patch: str, path: str, *, raw: bytes | None = None
) -> PatchResult:
    """Apply a single-file unified diff to LF ``text``; raise OperatorError on any problem.

    Each hunk is placed nearest its own stated line, whatever the order of the hunks;
    two equally near places, overlapping hunks and a hunk whose new side is already in
    place are refused rather than guessed.

    ``raw``: ``text`` in UTF-8, when the caller has those bytes (a file's own bytes). An
    ASCII text's result is then put together from them, its untouched parts never copied
    out as text, and ``PatchResult.data`` holds the result in UTF-8.
    """
    parsed = parse_patch(patch, path)
    if parsed.creates and text:
        lines = split_lines(text)[0]
        raise OperatorError(
            MISMATCH,
            f"the patch creates {path} ({parsed.creation_line}: the old side is no file or "
            f"an empty one) but the file already has {counted(len(lines), 'line')}; git "
            "refuses such a patch too. Diff against its current content instead (old lines "
            "as context, e.g. '@@ -1,3 +1,4 @@')",
            {
                "hunk": 1,
                "found_at_line": 1,
                "expected": [],
                "found": [mark(line) for line in lines[:_SHOWN_LINES]],
            },
        )
    placed: list[tuple[Hunk, _Place]] = []
    known = _Counted()
    for hunk in parsed.hunks:
        places = _locate(text, hunk, known)
        if not places:
            done = _applied_at(text, hunk, None, known)
            if done is not None:
                raise _already_applied(hunk, done, path)
            raise _mismatch(text, hunk, 0, path)
        if len(places) > 1:
            raise _ambiguous(hunk, places, path)
        done = (
            _applied_at(text, hunk, places[0], known)
            if _misses_its_edge(text, hunk, places[0])
            else None
        )
        if done is not None:
            raise _already_applied(hunk, done, path)
        placed.append((hunk, places[0]))
    ordered = sorted(placed, key=lambda item: (item[1].start, item[1].end))
    for (first, at), (second, then) in itertools.pairwise(ordered):
        if then.start < at.end or (then.start == at.start and at.start != at.end):
            raise _overlap(first, at, second, then, path)

    # The result, in order: untouched ranges of ``text`` (start, end) and the new lines.
    pieces: list[tuple[int, int] | str] = []
    kept: list[tuple[int, int, int]] = []
    splices: list[Splice] = []
    cursor = 0
    old_line = new_line = 0
    new_at_char = 0  # characters of the result so far
    shift = 0  # lines of the result minus lines of the text, up to the cursor
    for hunk, place in ordered:
        pieces.append((cursor, place.start))
        new_at_char += place.start - cursor
        untouched = place.line - old_line
        if untouched > 0:
            kept.append((old_line, new_line, untouched))
        old_at, new_at = place.line, new_line + untouched
        for kind in hunk.kinds:
            if kind == " ":
                kept.append((old_at, new_at, 1))  # a context line is untouched too
            old_at += kind != "+"
            new_at += kind != "-"
        replaced_from = new_at_char
        new_count = 0
        if hunk.new:
            # A hunk may drop the final newline only where it ends the file (_fits_end).
            added = "\n".join(hunk.new) + ("" if hunk.new_no_eol else "\n")
            pieces.append(added)
            new_at_char += len(added)
            # Lines as the text has them: an empty last line without newline is none.
            new_count = len(hunk.new) - (hunk.new_no_eol and hunk.new[-1] == "")
        splices.append(
            Splice(
                place.line,
                len(hunk.old),
                place.start,
                place.end,
                place.line + shift,
                new_count,
                replaced_from,
                new_at_char,
            )
        )
        shift += new_count - len(hunk.old)
        new_line += untouched + len(hunk.new)
        old_line = place.line + len(hunk.old)
        cursor = place.end
    pieces.append((cursor, len(text)))
    rest = text.count("\n", cursor) + (0 if text.endswith("\n") or cursor >= len(text) else 1)
    if rest > 0:
        kept.append((old_line, new_line, rest))
    result, data = _joined(text, pieces, raw)
    if parsed.deletes and result:
        remaining = split_lines(result)[0]
        raise OperatorError(
            MISMATCH,
            f"the patch deletes {path} ('+++ /dev/null') "
            f"but {counted(len(remaining), 'line')} would remain",
            {
                "hunk": len(parsed.hunks),
                "found_at_line": 1,
                "expected": [],
                "found": [mark(line) for line in remaining[:_SHOWN_LINES]],
            },
        )
    offsets = tuple(place.line - hunk.stated_index for hunk, place in placed)
    note = _summary(offsets) + recount_note(
        [
            (h.number, *h.stated_counts, h.old_count, h.new_count)
            for h in parsed.hunks
            if h.stated_counts
        ]
    )
    if parsed.executable is not None:
        mode = "executable (100755)" if parsed.executable else "not executable (100644)"
        note = f"{note}; file mode set to {mode}" if offsets else f"file mode set to {mode}"
    if parsed.deletes:
        # A model that meant a delete must not read "applied" as one.
        note += "; '+++ /dev/null' left the file empty, not deleted: fs.delete deletes a file"
    return PatchResult(
        result,
        len(parsed.hunks),
        offsets,
        note,
        parsed.executable,
        tuple(kept),
        tuple(splices),
        old_line + rest,
        old_line + rest + shift,
        data,
    )


def _joined(
    text: str, pieces: list[tuple[int, int] | str], raw: bytes | None
) -> tuple[str, bytes | None]:
    """The result text, and its UTF-8 bytes when put together from ``raw``. In an ASCII
    text a character is a byte, so its ranges are those of ``raw``: the bytes are joined
    from views of it (no copy of the untouched parts as text) and decoded once."""
    if raw is None or len(raw) != len(text) or not text.isascii():
        return "".join(text[p[0] : p[1]] if isinstance(p, tuple) else p for p in pieces), None
    view = memoryview(raw)
    data = b"".join(
        view[p[0] : p[1]] if isinstance(p, tuple) else p.encode("utf-8") for p in pieces
    )
    return data.decode("utf-8"), data


def _already_applied(hunk: Hunk, line: int, path: str) -> OperatorError:
    return OperatorError(
        "ERR_PATCH_ALREADY_APPLIED",
        f"{_hunk_label(hunk.number, hunk.header)} looks already applied at line {line + 1} "
        f"of {path}: its new lines ('+' and ' ') are in place there. Nothing was changed; "
        "read the file again before sending another patch.",
        {"hunk": hunk.number, "header": hunk.header, "applied_at_line": line + 1},
    )


def _ambiguous(hunk: Hunk, places: list[_Place], path: str) -> OperatorError:
    lines = [place.line + 1 for place in places]
    distance = abs(places[0].line - hunk.stated_index)
    return OperatorError(
        "ERR_PATCH_AMBIGUOUS",
        f"{_hunk_label(hunk.number, hunk.header)} matches {path} equally well at lines "
        f"{lines[0]} and {lines[1]} ({distance} lines from its stated line "
        f"{hunk.stated_index + 1}); nothing was changed. Give the hunk's real line number or "
        "more context lines so that one place fits.",
        {"hunk": hunk.number, "header": hunk.header, "candidate_lines": lines},
    )


def _overlap(first: Hunk, at: _Place, second: Hunk, then: _Place, path: str) -> OperatorError:
    return OperatorError(
        "ERR_PATCH_OVERLAP",
        f"{_hunk_label(first.number, first.header)} (lines {at.line + 1}-"
        f"{at.line + max(len(first.old), 1)}) and {_hunk_label(second.number, second.header)} "
        f"(from line {then.line + 1}) change overlapping lines of {path}; nothing was changed. "
        "Merge them into one hunk, or fix their line numbers and context.",
        {
            "hunks": [first.number, second.number],
            "lines": [at.line + 1, then.line + 1],
        },
    )


def _summary(offsets: tuple[int, ...]) -> str:
    count = len(offsets)
    note = f"{count} hunk{'s' if count != 1 else ''} applied"
    moved = [f"hunk {i} at offset {off:+d}" for i, off in enumerate(offsets, start=1) if off]
    return f"{note}; {', '.join(moved)}" if moved else note
