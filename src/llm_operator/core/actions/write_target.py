"""Where a write of a path lands: the first check of every action that writes a file.
Kept apart from the write family (``write.py``), so a structure edit, which needs only
this of it, does not load the whole family.
"""

from __future__ import annotations

from ..errors import OperatorError
from ..store.passed_over import kind_of
from .base import ActionContext


def target_for_write(ctx: ActionContext, path: str) -> str:
    """The canonical relative path a write of ``path`` lands on (symlinks followed)."""
    with ctx.workspace.locate(path) as spot:
        ctx.workspace.check_spot_writable(path, spot)
        if spot.is_dir:
            raise OperatorError(
                "ERR_IS_A_DIRECTORY", f"{path!r} is a folder; writes need a file path"
            )
        if spot.info is not None and not spot.is_file:
            raise OperatorError(
                "ERR_NOT_A_FILE",
                f"{path!r} is a {kind_of(spot.info.st_mode)}, not a regular file; writes "
                "replace regular files only",
            )
        rel = spot.rel
    if path.rstrip().endswith("/"):
        # The resolver drops the slash; without this, "notes/" would become a file "notes".
        raise OperatorError(
            "ERR_INVALID_PATH",
            f"{path!r} ends with /, so it names a folder; writes need a file path "
            "(name the file, without a trailing /)",
        )
    return rel
