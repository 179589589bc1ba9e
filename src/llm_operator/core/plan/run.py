"""One pasted reply in the session's hands: its items, what waits for the user, the answers.

These are the values ``Session.prepare`` makes and ``Session.execute`` consumes, and what
the window, the command line and the MCP server read and decide on: a ``Run`` holds one
``RunItem`` per command block, in message order; an item has its result, or a ``Pending``
the user decides with a ``Decision``. They hold data only: the session (session.py) is
the one that fills them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..actions.base import Plan, Reveal
    from ..changes import FileChange
    from ..outcome import Outcome
    from ..protocol.encoder import Result
    from ..protocol.scanner import Scan
    from ..protocol.validator import Command
    from ..store.rejections import Rejection
    from .outside_merge import ShownMerge
    from .person_edit import PersonEdit
    from .preview import ChangePreview


@dataclass(frozen=True)
class Decision:
    """The user's answer to a pending command: approved or not, the reason given, and
    the merged changes approved of its files that changed outside (``outside_merge``), and
    the person's own text for files whose change they edited (``person_edit``)."""

    approved: bool
    reason: str = ""
    merged: tuple[ShownMerge, ...] = ()
    edited: tuple[PersonEdit, ...] = ()


APPROVE = Decision(True)
REJECT = Decision(False)


@dataclass(frozen=True)
class Pending:
    """A command waiting for the user: a write plan, or a read that needs consent."""

    index: int
    command: Command
    plan: Plan | None = None
    reveal: Reveal | None = None
    builds_on: tuple[int, ...] = ()  # earlier pending items whose changes this one assumes
    # Not run or planned yet (a secret-looking file): ``reveal`` asks whether it may be.
    held: bool = False
    # What each change will do, made here in the worker: the window only renders it.
    previews: tuple[ChangePreview, ...] = ()
    rejected_before: Rejection | None = None  # the user rejected this same command before

    @property
    def id(self) -> str:
        return self.command.id

    @property
    def action(self) -> str:
        return self.command.action

    @property
    def changes(self) -> tuple[FileChange, ...]:
        return self.plan.changes.changes if self.plan else ()


@dataclass
class RunItem:
    """One command block of a reply in the session's hands: its result, or what it waits for."""

    index: int
    id: str
    action: str | None
    path: str | None
    result: Result | None = None
    pending: Pending | None = None
    deferred: Command | None = None
    # A write that needs no change (or cannot be made) as planned: answered at execute,
    # under the write lock, after recovery and the store check (see ``_run_gated``).
    gated: tuple[Command, Outcome] | None = None
    repeat_of: int | None = None  # index of the earlier item in this run with the same command
    fingerprint: str = ""
    private: bool = False  # reached a secret-looking file: its result is not kept on disk
    first_ran_at: float | None = None  # a repeat of an earlier message: when that one ran
    rejected_before: Rejection | None = None  # asked again: the user rejected it before
    read_again: bool = False  # a read sent again: run again, its result says it repeats


@dataclass
class Run:
    """One pasted reply in the session's hands: its scan, an item per command block (in message
    order), and notes for the user."""

    scan: Scan
    items: list[RunItem]
    notices: list[str] = field(default_factory=list)
    executed: bool = False
    notice_results: list[Result] = field(default_factory=list)  # undo notices shown first
    conversation: int | None = 0  # whose ids and notices; None: unknown, no write runs

    @property
    def pending(self) -> list[Pending]:
        return [item.pending for item in self.items if item.pending is not None]

    @property
    def results(self) -> list[Result]:
        return [item.result for item in self.items if item.result is not None]

    def mark_words(self) -> Run:
        """Work out the changed words of every preview (``ChangePreview.lines``) now, all
        within one budget: the window calls this in its worker, so that painting a review
        never diffs."""
        from .preview import mark_words

        mark_words(preview for pending in self.pending for preview in pending.previews)
        return self


def rejected_by_user(item: RunItem, decisions: Mapping[int, Decision]) -> bool:
    """Whether ``item``'s result is the user's rejection (a declined secret-looking
    failure is not: its result is that failure, sent without the quoted text)."""
    if item.pending is None:
        return False
    decision = decisions.get(item.index)
    if decision is not None and decision.approved:
        return False
    reveal = item.pending.reveal
    return reveal is None or reveal.rejected is None
