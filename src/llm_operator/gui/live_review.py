"""An open review kept in step with its files on disk.

While the confirmation dialog is open, the watcher passes on every event on the files
its commands change (``WorkspaceWatcher.review``). Each time, a worker compares those
files with what their changes were planned on and merges each changed one
(``core.plan.outside_merge.rebase_pending``, reading the files off the UI thread); the
dialog then flags the file and shows the merged change against the file as it is now, or
the lines that overlap. One check also runs when the dialog opens: a file may have changed
while the reply was being prepared. Checks never overlap; an event during one asks for
another when it is done. Nothing here writes: what the person approves is checked again
under the write lock before anything lands.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from .tasks import Progress, TaskFailure, TaskRunner

if TYPE_CHECKING:
    from ..core.plan.outside_merge import Rebased
    from ..core.plan.run import Pending
    from ..core.store.workspace import Workspace
    from .dialogs.confirm_dialog import ConfirmDialog
    from .watcher import WorkspaceWatcher

Found = dict[int, tuple["Rebased", ...]]


class LiveReview(QObject):
    """Follows the files of one open dialog until it closes."""

    def __init__(
        self,
        dialog: ConfirmDialog,
        pending: Sequence[Pending],
        workspace: Workspace,
        watcher: WorkspaceWatcher | None,
    ) -> None:
        super().__init__()
        self._dialog = dialog
        self._items = [item for item in pending if item.plan is not None]
        self._paths = frozenset(change.path for item in self._items for change in item.changes)
        self._workspace = workspace
        self._watcher = watcher
        self._runner: TaskRunner[Found] = TaskRunner(self)
        self._again = False
        self.closed = False
        self._review = 0  # the watcher's number for this review
        self.checks = 0  # finished comparisons, for tests to wait on
        dialog.live = self  # kept as long as the dialog is
        dialog.finished.connect(self.close)
        if not self._paths:
            return
        if watcher is not None:
            self._review = watcher.review(self._paths)
            watcher.review_touched.connect(self.check)
        self.check()

    def check(self, paths: frozenset[str] | None = None) -> None:
        """Compare the review's files with their plans (``paths``: those that had an event)."""
        if self.closed or (paths is not None and not paths & self._paths):
            return
        if self._runner.busy:
            self._again = True
            return
        workspace, items = self._workspace, self._items

        def compare(_progress: Progress) -> Found:
            from ..core.plan.outside_merge import rebase_pending
            from ..core.plan.preview import mark_words

            found = rebase_pending(workspace, items)
            mark_words(r.preview for rebased in found.values() for r in rebased if r.preview)
            return found

        self._runner.start(compare, self._arrived, self._failed)

    def _arrived(self, found: Found) -> None:
        if self.closed:
            return
        self.checks += 1
        self._dialog.show_outside(found)
        self._next()

    def _failed(self, failure: TaskFailure) -> None:
        if self.closed:
            return
        self.checks += 1
        self._dialog.say_outside(f"The files could not be compared with the plan: {failure}")
        self._next()

    def _next(self) -> None:
        if self._again:
            self._again = False
            self.check()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._watcher is not None and self._paths:
            # A watcher replaced meanwhile (another workspace opened) may be gone already.
            with contextlib.suppress(RuntimeError):
                self._watcher.review_touched.disconnect(self.check)
                self._watcher.end_review(self._review)
