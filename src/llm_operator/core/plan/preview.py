"""What a pending command will do, as data a person can check: previews made in the worker.

The session builds a ``ChangePreview`` per file change while it prepares a run (off the
window's UI thread); the confirmation dialog, the history and the command line only
render them. A preview holds the unified diff text and the same diff as rows: each line
with its old and new line number and, for a changed line paired with its counterpart, the
character spans that differ (word-level), so a renderer never diffs anything itself. The
spans are worked out when first asked (``ChangePreview.lines``): the window asks in its
worker (``Run.mark_words``); a run on the command line, which shows no spans, never does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from ..engines.textfile import BOM, TextFile
from ..visible import hidden_note, shown, shown_lines
from ..wording import counted

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..actions.base import Plan, Reveal
    from ..changes import FileChange
    from ..engines.diffing import LineDiff

LineKind = Literal["context", "added", "removed", "hunk", "note"]
Badge = Literal["new", "deleted", "edited"]
Span = tuple[int, int]  # [start, end) character offsets in a line's text

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
# Word spans are only worth computing for lines a person reads; past this they cost time.
MAX_SPAN_LINE = 1000
# The most lines of a diff a review shows: an edit list of 200 characters can make a file
# of millions of lines, and a row costs microseconds and memory here and more to lay out
# in the window (100,000 rows took 11 s to open). The counts stay exact.
MAX_REVIEW_LINES = 20_000
# difflib's matching of two lines' words costs up to the cube of their word count where
# words repeat ("a a a ...": 400 words took 3.5 s, and a file holds thousands of lines).
# So difflib pairs the words of lines of at most MAX_SPAN_WORDS words a side, and in the
# previews of one run only while the sum of the pairs' word-count products stays under
# SPAN_WORK; other lines get one span a side, between the words they start and end with
# in common, found in linear time.
MAX_SPAN_WORDS = 96
SPAN_WORK = 400_000
# Past this many changed lines the previews of one run mark no more words: nobody reads
# that many, and even splitting them into words would cost seconds in a file of 10 MB.
MAX_SPAN_PAIRS = 2_000
# Paired lines sharing less than this fraction of tokens are shown as wholly changed.
MIN_SIMILARITY = 0.3


@dataclass
class SpanWork:
    """What is left of the word marks' budgets, spent as line pairs are marked: the sum of
    the pairs' word-count products (of SPAN_WORK) and the pairs (of MAX_SPAN_PAIRS)."""

    work: int = SPAN_WORK
    pairs: int = MAX_SPAN_PAIRS


@dataclass(frozen=True)
class DiffLine:
    """One row of a preview's diff: its kind, text, old and new line numbers, changed words."""

    kind: LineKind
    text: str  # the line without its "+", "-" or " " column
    old_no: int | None = None
    new_no: int | None = None
    spans: tuple[Span, ...] = ()  # changed words, for a removed/added line with a partner


@dataclass
class _MarkedLines:
    """The diff lines of a preview with their changed words marked, once worked out."""

    lines: tuple[DiffLine, ...] | None = None


@dataclass(frozen=True)
class ChangePreview:
    """What one file change will do, for a person to check: the diff as text and as rows, and
    what a diff does not show (mode, invisible characters, line breaks)."""

    path: str
    badge: Badge
    diff: str  # unified diff, or a note for content that is not text
    added: int
    removed: int
    rows: tuple[DiffLine, ...] = ()  # the diff's rows; ``lines`` are them with word spans
    executable: bool | None = None  # a patch's new mode: 100755 (True) or 100644 (False)
    hidden: str | None = None  # what invisible or control characters the new content holds
    inside: tuple[int, int] | None = None  # a folder delete: the files and folders it takes
    breaks: str | None = None  # line breaks the diff shows that the file will not have
    alike: str | None = None  # changed lines that look the same before and after
    endings: str | None = None  # lines whose break (CRLF, LF or CR) the diff does not show
    scripts: str | None = None  # new lines with a letter that passes for another
    replaces: str | None = None  # the old content, when it cannot be shown as text
    cut: str | None = None  # a diff too long to show whole: where it is cut
    # The rows with their word marks, worked out once (on first use, or for a whole run by
    # ``mark_words``): kept in a box of their own, so the frozen preview never changes.
    _marked: _MarkedLines = field(
        default_factory=_MarkedLines, init=False, compare=False, repr=False
    )

    @property
    def lines(self) -> tuple[DiffLine, ...]:
        """The diff's rows, each changed line paired with its counterpart marked with the
        words that differ (what the window paints)."""
        return self.marked_within(SpanWork())

    @property
    def words_marked(self) -> bool:
        """Whether ``lines`` are worked out already (reading them then costs nothing)."""
        return self._marked.lines is not None

    def marked_within(self, budget: SpanWork) -> tuple[DiffLine, ...]:
        """``lines``, their words marked within ``budget`` (spent here) unless they were
        marked already."""
        if self._marked.lines is None:
            self._marked.lines = _with_word_spans(list(self.rows), budget)
        return self._marked.lines

    @property
    def verb(self) -> str:
        """The present-tense line a person approves: nothing has happened yet."""
        if self.badge == "deleted":
            if self.inside is not None:
                files, folders = self.inside
                what = f"{counted(files, 'file')} and {counted(folders, 'folder')} in it"
                return f"Will delete folder {self.path}/ with {what} (moved to the trash, undoable)"
            return f"Will delete {self.path} (moved to the trash, undoable)"
        if self.badge == "new":
            return f"Will create {self.path} (+{self.added})"
        if not self.diff and self.executable is not None:
            return f"Will leave the content of {self.path} as it is"
        return f"Will write {self.path} (+{self.added} -{self.removed})"

    @property
    def review(self) -> tuple[str, ...]:
        """Every line a person reads before approving this change: what it does, then
        each thing a diff does not show (a mode change, invisible characters)."""
        lines = [self.verb]
        if self.replaces is not None:
            lines.append(self.replaces)
        if self.executable is not None:
            mode = "executable (mode 100755)" if self.executable else "not executable (mode 100644)"
            lines.append(f"Will make {self.path} {mode}")
        if self.hidden is not None:
            lines.append(f"Look closely: {self.hidden}, marked <U+...> wherever shown")
        if self.breaks is not None:
            lines.append(self.breaks)
        if self.endings is not None:
            lines.append(self.endings)
        if self.scripts is not None:
            lines.append(self.scripts)
        if self.alike is not None:
            lines.append(self.alike)
        if self.cut is not None:
            lines.append(self.cut)
        return tuple(lines)


def _hidden(before: bytes | None, after: bytes | None, text: str) -> tuple[str | None, str | None]:
    """What ``after``'s bytes hold that the diff cannot show: invisible or control
    characters (a BOM the file did not have included), and lone carriage returns in a
    file whose lines end otherwise. The diff reads text as fs.read does (every CR a line
    break, the BOM dropped), so both are counted here from the bytes; ``text`` is the
    decoded ``after``, all there is to look at when it has no CR and no BOM."""
    if after is None:
        return None, None
    if b"\r" not in after and not after.startswith(BOM):
        return hidden_note(text, data=after), None  # ``after`` is ``text`` in UTF-8
    landed = TextFile.decode(after)
    raw = after.decode("utf-8")
    if before is not None and before.startswith(BOM) and landed.bom:
        raw = raw[1:]  # the file keeps the BOM it had
    raw = raw.replace("\r\n", "\n")
    lone = raw.count("\r")
    if not lone or (landed.newline == "\r" and not landed.mixed_newlines):
        return hidden_note(raw.replace("\r", "\n")), None
    breaks = (
        f"Look closely: the new content holds {counted(lone, 'lone carriage return')} "
        "(U+000D); the diff shows each as a line break, but in the file it stays inside its "
        "line, where most editors and tools do not break it"
    )
    return hidden_note(raw.replace("\r", "")), breaks


def _note(change: FileChange, badge: Badge, text: str) -> ChangePreview:
    return ChangePreview(
        change.path,
        badge,
        text,
        0,
        0,
        (DiffLine("note", text),),
        executable=change.executable,
        inside=change.inside,
    )


def preview_change(change: FileChange) -> ChangePreview:
    badge: Badge = "deleted" if change.is_delete else ("new" if change.is_new else "edited")
    if change.before_is_dir:
        inside = change.inside
        if inside is None:
            return _note(change, badge, f"folder {change.path}/ will go to the trash")
        what = f"{counted(inside[0], 'file')} and {counted(inside[1], 'folder')}"
        return _note(change, badge, f"folder {change.path}/ will go to the trash with {what}")
    if change.before_is_symlink:
        return _note(change, badge, f"symlink {change.path} will be removed")
    lines = change.line_diff  # decoded and diffed once for the preview and the result
    replaces = None
    text = change.after_text if change.after is not None else None
    if lines is None and text is not None and change.before is not None:
        # Old bytes that are not text, new ones that are: the new text is shown whole (as
        # for a new file) and looked at like any other, never hidden behind the old bytes.
        from ..engines.diffing import LineDiff

        lines = LineDiff("", text)
        old = counted(len(change.before), "byte")
        replaces = f"It replaces a binary or non-UTF-8 file ({old}) that cannot be shown"
    if lines is None:
        size = len(change.before or b"")
        return _note(change, badge, f"binary or non-UTF-8 file ({counted(size, 'byte')})")
    diff = lines.unified(change.path, limit=MAX_REVIEW_LINES)
    hidden, breaks = _hidden(change.before, change.after, lines.after.text)
    if change.is_new and not diff:
        return _note(change, badge, f"new empty file {change.path}")
    added, removed = lines.counts()
    rows = _rows(diff)
    cut = None
    if rows and rows[-1].kind == "note" and rows[-1].text.startswith("\\ The diff is cut"):
        cut = (
            f"Look closely: the diff is too long to show whole: its first "
            f"{MAX_REVIEW_LINES:,} lines are shown, of {added + removed:,} lines added and "
            "removed"
        )
    return ChangePreview(
        change.path,
        badge,
        diff,
        added,
        removed,
        rows,
        executable=change.executable,
        hidden=hidden,
        breaks=breaks,
        alike=_look_alike(rows),
        endings=_ending_changes(change.before if replaces is None else None, change.after, lines),
        scripts=_mixed_scripts(rows),
        replaces=replaces,
        cut=cut,
    )


# Scripts whose letters look like Latin ones (and each other's): a word that mixes them is
# how "p\u0430ypal" (a Cyrillic a) passes for "paypal".
_LOOK_ALIKE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC")


def _script(char: str) -> str | None:
    import unicodedata

    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((s for s in _LOOK_ALIKE_SCRIPTS if name.startswith(s + " ")), None)


def _mixed_word(line: str) -> tuple[str, str, str] | None:
    """The first letter of ``line`` whose word mixes scripts that look alike: (the
    letter, its script, the word's other script)."""
    for word in re.findall(r"[^\W\d_]+", line):
        if word.isascii():
            continue
        # Each distinct letter looked up once (a word may be millions of letters long).
        script_of = {char: script for char in set(word) if (script := _script(char))}
        scripts = set(script_of.values())
        if len(scripts) < 2:
            continue
        main = "LATIN" if "LATIN" in scripts else sorted(scripts)[0]
        char = min((char for char, script in script_of.items() if script != main), key=word.find)
        return char, script_of[char], main
    return None


# The most characters of new lines, not ASCII, looked at for look-alike letters in one
# preview (each letter's script is a lookup: forty million took minutes); the review
# says how many more there were.
LOOK_CHARS = 500_000
# A letter outside ASCII (a word character that is no digit, no underscore, no a-z/A-Z).
_NON_ASCII_LETTER = re.compile(r"[^\W\d_a-zA-Z]")


def _odd_letter(line: str) -> tuple[str, str, str] | None:
    """The first letter of ``line`` that passes for another: one in a word of another
    script (what the line says of it, the letter, and how it passes), or a compatibility
    form of an ASCII letter (fullwidth, mathematical, the script small l)."""
    import unicodedata

    mixed = _mixed_word(line)
    if mixed is not None:
        char, _, main = mixed
        return "a word mixing letters of two scripts", char, f"among {main.title()} letters"
    for found in _NON_ASCII_LETTER.finditer(line):  # found in C: a line may be megabytes
        char = found.group()
        if char.isalpha():
            folded = unicodedata.normalize("NFKC", char)
            if folded != char and folded.isascii() and folded.isalpha():
                return "a letter in a form that passes for another", char, f"read as {folded}"
    return None


def _mixed_scripts(rows: tuple[DiffLine, ...]) -> str | None:
    """A review line for new lines with a letter that passes for another: a word whose
    letters come from two scripts that look alike (Latin with Cyrillic or Greek...), or a
    fullwidth or mathematical form of an ASCII letter. It reads as another word, and a
    person comparing it with the old line sees no change."""
    import unicodedata

    found: list[tuple[int | None, tuple[str, str, str]]] = []
    left = LOOK_CHARS
    unchecked = 0
    for row in rows:
        if row.kind != "added" or row.text.isascii():
            continue
        text = row.text[: max(left, 0)]
        unchecked += len(row.text) - len(text)
        left -= len(text)
        if text and (odd := _odd_letter(text)):
            found.append((row.new_no, odd))
    rest = (
        f"{unchecked:,} characters of new lines past the first {LOOK_CHARS:,} were not "
        "looked at for such letters"
    )
    if not found:
        return f"Look closely: {rest}" if unchecked else None
    line, (what, char, how) = found[0]
    return (
        f"Look closely: {counted(len(found), 'new line')} {'has' if len(found) == 1 else 'have'} "
        f"{what} (new line {line}: U+{ord(char):04X} {unicodedata.name(char, '?')} {how})"
        + (f"; {rest}" if unchecked else "")
    )


_BREAK_NAMES = {b"\r\n": "CRLF (\\r\\n)", b"\n": "LF (\\n)", b"\r": "CR (\\r)"}


def _endings(data: bytes) -> list[bytes]:
    """The line break after each line of ``data``, as the diff numbers its lines (every
    CRLF, LF and lone CR ends one); a last line without one has none."""
    return re.findall(rb"\r\n|\r|\n", data)


def _ending_changes(before: bytes | None, after: bytes | None, lines: LineDiff) -> str | None:
    """A review line for lines whose break turns from LF to CRLF or back, or from a lone
    CR to either: the diff reads text as fs.read does (every break a line break), so such
    a line shows as unchanged, or not at all, while ``cd dir\\r`` in a script is another
    command, and a comment ended by a lone CR hides the command after it. A kept line is
    compared with its old break, a changed one with the break of the old line in its
    place, a new one with the break most of the old file's lines have; in a new file every
    CRLF is named. New lone CRs have a note of their own (``_hidden``)."""
    if after is None or (b"\r" not in after and (before is None or b"\r" not in before)):
        return None  # no CR on either side: every break is an LF, as the diff shows it
    new = _endings(after)
    old = _endings(before) if before is not None else []
    usual = max((b"\r\n", b"\n"), key=old.count) if old else b"\n"
    changed: dict[tuple[bytes, bytes], list[int]] = {}  # (to, was) -> [first row, count]

    def note(to: bytes, was: bytes, row: int, count: int = 1) -> None:
        seen = changed.setdefault((to, was), [row, 0])
        seen[0], seen[1] = min(seen[0], row), seen[1] + count

    for tag, i1, i2, j1, j2 in lines.opcodes:
        if tag == "equal" and new[j1:j2] == old[i1:i2]:
            continue  # kept lines with their breaks (compared in C: most of a big file)
        end = min(j2, len(new))
        paired = max(0, min(i2, len(old)) - i1) if tag in ("equal", "replace") else 0
        for j in range(j1, min(j1 + paired, end)):  # each with the old line's break
            if new[j] != old[i1 + j - j1] and new[j] != b"\r":
                note(new[j], old[i1 + j - j1], j + 1)
        # The lines past the old ones, with the file's usual break: counted in C (an edit
        # list can make forty million of them).
        rest = new[min(j1 + paired, end) : end]
        for to in (b"\r\n", b"\n"):
            if to != usual and (count := rest.count(to)):
                note(to, usual, min(j1 + paired, end) + rest.index(to) + 1, count)
    parts = []
    for (to, other), (first, count) in sorted(changed.items(), key=lambda item: item[1][0]):
        where = f"new line {first}" + (", ..." if count > 1 else "")
        if before is None:
            parts.append(
                f"{counted(count, 'line')} of the new file end in {_BREAK_NAMES[to]} ({where})"
            )
        else:
            parts.append(
                f"{counted(count, 'line')} will end in {_BREAK_NAMES[to]}, "
                f"not {_BREAK_NAMES[other]} as the file's lines did ({where})"
            )
    if not parts:
        return None
    return f"Look closely: {'; '.join(parts)}; the diff does not show line breaks"


_BLANKS = re.compile(r"[ \t]+")

# Letters that print like a Latin one, mapped to it (the usual suspects of Unicode's
# confusables: Cyrillic, Greek, Latin IPA, Armenian); with NFKC for fullwidth,
# mathematical and other compatibility forms, they make a line's "skeleton".
_CONFUSABLE = {
    ord(other): latin
    for latin, others in {
        "a": "\u0430\u0251",
        "c": "\u0441\u03f2",
        "d": "\u0501",
        "e": "\u0435",
        "g": "\u0261",
        "h": "\u04bb",
        "i": "\u0456",
        "j": "\u0458",
        "n": "\u0578",
        "o": "\u043e\u03bf\u0585",
        "p": "\u0440\u03c1",
        "s": "\u0455",
        "u": "\u057d",
        "v": "\u03bd",
        "x": "\u0445",
        "y": "\u0443\u04af",
        "A": "\u0410\u0391",
        "B": "\u0412\u0392",
        "C": "\u0421",
        "E": "\u0415\u0395",
        "H": "\u041d\u0397",
        "I": "\u0406\u04c0\u0399",
        "J": "\u0408",
        "K": "\u041a\u039a",
        "M": "\u041c\u039c",
        "N": "\u039d",
        "O": "\u041e\u039f",
        "P": "\u0420\u03a1",
        "S": "\u0405",
        "T": "\u0422\u03a4",
        "X": "\u0425\u03a7",
        "Y": "\u03a5",
        "Z": "\u0396",
    }.items()
    for other in others
}


def _skeleton(text: str) -> str:
    """``text`` as it looks: compatibility forms folded (NFKC), look-alike letters of other
    alphabets taken for the Latin ones they print like."""
    import unicodedata

    return unicodedata.normalize("NFKC", text).translate(_CONFUSABLE)


def _look_alike(rows: tuple[DiffLine, ...]) -> str | None:
    """A review line for changed lines that a person cannot tell from their old version:
    the same characters in another Unicode form (``é`` as ``e`` + U+0301), other
    trailing spaces or tabs, or a tab for spaces (or back) anywhere in the line. The diff
    shows them as changed but not what changed."""
    import unicodedata

    found: list[tuple[int, str]] = []
    for old, new in _pairs(rows):
        if old.text == new.text or new.new_no is None:
            continue
        if old.text.rstrip(" \t") == new.text.rstrip(" \t"):
            found.append((new.new_no, "only its trailing spaces or tabs differ"))
        elif _BLANKS.sub(" ", old.text) == _BLANKS.sub(" ", new.text):
            # A tab and spaces print alike, and a Makefile recipe needs its tab.
            found.append((new.new_no, "only its spaces and tabs differ"))
        elif unicodedata.normalize("NFKC", old.text) == unicodedata.normalize("NFKC", new.text):
            found.append((new.new_no, "the same letters written in another Unicode form"))
        elif _skeleton(old.text) == _skeleton(new.text):
            found.append(
                (new.new_no, "letters swapped for ones of another alphabet that look alike")
            )
    if not found:
        return None
    line, why = found[0]
    return (
        f"Look closely: {counted(len(found), 'changed line')} will look as before "
        f"(new line {line}: {why})"
    )


def _pairs(rows: tuple[DiffLine, ...] | list[DiffLine]) -> list[tuple[DiffLine, DiffLine]]:
    """Each removed line with the added line at the same place of the run after it."""
    paired: list[tuple[DiffLine, DiffLine]] = []
    at = 0
    while at < len(rows):
        if rows[at].kind != "removed":
            at += 1
            continue
        start = at
        while at < len(rows) and rows[at].kind == "removed":
            at += 1
        added_start = at
        while at < len(rows) and rows[at].kind == "added":
            at += 1
        count = min(added_start - start, at - added_start)
        paired += [(rows[start + k], rows[added_start + k]) for k in range(count)]
    return paired


def diff_rows(diff: str) -> tuple[DiffLine, ...]:
    """The lines of a unified diff with their numbers and word-level spans."""
    return _with_word_spans(list(_rows(diff)), SpanWork())


def _rows(diff: str) -> tuple[DiffLine, ...]:
    """The lines of a unified diff with their numbers."""
    rows: list[DiffLine] = []
    old = new = 0
    # Split on "\n" only: splitlines() would also break at "\r", "\x0c", "\u2028" and
    # other characters a line of a file may hold, and shift every number after it.
    lines = diff.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith(("--- ", "+++ ")) and not rows:
            continue
        hunk = _HUNK.match(line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
            rows.append(DiffLine("hunk", line))
        elif line.startswith("+"):
            rows.append(DiffLine("added", line[1:], None, new))
            new += 1
        elif line.startswith("-"):
            rows.append(DiffLine("removed", line[1:], old, None))
            old += 1
        elif line.startswith("\\"):
            rows.append(DiffLine("note", line))
        else:
            rows.append(DiffLine("context", line[1:], old, new))
            old += 1
            new += 1
    return tuple(rows)


def mark_words(previews: Iterable[ChangePreview]) -> None:
    """Work out the ``lines`` of every preview now, with one SPAN_WORK and one
    MAX_SPAN_PAIRS for them all: a reply of many small writes gets no more than one."""
    budget = SpanWork()
    for preview in previews:
        preview.marked_within(budget)


def _with_word_spans(rows: list[DiffLine], budget: SpanWork) -> tuple[DiffLine, ...]:
    """Pair each run of removed lines with the added run after it, line by line; mark
    their changed words while ``budget`` (spent here) lasts."""
    out = list(rows)
    where = {id(row): index for index, row in enumerate(out)}
    pairs = _pairs(rows)[: max(budget.pairs, 0)]
    budget.pairs -= len(pairs)
    for old, new in pairs:
        spans = word_spans(old.text, new.text, budget)
        if spans is not None:
            out[where[id(old)]] = _replace_spans(old, spans[0])
            out[where[id(new)]] = _replace_spans(new, spans[1])
    return tuple(out)


def _ends_opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes that keep the words ``a`` and ``b`` start and end with in
    common and replace the rest: linear in the words, whatever they are."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    codes = [("equal", 0, head, 0, head)] if head else []
    if head < len(a) - tail or head < len(b) - tail:
        codes.append(("replace", head, len(a) - tail, head, len(b) - tail))
    if tail:
        codes.append(("equal", len(a) - tail, len(a), len(b) - tail, len(b)))
    return codes


def _replace_spans(line: DiffLine, spans: tuple[Span, ...]) -> DiffLine:
    return DiffLine(line.kind, line.text, line.old_no, line.new_no, spans)


def word_spans(
    old: str, new: str, budget: SpanWork | None = None
) -> tuple[tuple[Span, ...], tuple[Span, ...]] | None:
    """Character spans that differ between two versions of a line, word by word.

    None when the lines are too long to be worth it or too different to pair: then the
    whole line is the change. ``budget.work``: what is left of the previews'
    ``SPAN_WORK`` (spent here); lines past it, or of more than ``MAX_SPAN_WORDS`` words,
    are matched only at their ends.
    """
    if len(old) > MAX_SPAN_LINE or len(new) > MAX_SPAN_LINE:
        return None
    a = [m.span() for m in _TOKEN.finditer(old)]
    b = [m.span() for m in _TOKEN.finditer(new)]
    a_words, b_words = [old[s:e] for s, e in a], [new[s:e] for s, e in b]
    cost = len(a) * len(b)
    opcodes: Sequence[tuple[str, int, int, int, int]]
    if max(len(a), len(b)) > MAX_SPAN_WORDS or (budget is not None and budget.work < cost):
        opcodes = _ends_opcodes(a_words, b_words)
    else:
        import difflib

        if budget is not None:
            budget.work -= cost
        matcher = difflib.SequenceMatcher(None, a_words, b_words, autojunk=False)
        opcodes = matcher.get_opcodes()
    # Similarity counts the characters of matched words; shared spaces say nothing.
    same = sum(
        len(old[a[i][0] : a[i][1]].strip())
        for tag, i1, i2, _j1, _j2 in opcodes
        if tag == "equal"
        for i in range(i1, i2)
    )
    total = len("".join(old.split())) + len("".join(new.split()))
    if total == 0 or 2 * same / total < MIN_SIMILARITY:
        return None
    old_spans: list[Span] = []
    new_spans: list[Span] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        if i2 > i1:
            old_spans.append((a[i1][0], a[i2 - 1][1]))
        if j2 > j1:
            new_spans.append((b[j1][0], b[j2 - 1][1]))
    return tuple(old_spans), tuple(new_spans)


@dataclass(frozen=True)
class SideBySideRow:
    """One row of a two-column view: the old line on the left, the new on the right."""

    left: DiffLine | None
    right: DiffLine | None


def side_by_side(lines: tuple[DiffLine, ...]) -> tuple[SideBySideRow, ...]:
    rows: list[SideBySideRow] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        if line.kind in ("context", "hunk", "note"):
            rows.append(SideBySideRow(line, line))
            at += 1
            continue
        removed: list[DiffLine] = []
        added: list[DiffLine] = []
        while at < len(lines) and lines[at].kind == "removed":
            removed.append(lines[at])
            at += 1
        while at < len(lines) and lines[at].kind == "added":
            added.append(lines[at])
            at += 1
        for n in range(max(len(removed), len(added))):
            rows.append(
                SideBySideRow(
                    removed[n] if n < len(removed) else None, added[n] if n < len(added) else None
                )
            )
    return tuple(rows)


class Described(Protocol):
    """What ``describe_pending`` reads of a pending command (the session's ``Pending``)."""

    @property
    def id(self) -> str: ...
    @property
    def action(self) -> str: ...
    @property
    def plan(self) -> Plan | None: ...
    @property
    def reveal(self) -> Reveal | None: ...
    @property
    def previews(self) -> tuple[ChangePreview, ...]: ...
    @property
    def held(self) -> bool: ...


def describe_pending(item: Described) -> str:
    """The terminal's review of one command, every untrusted text through the one renderer
    (no escape sequence, bidi control or invisible character reaches the terminal)."""
    lines = [f"== {shown(item.action)} (id {shown(item.id)})"]
    if item.reveal is not None and item.reveal.runs:
        lines.append(f"asks before it {shown(item.reveal.reason)}")
        return "\n".join(lines)
    if item.held and item.reveal is not None and item.plan is None:
        why = shown(item.reveal.reason)
        lines.append(f"asks before it reads a secret-looking file: {why}")
        lines += item.reveal.preview  # its size and first lines, rendered by secret_preview
        return "\n".join(lines)
    if item.reveal is not None:
        paths = ", ".join(shown(path) for path in item.reveal.paths)
        lines.append(f"wants to send the content of {paths} to the chat")
        lines.append(f"why it asks: {shown(item.reveal.reason)}")
        return "\n".join(lines)
    assert item.plan is not None
    # The plan's summary says what the command did once applied; before approval each
    # change is told in the present tense instead.
    for preview in item.previews:
        lines += [f"-- {shown(line)}" for line in preview.review]
        lines.append(shown_lines(preview.diff.rstrip("\n")))
    # What the change cannot keep or leaves odd is read before the answer, not after.
    lines += [f"note: {shown(note)}" for note in item.plan.notes]
    return "\n".join(lines)
