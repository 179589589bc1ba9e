"""The window as the reviewer of MCP calls (``llm-operator mcp --approve window``).

While a workspace is open the window listens on its review socket (core/plan/review_link).
A review arrives as the commands of one MCP turn; the window prepares them as it prepares a
pasted reply, in a worker, and shows the same confirmation dialog, titled with the MCP
client's name. The decisions go back to the server, which runs its own plan of the calls.
Reviews are shown one at a time, in the order they came; a review the server withdraws
(the call was cancelled or timed out) closes its dialog and sends nothing. The commands
the server then runs are streamed back (``core/plan/watch_link``) to the window's command
output, with its Stop button, as a paste's are.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QBoxLayout, QLabel, QWidget

from ..core.visible import shown
from ..core.wording import counted
from .plain_text import set_plain
from .tasks import TaskFailure, TaskRunner

if TYPE_CHECKING:
    import socket

    from ..core.plan.review_link import Review, ReviewListener
    from ..core.plan.run import Decision, Pending, Run
    from ..core.plan.session import Session
    from ..core.store.command_watch import CommandWatch
    from .dialogs.confirm_dialog import ConfirmDialog


class McpReviews(QObject):
    arrived = Signal(object)  # Review, from the listener's thread
    withdrawn = Signal(object)  # Review

    def __init__(
        self,
        parent: QWidget,
        changed_outside: Callable[[], Collection[str]],
        say: Callable[[str], None],
        watch: CommandWatch | None = None,
    ) -> None:
        super().__init__(parent)
        self._watch = watch
        self._parent = parent
        self._changed_outside = changed_outside
        self._say = say
        self._listener: ReviewListener | None = None
        self._session: Session | None = None
        self._queue: deque[Review] = deque()
        self._current: Review | None = None
        self._dialog: ConfirmDialog | None = None
        self._tasks: TaskRunner[Run] = TaskRunner(self)
        self._held_tasks: TaskRunner[list[Pending]] = TaskRunner(self)
        self._planning: Session | None = None  # the session of the review shown
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
                session.state_folder, self.arrived.emit, self.withdrawn.emit, self._follow
            )
        except (OSError, LinkError) as error:
            self._say(f"MCP reviews are off for this workspace: {error}")

    def _follow(self, conn: socket.socket, request: dict[str, object]) -> None:
        """A command the server runs, on the listener's thread: shown in the console."""
        from ..core.plan.watch_link import follow_watch

        if self._watch is not None:
            follow_watch(conn, request, self._watch)

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
            self._say(f"{_named(review)} withdrew its review")
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
        session.shows_secrets = True  # the review shows what a secret read would send
        self._planning = session
        self._tasks.start(
            lambda _progress: session.prepare(
                review.reply, conversation=review.conversation
            ).mark_words(),
            lambda run: self._show(review, run),
            lambda failure: self._failed(review, failure),
        )

    def _failed(self, review: Review, failure: TaskFailure) -> None:
        review.refuse(f"the window could not prepare the commands: {failure}")
        self._done()

    def _show(self, review: Review, run: Run) -> None:
        if review.withdrawn.is_set() or not run.pending:
            # Nothing to ask here although the server had something to ask: the files
            # changed between the two plans. Nothing may run on a decision not made.
            review.refuse("the files changed before the window could show the commands")
            self._done()
            return
        dialog = self._dialog_for(review, run.pending)

        def finished(_code: int) -> None:
            decisions = dict(dialog.decisions())
            dialog.deleteLater()
            if _lets_in_held_writes(run, decisions):
                self._show_held(review, run, decisions)
                return
            self._answer(review, decisions)

        dialog.finished.connect(finished)
        self._parent.activateWindow()
        dialog.open()

    def _dialog_for(self, review: Review, pending: list[Pending]) -> ConfirmDialog:
        from .dialogs.confirm_dialog import ConfirmDialog

        dialog = ConfirmDialog(self._parent, pending, self._changed_outside())
        dialog.setObjectName("mcp-review")
        # The client names itself: its name is shown as plain text, like a reply's.
        title = f"{_named(review)} asks for {counted(len(pending), 'command')}"
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
        return dialog

    def _answer(self, review: Review, decisions: Mapping[int, Decision]) -> None:
        if not review.answer(decisions):
            self._say(f"the review of {_named(review)} was withdrawn; nothing sent")
        self._done()

    def _show_held(self, review: Review, run: Run, decisions: dict[int, Decision]) -> None:
        """The second step of a write on a secret-looking file the person let the window
        read: plan it here and show its change, as a pasted reply's writes are shown. The
        answer for such a command is its change's approval; a change the window could not
        plan is answered with a rejection that says so, so the server never runs a change
        the person did not see."""
        from ..core.plan.run import Decision

        session = self._planning
        assert session is not None
        approved = {index for index, decision in decisions.items() if decision.approved}

        def plan(_progress: object) -> list[Pending]:
            return session.open_held(run, decisions)

        def shown(pending: list[Pending]) -> None:
            if review.withdrawn.is_set():
                self._done()
                return
            planned = {item.index for item in pending}
            for index in approved - planned - set(decisions):
                decisions[index] = Decision(
                    False, "its change could not be planned in the window; see its result"
                )
            if not pending:
                self._answer(review, decisions)
                return
            dialog = self._dialog_for(review, pending)

            def second(_code: int) -> None:
                decisions.update(dialog.decisions())
                dialog.deleteLater()
                self._answer(review, decisions)

            dialog.finished.connect(second)
            self._parent.activateWindow()
            dialog.open()

        def failed(failure: TaskFailure) -> None:
            self._failed(review, failure)

        self._held_tasks.start(plan, shown, failed)

    def _done(self) -> None:
        self._current = None
        self._dialog = None
        self._next()


def _lets_in_held_writes(run: Run, decisions: Mapping[int, Decision]) -> bool:
    """Whether the person let the window read a secret-looking file to plan a write."""
    from ..core.actions.base import Kind

    return any(
        item.held
        and item.command.spec.kind is Kind.WRITE
        and item.command.spec.review is None  # a command to run reads no file to plan
        and decisions.get(item.index) is not None
        and decisions[item.index].approved
        for item in run.pending
    )


def _named(review: Review) -> str:
    """The client as the window names it: its own name (a chat's title, for the relay)
    with every invisible or reordering character shown as a marker, and its channel."""
    channel = "relay" if review.channel == "relay" else "MCP"
    return f"{shown(review.client)} ({channel})"
