"""What a read of a secret-looking file would send, shown to the person who is asked.

The question before such a read (``plan.secrecy.hold``) used to name only the path: the
person approved sending a file they were not shown. Now it shows the file's size and its
first lines, as plain text lines for the review (each line through ``visible.shown``, the
one renderer, so the file cannot hide, reorder or overwrite text on the screen or set a
terminal's clipboard).

Invariant: these lines are for the person's eyes, on this machine, before approval.
They are kept in ``Reveal.preview`` and rendered only by the review (the window's dialog,
the terminal's prompt, the MCP terminal review); no answer to the model is made from
them, so an unapproved read is still answered from the path and the action alone.
Reading is bounded (PREVIEW_BYTES), by descriptor inside the workspace, never following
a symlink at the last step, never blocking on a FIFO.
"""

from __future__ import annotations

import os
import stat

from ..errors import OperatorError
from ..visible import shown
from ..wording import counted
from .oserrors import reason_of
from .workspace import Workspace

PREVIEW_LINES = 12
PREVIEW_BYTES = 4096
LINE_WIDTH = 160
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC


def _head(workspace: Workspace, rel: str) -> tuple[int, bytes]:
    """(size, first PREVIEW_BYTES bytes) of the regular file ``rel`` leads to."""
    with workspace.locate(rel) as spot:
        handle = os.open(spot.name, _FLAGS, dir_fd=spot.dir_fd)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise IsADirectoryError(0, "not a regular file")
        chunks: list[bytes] = []
        left = PREVIEW_BYTES
        while left > 0 and (chunk := os.read(handle, left)):
            chunks.append(chunk)
            left -= len(chunk)
        return info.st_size, b"".join(chunks)
    finally:
        os.close(handle)


def file_preview(workspace: Workspace, rel: str, action: str) -> tuple[str, ...]:
    """The review's lines for a read by ``action`` of the secret-looking file ``rel``."""
    what = "all of it" if action == "fs.read" else f"what {action} reads of it"
    try:
        size, data = _head(workspace, rel)
    except (OSError, OperatorError) as exc:
        why = reason_of(exc) if isinstance(exc, OSError) else exc.message
        return (f"{shown(rel)} cannot be shown here ({shown(why)}).",)
    return (
        f"Approving sends {what} to the chat. {shown(rel)} holds {counted(size, 'byte')}"
        + (":" if data else " (empty)."),
        *text_preview(data, size),
    )


def text_preview(data: bytes, size: int) -> tuple[str, ...]:
    """The first lines of ``data`` (the first bytes of a text of ``size`` bytes), each
    shown on one line with a ``| `` gutter, and what is left out."""
    if not data:
        return ()
    text = data.decode("utf-8", "surrogateescape")
    cut_inside = len(data) < size
    lines = text.split("\n")
    if lines[-1] == "" and not cut_inside:
        lines.pop()
    out = []
    for line in lines[:PREVIEW_LINES]:
        wide = len(line) > LINE_WIDTH
        out.append("  | " + shown(line[:LINE_WIDTH]) + (" ..." if wide else ""))
    used = sum(len(line.encode("utf-8", "surrogateescape")) + 1 for line in lines[:PREVIEW_LINES])
    if size - used > 0 and (len(lines) > PREVIEW_LINES or cut_inside):
        out.append(f"  ... and {counted(size - used, 'more byte')} not shown here")
    return tuple(out)
