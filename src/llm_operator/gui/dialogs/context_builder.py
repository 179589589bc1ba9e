"""The context builder: tick files, write the task, copy one message (in parts) for a chat.

The tree lists the workspace as the context engine walks it (.gitignore respected, ``.git``
never shown). Ticking a folder ticks its files except the secret-looking ones, which start
unticked and marked; only ticking such a file itself lets it in. The size and token
estimate follow every tick and keystroke (debounced), from the very message "Copy for
chat" copies: the engine packs it, this dialog only shows it. A filter box above the tree
(Ctrl+F or Alt+F; Down goes on to the tree, Escape clears it) shows only the files whose
path holds what is typed, or matches it as a glob when it has ``*``, ``?`` or ``[`` (a
glob without ``/`` matches the file name at any depth), and says how many files it shows;
ticking a folder while filtered ticks the files shown. The outline of the rest is ranked
by relevance to the ticked files and the task and cut to the outline budget set here
(``core.plan.repo_map``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import (
    QBrush,
    QCloseEvent,
    QColor,
    QFontDatabase,
    QKeySequence,
    QShortcut,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import isValid

from ...core.visible import shown
from ...core.wording import counted, file_size
from ..clipboard import ClipboardBridge
from ..plain_text import plain_tip, set_plain
from ..tasks import TaskFailure, TaskRunner
from .context_action import add_context_action as add_context_action
from .context_filter import FilterBox, path_matcher
from .context_fit import FitToTask
from .context_memory import ContextMemory
from .context_selections import SelectionsButton

if TYPE_CHECKING:
    from ...core.actions.base import OutlineMemo
    from ...core.plan.context import LeftOut, WorkspaceTree
    from ...core.plan.repo_map import MapIndex, RepoMap
    from ...core.protocol.context_pack import ContextMessage, PackedFile
    from ...core.store.workspace import Workspace

DEBOUNCE_MS = 120
DEFAULT_MAP_TOKENS = 2000  # as core.plan.repo_map (not imported: the window starts without it)
MAX_BUDGET_TOKENS = 100_000
OutlineKey = tuple[frozenset[str], str, int]  # packed files, task, budget
SECRET_FG = "#cf222e"
REL_ROLE = Qt.ItemDataRole.UserRole
SECRET_ROLE = Qt.ItemDataRole.UserRole + 1
CHECKED = Qt.CheckState.Checked
UNCHECKED = Qt.CheckState.Unchecked
PARTIAL = Qt.CheckState.PartiallyChecked


# A ticked file listed as harmless that is secret-looking when read: a link retargeted
# since the list was made.
RETARGETED_REASON = (
    "it now leads to a secret-looking file (a link changed since the list was made); "
    "close and reopen the builder to see it marked, and tick it there to send it"
)


class ContextBuilder(QDialog):
    def __init__(
        self,
        workspace: Workspace,
        clipboard: ClipboardBridge,
        part_size: Callable[[], int],
        parent: QWidget | None = None,
        outlines: Callable[[], OutlineMemo | None] = lambda: None,
        new_chat: Callable[[], str] = lambda: "",
    ) -> None:
        super().__init__(parent)
        # Starts a new conversation (the message carries the primer: a new chat); returns
        # why that failed, or "".
        self._new_chat = new_chat
        self.setWindowTitle(f"Context for a chat - {workspace.root.name}")
        self.setObjectName("context-builder")
        self.workspace = workspace
        self._workspace = workspace
        self._clipboard = clipboard
        self._part_size = part_size
        self._outlines = outlines  # where outlines are kept between runs (the state store)
        self._reading: dict[str, tuple[tuple[int, int], PackedFile | LeftOut]] = {}
        self._outline: tuple[OutlineKey, RepoMap] | None = None
        self._outline_wanted: OutlineKey | None = None  # being made in the worker
        self._index: MapIndex | None = None  # the workspace as the outline ranks it
        self.outline_shown: RepoMap | None = None
        self._tasks = TaskRunner(self)
        self.loaded = False
        self._updating = False
        self._order: list[str] = []  # every file, in walk order
        self._items: dict[str, QTreeWidgetItem] = {}
        self._ticked: set[str] = set()  # kept in step with the check boxes
        self._primer: str | None = None
        self.message: ContextMessage | None = None
        self.left_out: list[LeftOut] = []
        self.outline_pending = False
        self.parts: tuple[str, ...] = ()
        self.copied = 0
        self.memory = ContextMemory.of(parent, str(workspace.root))
        self._restoring: list[str] | None = self.memory.state.ticked  # ticked once listed
        self._build()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        remembered = self.memory.state  # as the builder was left in this workspace
        self.filter.setText(remembered.filter)
        self.budget.setValue(remembered.budget or DEFAULT_MAP_TOKENS)
        self.outline_box.setChecked(remembered.outline)
        self.load_tree()

    # -- layout ----------------------------------------------------------------

    def _build(self) -> None:
        self.tree = QTreeWidget()
        self.tree.setObjectName("context-tree")
        self.tree.setHeaderLabels(["File", "Size", ""])
        self.tree.setUniformRowHeights(True)
        self.tree.itemChanged.connect(self._on_item_changed)
        self.filter = FilterBox(self.tree)
        self.filter.setObjectName("context-filter")
        self.filter.setPlaceholderText("Part of a path, or a glob such as *.py (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.apply_filter)
        self.filter_count = QLabel()
        self.filter_count.setObjectName("context-filter-count")
        self.tree_note = QLabel()
        self.tree_note.setWordWrap(True)
        self.task = QPlainTextEdit()
        self.task.setObjectName("context-task")
        self.task.setPlaceholderText("The task: what should the LLM do with these files?")
        self.task.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.task.textChanged.connect(self.schedule_refresh)
        self.outline_box = QCheckBox("Add an outline of the rest of the workspace")
        self.outline_box.setChecked(True)
        self.outline_box.toggled.connect(self.schedule_refresh)
        self.fit = FitToTask(self.schedule_refresh)
        self.budget = QSpinBox()
        self.budget.setObjectName("context-budget")
        self.budget.setRange(100, MAX_BUDGET_TOKENS)
        self.budget.setSingleStep(500)
        self.budget.setValue(DEFAULT_MAP_TOKENS)
        self.budget.setSuffix(" tokens")
        self.budget.setToolTip(
            "About how many tokens (characters / 4) the outline may take; the structures most "
            "relevant to the ticked files and the task go in first"
        )
        self.budget.valueChanged.connect(self.schedule_refresh)
        self.outline_box.toggled.connect(self.budget.setEnabled)
        self.estimate = QLabel()
        self.estimate.setObjectName("context-estimate")
        self.estimate.setWordWrap(True)
        self.copy_button = QPushButton("Copy for chat")
        self.copy_button.setDefault(True)
        self.copy_button.clicked.connect(self.copy_for_chat)
        self.next_button = QPushButton("Copy next part")
        self.next_button.clicked.connect(self.copy_next)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.kept = QLabel()  # what a restart or a selection ticked, or left unticked
        self.kept.setObjectName("context-kept")
        self.kept.setWordWrap(True)
        self.selections = SelectionsButton(
            self.memory, self.ticked, self.tick_only, lambda text: set_plain(self.kept, text)
        )
        left = self._lay_out_left()
        right = self._lay_out_right()
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([620, 380])
        layout = QVBoxLayout(self)
        layout.addWidget(split)
        self.resize(1000, 640)
        QShortcut(QKeySequence("Ctrl+F"), self, self.focus_filter)
        chain = (self.filter, self.tree, self.task, self.outline_box, self.budget)
        for first, second in zip(chain, (*chain[1:], self.copy_button), strict=True):
            QWidget.setTabOrder(first, second)
        QWidget.setTabOrder(self.copy_button, self.next_button)

    def _lay_out_left(self) -> QWidget:
        """The filter and the tree of files."""
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(QLabel("Files to send (secret-looking files start unticked):"))
        filter_row = QHBoxLayout()
        filter_label = QLabel("&Filter:")
        filter_label.setBuddy(self.filter)
        filter_row.addWidget(filter_label)
        filter_row.addWidget(self.filter, 1)
        filter_row.addWidget(self.filter_count)
        left_layout.addLayout(filter_row)
        left_layout.addWidget(self.tree, 1)
        self.tree.header().setStretchLastSection(True)
        left_layout.addWidget(self.tree_note)
        return left

    def _lay_out_right(self) -> QWidget:
        """The task, the outline settings, the estimate and the buttons."""
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(QLabel("Task:"))
        right_layout.addWidget(self.task, 1)
        right_layout.addWidget(self.outline_box)
        right_layout.addWidget(self.fit)
        budget_row = QHBoxLayout()
        budget_row.addWidget(QLabel("Outline budget:"))
        budget_row.addWidget(self.budget)
        budget_row.addStretch(1)
        right_layout.addLayout(budget_row)
        right_layout.addWidget(self.estimate)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.next_button)
        buttons.addStretch(1)
        buttons.addWidget(self.selections)
        right_layout.addLayout(buttons)
        right_layout.addWidget(self.status)
        right_layout.addWidget(self.kept)
        return right

    def focus_filter(self) -> None:
        self.filter.setFocus()
        self.filter.selectAll()

    # -- the tree --------------------------------------------------------------

    def load_tree(self) -> None:
        """List the workspace in a worker (a large tree takes a moment), then fill the tree."""
        from ...core.plan.context import workspace_tree

        self.loaded = False
        self.tree_note.setText("Listing the workspace...")
        self.copy_button.setEnabled(False)
        workspace = self._workspace
        self._tasks.start(lambda progress: workspace_tree(workspace), self._listed, self._failed)

    def _listed(self, listing: WorkspaceTree) -> None:
        if not isValid(self.tree):
            return
        kept, note = self._ticked, ""
        self._fill(listing)
        if not kept and self._restoring:  # the first listing: ticked as last left
            kept, note = set(self._restoring), self._secret_note(self._restoring)
            kept -= {rel for rel, item in self._items.items() if item.data(0, SECRET_ROLE)}
        self._restoring = None
        # Reopened: the files still there stay ticked (a secret-looking one only if it was
        # ticked by hand before, which is the only way it got into the set).
        for rel in kept:
            item = self._items.get(rel)
            if item is not None:
                item.setCheckState(0, CHECKED)
        self.loaded = True
        self._index = None  # listed anew: the outline is ranked over the tree as it is now
        self.apply_filter(self.filter.text())
        self.copy_button.setEnabled(True)
        self.schedule_refresh()
        if note:
            set_plain(self.kept, note.strip())

    def _secret_note(self, paths: list[str]) -> str:
        """What a restart or a recalled selection did not tick: secret-looking files."""
        secret = [p for p in paths if p in self._items and self._items[p].data(0, SECRET_ROLE)]
        if not secret:
            return ""
        return f" {counted(len(secret), 'secret-looking file')} left unticked: tick by hand."

    def tick_only(self, paths: list[str]) -> str:
        """Tick exactly ``paths`` (those still listed, secret-looking ones apart)."""
        wanted = set(paths)
        for rel, item in self._items.items():
            on = rel in wanted and not item.data(0, SECRET_ROLE)
            if (item.checkState(0) == CHECKED) != on:
                item.setCheckState(0, CHECKED if on else UNCHECKED)
        gone = len(wanted - set(self._items))
        return self._secret_note(paths) + (
            f" {counted(gone, 'file')} no longer there." if gone else ""
        )

    def _failed(self, failure: TaskFailure) -> None:
        set_plain(self.tree_note, f"The workspace could not be listed: {failure}")

    def _fill(self, listing: WorkspaceTree) -> None:
        self._updating = True
        self.tree.clear()
        self._order = [entry.rel for entry in listing.files]
        self._items = {}
        self._ticked = set()
        folders: dict[str, QTreeWidgetItem] = {}
        secret_brush = QBrush(QColor(SECRET_FG))
        for entry in listing.files:
            parent_rel, _, name = entry.rel.rpartition("/")
            parent = self._folder(parent_rel, folders)
            item = QTreeWidgetItem([shown(name), file_size(entry.size), ""])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setData(0, REL_ROLE, entry.rel)
            item.setData(0, SECRET_ROLE, entry.secret)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(0, UNCHECKED)
            if entry.secret:
                item.setText(2, "secret-looking: tick to send")
                item.setToolTip(2, "Secret-looking files go into the message only when ticked here")
                for column in range(3):
                    item.setForeground(column, secret_brush)
            item.setToolTip(0, plain_tip(entry.rel))
            self._items[entry.rel] = item
            if parent is None:
                self.tree.addTopLevelItem(item)
            else:
                parent.addChild(item)
        self.tree.expandToDepth(0)
        # Sized for nested names, not measured: measuring 20,000 rows would be slow.
        self.tree.setColumnWidth(0, 280)
        self.tree.setColumnWidth(1, 80)
        self._updating = False
        notes = [counted(len(listing.files), "file")]
        if listing.ignored:
            notes.append(f"{listing.ignored} left out by .gitignore")
        if listing.cut:
            notes.append("the workspace has more files than the list shows")
        text = "; ".join(notes) + "."
        if listing.left_out:
            # Names escaped as in every listing, then shown through the one renderer.
            from ...core.plan.context import left_out_text

            text += "\nNot listed: " + left_out_text(listing.left_out)
        set_plain(self.tree_note, text)

    def apply_filter(self, text: str) -> None:
        """Show only the files ``text`` matches (see ``path_matcher``) and their folders."""
        matches = path_matcher(text)
        self.tree.setUpdatesEnabled(False)
        try:
            self._filter_below(self.tree.invisibleRootItem(), matches)
            if text.strip():
                self.tree.expandAll()
        finally:
            self.tree.setUpdatesEnabled(True)
        total = len(self._order)
        if text.strip():
            self.filter_count.setText(f"{len(self.shown_files())} of {counted(total, 'file')}")
        else:
            self.filter_count.setText(counted(total, "file"))

    def _filter_below(self, item: QTreeWidgetItem, matches: Callable[[str], bool]) -> bool:
        shown_any = False
        for child in self._children(item):
            rel = child.data(0, REL_ROLE)
            shown = self._filter_below(child, matches) if rel is None else matches(str(rel))
            child.setHidden(not shown)
            shown_any = shown_any or shown
        return shown_any

    def shown_files(self) -> list[str]:
        """The files the filter shows, in walk order."""
        return [rel for rel in self._order if not self._items[rel].isHidden()]

    def _folder(self, rel: str, folders: dict[str, QTreeWidgetItem]) -> QTreeWidgetItem | None:
        if not rel:
            return None
        found = folders.get(rel)
        if found is not None:
            return found
        parent_rel, _, name = rel.rpartition("/")
        parent = self._folder(parent_rel, folders)
        item = QTreeWidgetItem([shown(name) + "/", "", ""])
        item.setData(0, REL_ROLE, None)
        item.setData(0, SECRET_ROLE, False)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(0, UNCHECKED)
        if parent is None:
            self.tree.addTopLevelItem(item)
        else:
            parent.addChild(item)
        folders[rel] = item
        return item

    @staticmethod
    def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
        found = (item.child(index) for index in range(item.childCount()))
        return [child for child in found if child is not None]

    def _files_below(self, item: QTreeWidgetItem) -> Iterator[QTreeWidgetItem]:
        for child in self._children(item):
            if child.data(0, REL_ROLE) is None:
                yield from self._files_below(child)
            else:
                yield child

    def all_files(self) -> Iterator[QTreeWidgetItem]:
        root = self.tree.invisibleRootItem()
        yield from self._files_below(root)

    def ticked(self) -> list[str]:
        """The ticked files, in walk order."""
        return [rel for rel in self._order if rel in self._ticked]

    def set_ticked(self, rel: str, on: bool) -> None:
        self._items[rel].setCheckState(0, CHECKED if on else UNCHECKED)

    def _note_state(self, item: QTreeWidgetItem) -> None:
        rel = str(item.data(0, REL_ROLE))
        if item.checkState(0) == CHECKED:
            self._ticked.add(rel)
        else:
            self._ticked.discard(rel)

    def item_for(self, rel: str) -> QTreeWidgetItem:
        """The tree item of a file (``a/b.py``) or folder (``a/``)."""
        parts = rel.rstrip("/").split("/")
        node = self.tree.invisibleRootItem()
        for depth, name in enumerate(parts):
            is_last = depth == len(parts) - 1
            label = shown(name) if is_last and not rel.endswith("/") else shown(name) + "/"
            node = next(child for child in self._children(node) if child.text(0) == label)
        return node

    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._updating or column != 0:
            return
        self._updating = True
        try:
            if item.data(0, REL_ROLE) is None:
                # With a filter, a folder's tick is about the files shown.
                files = [f for f in self._files_below(item) if not f.isHidden()]
                on = item.checkState(0) != UNCHECKED
                public = [f for f in files if not f.data(0, SECRET_ROLE)]
                if on and all(f.checkState(0) == CHECKED for f in public):
                    # A folder shown half-ticked because its secret files are left out:
                    # clicking it again means "none of these".
                    on = False
                for child in files:
                    # A folder tick never ticks a secret-looking file; unticking clears all.
                    if not on or not child.data(0, SECRET_ROLE):
                        child.setCheckState(0, CHECKED if on else UNCHECKED)
                    self._note_state(child)
                self._sync_folders(item)
            else:
                self._note_state(item)
            self._sync_parents(item.parent())
        finally:
            self._updating = False
        self.schedule_refresh()

    def _sync_folders(self, folder: QTreeWidgetItem) -> None:
        for child in self._children(folder):
            if child.data(0, REL_ROLE) is None:
                self._sync_folders(child)
        self._set_folder_state(folder)

    def _set_folder_state(self, folder: QTreeWidgetItem) -> None:
        states = {item.checkState(0) for item in self._files_below(folder)}
        if states == {CHECKED}:
            folder.setCheckState(0, CHECKED)
        elif states <= {UNCHECKED}:
            folder.setCheckState(0, UNCHECKED)
        else:
            folder.setCheckState(0, PARTIAL)

    def _sync_parents(self, folder: QTreeWidgetItem | None) -> None:
        while folder is not None:
            self._set_folder_state(folder)
            folder = folder.parent()

    # -- the message -------------------------------------------------------------

    def schedule_refresh(self) -> None:
        if isValid(self._timer):  # a worker may report after the dialog was destroyed
            self._timer.start()

    def _read(self, rel: str) -> PackedFile | LeftOut:
        from ...core.plan.context import SECRET_REASON, LeftOut, read_for_context

        try:
            info = self._workspace.resolve(rel).stat()
            key = (info.st_size, info.st_mtime_ns)
        except OSError:
            return LeftOut(rel, "no longer there")
        cached = self._reading.get(rel)
        if cached is not None and cached[0] == key:
            return cached[1]
        # A file shown as secret-looking goes in because the user ticked it so; any other
        # that turns out secret-looking when read (a link retargeted) stays out.
        item = self._items.get(rel)
        shown_secret = bool(item is not None and item.data(0, SECRET_ROLE))
        read = read_for_context(self._workspace, rel, include_secrets=shown_secret)
        if isinstance(read, LeftOut) and read.reason == SECRET_REASON:
            read = LeftOut(rel, RETARGETED_REASON)  # it was listed as harmless
        self._reading[rel] = (key, read)
        return read

    def _outline_text(self, packed: list[PackedFile], task: str, wait: bool) -> RepoMap | None:
        """The ranked outline of the files not packed; None while the worker makes it.

        Outlines parse files (about half a second for 300 files the first time), so the
        workspace is indexed in a worker once, and each change of ticks, task or budget
        ranks that index again there; the estimate follows when it is ready. Copying waits
        and indexes anew, so what is copied describes the files as they are then
        (unchanged files come from the kept outlines, so this is quick).
        """
        from ...core.plan.context import outline_of_rest
        from ...core.plan.repo_map import index_workspace

        key: OutlineKey = (frozenset(p.rel for p in packed), task, self.budget.value())
        tokens = key[2]
        if not wait and self._outline is not None and self._outline[0] == key:
            return self._outline[1]
        workspace, memo = self._workspace, self._outlines()
        if wait:
            self._tasks.wait()
            self._index = index_workspace(workspace, memo)
            made = outline_of_rest(workspace, packed, task, tokens, index=self._index)
            self._outline = (key, made)
            return made
        if self._outline_wanted != key:
            self._outline_wanted = key
            index = self._index

            def work(progress: object) -> tuple[OutlineKey, MapIndex, RepoMap]:
                kept = index if index is not None else index_workspace(workspace, memo)
                return key, kept, outline_of_rest(workspace, packed, task, tokens, index=kept)

            self._tasks.start(work, self._outline_ready, self._outline_failed)
        return None

    def _outline_ready(self, made: tuple[OutlineKey, MapIndex, RepoMap]) -> None:
        if self._index is None:
            self._index = made[1]
        if made[0] == self._outline_wanted:
            self._outline = (made[0], made[2])
            self._outline_wanted = None
            self.schedule_refresh()

    def _outline_failed(self, failure: TaskFailure) -> None:
        self._outline_wanted = None
        set_plain(self.status, f"The outline could not be made: {failure}")

    def closeEvent(self, event: QCloseEvent) -> None:
        self._tasks.wait()
        super().closeEvent(event)

    def build(self, wait: bool = True) -> ContextMessage:
        """The message for the current ticks, task and options (what Copy for chat copies).

        With ``wait`` False an outline not made yet is left out (and said so).
        """
        from ...core.plan.context import LeftOut, primer_text
        from ...core.protocol.context_pack import pack_message

        if self._primer is None:
            self._primer = primer_text()
        packed: list[PackedFile] = []
        self.left_out = []
        for rel in self.ticked():
            read = self._read(rel)
            if isinstance(read, LeftOut):
                self.left_out.append(read)
            else:
                packed.append(read)
        task = self.task.toPlainText()
        packed = self.fit.apply(packed, task)
        self.outline_pending = False
        self.outline_shown = None
        if self.outline_box.isChecked():
            self.outline_shown = self._outline_text(packed, task, wait)
            self.outline_pending = self.outline_shown is None
        outline = self.outline_shown.text if self.outline_shown is not None else None
        return pack_message(self._primer, task, packed, outline or None, self._part_size())

    def refresh(self) -> None:
        self._timer.stop()
        self.message = self.build(wait=False)
        files = len(self.ticked()) - len(self.left_out)
        parts = len(self.message.parts)
        text = (
            f"{files} file{'s' if files != 1 else ''} ticked: {self.message.chars:,} characters, "
            f"about {self.message.tokens:,} tokens (characters / 4); "
            f"{parts} part{'s' if parts != 1 else ''} of at most {self._part_size():,} characters"
        )
        if self.outline_pending:
            text += " (the outline is being made: not counted yet)"
        shown = self.outline_shown
        if shown is not None:
            from ...core.protocol.context_pack import estimate_tokens

            text += (
                f"\nOutline: about {estimate_tokens(len(shown.text)):,} of "
                f"{self.budget.value():,} tokens, {shown.files} of {shown.total_files} other "
                "files, most relevant first"
            )
        if self.left_out:
            from ...core.plan.context import left_out_text

            text += "\nLeft out: " + left_out_text(self.left_out)
        if self.message.cut_names:
            from ...core.file_names import visible_name

            text += "\nNamed cut (too long for the part size): " + "; ".join(
                visible_name(rel) for rel in self.message.cut_names
            )
        set_plain(self.estimate, text)  # names from the disk
        self._refresh_buttons()
        if self.loaded:  # kept for the next start (not before the ticks are listed)
            self.memory.keep(
                self.ticked(), self.filter.text(), self.budget.value(), self.outline_box.isChecked()
            )

    def copy_for_chat(self) -> None:
        """Copy part 1 of the current message (the whole message when it fits in one)."""
        self.message = self.build(wait=True)
        self.refresh()
        self.parts = self.message.parts
        self.copied = 0
        problem = self._new_chat()
        self.copy_next()
        if problem:
            self.status.setText(f"{self.status.text()} {problem}")

    def copy_next(self) -> None:
        if self.copied >= len(self.parts):
            return
        self._clipboard.copy(self.parts[self.copied])
        self.copied += 1
        self._refresh_buttons()

    def _refresh_buttons(self) -> None:
        n = len(self.parts)
        has_next = self.copied < n
        self.next_button.setVisible(n > 1)
        self.next_button.setEnabled(n > 1 and has_next)
        if not n or not self.copied:
            self.status.setText("Nothing copied yet.")
        elif n == 1:
            self.status.setText("Copied: paste it into a new chat.")
        else:
            more = " Paste it, then Copy next part." if has_next else " That was the last."
            self.status.setText(f"Part {self.copied} of {n} copied.{more}")


def open_context_builder(
    window: QWidget,
    workspace: Workspace,
    clipboard: ClipboardBridge,
    part_size: Callable[[], int],
    previous: ContextBuilder | None = None,
    outlines: Callable[[], OutlineMemo | None] = lambda: None,
    new_chat: Callable[[], str] = lambda: "",
) -> ContextBuilder:
    """Show the context builder for ``workspace`` (not modal: the chat stays reachable).

    The builder of the same workspace is shown again with its ticks and task, its tree
    listed anew (files may have come or gone); another workspace gets a new one.
    """
    if previous is not None and previous.workspace is workspace:
        if previous.isVisible():
            previous.raise_()
            previous.activateWindow()
        else:
            previous.load_tree()
            previous.show()
        return previous
    if previous is not None:
        previous.close()
        previous.deleteLater()
    dialog = ContextBuilder(workspace, clipboard, part_size, window, outlines, new_chat)
    dialog.show()
    return dialog
