"""What a write-class command wants to do to disk, as plain data.

A command is planned into ``FileChange`` values before anything is written. The user
sees them (as diffs), decides, and only then does the applier write the approved ones,
refusing any whose file no longer holds the bytes it was planned against.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engines.diffing import LineDiff


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hexadecimal (one place, so the work it costs can be counted)."""
    return hashlib.sha256(data).hexdigest()


def digest(data: bytes | None) -> str:
    """A stable name for a file's bytes; "absent" for a file that does not exist."""
    if data is None:
        return "absent"
    return "sha256:" + sha256_hex(data)


@dataclass
class _Worked:
    """What a change's bytes give, worked out once: a box of its own, so the frozen change
    never changes (nothing is written into its ``__dict__``). A text or a diff is kept as
    a 1-tuple once known, since None is a known answer (not UTF-8)."""

    before_digest: str | None = None
    after_digest: str | None = None
    before_text: tuple[str | None] | None = None
    after_text: tuple[str | None] | None = None
    line_diff: tuple[LineDiff | None] | None = None


@dataclass(frozen=True)
class FileChange:
    """One file (or folder, for deletes) going from ``before`` to ``after``.

    ``path`` is workspace-relative with ``/`` separators. ``before`` is None when the
    file did not exist; ``after`` is None when the path is to be deleted (to the trash).
    ``before_is_dir`` marks the delete of a folder, whose ``before`` is None.
    """

    path: str
    before: bytes | None
    after: bytes | None
    before_is_dir: bool = False
    before_is_symlink: bool = False
    # A patch's "new mode 100755" (True) or "100644" (False); None keeps the file's mode.
    executable: bool | None = None
    # A folder delete: how many files and folders it takes (None when not counted).
    inside: tuple[int, int] | None = None
    # A change's bytes are hashed, decoded and diffed once, however many steps (the
    # preview, the check before writing, the undo record, the landed lines) ask: big files
    # would otherwise pay for each again. The texts and the diff are let go of once the
    # landed lines are shown (``forget_texts``); the digests stay with the change.
    _worked: _Worked = field(default_factory=_Worked, init=False, compare=False, repr=False)

    @property
    def before_digest(self) -> str:
        if self._worked.before_digest is None:
            self._worked.before_digest = digest(self.before)
        return self._worked.before_digest

    @property
    def after_digest(self) -> str:
        if self._worked.after_digest is None:
            self._worked.after_digest = digest(self.after)
        return self._worked.after_digest

    @property
    def before_text(self) -> str | None:
        """``before`` as text (``TextFile.decode``), "" when absent, None if not UTF-8."""
        if self._worked.before_text is None:
            self._worked.before_text = (_text(self.before),)
        return self._worked.before_text[0]

    @property
    def after_text(self) -> str | None:
        """``after`` as text (``TextFile.decode``), "" when absent, None if not UTF-8."""
        if self._worked.after_text is None:
            self._worked.after_text = (_text(self.after),)
        return self._worked.after_text[0]

    @property
    def line_diff(self) -> LineDiff | None:
        """The lines that differ between ``before_text`` and ``after_text``, if both are
        text."""
        if self._worked.line_diff is None:
            from .engines.diffing import LineDiff

            before, after = self.before_text, self.after_text
            diff = None if before is None or after is None else LineDiff(before, after)
            self._worked.line_diff = (diff,)
        return self._worked.line_diff[0]

    def forget_texts(self) -> None:
        """Let go of the decoded texts and the diff (kept digests are small): once the
        landed lines are shown, nothing reads them again."""
        self._worked.before_text = self._worked.after_text = None
        self._worked.line_diff = None

    def knowing_before_text(self, text: str) -> FileChange:
        """This change, told that ``text`` is ``TextFile.decode(before).text`` (the planner
        decoded it already)."""
        self._worked.before_text = (text,)
        return self

    def knowing_after_text(self, text: str, diff: LineDiff | None = None) -> FileChange:
        """This change, told that ``text`` is ``TextFile.decode(after).text`` (the planner
        made ``after`` from it and checked it decodes back) and, when given, that ``diff``
        is a ``LineDiff`` of ``before_text`` to ``text`` (worked out from what the edit
        replaced, ``LineDiff.spliced``)."""
        self._worked.after_text = (text,)
        if diff is not None:
            self._worked.line_diff = (diff,)
        return self

    @property
    def is_new(self) -> bool:
        return self.before is None and not self.before_is_dir and not self.before_is_symlink

    @property
    def is_delete(self) -> bool:
        return self.after is None


def _text(data: bytes | None) -> str | None:
    from .engines.textfile import TextFile
    from .errors import OperatorError

    if data is None:
        return ""
    try:
        return TextFile.decode(data).text
    except OperatorError:
        return None


@dataclass(frozen=True)
class ChangeSet:
    """All file changes of one command: applied all together or not at all."""

    changes: tuple[FileChange, ...] = field(default_factory=tuple)
