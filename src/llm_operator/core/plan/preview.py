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

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from ..visible import shown, shown_lines
from ..wording import counted
from .diff_rows import DiffLine, numbered_rows
from .review_notes import ending_changes, hidden_characters, look_alike, mixed_scripts
from .word_spans import SpanWork, with_word_spans

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..actions.base import Plan, Reveal
    from ..changes import FileChange


Badge = Literal["new", "deleted", "edited"]

# The most lines of a diff a review shows: an edit list of 200 characters can make a file
# of millions of lines, and a row costs microseconds and memory here and more to lay out
# in the window (100,000 rows took 11 s to open). The counts stay exact.
MAX_REVIEW_LINES = 20_000


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
            self._marked.lines = with_word_spans(list(self.rows), budget)
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
    hidden, breaks = hidden_characters(change.before, change.after, lines.after.text)
    if change.is_new and not diff:
        return _note(change, badge, f"new empty file {change.path}")
    added, removed = lines.counts()
    rows = numbered_rows(diff)
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
        alike=look_alike(rows),
        endings=ending_changes(change.before if replaces is None else None, change.after, lines),
        scripts=mixed_scripts(rows),
        replaces=replaces,
        cut=cut,
    )


def diff_rows(diff: str) -> tuple[DiffLine, ...]:
    """The lines of a unified diff with their numbers and word-level spans."""
    return with_word_spans(list(numbered_rows(diff)), SpanWork())


def mark_words(previews: Iterable[ChangePreview]) -> None:
    """Work out the ``lines`` of every preview now, with one SPAN_WORK and one
    MAX_SPAN_PAIRS for them all: a reply of many small writes gets no more than one."""
    budget = SpanWork()
    for preview in previews:
        preview.marked_within(budget)


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
