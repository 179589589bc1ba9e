"""A change that reached the disk but whose folder could not be synced.

The rename that makes a write visible is done, so the result is ok: true; but when the
folder's fsync failed (an I/O error), the change may not survive a power loss, and the
result's details say so.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ..outcome import Outcome


def unsynced_warning(outcome: Outcome, reasons: list[str]) -> Outcome:
    """``outcome`` with a warning in its details when ``reasons`` is not empty."""
    if not reasons:
        return outcome
    warning = (
        "the change is on disk, but its folder could not be synced "
        f"({'; '.join(sorted(set(reasons)))}), so it may not survive a power loss; "
        "read the file again after a restart"
    )
    if outcome.details is None:
        details = json.dumps({"warning": warning}, ensure_ascii=False, indent=1)
    else:
        details = f"{outcome.details}\nwarning: {warning}"
    return replace(outcome, details=details)
