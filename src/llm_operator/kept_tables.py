"""Reading and writing the tables the command line keeps beside the package's bytecode
(``method_cache``, ``pattern_cache``), with the care a ``.pyc`` gets.

A table is read only from a regular file of at most MAX_BYTES (a FIFO put in its place
would block the run forever; a huge file would cost its reading) and written whole under a
temporary name, then renamed into place: a reader sees the old table or the new one, never
a part. Both are silent about failures: a table that cannot be had is one to build again.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
from typing import Any

MAX_BYTES = 16 * 1024 * 1024
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


def table_path(kind: str, version: str = "") -> str | None:
    """Where this interpreter's table of ``kind`` is kept beside the package's bytecode
    (None: no bytecode cache tag). The name holds the cache tag, the bytecode's magic
    number (as a .pyc checks it: a table is only read back by the interpreter that could
    have written it), ``version`` (what else its content depends on) and the optimization
    level."""
    import _frozen_importlib_external  # always loaded: the import system itself

    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    magic = _frozen_importlib_external.MAGIC_NUMBER.hex()
    name = f"{kind}.{tag}.{magic}{version}.opt{sys.flags.optimize}.marshal"
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", name)


def read_table(path: str) -> bytes | None:
    """The bytes of the table at ``path``, or None (no such regular file, too big, unread)."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
            return None
        chunks, left = [], info.st_size + 1
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= MAX_BYTES else None
    except OSError:
        return None
    finally:
        os.close(fd)


def load_table(path: str) -> object:
    """What the table at ``path`` holds (None where there is none that reads back): the
    caller checks its types."""
    data = read_table(path)
    if data is None:
        return None
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError, MemoryError):
        return None


def save_table(path: str, table: dict[Any, Any], used: set[Any], most: int) -> None:
    """Write ``table`` back; past ``most`` entries, only those this run ``used``."""
    if len(table) > most:
        table = {key: value for key, value in table.items() if key in used}
    try:
        data = marshal.dumps(table)
    except ValueError:  # not a table of plain values and code: not kept
        return
    write_table(path, data)


def write_table(path: str, data: bytes) -> None:
    """Put ``data`` at ``path`` whole (never under PYTHONDONTWRITEBYTECODE, never on any
    error: a folder that cannot be written keeps what it has)."""
    if sys.dont_write_bytecode:
        return
    temp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)
        os.replace(temp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(temp)
