"""What an applied write left in its files, in a few lines the model can check at once.

Every changed line is shown with its new line number, as fs.readSlice numbers lines, up to
``MAX_LANDED`` lines in all (then a count of the rest); removed lines are counted where
they were. A write that leaves a file without a final newline where it had one (or makes
a file without one: a one-line ``content:`` has none) says so in a line of its own. The
lines follow the details as text, whatever the details are: a structure action's one line
of result JSON is followed by them just as a text result is, so every write shows what
landed the same way. Files that are deleted, moved unchanged or not
UTF-8 text show nothing. A secret-looking file whose text the person wrote in the review
(``withheld``) shows how many lines changed, never a line: the model sent a placeholder,
the person typed the real key, and the result goes to the chat.
"""

from __future__ import annotations

from dataclasses import replace

from ..changes import ChangeSet
from ..outcome import Outcome

MAX_LANDED = 40
MAX_WIDTH = 300


def _clip(line: str) -> str:
    return line if len(line) <= MAX_WIDTH else line[:MAX_WIDTH] + " [line cut]"


def _loses_final_newline(before: str | None, after: str | None) -> bool:
    """Whether the write leaves text without a final newline where there was one (or no
    file, or an empty one)."""
    if not after or after.endswith("\n"):
        return False
    return before is None or not before or before.endswith("\n")


def landed_lines(changes: ChangeSet, withheld: frozenset[str] = frozenset()) -> list[str]:
    shown: list[str] = []
    numbered = 0
    rest = 0
    for change in changes.changes:
        if change.after is None or change.after == change.before:
            continue
        diff = change.line_diff  # the preview's diff: worked out once
        if diff is None:
            continue
        if change.path in withheld:
            changed = sum(j2 - j1 for tag, _, _, j1, j2 in diff.opcodes if tag != "equal")
            shown.append(
                f"# landed in {change.path}: {changed} line(s) of the user's own text, not "
                "shown (a secret-looking file)"
            )
            continue
        shown.append(f"# landed in {change.path}:")
        # Lines end at "\n" only, as fs.readSlice counts them. The diff engine sets the
        # common head and tail aside first, so an insertion among repeated lines (a
        # closing brace, a blank line) is shown where it was made, and stays fast however
        # big the file and far apart the changes.
        total = diff.after.total
        for tag, i1, i2, j1, j2 in diff.opcodes:
            if tag == "equal":
                continue
            if tag == "delete":
                where = f"before line {j1 + 1}" if j1 < total else "at the end"
                shown.append(f"# {i2 - i1} line(s) removed {where}")
                continue
            told = max(0, min(j2 - j1, MAX_LANDED - numbered))
            for number, line in enumerate(diff.new_lines(j1, j1 + told), start=j1):
                shown.append(f"{number + 1}: {_clip(line)}")
            numbered += told
            rest += j2 - j1 - told
        if _loses_final_newline(change.before_text, change.after_text):
            # fs.write's one-line ``content:`` has no line break of its own: a file made
            # from it ends without one, and the model is told rather than left to guess.
            shown.append(f"# {change.path} now ends without a final newline")
    if rest:
        shown.append(f"# ... and {rest} more changed line(s): fs.readSlice shows them")
    return shown


def with_landed(
    outcome: Outcome, changes: ChangeSet, withheld: frozenset[str] = frozenset()
) -> Outcome:
    """``outcome`` whose details also show what landed (``withheld``: not the lines)."""
    lines = landed_lines(changes, withheld)
    for change in changes.changes:  # a big file's texts need not outlive the run
        change.forget_texts()
    if not outcome.ok or not lines:
        return outcome
    details = outcome.details or ""
    joined = "\n".join(lines) + "\n"
    if details and not details.endswith("\n"):
        details += "\n"
    return replace(outcome, details=details + joined)
