"""The answers a session gives besides a command's own result: a decision the user made,
a repeat of an id that already ran, the notes the apply step adds, an internal fault.

Invariant: an internal fault's text never quotes a secret-looking file (``quiet``), and an
operating-system fault names no absolute path.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import OperatorError
from ..outcome import Outcome
from ..protocol.encoder import failure_outcome, rejected_outcome
from .run import Decision, Pending


def decided(pending: Pending, decision: Decision) -> Outcome:
    if pending.reveal is not None:
        if decision.approved:
            return pending.reveal.approved
        if pending.reveal.rejected is not None:
            return pending.reveal.rejected
    return rejected_outcome(pending.action, decision.reason)


def with_notes(outcome: Outcome, notes: tuple[str, ...] | None) -> Outcome:
    """Where the apply step learnt something the plan could not know (a trash folder
    inside the workspace), the summary says it."""
    if not notes:
        return outcome
    summary = outcome.summary
    for note in notes:
        if "moved to the trash)" in summary:
            summary = summary.replace("moved to the trash)", f"moved to {note})", 1)
        else:
            summary = f"{summary.rstrip('.')} (moved to {note})"
    return Outcome(outcome.ok, summary, outcome.details)


def as_repeat(outcome: Outcome, at: float | None = None, read: bool = False) -> Outcome:
    when = "earlier in this reply"
    if at is not None:
        from datetime import datetime, timezone  # lazy: only a repeat shows a time

        when = "at " + datetime.fromtimestamp(at, timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    what = (
        "a read runs again, so this is what the files hold now"
        if read
        else "not run again. Use a new id to run it again"
    )
    note = f" [repeat: this id already ran {when} with identical content; {what}]"
    return replace(outcome, summary=outcome.summary + note)


def internal_fault(action: str, error: Exception, command_id: str, quiet: bool = False) -> Outcome:
    if isinstance(error, OSError):
        # An operating-system fault is not a fault of the app: name it, without its
        # absolute file name.
        from ..store.oserrors import named_os_error

        return failure_outcome(action, named_os_error(error, "", "use"), command_id)
    said = "" if quiet else f": {error}"  # a fault's text may quote a secret-looking file
    wrapped = OperatorError(
        "ERR_INTERNAL", f"unexpected {type(error).__name__}{said}; nothing was written"
    )
    return failure_outcome(action, wrapped, command_id)
