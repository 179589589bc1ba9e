"""The window's menus and keyboard map: every step of a round trip has a key.

Ctrl+O        open a workspace folder      Ctrl+Return    run the pasted reply
Ctrl+V        paste a reply (anywhere)     Ctrl+Shift+C   copy the results again
Ctrl+Shift+N  copy the next part           Ctrl+Shift+P   copy the LLM primer
Ctrl+Alt+Z    undo the newest batch of writes (names it and asks first)
Ctrl+Z        undo typing in the reply box Ctrl+H         show or hide the history
Tab           next pane or button          Ctrl+Tab       a literal tab in the reply box
Ctrl+Q        quit

Batch undo is Ctrl+Alt+Z, not Ctrl+Z or Ctrl+Shift+Z: those are the text box's own undo
and redo, and a key that rewrites files must never be the one people press to fix a typo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from ..core.store.chat_presets import CUSTOM, PRESETS
from ..core.store.settings import MIN_PART_SIZE, Settings
from ..core.wording import counted
from .clipboard import ClipboardBridge

if TYPE_CHECKING:
    from ..core.plan.session import Session


class PartSizeQuestion:
    @classmethod
    def ask(cls, parent: QWidget | None, current: int) -> int | None:
        value, ok = QInputDialog.getInt(
            parent,
            "Characters per part",
            "Results longer than this are split into parts (a chat input's limit):",
            current,
            MIN_PART_SIZE,
            10_000_000,
            1000,
        )
        return value if ok else None


class ChatQuestion:
    """Which chat the parts are for: its preset size, or the custom one."""

    @classmethod
    def ask(cls, parent: QWidget | None, current: str) -> str | None:
        keys = [p.key for p in PRESETS] + [CUSTOM]
        items = [f"{p.title} ({p.part_size:,} characters a part)" for p in PRESETS]
        items.append("Custom (Characters per part...)")
        chosen, ok = QInputDialog.getItem(
            parent,
            "Chat",
            "The chat that context and results parts are made for:",
            items,
            keys.index(current) if current in keys else len(keys) - 1,
            False,
        )
        return keys[items.index(chosen)] if ok and chosen in items else None


class SecretPatternsQuestion:
    @classmethod
    def ask(cls, parent: QWidget | None, current: list[str]) -> list[str] | None:
        text, ok = QInputDialog.getMultiLineText(
            parent,
            "Secret-looking files",
            "Reads of files whose name matches one of these patterns (one per line, * and ? "
            "as wildcards), or names a copy of such a file (.env copy, credentials (1).json, "
            "key.pem.bak), wait for your approval, since what is read goes to the chat:",
            "\n".join(current),
        )
        if not ok:
            return None
        return [line.strip() for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class WindowCommands:
    """What the menus run: the window's own steps, handed over as plain callables."""

    choose_workspace: Callable[[], None]
    open_workspace: Callable[[Path], None]
    run_reply: Callable[[], None]
    copy_results: Callable[[], None]
    copy_next_part: Callable[[], None]
    undo_last_batch: Callable[[], None]
    paste_reply: Callable[[], None]
    set_clipboard_watch: Callable[[bool], None]  # the bridge and its indicator
    set_tab_inserts_tab: Callable[[bool], None]
    session: Callable[[], Session | None]
    save_settings: Callable[[], None]
    apply_secret_patterns: Callable[[], None]


class WindowActions:
    """The menus of ``window`` (any QMainWindow: only its menu and status bars are used)."""

    def __init__(
        self,
        window: QMainWindow,
        settings: Settings,
        clipboard: ClipboardBridge,
        commands: WindowCommands,
        history_toggle: QAction,
    ) -> None:
        self._window = window
        self._settings = settings
        self._clipboard = clipboard
        self._commands = commands
        bar = window.menuBar()
        workspace = bar.addMenu("&Workspace")
        self.open = self._action(workspace, "&Open folder...", "Ctrl+O", commands.choose_workspace)
        self.recent_menu = workspace.addMenu("&Recent workspaces")
        self.forget = self._action(
            workspace, "&Start a new chat (command ids may be used again)", None, self._new_chat
        )
        workspace.addSeparator()
        self.quit = self._action(workspace, "&Quit", "Ctrl+Q", window.close)

        edit = bar.addMenu("&Edit")
        self.paste = self._action(edit, "&Paste reply", "Ctrl+V", commands.paste_reply)
        self.undo = self._action(
            edit, "&Undo newest batch of writes...", "Ctrl+Alt+Z", commands.undo_last_batch
        )

        run = bar.addMenu("&Run")
        self.run = self._action(run, "&Run reply", None, commands.run_reply)
        self.run.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.copy = self._action(run, "&Copy results", "Ctrl+Shift+C", commands.copy_results)
        self.copy_next = self._action(
            run, "Copy &next part", "Ctrl+Shift+N", commands.copy_next_part
        )
        run.addSeparator()
        self.primer = self._action(run, "Copy LLM &primer", "Ctrl+Shift+P", self._copy_primer)
        self.checks = self._action(run, "C&hecks of this workspace...", None, self._edit_checks)

        options = bar.addMenu("&Settings")
        self.auto_copy = self._toggle(
            options, "Copy results &automatically", settings.auto_copy, self._set_auto_copy
        )
        self.strict_results = self._toggle(
            options,
            "Strict v3 results (details_&b64, for tools)",
            settings.results_form == "base64",
            self._set_strict_results,
        )
        self.watch = self._toggle(
            options, "&Watch the clipboard for replies", settings.clipboard_watch, self._set_watch
        )
        self.raise_every_reply = self._toggle(
            options,
            "Bring the window to &front for every reply",
            settings.raise_every_reply,
            self._set_raise_every_reply,
        )
        self.reopen = self._toggle(
            options,
            "&Reopen the last workspace at start",
            settings.reopen_last_workspace,
            self._set_reopen,
        )
        self.literal_tab = self._toggle(
            options, "&Tab types a tab in the reply box", settings.tab_inserts_tab, self._set_tab
        )
        self._action(options, "C&hat the parts are for...", None, self._ask_chat)
        self._action(options, "Characters per &part...", None, self._ask_part_size)
        self.secrets = self._action(
            options, "&Secret-looking files...", None, self._ask_secret_patterns
        )
        self.secret_environment = self._action(
            options,
            "Secret-looking &environment variables...",
            None,
            self._ask_secret_environment,
        )

        view = bar.addMenu("&View")
        self.history = history_toggle
        self.history.setShortcut(QKeySequence("Ctrl+H"))
        view.addAction(self.history)

        # A tool button shows its action's icon text; keep the key in sight.
        self.run.setIconText("Run (Ctrl+Return)")
        self.primer.setIconText("Copy LLM primer")
        self.fill_recent()

    def _action(
        self, menu: QMenu, text: str, keys: str | None, slot: Callable[[], object]
    ) -> QAction:
        action = QAction(text, self._window)
        if keys:
            action.setShortcut(QKeySequence(keys))
        action.triggered.connect(lambda _checked=False: slot())
        menu.addAction(action)
        return action

    def _toggle(self, menu: QMenu, text: str, on: bool, slot: Callable[[bool], None]) -> QAction:
        action = QAction(text, self._window)
        action.setCheckable(True)
        action.setChecked(on)
        action.toggled.connect(slot)
        menu.addAction(action)
        return action

    def fill_recent(self) -> None:
        self.recent_menu.clear()
        recent = self._settings.recent_workspaces
        for number, folder in enumerate(recent, start=1):
            label = f"&{number} {folder}" if number < 10 else folder
            action = self.recent_menu.addAction(label)
            action.triggered.connect(
                lambda _checked=False, f=folder: self._commands.open_workspace(Path(f))
            )
        self.recent_menu.setEnabled(bool(recent))

    def _set_auto_copy(self, on: bool) -> None:
        self._settings.auto_copy = on
        self._settings.save()

    def _set_strict_results(self, on: bool) -> None:
        self._settings.results_form = "base64" if on else "readable"
        self._settings.save()

    def _set_watch(self, on: bool) -> None:
        self._settings.clipboard_watch = on
        self._commands.set_clipboard_watch(on)
        self._settings.save()

    def _set_raise_every_reply(self, on: bool) -> None:
        self._settings.raise_every_reply = on
        self._settings.save()

    def _set_reopen(self, on: bool) -> None:
        self._settings.reopen_last_workspace = on
        self._settings.save()

    def _set_tab(self, on: bool) -> None:
        self._settings.tab_inserts_tab = on
        self._commands.set_tab_inserts_tab(on)
        self._settings.save()

    def start_chat(self) -> str:
        """Start a new conversation on the paste channel: the next pasted replies come from
        a new chat, whose model counts its ids from the start again (the old chat's are
        not answered as repeats). Returns why that failed, or "" when it did not."""
        session = self._commands.session()
        if session is None:
            return ""
        from ..core.errors import OperatorError
        from ..core.store.conversations import PASTE, start_conversation

        try:
            start_conversation(session.state.store if session.state else None, PASTE)
        except OperatorError as error:  # a read-only, full or damaged state store
            return (
                f"A new chat could not be started ({error.code}): {error.message}; the ids "
                "of the old chat are still taken."
            )
        return ""

    def _new_chat(self) -> None:
        problem = self.start_chat()
        self._window.statusBar().showMessage(
            problem or "A new chat starts: command ids of the old chat may be used again.",
            0 if problem else 5000,
        )

    def _copy_primer(self) -> None:
        from .assets import primer_text

        status = self._window.statusBar()
        try:
            self._clipboard.copy(primer_text(self._settings.results_form))
        except OSError as error:
            status.showMessage(f"Cannot read the interface spec: {error}")
            return
        # A primer starts a new chat, whose model will count its ids from the start again:
        # results remembered from the old chat must not come back as repeats.
        problem = self.start_chat()
        if problem:
            status.showMessage(f"LLM primer copied. {problem}")
            return
        status.showMessage(
            "LLM primer copied: paste it into a new chat (ids of the old chat may be used again).",
            8000,
        )

    def _ask_secret_patterns(self) -> None:
        settings = self._settings
        patterns = SecretPatternsQuestion.ask(self._window, settings.secret_patterns)
        if patterns is None:
            return
        settings.secret_patterns = patterns
        self._commands.save_settings()
        self._commands.apply_secret_patterns()
        self._window.statusBar().showMessage(
            f"{counted(len(patterns), 'secret-looking file pattern')} in force.", 5000
        )

    def _ask_secret_environment(self) -> None:
        from .dialogs.environment_patterns import EnvironmentPatternsDialog

        settings = self._settings
        patterns = EnvironmentPatternsDialog.ask(self._window, settings.secret_environment)
        if patterns is None:
            return
        settings.secret_environment = patterns
        self._commands.save_settings()
        self._commands.apply_secret_patterns()
        self._window.statusBar().showMessage(
            f"{counted(len(patterns), 'secret-looking environment pattern')} in force.", 5000
        )

    def _edit_checks(self) -> None:
        from .dialogs.checks_dialog import ChecksDialog

        session = self._commands.session()
        status = self._window.statusBar()
        if session is None:
            status.showMessage("Open a workspace first: checks belong to a workspace.", 5000)
            return
        store = session.state.store if session.state is not None else None
        if store is None:
            problem = session.store_problem
            why = f" ({problem.code}): {problem.message}" if problem is not None else ""
            status.showMessage(f"The checks cannot be edited: no state store{why}", 10000)
            return
        ChecksDialog.ask(self._window, store, session.workspace.root.name)

    def _ask_part_size(self) -> None:
        settings = self._settings
        value = PartSizeQuestion.ask(self._window, settings.part_size)
        if value is not None:
            settings.part_size = value
            settings.chat = CUSTOM  # a size of one's own is the custom chat's
            self._commands.save_settings()

    def _ask_chat(self) -> None:
        settings = self._settings
        chosen = ChatQuestion.ask(self._window, settings.chat)
        if chosen is not None:
            settings.chat = chosen
            self._commands.save_settings()
            self._window.statusBar().showMessage(
                f"Parts of at most {settings.chat_part_size:,} characters.", 5000
            )
