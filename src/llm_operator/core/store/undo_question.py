"""The newest batch as a person is asked about it before an undo: its commands, files and
time, in the words they check. Shared by the window's question and ``llm-operator undo``
on a terminal, so both name the same batch the same way (every id and path through the
one renderer)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..visible import shown
from ..wording import counted

if TYPE_CHECKING:
    from .journal import BatchInfo, Journal

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


def summarize(info: BatchInfo, open_batches: int) -> BatchSummary:
    # One line per file: a file two commands of the batch changed goes back to what it
    # held before the first of them, so its first change says what the undo does to it.
    first: dict[str, str] = {}
    for change in info.changes:
        first.setdefault(change.path, change.kind)
    files = tuple(first.items())
    return BatchSummary(info.id, info.label, files, info.created, open_batches)


def newest_batch(journal: Journal) -> BatchSummary | None:
    """The batch an undo would undo now (raises when the store cannot be read)."""
    batches = journal.batches()  # newest first
    open_batches = [batch for batch in batches if not batch.undone]
    return summarize(open_batches[0], len(open_batches)) if open_batches else None
