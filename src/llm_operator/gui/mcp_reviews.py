"""The window as the reviewer of MCP calls (``llm-operator mcp --approve window``).

While a workspace is open the window listens on its review socket (core/plan/review_link).
A review arrives as the commands of one MCP turn; the window prepares them as it prepares a
pasted reply, in a worker, and shows the same confirmation dialog, titled with the MCP
client's name. The decisions go back to the server, which runs its own plan of the calls.
Reviews are shown one at a time, in the order they came; a review the server withdraws
(the call was cancelled or timed out) closes its dialog and sends nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QBoxLayout, QLabel, QWidget

from ..core.visible import shown
from ..core.wording import counted
from .plain_text import set_plain
from .tasks import TaskFailure, TaskRunner

if TYPE_CHECKING:
    from ..core.plan.review_link import Review, ReviewListener
    from ..core.plan.session import Run, Session
    from .dialogs.confirm_dialog import ConfirmDialog


class McpReviews(QObject):
    arrived = Signal(object)  # Review, from the listener's thread
    withdrawn = Signal(object)  # Review

    def __init__(
        self,
        parent: QWidget,
        changed_outside: Callable[[], Collection[str]],
        say: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self._parent = parent
        self._changed_outside = changed_outside
        self._say = say
        self._listener: ReviewListener | None = None
        self._session: Session | None = None
        self._queue: deque[Review] = deque()
        self._current: Review | None = None
        self._dialog: ConfirmDialog | None = None
        self._tasks: TaskRunner[Run] = TaskRunner(self)
        queued = Qt.ConnectionType.QueuedConnection
        self.arrived.connect(self._on_arrived, queued)
        self.withdrawn.connect(self._on_withdrawn, queued)

    @property
    def listening(self) -> bool:
        return self._listener is not None

    def watch(self, session: Session) -> None:
        """Review MCP calls for ``session``'s workspace (and stop for the previous one)."""
        from ..core.plan.review_link import LinkError, ReviewListener

        self.stop()
        if session.state_folder is None:
            return
        self._session = session
        try:
            session.state_folder.mkdir(parents=True, exist_ok=True)
            self._listener = ReviewListener(
                session.state_folder, self.arrived.emit, self.withdrawn.emit
            )
        except (OSError, LinkError) as error:
            self._say(f"MCP reviews are off for this workspace: {error}")

    def stop(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None
        for review in self._queue:
            review.refuse("the window closed the workspace")
        self._queue.clear()
        if self._dialog is not None:
            self._dialog.reject()

    def _on_arrived(self, review: Review) -> None:
        self._queue.append(review)
        self._next()

    def _on_withdrawn(self, review: Review) -> None:
        if review in self._queue:
            self._queue.remove(review)
        if review is self._current and self._dialog is not None:
            self._say(f"{review.client} (MCP) withdrew its review")
            self._dialog.reject()

    def _next(self) -> None:
        if self._current is not None or not self._queue or self._session is None:
            return
        from ..core.plan.session import Session

        review = self._queue.popleft()
        self._current = review
        window_session = self._session
        # A session of its own, with the window's current settings (secret patterns): a
        # paste may be running in the window's session meanwhile.
        session = Session(window_session.workspace, window_session.state_dir)
        self._tasks.start(
            lambda _progress: session.prepare(review.reply),
            lambda run: self._show(review, run),
            lambda failure: self._failed(review, failure),
        )

    def _failed(self, review: Review, failure: TaskFailure) -> None:
        review.refuse(f"the window could not prepare the commands: {failure}")
        self._done()

    def _show(self, review: Review, run: Run) -> None:
        from .dialogs.confirm_dialog import ConfirmDialog

        if review.withdrawn.is_set() or not run.pending:
            # Nothing to ask here although the server had something to ask: the files
            # changed between the two plans. Nothing may run on a decision not made.
            review.refuse("the files changed before the window could show the commands")
            self._done()
            return
        dialog = ConfirmDialog(self._parent, run.pending, self._changed_outside())
        dialog.setObjectName("mcp-review")
        # The client names itself: its name is shown as plain text, like a reply's.
        title = f"{shown(review.client)} (MCP) asks for {counted(len(run.pending), 'command')}"
        dialog.setWindowTitle(f"LLM Operator - {title}")
        banner = QLabel()
        set_plain(banner, f"{title}: review them as a pasted reply.", rendered=True)
        bold = QFont(banner.font())
        bold.setBold(True)
        banner.setFont(bold)
        banner.setObjectName("mcp-client")
        layout = dialog.layout()
        if isinstance(layout, QBoxLayout):
            layout.insertWidget(0, banner)
        self._dialog = dialog

        def finished(_code: int) -> None:
            answered = review.answer(dialog.decisions())
            if not answered:
                self._say(f"the review of {review.client} (MCP) was withdrawn; nothing sent")
            dialog.deleteLater()
            self._done()

        dialog.finished.connect(finished)
        self._parent.activateWindow()
        dialog.open()

    def _done(self) -> None:
        self._current = None
        self._dialog = None
        self._next()
