"""Taking a deleted file back out of the system trash when its delete is undone.

A delete moves the file into the trash (trashing) and the journal keeps both a copy of
its bytes and, where the descriptor rename told them, the names of the trashed file and
of its ``.trashinfo`` and the file's times before (``entries.trash``). Undo writes the
journal's copy back (rewinding), so the workspace never depends on the trash; then:

- if the trashed file is still the very entry the delete moved there (the same device,
  inode and change time, recorded right after the move) and holds exactly those bytes
  (compared byte for byte, a regular file, no symlink), it and its .trashinfo are
  removed from the trash: the trash does not keep a second copy of a file that is back.
  Bytes alone prove nothing: once the trash is emptied it gives the freed name to the
  next file trashed under it, and a file the user trashed later (an empty
  ``__init__.py``, a copied licence) may hold the same bytes; it is the user's;
- if it is gone or changed (emptied, restored by hand, edited there), the trash is left
  alone and the undo says the file came from the journal's copy;
- either way the file gets its times back (modification and access time as they were
  before the delete), and the mode the journal saved.

The trash's names are used only as the journal recorded them, and only a regular file
whose bytes match the deleted one is ever removed there.
"""

from __future__ import annotations

import contextlib
import os
import stat
from typing import Any

from ..errors import OperatorError
from .oserrors import reason_of
from .workspace import Workspace

_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _trashed_bytes(name: str, size_cap: int, identity: object) -> bytes | None:
    """The bytes of the regular file ``name`` (not followed if a link) if it is the entry
    of ``identity`` (device, inode, change time), None otherwise."""
    try:
        handle = os.open(name, _READ_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or info.st_size > size_cap:
            return None
        if identity != [info.st_dev, info.st_ino, info.st_ctime_ns]:
            return None  # another file under the name, or a record that cannot tell
        chunks = []
        while chunk := os.read(handle, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(handle)


def take_back(workspace: Workspace, path: str, record: dict[str, Any], saved: bytes) -> str | None:
    """After ``path`` was given back the journal's copy ``saved``: remove the copy the
    trash keeps and put the file's times back. Returns a note when the trash's copy could
    not be taken (gone or changed), None when it was."""
    note = None
    files, info = record.get("files"), record.get("info")
    if isinstance(files, str) and isinstance(info, str):
        data = _trashed_bytes(files, len(saved), record.get("identity"))
        if data != saved:
            why = "gone" if not os.path.lexists(files) else "changed there"
            note = (
                f"{path}: restored from the undo journal's copy (its copy in the system trash "
                f"was {why}, so the trash keeps whatever it holds)"
            )
        else:
            try:
                os.unlink(files)
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(info)
            except OSError as exc:
                note = (
                    f"{path}: restored, but its copy in the system trash could not be "
                    f"removed ({reason_of(exc)})"
                )
    # The bytes are back whatever happens here: a time that cannot be set is no failure.
    with contextlib.suppress(OSError, OperatorError):
        _set_times(workspace, path, record)
    return note


def _set_times(workspace: Workspace, path: str, record: dict[str, Any]) -> None:
    atime, mtime = record.get("atime_ns"), record.get("mtime_ns")
    if not isinstance(atime, int) or not isinstance(mtime, int):
        return
    with workspace.locate(path, follow_last=False) as spot:
        if spot.info is not None and stat.S_ISREG(spot.info.st_mode):
            os.utime(spot.name, ns=(atime, mtime), dir_fd=spot.dir_fd, follow_symlinks=False)
