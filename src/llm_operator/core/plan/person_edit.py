"""A change whose new text the person edited in the review before approving it.

Invariants:
- What lands is what the person approved: the edited text, in the file's own encoding
  (the proposed bytes' BOM and line breaks, ``TextFile.encode``), nothing else. The edit
  names the proposed bytes it replaces (their digest); a plan whose change is not those
  bytes any more (a merge made it again) is refused with ERR_EDIT_REFUSED, never applied
  with the person's text over a change they did not see.
- An edited change keeps the plan's ``before``: the stale check right before the rename
  refuses a file that changed after the review, exactly as for the model's text, and the
  undo record keeps the old bytes. The path is the plan's, so the jail is walked as for
  any write.
- Only the new side of a text change is edited: a delete, a folder, a link or bytes that
  are not UTF-8 have no text to edit, and an edit of one is refused.
- The result says the person edited the change (and when the edit leaves a file as it
  was), so the model never takes its own text for what landed; the landed lines follow,
  except in a secret-looking file (``withheld_paths``): the person's text there (a real
  key in place of the model's placeholder) never goes to the chat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions.base import Plan
from ..changes import ChangeSet, FileChange, digest
from ..engines.textfile import TextFile
from ..errors import OperatorError
from ..outcome import Outcome


@dataclass(frozen=True)
class PersonEdit:
    """The person's text for one file of a pending command: ``proposed`` is the digest of
    the new bytes the review showed, ``text`` what they made of it (LF line breaks)."""

    path: str
    proposed: str
    text: str


def _refused(path: str, why: str) -> OperatorError:
    return OperatorError(
        "ERR_EDIT_REFUSED",
        f"the user edited the change of {path} before approving it, but {why}; nothing "
        "of this command was written",
        {"path": path},
    )


def editable(change: FileChange) -> bool:
    """Whether the new side of ``change`` is text a person can edit."""
    return (
        change.after is not None
        and not change.before_is_dir
        and not change.before_is_symlink
        and change.after_text is not None
    )


def edited_bytes(change: FileChange, text: str) -> bytes:
    """``text`` as the bytes the file gets: the proposed content's BOM and line breaks."""
    if change.after is None or not editable(change):
        raise _refused(change.path, "it has no new text to edit (a delete, a folder or bytes)")
    try:
        return TextFile.decode(change.after, change.path).encode(text.replace("\r\n", "\n"))
    except UnicodeEncodeError:  # half a character (a lone surrogate) over the review link
        raise _refused(change.path, "its text holds half a character (a lone surrogate)") from None


def edit_change(change: FileChange, edit: PersonEdit) -> FileChange:
    """``change`` with the person's text as its new content."""
    if change.after is None or not editable(change):
        raise _refused(change.path, "it has no new text to edit (a delete, a folder or bytes)")
    if change.after_digest != edit.proposed:
        raise _refused(change.path, "the change is no longer the one the edit was made on")
    after = edited_bytes(change, edit.text)
    return FileChange(
        change.path,
        change.before,
        after,
        executable=change.executable,
    )


def edited_plan(
    plan: Plan, edits: Sequence[PersonEdit], withheld: frozenset[str] = frozenset()
) -> Plan:
    """``plan`` with the person's edits in place of the proposed texts, and a result that
    says so (``withheld``: secret-looking files whose landed lines are not shown).
    ERR_EDIT_REFUSED for an edit that does not fit the plan."""
    wanted = {edit.path: edit for edit in edits}
    if len(wanted) != len(edits):
        raise _refused(edits[0].path, "one file was edited twice")
    changes: list[FileChange] = []
    told: list[str] = []
    for change in plan.changes.changes:
        edit = wanted.pop(change.path, None)
        if edit is None:
            changes.append(change)
            continue
        made = edit_change(change, edit)
        changes.append(made)
        if made.after == change.before:
            told.append(f"{change.path} (the edit leaves it as it was: its bytes are unchanged)")
        elif change.path in withheld:
            told.append(f"{change.path} (a secret-looking file)")
        else:
            told.append(change.path)
    if wanted:
        raise _refused(next(iter(wanted)), "this command plans no change of it")
    shows = (
        "its landed lines are not shown"
        if set(withheld) >= {edit.path for edit in edits}
        else "the landed lines show it"
    )
    note = (
        f" [edited by the user before approval: {'; '.join(told)}; what landed is the "
        f"user's text, not the one sent: {shows}]"
    )
    outcome = Outcome(plan.outcome.ok, plan.outcome.summary + note, plan.outcome.details)
    return Plan(ChangeSet(tuple(changes)), outcome, plan.notes)


def withheld_paths(edits: Sequence[PersonEdit], secret: Callable[[str], bool]) -> frozenset[str]:
    """The edited files whose landed lines are not shown: those ``secret`` says look
    secret (the path as written, the links on the way and the target)."""
    return frozenset(edit.path for edit in edits if secret(edit.path))


def edit_of(change: FileChange, text: str) -> PersonEdit:
    """The edit that gives ``change`` the new ``text``."""
    return PersonEdit(change.path, digest(change.after), text)
