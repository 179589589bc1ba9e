"""What the status bar says about a run's commands beyond their results: which are asked
again after an earlier rejection (the counts after a run come from ``core.plan.earlier``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.visible import shown

if TYPE_CHECKING:
    from ..core.plan.run import Pending


def asking_again(pending: Sequence[Pending]) -> str:
    """E.g. "Asking again: w1 was rejected before at 14:02 (too broad)."."""
    said = [
        f"{shown(p.id)} was {shown(p.rejected_before.describe())}"
        for p in pending
        if p.rejected_before is not None
    ]
    return "Asking again: " + "; ".join(said) + "." if said else ""
