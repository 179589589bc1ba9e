"""What the LLM last saw of each file a run read or wrote, and the note that tells it which
of them changed outside the app since.

After each run the window hands over the paths the run touched; their bytes as they are
then (what the LLM just read, or what it just had written) are kept in memory, within
limits: no copy of a secret-looking file (or of a path whose links pass one), of a file
over ``MAX_COPY_BYTES`` or of one that is not UTF-8 text, and ``MAX_KEPT_BYTES`` in all
(the oldest copies go first). Every read goes through the workspace jail.

``changed_note`` is plain text for the chat: it names each file changed outside, tells
the LLM to read it before editing it, and shows a compact unified diff where a copy was
kept. A secret-looking file is only named. Every name and line is shown through the one
renderer (invisible characters as markers), and the note stops at ``MAX_NOTE_CHARS``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import OperatorError
from ..visible import shown, shown_lines
from ..wording import counted
from .files import read_if_file
from .workspace import Workspace

MAX_COPY_BYTES = 256 * 1024
MAX_KEPT_BYTES = 8 * 1024 * 1024
MAX_DIFF_LINES = 60  # per file
MAX_NOTE_CHARS = 8000
CONTEXT_LINES = 1


class SeenCopies:
    """The bytes of the files a run touched, as the run left them (see the module)."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace
        self._copies: dict[str, bytes] = {}
        self._size = 0

    def _forget(self, rel: str) -> None:
        old = self._copies.pop(rel, None)
        if old is not None:
            self._size -= len(old)

    def remember(self, rels: Iterable[str]) -> None:
        for rel in rels:
            self._forget(rel)
            data = self.read_now(rel)
            if data is None or len(data) > MAX_COPY_BYTES:
                continue
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            self._copies[rel] = data
            self._size += len(data)
        while self._size > MAX_KEPT_BYTES and self._copies:
            self._forget(next(iter(self._copies)))

    def earlier(self, rel: str) -> bytes | None:
        return self._copies.get(rel)

    def read_now(self, rel: str) -> bytes | None:
        """The file's bytes through the jail; None for a secret-looking path, a missing
        file or one that cannot be read."""
        if self.workspace.secret_match(rel) is not None:
            return None
        try:
            return read_if_file(self.workspace, rel)
        except (OperatorError, OSError):
            return None


def _diff(rel: str, before: bytes, after: bytes) -> list[str]:
    # The review's own diff: its work is bounded whatever the lines (difflib's matching is
    # cubic in lines that repeat: two 240 KB files of reordered lines took minutes).
    from ..engines.diffing import LineDiff

    name = shown(rel)
    diff = LineDiff(before.decode("utf-8"), after.decode("utf-8")).unified(
        rel, context=CONTEXT_LINES
    )
    lines = diff.split("\n")[:-1]  # every line of a diff ends in a line break
    lines[:2] = [f"--- {name} (as you last saw it)", f"+++ {name} (now)"]
    if len(lines) > MAX_DIFF_LINES:
        rest = len(lines) - MAX_DIFF_LINES
        lines = [*lines[:MAX_DIFF_LINES], f"... ({counted(rest, 'more diff line')} not shown)"]
    return ["    " + shown_lines(line).replace("\n", " ") for line in lines]


def _entry(copies: SeenCopies, rel: str) -> list[str]:
    name = shown(rel)
    if copies.workspace.secret_match(rel) is not None:
        return [f"- {name}: changed (secret-looking: its content is not shown here)"]
    now = copies.read_now(rel)
    if now is None:
        return [f"- {name}: deleted, or no longer a readable file"]
    before = copies.earlier(rel)
    if before is None:
        return [f"- {name}: changed (no earlier copy to compare)"]
    if before == now:
        return [f"- {name}: touched, its content is the same as you last saw it"]
    try:
        now.decode("utf-8")
    except UnicodeDecodeError:
        return [f"- {name}: changed (now not UTF-8 text, no diff)"]
    if len(now) > MAX_COPY_BYTES:
        return [f"- {name}: changed (now too large to compare here)"]
    return [f"- {name}: changed; what changed since you saw it:", *_diff(rel, before, now)]


def _cost(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def changed_note(copies: SeenCopies, rels: Iterable[str]) -> str:
    """The note for the chat about ``rels`` (files changed outside the app)."""
    names = sorted(rels)
    one = len(names) == 1
    lines = [
        f"Note from LLM Operator: {counted(len(names), 'file')} changed outside the app "
        f"since you last read or wrote {'it' if one else 'them'}. Your copy is stale: read "
        f"{'it' if one else 'each one'} again before you edit {'it' if one else 'them'}.",
        "",
    ]
    # Every file is named first; diffs fill the room that is left, in order.
    budget = MAX_NOTE_CHARS - _cost(lines)
    entries = [_entry(copies, rel) for rel in names]
    shorts = [
        entry[0] if len(entry) == 1 else f"- {shown(rel)}: changed (no room for its diff)"
        for rel, entry in zip(names, entries, strict=True)
    ]
    needed = _cost(shorts)
    if needed <= budget:
        spare = budget - needed
        for entry, short in zip(entries, shorts, strict=True):
            extra = _cost(entry) - _cost([short])
            if len(entry) > 1 and extra <= spare:
                lines += entry
                spare -= extra
            else:
                lines.append(short)
    else:
        for at, short in enumerate(shorts):
            if _cost(lines) + _cost([short]) > MAX_NOTE_CHARS - 80:
                left = counted(len(shorts) - at, "more file")
                lines.append(f"... and {left}, not listed: the note is full")
                break
            lines.append(short)
    return "\n".join(lines)
