"""What a run's commands had to do with earlier ones: repeats not run again, commands
asked again after the user rejected them, and the counts the window shows.

Qt-free: the window reads these instead of the result text. A repeat's result says the
same in its ``[repeat: ...]`` note (for the chat); here it is data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from ..wording import counted
from .run import rejected_by_user

if TYPE_CHECKING:
    from ..store.rejections import Rejection
    from .run import Decision, Run, RunItem

OK = "ok"
FAILED = "failed"
REJECTED = "rejected"
REPEATED = "repeated"


@dataclass(frozen=True)
class ItemVerdict:
    """What happened to one command of a run, for the command list."""

    index: int
    verdict: str  # OK, FAILED, REJECTED or REPEATED
    summary: str  # the result's summary, or the user's reason when rejected
    first_ran: str = ""  # a repeat: when it first ran ("earlier in this reply" or a time)
    rejected_before: Rejection | None = None  # asked again after an earlier rejection

    def status(self) -> str:
        """The command list's status text (one line, then the details)."""
        if self.verdict == REPEATED:
            head = f"repeat, not run again (first ran {self.first_ran})"
        else:
            head = f"{self.verdict}: {self.summary}"
        if self.rejected_before is not None:
            head += f"\nasked again: {self.rejected_before.describe()}"
        return head


def first_ran(item: RunItem) -> str:
    """When a repeat first ran, in the user's local time."""
    if item.first_ran_at is None:
        return "earlier in this reply"
    stamp = datetime.fromtimestamp(item.first_ran_at).astimezone()
    return "at " + stamp.strftime("%Y-%m-%d %H:%M")


def verdicts(run: Run, decisions: Mapping[int, Decision]) -> dict[int, ItemVerdict]:
    """Each finished command's verdict, by its index in the reply."""
    found: dict[int, ItemVerdict] = {}
    for item in run.items:
        result = item.result
        if result is None:
            continue
        summary = result.outcome.summary
        if result.repeat:
            found[item.index] = ItemVerdict(item.index, REPEATED, _plain(summary), first_ran(item))
            continue
        if rejected_by_user(item, decisions):
            decision = decisions.get(item.index)
            verdict = REJECTED
            summary = (decision.reason if decision else "") or "by you, without a reason"
        else:
            verdict = OK if result.ok else FAILED
        found[item.index] = ItemVerdict(
            item.index, verdict, summary, rejected_before=item.rejected_before
        )
    return found


def _plain(summary: str) -> str:
    """A repeat's summary without the note for the chat (the list says it in words)."""
    cut = summary.find(" [repeat: ")
    return summary[:cut] if cut >= 0 else summary


@dataclass(frozen=True)
class Tally:
    """How many of a run's commands ended each way, and how many were asked again."""

    ok: int = 0
    failed: int = 0
    rejected: int = 0
    repeated: int = 0
    asked_again: int = 0

    @property
    def ran(self) -> int:
        return self.ok + self.failed + self.rejected

    def describe(self) -> str:
        """E.g. "1 command: 1 ok, 0 failed, 0 rejected; 4 repeated, not run again; 1
        asked again (rejected before)"."""
        if self.ran == 0 and self.repeated:
            text = "no command"
        else:
            text = (
                f"{counted(self.ran, 'command')}: {self.ok} ok, {self.failed} failed, "
                f"{self.rejected} rejected"
            )
        if self.repeated:
            text += f"; {self.repeated} repeated, not run again"
        if self.asked_again:
            text += f"; {self.asked_again} asked again (rejected before)"
        return text


def tally(found: Mapping[int, ItemVerdict]) -> Tally:
    values = list(found.values())
    kinds = [v.verdict for v in values]
    return Tally(
        ok=kinds.count(OK),
        failed=kinds.count(FAILED),
        rejected=kinds.count(REJECTED),
        repeated=kinds.count(REPEATED),
        asked_again=sum(1 for v in values if v.rejected_before is not None),
    )
