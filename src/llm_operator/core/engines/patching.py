"""Strict unified-diff application for one file: the engine behind ``fs.patch``.

The patch is parsed (patch_parsing.py), its hunks placed (patch_placing.py, which holds
the placement rules and the refusals), and the result put together here.

Invariants:
- Text in and out is LF text (``TextFile.text``).
- A file is a list of lines plus one flag, "ends with a newline". ``"a\\nb\\n"`` and
  ``"a\\nb"`` have the same lines; only the flag differs, and a line without its newline
  never matches a patch line that has one (``\\ No newline at end of file`` says which).
  The flag of the result follows the patch: it changes only where a hunk ends at the end
  of the file.
- ``@@ -0,0 +1,N @@`` as the only hunk creates the whole file, with or without
  ``/dev/null`` headers, and is refused on a file that has lines.
- ``new file mode 100755`` / ``new mode 100755`` make the file executable (100644: not);
  the result carries it for the write. A result also lists the runs of untouched lines,
  so a file with mixed line breaks keeps each untouched line's own break.
- The text is never split into lines on success: the result is one join of slices of
  the text and the hunks' new lines. Applying a few hunks to a big file is linear and
  runs mostly in C.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..errors import OperatorError, mark
from ..wording import counted
from .patch_parsing import Hunk, ParsedPatch, parse_patch
from .patch_placing import MISMATCH, SHOWN_LINES, Place, place_hunks
from .patch_recount import recount_note
from .textfile import split_lines

if TYPE_CHECKING:
    from .diffing import LineDiff


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


class _Assembled(NamedTuple):
    """The result in order, as untouched ranges of the text (start, end) and new lines,
    with the runs of untouched lines, the splices and the old and new line counts."""

    pieces: list[tuple[int, int] | str]
    kept: tuple[tuple[int, int, int], ...]
    splices: tuple[Splice, ...]
    old_lines: int
    new_lines: int


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
        raise _creates_existing(text, parsed, path)
    placed, ordered = place_hunks(text, parsed, path)
    assembled = _assemble(text, ordered)
    result, data = _joined(text, assembled.pieces, raw)
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
                "found": [mark(line) for line in remaining[:SHOWN_LINES]],
            },
        )
    offsets = tuple(place.line - hunk.stated_index for hunk, place in placed)
    return PatchResult(
        result,
        len(parsed.hunks),
        offsets,
        _note(parsed, offsets),
        parsed.executable,
        assembled.kept,
        assembled.splices,
        assembled.old_lines,
        assembled.new_lines,
        data,
    )


def _creates_existing(text: str, parsed: ParsedPatch, path: str) -> OperatorError:
    lines = split_lines(text)[0]
    return OperatorError(
        MISMATCH,
        f"the patch creates {path} ({parsed.creation_line}: the old side is no file or "
        f"an empty one) but the file already has {counted(len(lines), 'line')}; git "
        "refuses such a patch too. Diff against its current content instead (old lines "
        "as context, e.g. '@@ -1,3 +1,4 @@')",
        {
            "hunk": 1,
            "found_at_line": 1,
            "expected": [],
            "found": [mark(line) for line in lines[:SHOWN_LINES]],
        },
    )


def _assemble(text: str, ordered: list[tuple[Hunk, Place]]) -> _Assembled:
    """The pieces of the result and what the review needs of it, hunks in file order."""
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
    old_lines = old_line + rest
    return _Assembled(pieces, tuple(kept), tuple(splices), old_lines, old_lines + shift)


def _note(parsed: ParsedPatch, offsets: tuple[int, ...]) -> str:
    """The summary note: the hunks applied, their offsets, recounts and the mode set."""
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
    return note


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


def _summary(offsets: tuple[int, ...]) -> str:
    count = len(offsets)
    note = f"{count} hunk{'s' if count != 1 else ''} applied"
    moved = [f"hunk {i} at offset {off:+d}" for i, off in enumerate(offsets, start=1) if off]
    return f"{note}; {', '.join(moved)}" if moved else note
