"""A reply's work budget: the CPU time and the bytes read that all its commands share.

A reply is text a model wrote, maybe under a prompt injection: 1,500 searches of a big
tree must not keep the machine busy for minutes before anyone is asked anything.

Invariants:
- The session opens one budget per reply while it plans (``reply_budget``), and one while
  it runs the commands that had to wait for the user's decisions. Outside one, nothing is
  limited (tests of single actions, the context builder).
- A command that starts after the budget is spent does not run: it gets
  ERR_WORK_BUDGET_EXCEEDED saying so and how to continue (send it again in a later reply),
  and that result is never remembered as the command's result, so sending the same
  command again runs it. The user's approved writes are never stopped by the budget.
- Long loops (a folder search, the matches of one regex edit) look at the budget as they
  go: fs.searchTree stops between files and says where to resume (``after:``); an edit
  stops with ERR_WORK_BUDGET_EXCEEDED and changes nothing.
- Bytes are counted where files are read (``store.files.read_at``,
  ``store.tree_walk.read_limited``).
- The details the reply's results carry are counted too (``charge_details``, by the
  session, per result): past MAX_DETAILS characters the next commands are not run, so a
  reply of many big reads cannot build hundreds of megabytes of results.
- Time is CPU time, never the wall clock: a reply that finishes on an idle machine finishes
  the same way on a busy one, where the wall clock runs on while other processes have the
  cores. It is the CPU time of the thread that opened the budget (the worker planning the
  reply), or of the whole process where the budget is looked at from another thread,
  plus the CPU time of the commands the reply ran (run.command, run.check: the process
  and the processes it waited for, ``charge_cpu``).
- ``LLM_OPERATOR_WORK_BUDGET=<seconds>:<bytes>[:<details>]`` replaces the limits; it is a
  test seam (the tests use it to make the budget small), not a setting.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from .errors import OperatorError

CODE = "ERR_WORK_BUDGET_EXCEEDED"
WORK_SECONDS = 30.0
WORK_BYTES = 256 * 1000 * 1000
MAX_DETAILS = 16 * 1000 * 1000  # characters of details in all the results of one reply
ENVIRONMENT = "LLM_OPERATOR_WORK_BUDGET"


@dataclass(frozen=True)
class CpuClock:
    """Where a budget's CPU time starts: on the thread that opened it, and for the process."""

    thread: int
    thread_started: float
    process_started: float

    @classmethod
    def start(cls) -> CpuClock:
        return cls(threading.get_ident(), time.thread_time(), time.process_time())

    def used(self) -> float:
        """CPU seconds since the start: the opening thread's own where it asks."""
        if threading.get_ident() == self.thread:
            return time.thread_time() - self.thread_started
        return time.process_time() - self.process_started


@dataclass
class WorkBudget:
    """A reply's work budget: the limits (CPU seconds, bytes read, details) and what is used."""

    seconds: float
    max_bytes: int
    clock: CpuClock
    read: int = 0
    max_details: int = MAX_DETAILS
    details: int = 0
    child_seconds: float = 0.0  # CPU time of the commands it ran (run.command, run.check)

    def spent(self) -> bool:
        return (
            self.read >= self.max_bytes
            or self.details >= self.max_details
            or self.clock.used() + self.child_seconds >= self.seconds
        )

    def describe(self) -> str:
        return (
            f"{self.seconds:g} s of CPU / {self.max_bytes / 1e6:g} MB read / "
            f"{self.max_details / 1e6:g} MB of results"
        )


_CURRENT: ContextVar[WorkBudget | None] = ContextVar("work_budget", default=None)


def _limits() -> tuple[float, int, int]:
    seam = os.environ.get(ENVIRONMENT, "")
    seconds, _, rest = seam.partition(":")
    size, _, details = rest.partition(":")
    try:
        return float(seconds), int(size), int(details) if details else MAX_DETAILS
    except ValueError:
        return WORK_SECONDS, WORK_BYTES, MAX_DETAILS


@contextmanager
def reply_budget() -> Iterator[WorkBudget]:
    """One budget for the commands run inside (an enclosing one is kept)."""
    current = _CURRENT.get()
    if current is not None:
        yield current
        return
    seconds, size, details = _limits()
    budget = WorkBudget(seconds, size, CpuClock.start(), max_details=details)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def charge(size: int) -> None:
    """Count ``size`` bytes read against the current budget, if any."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.read += size


def charge_details(size: int) -> None:
    """Count ``size`` characters of a result's details against the current budget, if any."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.details += size


def charge_cpu(seconds: float) -> None:
    """Count the CPU time of a command the reply ran (its process and what it waited for)."""
    budget = _CURRENT.get()
    if budget is not None:
        budget.child_seconds += seconds


def spent() -> bool:
    """Whether a budget is open and used up."""
    budget = _CURRENT.get()
    return budget is not None and budget.spent()


def not_run() -> OperatorError | None:
    """The refusal of a command that starts after the budget is spent, else None."""
    budget = _CURRENT.get()
    if budget is None or not budget.spent():
        return None
    return OperatorError(
        CODE,
        f"not run: this reply's work budget ({budget.describe()}) is used up by what "
        "ran before it; send it again in a later reply",
    )


def check(what: str) -> None:
    """Raise ERR_WORK_BUDGET_EXCEEDED in the middle of ``what`` when the budget is spent."""
    budget = _CURRENT.get()
    if budget is not None and budget.spent():
        raise OperatorError(
            CODE,
            f"stopped: {what} used up this reply's work budget ({budget.describe()}); "
            "nothing was changed. Send it again in a later reply, on its own or narrowed",
        )


def is_not_run(summary: str) -> bool:
    """Whether a result's summary is a budget refusal (such results are not remembered)."""
    return f"({CODE})" in summary
