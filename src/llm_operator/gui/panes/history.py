"""The workspace's runs, read from the state store (with their results and what became of
their undo), this window's records of them (commands, decisions, diffs), and the undo line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ...core.errors import OperatorError
from ...core.outcome import Outcome
from ...core.plan.earlier import tally, verdicts
from ...core.plan.run import rejected_by_user
from ...core.protocol.encoder import Result
from ...core.protocol.readable import ReadableFormatError
from ...core.protocol.result_reader import read_results
from ...core.store.history import UndoState
from ...core.visible import shown
from ...core.wording import counted
from ..pages import Page, PageView, ResultSource, change_page, result_page
from ..plain_text import plain_question, plain_tip, set_plain
from ..row_style import RowStyle

if TYPE_CHECKING:
    from ...core.plan.preview import ChangePreview
    from ...core.plan.run import Decision, Run
    from ...core.store.history import StoredRun
    from ...core.store.workspace import Workspace
    from ..undo_source import BatchSummary

WIDE_ENOUGH = 360  # the dock's first width: an entry's time, counts and undo state


class RunSource(Protocol):
    """Where the runs come from: the open workspace's session."""

    def stored_runs(self) -> list[StoredRun]: ...

    def run_results(self, number: int) -> str | None: ...

    @property
    def workspace(self) -> Workspace: ...


def stored_results(text: str) -> list[Result]:
    """The results a run sent, read back from the store (details as text again)."""
    return [
        Result(
            read.id,
            Outcome(
                read.ok,
                read.summary,
                read.details.decode("utf-8", "surrogateescape") if read.details else None,
            ),
        )
        for read in read_results(text)
    ]


@dataclass(frozen=True)
class RunRecord:
    """A run (or an undo) as this window saw it: commands, decisions and diffs in ``page``;
    its results (as decoded for the person) in ``results``; ``ids`` (id, ok) of its results
    find the run again in the state store."""

    title: str
    page: Page
    when: datetime = field(default_factory=datetime.now)
    results: Page | None = None
    ids: tuple[tuple[str, bool], ...] | None = None
    sources: dict[str, ResultSource] = field(default_factory=dict)
    # Each change's diff goes after this many lines of ``page``; shown unless secret-looking.
    changes: tuple[tuple[int, ChangePreview], ...] = ()

    @property
    def text(self) -> str:
        return self.page.text

    def rendered(self, is_secret: Callable[[str], bool]) -> Page:
        """The page with each change's diff in its place; a secret-looking file's diff is
        not kept here (the review showed it), only what was done to it."""
        page = Page()
        done = 0
        for at, preview in self.changes:
            page.lines += self.page.lines[done:at]
            page.rows += self.page.rows[done:at]
            done = at
            if is_secret(preview.path):
                for line in preview.review:
                    page.add(line, RowStyle("heading"))
                page.add("(the diff of a secret-looking file is not kept in the history)")
                page.add("")
            else:
                page.extend(change_page((preview,)))
        page.lines += self.page.lines[done:]
        page.rows += self.page.rows[done:]
        return page


def sources_of(run: Run, decisions: dict[int, Decision]) -> dict[str, ResultSource]:
    sources = {}
    for item in run.items:
        sources[item.id] = ResultSource(item.action, item.path, rejected_by_user(item, decisions))
    return sources


def record_run(run: Run, decisions: dict[int, Decision], results: list[Result]) -> RunRecord:
    page = Page()
    changes: list[tuple[int, ChangePreview]] = []
    page.add("Commands", RowStyle("heading"))
    for item in run.items:
        page.add(f"  {item.index + 1}. {item.action or '(invalid)'} {item.path or ''} id {item.id}")
    for pending in run.pending:
        decision = decisions.get(pending.index)
        verdict = "approved" if decision and decision.approved else "rejected"
        if decision and decision.reason:
            verdict += f" ({decision.reason})"
        page.add("")
        page.add(
            f"{pending.action} {pending.id}: {verdict}",
            RowStyle("title-ok" if verdict == "approved" else "title-failed"),
        )
        if pending.held and pending.reveal is not None:
            # A command to run is held for its review too, and reads no file to be asked.
            asked = "before it ran" if pending.command.spec.runs else "before it read the file"
            page.add(f"asked {asked}: {pending.reveal.reason}")
        elif pending.reveal is not None:
            what = (
                "file content"
                if pending.reveal.approved.ok
                else "an error message quoting the file"
            )
            page.add(f"wanted to send {what} to the chat: {pending.reveal.reason}")
        changes += [(len(page.lines), preview) for preview in pending.previews]
    sources = sources_of(run, decisions)
    return RunRecord(
        tally(verdicts(run, decisions)).describe(),
        page,
        results=result_page(results, sources),
        ids=tuple((result.id, result.ok) for result in results),
        sources=sources,
        changes=tuple(changes),
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One line of the list: a stored run (with this window's record of it, if any) or a
    record only this window has (an undo report, a run the store could not keep)."""

    at: float
    stored: StoredRun | None
    local: RunRecord | None

    @property
    def key(self) -> tuple[str, int]:
        if self.stored is not None:
            return ("run", self.stored.number)
        return ("local", id(self.local))

    def when(self) -> datetime:
        return datetime.fromtimestamp(self.at)

    def undo_text(self) -> str:
        run = self.stored
        if run is None:
            return ""
        if run.newest_undoable:
            return f"{run.undo}, the newest batch (Ctrl+Alt+Z undoes it)"
        if run.undo == UndoState.UNDOABLE:
            return f"{run.undo} after the newer batches"
        return run.undo

    def line(self) -> str:
        if self.local is not None:
            title = self.local.title
        else:
            assert self.stored is not None
            run = self.stored
            title = f"{counted(run.commands, 'result')}, {run.failed} not ok"
        text = f"{self.when():%H:%M:%S}  {shown(title)}"
        if self.stored is not None and self.stored.undo != UndoState.NONE:
            text += f" \u00b7 {self.stored.undo.split(' (')[0]}"
        return text


class HistoryPanel(QWidget):
    """Every run of the workspace the state store keeps (from this window, another one or
    ``exec``, before a restart too) with the state of its undo, and this window's own
    records (commands, decisions, diffs; undo reports) beside them."""

    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.records: list[RunRecord] = []
        self.entries: list[HistoryEntry] = []
        self._source: RunSource | None = None
        self._linked: dict[int, RunRecord] = {}  # stored run number -> this window's record
        self.runs = QListWidget()
        self.runs.setObjectName("history-runs")
        self.runs.setWordWrap(True)  # an entry is read whole, never cut
        self.runs.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.detail = PageView()
        self.detail.setObjectName("history-detail")
        self.detail.setLineWrapMode(PageView.LineWrapMode.WidgetWidth)
        self.heading = QLabel("Runs of this workspace")
        self.heading.setWordWrap(True)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("Read the runs again (also done when the window is active)")
        self.refresh_button.clicked.connect(self.reload)
        self.journal = QLabel("Undo: no batches yet.")
        self.journal.setWordWrap(True)
        self.undo_button = QPushButton("Undo a batch... (Ctrl+Alt+Z)")
        self.undo_button.setToolTip(
            "Undo the newest batch of writes; it is named before anything changes"
        )
        self.undo_button.clicked.connect(self.undo_requested)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.runs)
        split.addWidget(self.detail)
        split.setStretchFactor(1, 3)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addWidget(self.journal)
        layout.addWidget(self.undo_button)
        self.runs.currentRowChanged.connect(self._show)
        self._watched: QWidget | None = None
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):  # back from a terminal that ran exec
            app.applicationStateChanged.connect(self._on_application_state)

    def sizeHint(self) -> QSize:
        """Wide enough to read an entry whole; the dock still narrows in a small window."""
        hint = super().sizeHint()
        return QSize(max(hint.width(), WIDE_ENOUGH), hint.height())

    # -- what is listed ------------------------------------------------------------

    def read_from(self, source: RunSource | None) -> None:
        """List the runs ``source`` (the session of the open workspace) keeps."""
        self._source = source
        self.reload()

    def add(self, record: RunRecord) -> None:
        self.records.append(record)
        self.reload()
        for row, entry in enumerate(self.entries):
            if entry.local is record:
                self.runs.setCurrentRow(row)

    def clear(self) -> None:
        self.records.clear()
        self._linked.clear()
        self.entries = []
        self.runs.clear()
        self.detail.clear()

    def reload(self) -> None:
        """Read the store again: runs made meanwhile by another window or ``exec`` appear,
        undo states follow undos made anywhere."""
        stored: list[StoredRun] = []
        if self._source is not None:
            try:
                stored = self._source.stored_runs()
            except OperatorError as error:
                set_plain(self.heading, f"Runs of this workspace: {error.message}")
            else:
                self.heading.setText("Runs of this workspace")
        self._link(stored)
        linked = {id(record) for record in self._linked.values()}
        entries = [HistoryEntry(run.at, run, self._linked.get(run.number)) for run in stored]
        entries += [
            HistoryEntry(record.when.timestamp(), None, record)
            for record in self.records
            if id(record) not in linked
        ]
        entries.sort(key=lambda entry: entry.at)
        current = self.runs.currentRow()
        was = self.entries[current].key if 0 <= current < len(self.entries) else None
        keys = [entry.key for entry in self.entries]
        self.entries = entries
        if [entry.key for entry in entries] == keys:
            for row, entry in enumerate(entries):  # undo states may have changed
                item = self.runs.item(row)
                item.setText(entry.line())
                item.setToolTip(plain_tip(entry.line()))
            if 0 <= current < len(entries):
                self._show(current)
            return
        self.runs.blockSignals(True)
        self.runs.clear()
        for entry in entries:
            self.runs.addItem(entry.line())
            self.runs.item(self.runs.count() - 1).setToolTip(plain_tip(entry.line()))
        self.runs.blockSignals(False)
        rows = [entry.key for entry in entries]
        self.runs.setCurrentRow(rows.index(was) if was in rows else len(rows) - 1)

    def _link(self, stored: list[StoredRun]) -> None:
        """Find this window's runs among the stored ones: the newest unlinked stored run
        with the same results (ids and ok), made within a minute of it."""
        taken = set(self._linked)
        for record in self.records:
            if record.ids is None or any(r is record for r in self._linked.values()):
                continue
            for run in reversed(stored):
                if run.number in taken or abs(run.at - record.when.timestamp()) > 60:
                    continue
                if self._ids_of(run) == record.ids:
                    self._linked[run.number] = record
                    taken.add(run.number)
                    break

    def _is_secret(self, path: str) -> bool:
        """Whether the open workspace finds ``path`` secret-looking (links followed);
        without a workspace every change counts as one."""
        if self._source is None:
            return True
        return self._source.workspace.secret_match(path) is not None

    def _results_of(self, run: StoredRun) -> list[Result] | None:
        if self._source is None:
            return None
        try:
            text = self._source.run_results(run.number)
        except OperatorError:
            return None
        if text is None:
            return None
        try:
            return stored_results(text)
        except ReadableFormatError:
            return None

    def _ids_of(self, run: StoredRun) -> tuple[tuple[str, bool], ...] | None:
        results = self._results_of(run)
        if results is None:
            return None
        return tuple((result.id, result.ok) for result in results)

    # -- what is shown -------------------------------------------------------------

    def set_journal(self, text: str, can_undo: bool) -> None:
        set_plain(self.journal, text)
        self.journal.setToolTip(plain_tip(text))
        self.undo_button.setEnabled(can_undo)
        if self._source is not None:
            self.reload()  # an undo or a run changed what the journal holds

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self.entries):
            return
        entry = self.entries[row]
        page = Page()
        if entry.stored is not None:
            run = entry.stored
            page.add(f"Run {run.number}, {entry.when():%Y-%m-%d %H:%M:%S}", RowStyle("heading"))
            page.add(f"Undo: {entry.undo_text()}")
        if entry.local is not None:
            page.extend(entry.local.rendered(self._is_secret))
        if entry.stored is not None:
            results = self._results_of(entry.stored)
            page.add("")
            page.add("Results, as the state store keeps them", RowStyle("heading"))
            if results is None:
                page.add("(they could not be read back from the state store)", RowStyle("note"))
            else:
                sources = entry.local.sources if entry.local is not None else {}
                page.extend(result_page(results, sources))
        elif entry.local is not None and entry.local.results is not None:
            page.add("")
            page.add("Results", RowStyle("heading"))
            page.extend(entry.local.results)
        self.detail.show_page(page)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        top = self.window()
        if top is not self._watched:
            if self._watched is not None:
                self._watched.removeEventFilter(self)
            top.installEventFilter(self)
            self._watched = top
        if self._source is not None:
            self.reload()

    def _on_application_state(self, state: Qt.ApplicationState) -> None:
        if state == Qt.ApplicationState.ApplicationActive and self._source is not None:
            self.reload()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.WindowActivate and self._source is not None:
            self.reload()  # runs made elsewhere meanwhile show up when the user comes back
        return super().eventFilter(watched, event)


class UndoQuestion:
    """Asks before undoing, naming the batch: undo rewrites files, never one stray key."""

    @classmethod
    def ask(cls, parent: QWidget | None, batch: BatchSummary) -> bool:
        answer = plain_question(
            parent,
            QMessageBox.Icon.Question,
            "Undo newest batch",
            batch.question(),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
            rendered=True,
        )
        return answer == QMessageBox.StandardButton.Yes


class ForceUndoQuestion:
    """The second confirmation: undo anyway, overwriting edits made after the batch."""

    @classmethod
    def ask(cls, parent: QWidget | None, paths: tuple[str, ...]) -> bool:
        listed = "\n".join(map(shown, paths[:15])) + (
            f"\n... and {len(paths) - 15} more" if len(paths) > 15 else ""
        )
        answer = plain_question(
            parent,
            QMessageBox.Icon.Warning,
            "Undo anyway?",
            f"These files were changed after the batch wrote them:\n\n{listed}\n\n"
            "Undo anyway? Their later changes are lost: they go back to what they held "
            "before the batch.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
            rendered=True,
        )
        return answer == QMessageBox.StandardButton.Yes
