"""What to tell the user about a paste as a whole, beyond the results of its blocks."""

from __future__ import annotations

from .scanner import Scan

RESULTS_NOT_COMMANDS = "these are results, not commands: paste the LLM's reply"


def paste_notes(scanned: Scan) -> list[str]:
    """Plain sentences for the window's status line and ``exec``'s stderr."""
    notes: list[str] = []
    if scanned.result_blocks and not scanned.items:
        # Easy with auto-copy: the app's own results pasted back instead of the reply.
        notes.append(
            f"{RESULTS_NOT_COMMANDS} ({scanned.result_blocks} OPERATOR_RESULT block(s) and "
            "no OPERATOR_CMD block; nothing ran)"
        )
    elif scanned.result_blocks:
        notes.append(
            f"the reply contains {scanned.result_blocks} OPERATOR_RESULT block(s) written "
            "by the LLM itself; they were not run and are not real results"
        )
    if scanned.escaped_markers:
        notes.append(
            f"{scanned.escaped_markers} marker line(s) are markdown-escaped "
            "(OPERATOR\\_CMD): the reply was copied as markdown source. Copy the rendered "
            "reply or the code block instead; the LLM is told to write plain markers"
        )
    return notes
