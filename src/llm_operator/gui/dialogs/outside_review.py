"""What the review knows of its files that changed on disk while it is open.

Each comparison (``gui.live_review``) replaces the last: a file changed back to what its
change was planned on is no longer flagged. A merged change counts as shown once the
dialog displayed it; approving a command sends only merged changes that were shown and
are still the latest (an older one is refused when it is applied, as the file changed
again), and the dialog shows any merged change not yet seen before it lets an approval
go (``unseen``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.visible import shown
from ...core.wording import counted

if TYPE_CHECKING:
    from ...core.plan.outside_merge import Rebased, ShownMerge

Key = tuple[int, str]  # (index of the pending command, path)


class OutsideChanges:
    """The open review's files changed on disk, as the last comparison found them."""

    def __init__(self) -> None:
        self.found: dict[Key, Rebased] = {}
        self.shown: dict[Key, ShownMerge] = {}  # merged changes the dialog displayed
        self.note = ""  # a problem of the comparison itself

    def update(self, found: dict[int, tuple[Rebased, ...]]) -> set[Key]:
        """Take a comparison's findings; returns the keys whose finding changed."""
        new = {(index, r.path): r for index, rebased in found.items() for r in rebased}
        changed = {
            key for key in new.keys() | self.found.keys() if new.get(key) != self.found.get(key)
        }
        self.found = new
        self.note = ""
        return changed

    def get(self, index: int, path: str) -> Rebased | None:
        return self.found.get((index, path))

    def badge(self, index: int, path: str) -> str | None:
        """The badge kind of a file row: "merged", "overlaps", "unmerged", or None."""
        rebased = self.get(index, path)
        if rebased is None:
            return None
        if rebased.change is not None:
            return "merged"
        return "overlaps" if rebased.overlaps else "unmerged"

    def mark_shown(self, index: int, path: str) -> None:
        rebased = self.get(index, path)
        if rebased is not None and rebased.shown is not None:
            self.shown[(index, path)] = rebased.shown

    def merged_for(self, index: int) -> tuple[ShownMerge, ...]:
        """The merged changes of a command's files that were shown and are the latest."""
        return tuple(
            merge
            for (at, path), rebased in self.found.items()
            if at == index
            and (merge := rebased.shown) is not None
            and self.shown.get((at, path)) == merge
        )

    def unseen(self, index: int) -> list[str]:
        """Paths of a command whose latest merged change the dialog has not displayed."""
        return [
            path
            for (at, path), rebased in self.found.items()
            if at == index
            and rebased.shown is not None
            and self.shown.get((at, path)) != rebased.shown
        ]

    def banner(self) -> str:
        """One plain line over the review, or "" when nothing changed."""
        if self.note:
            return self.note
        if not self.found:
            return ""
        paths = sorted({path for _, path in self.found})
        names = ", ".join(shown(path) for path in paths[:3])
        if len(paths) > 3:
            names += f" and {len(paths) - 3} more"
        clash = sum(1 for r in self.found.values() if r.change is None)
        text = (
            f"{counted(len(paths), 'file')} changed outside the app while this review is "
            f"open: {names}. Alt+O shows the next one's new diff."
        )
        if clash:
            text += f" {counted(clash, 'change')} cannot be merged and will not be written."
        return text
