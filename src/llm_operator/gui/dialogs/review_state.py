"""What the review holds for each pending command while the person decides: the decision,
the reason, the files seen, the badges, and the person's own text for changes they edited.

State lives here, not in the widgets: the list, the one-file view and the page of all
changes all render it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from ...core.actions.base import Kind
from ...core.visible import shown

if TYPE_CHECKING:
    from ...core.changes import FileChange
    from ...core.plan.person_edit import PersonEdit
    from ...core.plan.preview import ChangePreview
    from ...core.plan.run import Pending

BADGE_STYLES = {
    "new": ("new", "#1a7f37"),
    "deleted": ("deleted", "#cf222e"),
    "edited": ("edited", "#57606a"),
    "outside": ("changed outside", "#bc4c00"),
    "secret": ("secret", "#8250df"),
    # Changed on disk while this review is open (see OutsideChanges.badge).
    "merged": ("changed outside: merged", "#bc4c00"),
    "overlaps": ("changed outside: overlaps", "#cf222e"),
    "unmerged": ("changed outside: cannot merge", "#cf222e"),
    # The person edited the new text in the review (``review_edit``).
    "yours": ("edited by you", "#0550ae"),
}
APPROVED_FG = "#1a7f37"
REJECTED_FG = "#cf222e"


class CommandState:
    """The decision being made for one pending command."""

    def __init__(self, number: int, item: Pending, outside: Collection[str]) -> None:
        self.number = number
        self.item = item
        self.approved = False
        self.reason = ""
        self.seen: set[int] = set()  # file rows of this command shown on the right
        self.badges: list[list[str]] = []  # per file row
        self.edits: dict[str, str] = {}  # path -> the person's text for its change
        self.edited_previews: dict[str, ChangePreview] = {}  # path -> what then lands
        if item.reveal is not None and not item.reveal.runs:  # a command names no file
            self.badges.append(["secret"])
        for preview in item.previews:
            self.badges.append([preview.badge] + (["outside"] if preview.path in outside else []))

    @property
    def rejected_by_reason(self) -> bool:
        return bool(self.reason.strip())

    def change(self, path: str) -> FileChange | None:
        plan = self.item.plan
        if plan is None:
            return None
        return next((c for c in plan.changes.changes if c.path == path), None)

    def person_edits(self) -> tuple[PersonEdit, ...]:
        """The edits that go out with an approval, one per edited file."""
        from ...core.plan.person_edit import edit_of

        made = []
        for path, text in self.edits.items():
            change = self.change(path)
            if change is not None:
                made.append(edit_of(change, text))
        return tuple(made)

    def decision_text(self) -> str:
        if self.approved:
            return "approved" + (" with your edits" if self.edits else "")
        if self.rejected_by_reason:
            return f"rejected: {shown(self.reason.strip())}"
        return "not approved"

    def describe(self) -> str:
        """What this command will do, as plain text: every reply's text through the one
        renderer, and the header that shows it is a plain-text label (no markup, ever)."""
        item = self.item
        lines = [f"{self.number}. {shown(item.action)}   id {shown(item.id)}"]
        if item.reveal is not None and item.reveal.runs:
            lines.append(f"Will run a command: it {shown(item.reveal.reason)}.")
        elif item.reveal is not None:
            paths = ", ".join(shown(path) for path in item.reveal.paths)
            if item.held and item.command.spec.kind is Kind.WRITE:
                lines.append(
                    f"Will read {paths} to plan the change; the change is shown for approval next."
                )
            else:
                lines.append(f"Will send the content of {paths} to the chat.")
            lines.append(f"Why it asks: {shown(item.reveal.reason)}")
            # What would leave, as the person must see it: size and first lines, each
            # already through the one renderer (store.secret_preview).
            lines += item.reveal.preview
        for preview in item.previews:  # what lands: the person's edit where they made one
            preview = self.edited_previews.get(preview.path, preview)
            lines += [shown(line) for line in preview.review]
        if item.plan is not None:
            lines += [f"note: {shown(note)}" for note in item.plan.notes]
        if item.builds_on:
            lines.append("Builds on an earlier command of this reply: approve both or neither.")
        if self.edits:
            edited = ", ".join(shown(path) for path in self.edits)
            lines.append(f"You edited the new text of {edited}: what lands is your text.")
        return "\n".join(lines)
