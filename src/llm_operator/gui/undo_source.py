"""The undo journal as the window needs it: the newest batch, named, and its undo.

A small adapter over the store the command line uses (``Session.journal``), so the window
and ``llm-operator undo`` always act on the same batch, and the store behind it can change
without touching the window. ``undo(expected)`` undoes exactly the batch the user was
shown: if another process recorded a newer batch meanwhile, it refuses and says so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.store.undo_question import BatchSummary, newest_batch

if TYPE_CHECKING:
    from ..core.plan.session import Session
    from ..core.store.journal import UndoReport

__all__ = ["BatchSummary", "UndoSource"]


class UndoSource:
    def __init__(self, session: Session) -> None:
        self._session = session

    def newest(self) -> BatchSummary | None:
        """The batch an undo would undo now (raises when the store cannot be read)."""
        return newest_batch(self._session.journal)

    def on_wait(self, told: Callable[[], None]) -> None:
        """``told`` runs (in the worker) when another run holds the workspace's lock."""
        self._session.on_wait = told

    def undo(self, expected: BatchSummary, force: bool = False) -> UndoReport:
        """Undo ``expected`` if it is still the newest batch once the write lock is held
        (a run that committed after the question is never undone unseen); runs in a
        worker. ``force`` (asked twice in the window) overwrites files edited after the
        batch."""
        return self._session.undo_last(force=force, expected=expected.id)
