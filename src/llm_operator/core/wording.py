"""Counted nouns for summaries and window text: "1 byte", "2 bytes", never "1 bytes".

Summaries are protocol text the model reads, so every count in them goes through here.
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, in the plural (``noun + "s"`` unless given) unless one."""
    return f"{count} {noun if count == 1 else (plural or noun + 's')}"


def file_size(size: int) -> str:
    """A byte count as a person reads it: ``512 B``, ``3.4 KB``, ``1.2 MB``."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"
