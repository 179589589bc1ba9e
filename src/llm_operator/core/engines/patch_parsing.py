"""Reading a single-file unified diff into hunks: the parser behind ``fs.patch``.

Invariants:
- The patch's own CRLF line ends are normalised to LF before parsing, so a patch pasted
  from a CRLF clipboard still applies.
- Parsing never looks at the file: it yields the hunks, what the patch creates or deletes
  and the mode it sets; placing the hunks is patch_placing.py's work.

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
- ``---``/``+++`` headers are optional; present, they must name the command's file
  (``a/``/``b/`` prefixes and tab-separated timestamps allowed). ``--- /dev/null`` creates
  a file and needs empty text; ``+++ /dev/null`` is accepted only when every line is
  removed and gives empty text (fs.delete, not fs.patch, removes files).
- ``diff --git`` (or a plain ``diff ...`` command line), ``index``, ``old mode`` and
  ``deleted file mode`` lines are tolerated before the headers;
  renames, copies, binary patches and a second file are refused.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from ..errors import OperatorError
from .patch_recount import counts, names_a_file, recount

INVALID = "ERR_INVALID_PATCH"

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


class _Headers(NamedTuple):
    """What the lines before the first hunk said."""

    new_name: str | None  # the ``+++`` line's file, None without headers
    executable: bool | None
    creation_line: str


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


def hunk_label(number: int, header: str) -> str:
    """A hunk as every message names it: ``hunk 2 (@@ -12,4 +12,5 @@)``."""
    return f"hunk {number} ({header})"


def parse_patch(patch: str, path: str) -> ParsedPatch:
    """Parse a single-file unified diff; raise ERR_INVALID_PATCH when it is malformed."""
    lines = patch.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    headers, i = _read_headers(lines, path)
    hunks = _read_hunks(lines, i)
    if not hunks and headers.executable is not None:
        return ParsedPatch(
            (), bool(headers.creation_line), False, headers.executable, headers.creation_line
        )
    return _checked(hunks, headers, first_hunk_line=i + 1)


def _read_headers(lines: list[str], path: str) -> tuple[_Headers, int]:
    """The header lines up to the first ``@@``, and the index of that line."""
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

    return _Headers(new_name, executable, creation_line), i


def _read_hunks(lines: list[str], i: int) -> list[Hunk]:
    """The hunks from line index ``i`` (the first ``@@``) to the end of the patch."""
    hunks: list[Hunk] = []
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
            after = f" after {hunk_label(hunks[-1].number, hunks[-1].header)}" if hunks else ""
            raise _fail(
                f"line {i + 1} ({line!r}){after} is neither a hunk line (starting with ' ', "
                "'+', '-' or '\\') nor a hunk header '@@ -a,b +c,d @@'; the previous hunk's "
                "counts are already complete",
                line=i + 1,
            )
    return hunks


def _checked(hunks: list[Hunk], headers: _Headers, first_hunk_line: int) -> ParsedPatch:
    """The parsed patch, once its hunks agree with each other and with its headers."""
    creation_line = headers.creation_line
    if not hunks:
        raise _fail(
            "the patch has no hunks: expected at least one '@@ -a,b +c,d @@' header "
            "followed by context (' '), removed ('-') and added ('+') lines"
        )
    for hunk in hunks[:-1]:
        if hunk.old_no_eol or hunk.new_no_eol:
            raise _fail(
                f"{hunk_label(hunk.number, hunk.header)} ends the file ('\\ No newline at end "
                "of file') but more hunks follow it",
                hunk=hunk.number,
            )
    # "@@ -0,0 +1,N @@" as the only hunk makes the whole file, with or without headers.
    whole = len(hunks) == 1 and hunks[0].old_start == 0 and hunks[0].old_count == 0
    if whole and not creation_line:
        creation_line = f"its only hunk {hunks[0].header!r} (patch line {first_hunk_line})"
    creates = bool(creation_line)
    deletes = headers.new_name == "/dev/null"
    if creates and any(h.old for h in hunks):
        raise _fail(
            f"the patch creates the file ({creation_line}) but its hunks have old lines; a "
            "change to an existing file has no '--- /dev/null' or 'new file mode' line"
        )
    if deletes and any(h.new for h in hunks):
        raise _fail("the patch deletes the file (+++ /dev/null) but its hunks add lines")
    return ParsedPatch(tuple(hunks), creates, deletes, headers.executable, creation_line)


def _two_files(index: int) -> OperatorError:
    return _fail(
        f"line {index + 1} starts a second file; fs.patch takes a diff of exactly one file "
        "(send one command per file)",
        line=index + 1,
    )


def _parse_hunk(lines: list[str], start: int, number: int) -> tuple[Hunk, int]:
    """The hunk whose header is ``lines[start]``, and the index of the line after it."""
    old_start, old_count, new_count, header = _hunk_header(lines[start], start, number)
    label = hunk_label(number, header)
    end = _body_end(lines, start, old_count, new_count)
    body, end = _context_as_needed(lines[start + 1 : end], start, old_count, new_count)
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
    old, new, old_no_eol, new_no_eol = _sides(body, f"{label}, line", start + 2, number)
    kinds = "".join(line[:1] or " " for line in body if not line.startswith("\\"))
    hunk = Hunk(
        number,
        header,
        old_start,
        old_count,
        new_count,
        old,
        new,
        old_no_eol,
        new_no_eol,
        kinds,
        stated,
    )
    return hunk, end


def _hunk_header(line: str, start: int, number: int) -> tuple[int, int, int, str]:
    """A ``@@ -a,b +c,d @@`` line's old start, old count, new count and the header itself."""
    match = _HUNK_HEADER.match(line)
    if match is None:
        raise _fail(
            f"line {start + 1} ({line!r}) is not a valid hunk header; expected "
            "'@@ -a,b +c,d @@' (counts optional, default 1), e.g. '@@ -12,4 +12,5 @@'",
            line=start + 1,
            hunk=number,
        )
    old_start = int(match.group(1))
    old_count = int(match.group(2)) if match.group(2) is not None else 1
    new_count = int(match.group(4)) if match.group(4) is not None else 1
    header = line[: match.start(5)].rstrip()
    if old_start == 0 and old_count != 0:
        raise _fail(
            f"{hunk_label(number, header)}: old start 0 is only valid with count 0", hunk=number
        )
    return old_start, old_count, new_count, header


def _body_end(lines: list[str], start: int, old_count: int, new_count: int) -> int:
    """Where the body of the hunk at ``start`` ends: it is read greedily up to the next
    header, so a count mismatch is reported as one."""
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
    return end


def _context_as_needed(
    body: list[str], start: int, old_count: int, new_count: int
) -> tuple[list[str], int]:
    """The body with its trailing empty lines taken as context only as far as the header's
    counts need them, and the index of the line after it."""
    trailing = 0
    while trailing < len(body) and body[len(body) - 1 - trailing] == "":
        trailing += 1
    core = body[: len(body) - trailing]
    core_old, core_new = counts(core)
    needed = old_count - core_old
    if 0 <= needed <= trailing and new_count - core_new == needed:
        body = core + [""] * needed
    return body, start + 1 + len(body)


def _sides(
    body: list[str], where: str, first_line: int, number: int
) -> tuple[tuple[str, ...], tuple[str, ...], bool, bool]:
    """The old and new lines of a hunk's body, and whether each side lacks its final
    newline ('\\ No newline at end of file')."""
    old: list[str] = []
    new: list[str] = []
    old_no_eol = new_no_eol = False
    previous: str | None = None
    for offset, line in enumerate(body):
        at = f"{where} {first_line + offset}"
        if line.startswith("\\"):
            if previous is None or previous.startswith("\\"):
                raise _fail(
                    f"{at}: '\\ No newline at end of file' must follow a hunk line",
                    hunk=number,
                )
            kind = previous[:1] or " "
            old_no_eol = old_no_eol or kind in " -"
            new_no_eol = new_no_eol or kind in " +"
        else:
            kind = line[:1] or " "
            if (old_no_eol and kind in " -") or (new_no_eol and kind in " +"):
                raise _fail(
                    f"{at}: a line follows '\\ No newline at end of file' on the same side; "
                    "the marker belongs after the last line of the file",
                    hunk=number,
                )
            if kind in " -":
                old.append(line[1:])
            if kind in " +":
                new.append(line[1:])
        previous = line
    return tuple(old), tuple(new), old_no_eol, new_no_eol
