"""Temp files a killed run left beside the paths the store's records name.

Every temp file the app makes in a workspace (``.<name>.llmop-<8 hex>.tmp``, a file or a
half-built folder) lies beside a path that an open batch or an undo in progress has
recorded before the temp file was made. So a later run finds them from those records,
one folder listing per recorded path, never by walking the workspace. Each folder is
reached by descriptors; nothing behind a symlink is searched or removed.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable

from ..errors import OperatorError
from .atomic import TEMP_NAME
from .files import open_dir
from .oserrors import reason_of
from .saved import remove_tree_at
from .workspace import Workspace


def remove_temp_beside(workspace: Workspace, paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """Remove the temp files beside each of ``paths``; returns (removed, problems)."""
    removed: list[str] = []
    problems: list[str] = []
    by_folder: dict[str, set[str]] = {}
    for path in paths:
        folder, _, name = path.rpartition("/")
        cut = name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "ignore")
        by_folder.setdefault(folder or ".", set()).add(f".{cut}.llmop-")
    for folder, prefixes in by_folder.items():
        try:
            with open_dir(workspace, folder) as (_, fd), os.scandir(fd) as scan:
                for entry in scan:
                    name = entry.name
                    if not TEMP_NAME.fullmatch(name) or not name.startswith(tuple(prefixes)):
                        continue
                    shown = name if folder == "." else f"{folder}/{name}"
                    try:
                        remove_tree_at(fd, name)
                    except FileNotFoundError:
                        continue
                    except OSError as exc:
                        problems.append(
                            f"{shown}: a temp file could not be removed ({reason_of(exc)})"
                        )
                        continue
                    removed.append(shown)
        except OperatorError:
            continue  # the folder is gone, or is no folder now: nothing of ours is in it
        except OSError as exc:
            if exc.errno in (errno.ENOENT, errno.ENOTDIR):
                continue
            problems.append(f"{folder}: its temp files could not be looked for ({reason_of(exc)})")
    return removed, problems
