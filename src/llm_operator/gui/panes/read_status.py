"""What the paste list says of a command that asks no question before it runs.

A read runs at once. A command that starts a process (run.check) runs in the execute
step, after the writes the reply holds before it (core/plan/session.py), so the list
says that rather than "runs at once", which a person or a model would take to mean it
sees the files as they are now.
"""

from __future__ import annotations

from ...core.actions import ACTION_FAMILIES, get_spec


def read_status(action: str | None, writes_before: bool) -> str:
    """The status of a valid command that needs no approval; ``writes_before``: the reply
    holds a valid write before it."""
    if action is None or action not in ACTION_FAMILIES or not get_spec(action).runs:
        return "runs at once"
    return "runs after the writes before it" if writes_before else "runs without a question"
