"""The undo journal as the window needs it: the newest batch, named, and its undo.

A small adapter over the store the command line uses (``Session.journal``), so the window
and ``llm-operator undo`` always act on the same batch, and the store behind it can change
without touching the window. ``undo(expected)`` undoes exactly the batch the user was
shown: if another process recorded a newer batch meanwhile, it refuses and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..core.visible import shown
from ..core.wording import counted

if TYPE_CHECKING:
    from ..core.plan.session import Session
    from ..core.store.journal import BatchInfo, UndoReport

_KIND_WORDS = {"edited": "restores", "created": "removes", "deleted": "brings back"}


@dataclass(frozen=True)
class BatchSummary:
    """The newest batch as the window's undo asks about it: its commands, files and time."""

    id: str
    commands: str  # the batch's command ids, as the journal labels it
    files: tuple[tuple[str, str], ...]  # (path, "edited" | "created" | "deleted")
    created: datetime
    open_batches: int  # batches not undone yet, this one included

    @property
    def when(self) -> str:
        return self.created.astimezone().strftime("%Y-%m-%d %H:%M:%S")

    def short(self) -> str:
        return f"{self.commands} ({counted(len(self.files), 'file')}, {self.when})"

    def question(self) -> str:
        """What the undo will do, file by file, in the words a person checks (shown: each
        id and path is one line with anything invisible in it marked)."""
        commands = shown(self.commands)
        lines = [f"Undo the newest batch of writes: commands {commands}, made {self.when}?"]
        for path, kind in self.files[:20]:
            lines.append(f"  {_KIND_WORDS.get(kind, 'restores')} {shown(path)}")
        if len(self.files) > 20:
            lines.append(f"  ... and {counted(len(self.files) - 20, 'more file')}")
        lines.append("")
        lines.append(
            "Files go back to what they held before this batch; files it created are removed."
        )
        return "\n".join(lines)


def _summary(info: BatchInfo, open_batches: int) -> BatchSummary:
    # One line per file: a file two commands of the batch changed goes back to what it
    # held before the first of them, so its first change says what the undo does to it.
    first: dict[str, str] = {}
    for change in info.changes:
        first.setdefault(change.path, change.kind)
    files = tuple(first.items())
    return BatchSummary(info.id, info.label, files, info.created, open_batches)


class UndoSource:
    def __init__(self, session: Session) -> None:
        self._session = session

    def newest(self) -> BatchSummary | None:
        """The batch an undo would undo now (raises when the store cannot be read)."""
        batches = self._session.journal.batches()  # newest first
        open_batches = [batch for batch in batches if not batch.undone]
        return _summary(open_batches[0], len(open_batches)) if open_batches else None

    def on_wait(self, told: Callable[[], None]) -> None:
        """``told`` runs (in the worker) when another run holds the workspace's lock."""
        self._session.on_wait = told

    def undo(self, expected: BatchSummary, force: bool = False) -> UndoReport:
        """Undo ``expected`` if it is still the newest batch once the write lock is held
        (a run that committed after the question is never undone unseen); runs in a
        worker. ``force`` (asked twice in the window) overwrites files edited after the
        batch."""
        return self._session.undo_last(force=force, expected=expected.id)
