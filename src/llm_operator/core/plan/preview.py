"""What a pending command will do, as text a person can check: headers and unified diffs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engines.textfile import TextFile

if TYPE_CHECKING:
    from .changes import FileChange
    from .session import Pending


@dataclass(frozen=True)
class ChangePreview:
    path: str
    badge: str  # "new", "deleted", "edited"
    diff: str  # unified diff, or a note for content that is not text
    added: int
    removed: int


def _text(data: bytes | None) -> str | None:
    if data is None:
        return ""
    try:
        return TextFile.decode(data).text
    except Exception:
        return None


def preview_change(change: FileChange) -> ChangePreview:
    from ..engines.diffing import diff_stats, unified_diff

    badge = "deleted" if change.is_delete else ("new" if change.is_new else "edited")
    if change.before_is_dir:
        return ChangePreview(change.path, badge, f"folder {change.path}/ goes to the trash", 0, 0)
    if change.before_is_symlink:
        return ChangePreview(change.path, badge, f"symlink {change.path} is removed", 0, 0)
    before, after = _text(change.before), _text(change.after)
    if before is None or after is None:
        size = len(change.before or b"")
        return ChangePreview(change.path, badge, f"binary or non-UTF-8 file ({size} bytes)", 0, 0)
    diff = unified_diff(before, after, change.path)
    if change.is_new and not diff:
        diff = f"new empty file {change.path}"
    added, removed = diff_stats(diff)
    return ChangePreview(change.path, badge, diff, added, removed)


def describe_pending(item: Pending) -> str:
    lines = [f"== {item.action} (id {item.id})"]
    if item.reveal is not None:
        lines.append(f"wants to send file content to the chat: {item.reveal.reason}")
        return "\n".join(lines)
    assert item.plan is not None
    lines.append(item.plan.outcome.summary)
    for change in item.changes:
        shown = preview_change(change)
        lines.append(f"-- {shown.path} [{shown.badge}] +{shown.added} -{shown.removed}")
        lines.append(shown.diff.rstrip("\n"))
    return "\n".join(lines)
