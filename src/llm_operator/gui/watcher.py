"""Notices files changed outside the app since a run last read or wrote them.

After each run the window hands over the paths it read or wrote; their size and mtime are
remembered. A watchdog observer reports file events from its own thread; they are queued
to the main thread and checked a moment later (events come in bursts). A tracked file whose
size or mtime now differs from the remembered one was changed by someone else: the app's
own writes happen before the snapshot is taken, so they never count. While a run is in
flight (``hold``) checks wait, because the run's writes have no snapshot yet.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

Stamp = tuple[int, int]  # (size, mtime_ns); (-1, -1) for a file that does not exist
MISSING: Stamp = (-1, -1)


def stamp_of(path: Path) -> Stamp:
    try:
        info = path.stat()
    except OSError:
        return MISSING
    return (info.st_size, info.st_mtime_ns)


class WorkspaceWatcher(QObject):
    changed = Signal()  # the set of files changed outside grew or shrank
    _raw_event = Signal(str)  # emitted on the observer thread, delivered on the main thread

    def __init__(self, root: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = root.resolve()
        self._stamps: dict[str, Stamp] = {}
        self._outside: set[str] = set()
        self._dirty: set[str] = set()
        self._held = False
        self._observer: Any = None
        self.error: str | None = None
        self._check_timer = QTimer(self)
        self._check_timer.setSingleShot(True)
        self._check_timer.setInterval(150)
        self._check_timer.timeout.connect(self.check_now)
        self._raw_event.connect(self._on_raw_event)

    # -- observer ----------------------------------------------------------------

    def start(self) -> bool:
        """Start watching; False (and ``error`` set) when the system refuses a watch."""
        try:
            from watchdog.events import FileSystemEvent, FileSystemEventHandler
            from watchdog.observers import Observer
        except ImportError as exc:  # pragma: no cover - watchdog is a dependency
            self.error = f"watchdog is not installed ({exc})"
            return False
        emit = self._raw_event.emit

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.is_directory:
                    return
                for name in (event.src_path, getattr(event, "dest_path", "")):
                    if name:
                        emit(os.fsdecode(name))

        observer = Observer()
        observer.daemon = True  # a hung observer must never keep the app from exiting
        try:
            observer.schedule(_Handler(), str(self.root), recursive=True)
            observer.start()
        except OSError as exc:  # e.g. the inotify watch limit
            self.error = f"cannot watch {self.root.name}: {exc.strerror or exc}"
            # The observer owns a reader thread from its constructor on: stop it too.
            observer.stop()
            if observer.is_alive():
                observer.join(5)
            return False
        self._observer = observer
        return True

    def stop(self) -> None:
        self._check_timer.stop()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(5)
            self._observer = None

    @property
    def running(self) -> bool:
        return self._observer is not None

    # -- bookkeeping -------------------------------------------------------------

    def hold(self) -> None:
        self._held = True

    def release(self, touched: list[str]) -> None:
        """A run ended: ``touched`` (workspace-relative) now hold what the LLM last saw."""
        self._held = False
        before = set(self._outside)
        for rel in touched:
            self._stamps[rel] = stamp_of(self.root / rel)
            self._outside.discard(rel)
            self._dirty.discard(rel)
        if self._dirty:
            self._check_timer.start()
        if before != self._outside:
            self.changed.emit()

    def changed_outside(self) -> frozenset[str]:
        return frozenset(self._outside)

    def _on_raw_event(self, name: str) -> None:
        try:
            rel = Path(name).resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError):
            return
        if rel in self._stamps:
            self._dirty.add(rel)
            self._check_timer.start()

    def check_now(self) -> None:
        if self._held:
            return  # release() re-arms the check
        before = set(self._outside)
        for rel in self._dirty:
            if stamp_of(self.root / rel) != self._stamps.get(rel):
                self._outside.add(rel)
        self._dirty.clear()
        if before != self._outside:
            self.changed.emit()
