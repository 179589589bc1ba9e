"""The main window: workspace, paste pane, results, history; it wires the parts together.

Start-up stays close to a bare Qt window: the core, watchdog and the diff engine are
imported only after the window is shown (workspace and watcher open from a zero timer).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QCloseEvent, QPaintEvent, QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.store.settings import Settings
from ..core.visible import shown
from ..core.wording import counted
from .clipboard import ClipboardBridge
from .command_console import CommandConsole
from .dialogs.context_builder import add_context_action, open_context_builder
from .first_run_hint import FirstRunHint
from .keyboard_order import chain_tab_order
from .mcp_reviews import McpReviews
from .outline_warming import OutlineWarming
from .outside_notes import OutsideNotes
from .panes.paste_pane import PastePane
from .panes.results_pane import ResultsPane
from .panes.workspace_bar import FolderQuestion, WorkspaceBar
from .relay_menu import relay_menu_for
from .reply_pickup import PickupHooks, ReplyPickup
from .run_flow import RunFlow
from .run_summary import asking_again
from .status_bar import ClipboardIndicator, ElidingStatusBar, TrayNotice, WatchButton
from .tasks import TaskRunner
from .undo_control import UndoControl, UndoHooks
from .window_actions import WindowActions, WindowCommands

if TYPE_CHECKING:
    from ..core.plan.run import Decision, Pending
    from ..core.plan.session import Session
    from ..core.protocol.copied import CopiedText
    from ..core.store.journal import UndoReport
    from ..core.store.notices import UndoNotice
    from .dialogs.confirm_dialog import ConfirmDialog
    from .dialogs.context_builder import ContextBuilder
    from .panes.history import HistoryPanel
    from .run_flow import RunDone
    from .undo_source import BatchSummary, UndoSource
    from .watcher import WorkspaceWatcher

TITLE = "LLM Operator"


class MainWindow(QMainWindow):
    def __init__(
        self,
        settings: Settings,
        state_dir: Path | None = None,
        workspace: Path | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self._state_dir = state_dir
        self._pending_workspace = workspace
        self._shown_once = False
        self._painted_once = False
        self.session: Session | None = None
        self.context_builder: ContextBuilder | None = None
        self.watcher: WorkspaceWatcher | None = None
        self.outside_notes = OutsideNotes()
        self.outline_warming = OutlineWarming()
        self.clipboard = ClipboardBridge(self)
        self.tasks: TaskRunner[tuple[str, ...]] = TaskRunner(self)
        self.console = CommandConsole(self)  # run.command / run.check output, live, with Stop
        self.flow = RunFlow(self._decide, self, self.console.watch)
        self.mcp_reviews = McpReviews(
            self,
            lambda: self.watcher.changed_outside() if self.watcher else frozenset(),
            lambda text: self.statusBar().showMessage(text, 10000),
            self.console.watch,
        )
        self._last_run_text: str | None = None
        self._build()
        self.window_actions = WindowActions(
            self,
            settings,
            self.clipboard,
            WindowCommands(
                choose_workspace=self.choose_workspace,
                open_workspace=self.open_workspace,
                run_reply=self.run_reply,
                copy_results=self.results.copy_current,
                copy_next_part=self.results.copy_next,
                undo_last_batch=self.undo_last_batch,
                paste_reply=self.paste_reply,
                set_clipboard_watch=self.set_clipboard_watch,
                set_tab_inserts_tab=self.paste.editor.set_tab_inserts_tab,
                session=lambda: self.session,
                save_settings=self.save_settings,
                apply_secret_patterns=self.apply_secret_patterns,
            ),
            self.history_dock.toggleViewAction(),
        )
        self.relay = relay_menu_for(self, lambda: self.session)
        self.clipboard_indicator.clicked.connect(self.window_actions.watch.toggle)
        self.window_actions.watch.toggled.connect(self.first_run_hint.watch_changed)
        self.run_button.setDefaultAction(self.window_actions.run)
        self.primer_button.setDefaultAction(self.window_actions.primer)
        self.context_action = add_context_action(
            self, self.window_actions.primer, self.show_context_builder
        )
        self.undo_control = UndoControl(
            UndoHooks(
                parent=self,
                session=lambda: self.session,
                busy=lambda: self.flow.busy,
                start_undo=self._start_undo,
                say=lambda text: self.statusBar().showMessage(text, 10000),
                show_journal=lambda text, can: self.history.set_journal(text, can),
                show_report=self._show_undo_report,
                results_form=lambda: self.settings.results_form,
                offer_notice=self._offer_undo_notice,
            )
        )
        self._restore()
        named = shown(workspace.name) if workspace else "no workspace"
        self.setWindowTitle(f"{TITLE} - {named}")
        self.tray_notice = TrayNotice(self, self.come_forward)
        self.pickup = ReplyPickup(
            PickupHooks(
                parent=self,
                busy=lambda: self.flow.busy,
                say=lambda text: self.statusBar().showMessage(text, 10000),
                run_text=self._run_text,
                come_forward=self.come_forward,
                is_active=self.isActiveWindow,
                raise_every_reply=lambda: self.settings.raise_every_reply,
                tray=self.tray_notice.show,
            )
        )
        self.clipboard.reply_copied.connect(self.pick_up_reply)
        self.clipboard.not_a_reply.connect(
            lambda why: self.statusBar().showMessage(f"Copied text not run: {why}.", 10000)
        )
        self.flow.finished.connect(self._on_finished)
        self.flow.failed.connect(self._on_failed)
        self.flow.undone.connect(self._on_undone)
        self.flow.progress.connect(self._on_progress)
        self.workspace_bar.show_workspaces(None, settings.recent_workspaces)
        self.update_run_state()

    # -- layout ----------------------------------------------------------------

    def _build(self) -> None:
        self.workspace_bar = WorkspaceBar()
        self.workspace_bar.open_requested.connect(self.choose_workspace)
        self.workspace_bar.chosen.connect(self.open_workspace)
        self.primer_button = QToolButton()
        self.run_button = QToolButton()
        self.run_button.setObjectName("run")
        self.run_hint = QLabel()
        self.run_hint.setStyleSheet("QLabel { color: #9a6700; }")
        self.run_hint.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.workspace_bar, 1)
        top.addWidget(self.primer_button)
        top.addWidget(self.run_button)
        self.paste = PastePane()
        self.paste.secret_check = self._looks_secret
        self.paste.detected_changed.connect(self.update_run_state)
        self.paste.editor.textChanged.connect(self._on_reply_edited)
        self.paste.editor.set_tab_inserts_tab(self.settings.tab_inserts_tab)
        self.results = ResultsPane(self.clipboard)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.paste)
        self.splitter.addWidget(self.results)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.addLayout(top)
        layout.addWidget(self.run_hint)
        self.first_run_hint = FirstRunHint(
            self.settings, lambda: self.window_actions.watch.setChecked(True), self.save_settings
        )
        layout.addWidget(self.first_run_hint)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self._history: HistoryPanel | None = None
        self.history_dock = QDockWidget("History", self)
        self.history_dock.setObjectName("history")
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.history_dock)
        self.setStatusBar(ElidingStatusBar(self))
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.watch_label = WatchButton()
        self.watch_label.clicked.connect(self.show_changed_outside)
        self.clipboard_indicator = ClipboardIndicator()
        self.statusBar().addPermanentWidget(self.progress)
        self.statusBar().addPermanentWidget(self.watch_label)
        self.statusBar().addPermanentWidget(self.clipboard_indicator)
        chain_tab_order(self._tab_chain())

    def _tab_chain(self) -> list[QWidget]:
        """workspace -> paste -> run -> command table -> results -> history."""
        bar, results = self.workspace_bar, self.results
        chain: list[QWidget] = [bar.combo, bar.open_button, self.primer_button]
        chain += [self.paste.editor, self.run_button, self.paste.table]
        chain += [results.view, results.raw, results.show_protocol]
        chain += [results.copy_button, results.next_button]
        if self._history is not None:
            chain += [self._history.runs, self._history.detail, self._history.undo_button]
        return chain

    def _restore(self) -> None:
        if self.settings.geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.geometry.encode("ascii")))
        else:
            # The preferred size, or nine tenths of a smaller screen (800x600 included).
            width, height = 1100, 760
            screen = self.screen()
            if screen is not None:
                room = screen.availableGeometry()
                width = min(width, room.width() * 9 // 10)
                height = min(height, room.height() * 9 // 10)
            self.resize(width, height)
        if self.settings.splitter:
            self.splitter.restoreState(QByteArray.fromBase64(self.settings.splitter.encode()))
        self.history_dock.setVisible(self.settings.show_history)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self.paste.focus_editor()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted_once:
            # The session, journal and watcher open only once the window is on screen, so
            # a zero timer set at show time would still run before this first paint.
            self._painted_once = True
            QTimer.singleShot(0, self._after_show)

    def _after_show(self) -> None:
        self.refresh_journal()  # makes the history panel, now that the window is up
        if self._pending_workspace is None and self.settings.reopen_last_workspace:
            recent = self.settings.recent_workspaces
            if recent and Path(recent[0]).is_dir():
                self._pending_workspace = Path(recent[0])
        if self._pending_workspace is not None:
            self.open_workspace(self._pending_workspace)
            self._pending_workspace = None
        self.set_clipboard_watch(self.settings.clipboard_watch)

    def set_clipboard_watch(self, on: bool) -> None:
        self.clipboard.set_watching(on)
        self.clipboard_indicator.set_on(on)

    @property
    def history(self) -> HistoryPanel:
        """The history panel, made on first use: the window shows before it is needed."""
        if self._history is None:
            from .panes.history import HistoryPanel

            self._history = HistoryPanel()
            self._history.undo_requested.connect(self.undo_last_batch)
            self.history_dock.setWidget(self._history)
            chain_tab_order(self._tab_chain())
        return self._history

    # -- workspace -------------------------------------------------------------

    @property
    def workspace_root(self) -> Path | None:
        return self.session.workspace.root if self.session else None

    def show_context_builder(self) -> None:
        session = self.session
        if session is None:
            self.statusBar().showMessage("Choose a workspace first (Ctrl+O).", 5000)
            return
        self.context_builder = open_context_builder(
            self,
            session.workspace,
            self.clipboard,
            lambda: self.settings.chat_part_size,
            self.context_builder,
            session.outline_memo,
            self.window_actions.start_chat,
        )

    def choose_workspace(self) -> None:
        start = str(self.workspace_root or Path.home())
        folder = FolderQuestion.ask(self, start)
        if folder is not None:
            self.open_workspace(folder)

    def open_workspace(self, folder: Path) -> None:
        if self.flow.busy:
            self.statusBar().showMessage("Wait for the run to finish before switching.", 5000)
            return
        from ..core.errors import OperatorError
        from ..core.plan.session import Session
        from ..core.store.state import default_state_dir
        from ..core.store.workspace import Workspace

        try:
            workspace = Workspace(
                folder,
                tuple(self.settings.secret_patterns),
                secret_environment=tuple(self.settings.secret_environment),
            )
            state = self._state_dir if self._state_dir is not None else default_state_dir()
            session = Session(workspace, state)
        except (OperatorError, OSError) as error:
            message = getattr(error, "message", str(error))
            self.statusBar().showMessage(f"Cannot open {folder}: {message}", 10000)
            if self.session is None:
                self.setWindowTitle(f"{TITLE} - no workspace")
            return
        self.session = session
        self.settings.remember_workspace(workspace.root)
        self.setWindowTitle(f"{TITLE} - {shown(workspace.root.name)}")
        self.workspace_bar.show_workspaces(workspace.root, self.settings.recent_workspaces)
        self.window_actions.fill_recent()
        self.history.clear()
        self.history.read_from(session)  # every run the store keeps, from any process
        self.save_settings()
        self.statusBar().showMessage(f"Workspace: {workspace.root}", 5000)
        self._start_watcher(workspace.root)  # after, so a watcher failure stays in sight
        self.mcp_reviews.watch(session)
        self._warm_outlines()
        self.refresh_journal()
        self._tell_stopped_batch(session)
        self.update_run_state()
        self.tasks.start(
            lambda _progress: session.clean_leftovers(),
            self._leftovers_cleaned,
            lambda failure: self.statusBar().showMessage(
                f"Could not clean up temp files: {failure.error}", 10000
            ),
        )

    def _tell_stopped_batch(self, session: Session) -> None:
        """A store that cannot be used over a batch a stopped run left (or cannot tell
        whether one is there) is told where it stays in sight: which files still hold
        that run's changes is no ten-second status line."""
        problem = session.store_problem
        if problem is None or not (problem.tells_disk or problem.code == "ERR_RECOVERY_FAILED"):
            return
        self.results.show_error(
            f"The state store cannot be used ({problem.code}): {problem.message}\n\n"
            "To take back what a stopped run left: fix the cause (free space, the state "
            "folder's permissions, a failing disk), then open the workspace again (this "
            "window keeps the store it found): the first opening of the store takes it "
            "back before anything else.",
            "Writes are refused: files may hold a stopped run's changes.",
        )

    def _looks_secret(self, path: str) -> bool:
        return self.session is not None and self.session.workspace.is_secret(path)

    def apply_secret_patterns(self) -> None:
        """Use the settings' secret file and environment patterns from the next run on."""
        if self.session is None:
            return
        from ..core.store.workspace import Workspace

        self.session.workspace = Workspace(
            self.session.workspace.root,
            tuple(self.settings.secret_patterns),
            secret_environment=tuple(self.settings.secret_environment),
        )
        self._warm_outlines()  # again, with the new patterns

    def _warm_outlines(self) -> None:
        """Outline the workspace in a child process, so the first fs.outline is quick."""
        session = self.session
        if session is None or session.state_folder is None or session.state_dir is None:
            return
        self.outline_warming.start(
            session.workspace.root,
            session.state_folder,
            session.state_dir,
            list(self.settings.secret_patterns),
        )

    def _leftovers_cleaned(self, removed: object) -> None:
        if isinstance(removed, tuple) and removed:
            self.statusBar().showMessage(
                f"Removed {counted(len(removed), 'temp file')} left by an interrupted write.", 10000
            )

    def _start_watcher(self, root: Path) -> None:
        from .watcher import WorkspaceWatcher

        if self.watcher is not None:
            self.watcher.stop()
            self.watcher.deleteLater()
        self.watcher = WorkspaceWatcher(root, self)
        self.watcher.changed.connect(self._show_watch_state)
        if not self.watcher.start():
            self.statusBar().showMessage(f"File watcher off: {self.watcher.error}", 10000)
        self._show_watch_state()

    def _show_watch_state(self) -> None:
        self.watch_label.show_state(self.watcher)

    def show_changed_outside(self) -> None:
        """List the files changed outside the app since a run read or wrote them."""
        from .dialogs.changed_outside import ChangedOutsideDialog

        names = sorted(self.watcher.changed_outside()) if self.watcher else []
        make_note = lambda: self.outside_notes.note(self.session, names)  # noqa: E731
        ChangedOutsideDialog.ask(self, names, make_note, self.clipboard.copy)

    # -- running ---------------------------------------------------------------

    def update_run_state(self) -> None:
        if self.session is None:
            why = "Choose a workspace first (Ctrl+O): nothing runs without one."
        elif self.flow.busy:
            why = "A run is in progress."
        else:
            why = ""
        self.window_actions.run.setEnabled(not why)
        self.window_actions.run.setToolTip(why or "Run the pasted reply (Ctrl+Return)")
        self.window_actions.run.setStatusTip(why)
        self.run_hint.setText(why)
        self.run_hint.setVisible(bool(why))
        self.window_actions.undo.setEnabled(self.session is not None and not self.flow.busy)
        self.window_actions.open.setEnabled(not self.flow.busy)

    def run_reply(self) -> None:
        if self.session is None or self.flow.busy:
            self.statusBar().showMessage(self.run_hint.text() or "Busy.", 5000)
            return
        text = self.paste.text()
        if not text.strip():
            self.statusBar().showMessage("Paste a reply first (Ctrl+V).", 5000)
            return
        self.paste.refresh()  # the list shows this reply during the review (no debounce wait)
        if self.watcher is not None:
            self.watcher.hold()
        self._last_run_text = text
        self.flow.run(self.session, text)
        self.update_run_state()
        self.statusBar().showMessage("Running...")

    def _decide(self, pending: list[Pending]) -> dict[int, Decision]:
        from .dialogs.confirm_dialog import ConfirmDialog  # lazy: only a run with writes needs it

        outside = self.watcher.changed_outside() if self.watcher else frozenset()
        self.pickup.needs_person()  # a copied reply's review needs the window in front
        again = {p.index: p.rejected_before for p in pending if p.rejected_before is not None}
        if again:
            self.paste.mark_asked_again(again)
            self.statusBar().showMessage(asking_again(pending))
        return ConfirmDialog.ask(self, pending, outside)

    def follow_review(self, dialog: ConfirmDialog) -> None:
        """Keep an open review (a paste's or an MCP client's) in step with its files on
        disk (``gui.live_review``); the dialog calls it on the window that opens it."""
        from .live_review import LiveReview

        if self.session is not None:
            LiveReview(dialog, dialog.pending, self.session.workspace, self.watcher)

    def _on_progress(self, done: int, total: int, label: str) -> None:
        self.progress.setVisible(done < total)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(f"{label} %v/%m")

    def _on_finished(self, done: RunDone) -> None:
        from ..core.plan.earlier import tally, verdicts
        from .panes.history import record_run, sources_of

        self.progress.hide()
        parts = self.results.show_results(
            done.results,
            self.settings.chat_part_size,
            self.settings.auto_copy,
            sources_of(done.run, done.decisions),
            self.settings.results_form,
        )
        found = verdicts(done.run, done.decisions)
        message = f"Ran {tally(found).describe()}."
        if self.settings.auto_copy and parts.count:
            message += " Results copied: paste them into the chat."
        notes = "".join(f" Note: {notice}." for notice in done.run.notices)
        self.statusBar().showMessage(self.pickup.finished(message, notes))
        self.history.add(record_run(done.run, done.decisions, done.results))
        self.paste.refresh()  # the list must describe the reply that ran, not a stale one
        self.paste.mark_verdicts(found)
        self.finish(done.touched)

    def _on_failed(self, message: str) -> None:
        self.progress.hide()
        self.pickup.failed()
        self.results.show_error(f"The run failed: {message}\n\nThe window is still usable.")
        self.statusBar().showMessage(f"The run failed: {message}")
        self.finish([])

    def finish(self, touched: list[str]) -> None:
        if self.watcher is not None:
            self.watcher.release(touched)
        self.outside_notes.remember(self.session, touched)  # what the LLM saw, for the note
        self.refresh_journal()
        self.update_run_state()
        self.paste.focus_editor(select_all=True)

    def _on_reply_edited(self) -> None:
        """A new reply replaces the old one: old results and messages stop claiming things."""
        if self._last_run_text is None or self.results.stale:
            return  # cheap first: this runs on every keystroke
        if self.paste.text() == self._last_run_text:
            return
        self.results.mark_stale()
        self.statusBar().clearMessage()

    def paste_reply(self) -> None:
        """Ctrl+V anywhere in the window: the clipboard goes into the reply box."""
        editor = self.paste.editor
        if not editor.hasFocus():
            self.paste.focus_editor(select_all=self._last_run_text == self.paste.text())
        editor.paste()

    def pick_up_reply(self, text: str, verdict: CopiedText) -> None:
        """A reply copied elsewhere (clipboard watch): ask first if it quotes the app's
        examples, then run it; the window comes forward only when the person is needed."""
        self.pickup.pick_up(text, verdict)

    def _run_text(self, text: str) -> None:
        self.paste.set_text(text)
        self.run_reply()

    def come_forward(self) -> None:
        """The one place the window brings itself to the front (the seam tests watch)."""
        if self.isMinimized():
            self.showNormal()
        self.raise_()
        self.activateWindow()

    # -- undo and settings -------------------------------------------------------

    def undo_last_batch(self) -> None:
        self.undo_control.undo_last_batch()

    def _start_undo(self, source: UndoSource, batch: BatchSummary, force: bool = False) -> None:
        if self.watcher is not None:
            self.watcher.hold()
        self.flow.undo(source, batch, force)
        self.update_run_state()

    def _on_undone(self, report: UndoReport) -> None:
        from ..core.store.conversations import notice_destination
        from .panes.history import RunRecord

        self.undo_control.on_undone(report)
        notice = report.notice
        state = self.session.state if self.session is not None else None
        store = state.store if state is not None else None
        note = notice_destination(store, notice.conversation)[1] if notice else ""
        if report.batch is not None and not report.refused and not note:
            # The ids of another chat's batch may name other commands of the pasted reply.
            self.paste.mark_undone({command.id for command in report.batch.commands})
        text = self.undo_control.report_text(report)
        from .pages import Page

        page = Page()
        page.add(text)
        if notice is not None:  # kept here, whoever it goes to
            page.add(f"Undo notice {notice.id}: {notice.summary} {note}".rstrip())
        self.history.add(RunRecord("undo", page))
        # The undo's own changes are the app's: the files now hold what the app put there.
        self.finish([*report.restored, *report.removed, *report.already_undone])

    def _show_undo_report(self, text: str, problems: bool) -> None:
        self.results.show_error(text, "Undo had problems." if problems else "Undo finished.")

    def _offer_undo_notice(self, text: str, block: str, notice: UndoNotice) -> bool:
        # Copy results copies only the notice. With auto-copy on it goes on the clipboard
        # at once; either way it stays pending and the next results of its chat begin with
        # it too (told twice rather than never). A notice for an MCP session is not
        # offered for the web chat, which never sent those commands.
        from ..core.store.conversations import MCP, notice_destination

        state = self.session.state if self.session is not None else None
        channel, note = notice_destination(state.store if state else None, notice.conversation)
        if channel == MCP:
            self.results.show_error(f"{text}\n\n{note}", "Undo finished.")
            return False
        head = f"{note}\n\n" if note else ""
        self.results.offer(
            f"{text}\n\n{head}For the chat:\n\n{block}",
            (block,),
            "Undo finished. Copy results copies the notice for the chat.",
        )
        if not self.settings.auto_copy or note:
            return False
        self.results.copy_current()
        return True

    def refresh_journal(self) -> None:
        self.undo_control.refresh()

    def save_settings(self) -> None:
        self.settings.geometry = bytes(self.saveGeometry().toBase64().data()).decode("ascii")
        self.settings.splitter = bytes(self.splitter.saveState().toBase64().data()).decode()
        self.settings.show_history = not self.history_dock.isHidden()
        try:
            self.settings.save()
        except OSError as error:
            self.statusBar().showMessage(f"Cannot save settings: {error}", 10000)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_settings()
        self.mcp_reviews.stop()
        self.clipboard.set_watching(False)
        if self.watcher is not None:
            self.watcher.stop()
        self.outline_warming.stop()
        self.console.stop_all()  # a command still running is ended with all it started
        self.tasks.wait()
        super().closeEvent(event)
