"""Notices files changed outside the app since a run last read or wrote them.

After each run (and each undo) the window hands over the paths it read or wrote; their
size and mtime are remembered. A watchdog observer reports file events from its own
thread. A build or a checkout makes thousands of them, so the observer thread only counts
them and notes tracked paths in an inbox under a lock; it wakes the UI thread at most once
per ``FLUSH_MS`` (one signal, no arguments), and the UI takes the whole inbox at once.

A tracked file whose size or mtime now differs from the remembered one was changed by
someone else: the app's own writes and undos happen before the snapshot is taken, so they
never count. While a run is in flight (``hold``) checks wait, because the run's writes
have no snapshot yet. If more tracked paths arrive than the inbox keeps, or the kernel's
inotify queue overflows (watchdog logs it and events are lost), the watcher says it fell
behind and rechecks every tracked file, ``RESCAN_CHUNK`` per event-loop turn.

The files of an open review are watched too (``review``), held or not: any event on one
of them is passed on at the next flush (``review_touched``), and the review compares the
file with what its change was planned on. After a fall behind, every one of them is.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

Stamp = tuple[int, int]  # (size, mtime_ns); (-1, -1) for a file that does not exist
MISSING: Stamp = (-1, -1)
FLUSH_MS = 200
INBOX_LIMIT = 5000  # tracked paths kept between two flushes before the watcher "falls behind"
RESCAN_CHUNK = 500
# watchdog reports a kernel queue overflow only as a log record from these loggers.
OVERFLOW_LOGGERS = ("watchdog.observers.inotify_c", "watchdog.observers.inotify")


def stamp_of(path: Path) -> Stamp:
    try:
        info = path.stat()
    except OSError:
        return MISSING
    return (info.st_size, info.st_mtime_ns)


class _Inbox:
    """What the observer thread saw since the last flush; every field under ``lock``."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.events = 0
        self.paths: set[str] = set()
        self.reviewed: set[str] = set()  # files of an open review that had an event
        self.folders: set[str] = set()
        self.overflowed = False
        self.armed = False  # a wake-up is on its way to the UI thread


class _OverflowListener(logging.Handler):
    """Turns watchdog's "queue overflowed" log record into a rescan (observer thread)."""

    def __init__(self, on_overflow: Callable[[], None]) -> None:
        super().__init__(logging.WARNING)
        self._on_overflow = on_overflow

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" in record.getMessage().lower():
            self._on_overflow()


class WorkspaceWatcher(QObject):
    changed = Signal()  # the set of files changed outside, or the watcher's state, changed
    review_touched = Signal(object)  # frozenset of the reviewed files that had an event
    _wake = Signal()  # emitted on the observer thread at most once per flush

    def __init__(self, root: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = root.resolve()
        self._prefix = str(self.root) + os.sep
        self._stamps: dict[str, Stamp] = {}
        self._reviewing: frozenset[str] = frozenset()  # replaced whole: read by the observer
        self._reviews: dict[int, frozenset[str]] = {}  # each open review's files
        self._next_review = 0
        self._outside: set[str] = set()
        self._dirty: set[str] = set()
        self._rescan: list[str] = []
        self._held = False
        self._observer: Any = None
        self._inbox = _Inbox()
        self._overflow_listener = _OverflowListener(self._note_overflow)
        self.error: str | None = None
        self.events_seen = 0  # file events in the workspace since the watch started
        self.flushes = 0  # UI updates the events cost
        self.behind = False  # an overflow's rescan is still running
        self.overflows = 0
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self.flush)
        self._rescan_timer = QTimer(self)
        self._rescan_timer.setInterval(0)
        self._rescan_timer.timeout.connect(self._rescan_some)
        self._wake.connect(self._on_wake)

    # -- observer ----------------------------------------------------------------

    def start(self) -> bool:
        """Start watching; False (and ``error`` set) when the system refuses a watch."""
        try:
            from watchdog.events import (
                DirDeletedEvent,
                DirMovedEvent,
                FileClosedEvent,
                FileCreatedEvent,
                FileDeletedEvent,
                FileModifiedEvent,
                FileMovedEvent,
                FileSystemEvent,
                FileSystemEventHandler,
            )
            from watchdog.observers import Observer
        except ImportError as exc:  # pragma: no cover - watchdog is a dependency
            self.error = f"watchdog is not installed ({exc})"
            return False
        note = self._note_event

        class _Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                names = [os.fsdecode(event.src_path)]
                dest = getattr(event, "dest_path", "")
                if dest:
                    names.append(os.fsdecode(dest))
                note(names, event.is_directory)

        observer = Observer()
        observer.daemon = True  # a hung observer must never keep the app from exiting
        try:
            # Only what changes files: opens and reads (a build reads thousands) never reach
            # this process, since on Linux the filter becomes the inotify mask.
            changes: list[type[FileSystemEvent]] = [
                FileCreatedEvent,
                FileDeletedEvent,
                FileModifiedEvent,
                FileMovedEvent,
                FileClosedEvent,
                DirDeletedEvent,
                DirMovedEvent,
            ]
            observer.schedule(_Handler(), str(self.root), recursive=True, event_filter=changes)
            observer.start()
        except OSError as exc:  # e.g. the inotify watch limit
            self.error = f"cannot watch {self.root.name}: {exc.strerror or exc}"
            # The observer owns a reader thread from its constructor on: stop it too.
            observer.stop()
            if observer.is_alive():
                observer.join(5)
            return False
        self._observer = observer
        for name in OVERFLOW_LOGGERS:
            logging.getLogger(name).addHandler(self._overflow_listener)
        return True

    def _note_overflow(self) -> None:
        """Observer thread: events were lost, so every tracked file must be rechecked."""
        with self._inbox.lock:
            self._inbox.overflowed = True
            wake = not self._inbox.armed
            self._inbox.armed = True
        if wake:
            self._wake.emit()

    def _note_event(self, names: list[str], is_folder: bool) -> None:
        """Observer thread: count, keep tracked paths, wake the UI once per flush."""
        inbox = self._inbox
        with inbox.lock:
            inbox.events += 1
            for name in names:
                if not name.startswith(self._prefix):
                    continue
                rel = name[len(self._prefix) :].replace(os.sep, "/")
                if rel in self._reviewing:
                    inbox.reviewed.add(rel)
                if is_folder:
                    inbox.folders.add(rel)
                elif rel in self._stamps:  # a dict lookup is safe against the UI thread
                    if len(inbox.paths) < INBOX_LIMIT:
                        inbox.paths.add(rel)
                    else:
                        inbox.overflowed = True
            if len(inbox.folders) > INBOX_LIMIT:
                inbox.folders.clear()
                inbox.overflowed = True
            wake = not inbox.armed
            inbox.armed = True
        if wake:
            self._wake.emit()

    def _on_wake(self) -> None:
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def stop(self) -> None:
        for name in OVERFLOW_LOGGERS:
            logging.getLogger(name).removeHandler(self._overflow_listener)
        self._flush_timer.stop()
        self._rescan_timer.stop()
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
        """A run or undo ended: ``touched`` now hold what the LLM last saw or the app wrote."""
        self._held = False
        before = set(self._outside)
        for rel in touched:
            self._stamps[rel] = stamp_of(self.root / rel)
            self._outside.discard(rel)
            self._dirty.discard(rel)
        self.check_now()
        if before != self._outside:
            self.changed.emit()

    def review(self, paths: Collection[str]) -> int:
        """Pass on every event on ``paths`` (an open review's files) until ``end_review``
        is given the number returned (two reviews may be open: a paste's and an MCP
        client's)."""
        self._next_review += 1
        self._reviews[self._next_review] = frozenset(paths)
        self._reviewing = frozenset().union(*self._reviews.values())
        return self._next_review

    def end_review(self, number: int) -> None:
        self._reviews.pop(number, None)
        self._reviewing = frozenset().union(*self._reviews.values())

    def changed_outside(self) -> frozenset[str]:
        return frozenset(self._outside)

    @property
    def tracked(self) -> int:
        return len(self._stamps)

    def flush(self) -> None:
        """Take everything the observer collected since the last flush: one UI update."""
        inbox = self._inbox
        with inbox.lock:
            events, paths, folders = inbox.events, inbox.paths, inbox.folders
            overflowed, reviewed = inbox.overflowed, inbox.reviewed
            inbox.events, inbox.paths, inbox.folders, inbox.reviewed = 0, set(), set(), set()
            inbox.overflowed = inbox.armed = False
        self.events_seen += events
        self.flushes += 1
        self._dirty |= paths
        for folder in folders:
            prefix = folder + "/"
            self._dirty.update(rel for rel in self._stamps if rel.startswith(prefix))
        if overflowed:
            self.overflows += 1
            self.behind = True
            self._rescan = sorted(self._stamps)
            self._rescan_timer.start()
        self.check_now()
        self.changed.emit()
        for folder in folders:  # a folder of a reviewed file moved or went away
            reviewed.update(rel for rel in self._reviewing if rel.startswith(folder + "/"))
        if overflowed:
            reviewed |= self._reviewing
        if reviewed & self._reviewing:
            self.review_touched.emit(frozenset(reviewed & self._reviewing))

    def _rescan_some(self) -> None:
        chunk, self._rescan = self._rescan[:RESCAN_CHUNK], self._rescan[RESCAN_CHUNK:]
        self._dirty.update(chunk)
        if not self._rescan:
            self._rescan_timer.stop()
            self.behind = False
        self.check_now()
        if not self.behind:
            self.changed.emit()

    def check_now(self) -> None:
        if self._held:
            return  # release() checks again
        before = set(self._outside)
        for rel in self._dirty:
            if rel in self._stamps and stamp_of(self.root / rel) != self._stamps[rel]:
                self._outside.add(rel)
        self._dirty.clear()
        if before != self._outside:
            self.changed.emit()
