"""The one way the window runs slow work: a worker thread that returns a value.

``TaskRunner[T]`` runs work returning ``T`` and hands the ``T`` to a callback, so each call
site is typed. Every runner shares one private thread pool. Workers never touch widgets.
They receive a ``progress(done, total, label)`` function that
emits a signal, and their return value (or the error they raised) reaches the UI through
queued signals, so every callback runs on the main thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    # A runner made without a type (``TaskRunner(self)``) is a TaskRunner[Any]; one runner
    # per result type (``TaskRunner[Run]``) is what makes a call site checked.
    T = TypeVar("T", default=Any)
else:
    from typing import TypeVar

    T = TypeVar("T")  # the default matters to type checkers only: no import at start-up
Progress = Callable[[int, int, str], None]
Work = Callable[[Progress], T]

_count_lock = threading.Lock()
_running = 0


def running_task_count() -> int:
    """Workers started and not finished, in every runner (tests check it drops to zero)."""
    with _count_lock:
        return _running


def _adjust(delta: int) -> None:
    global _running
    with _count_lock:
        _running += delta


class TaskFailure(Exception):
    """What a failed worker raised, carried to the main thread with its traceback."""

    def __init__(self, error: BaseException) -> None:
        import traceback  # lazy: only a failure needs it, and start-up is measured

        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.trace = "".join(traceback.format_exception(error))


class _Signals(QObject):
    done = Signal(object)
    failed = Signal(object)
    progress = Signal(int, int, str)


class _Task(QRunnable, Generic[T]):
    def __init__(self, work: Work[T], signals: _Signals) -> None:
        super().__init__()
        self._work = work
        self._signals = signals

    def run(self) -> None:
        try:
            value = self._work(self._signals.progress.emit)
        except BaseException as error:  # the window must survive any failure of a run
            self._signals.failed.emit(TaskFailure(error))
        else:
            self._signals.done.emit(value)
        finally:
            _adjust(-1)


_pool: QThreadPool | None = None


def _shared_pool() -> QThreadPool:
    global _pool
    if _pool is None:
        _pool = QThreadPool()
        _pool.setMaxThreadCount(2)
    return _pool


class TaskRunner(QObject, Generic[T]):
    """Runs work returning ``T`` off the UI thread and calls back on the main thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = _shared_pool()
        self._live: set[_Signals] = set()

    def start(
        self,
        work: Work[T],
        on_done: Callable[[T], None],
        on_failed: Callable[[TaskFailure], None],
        on_progress: Progress | None = None,
    ) -> None:
        signals = _Signals()
        self._live.add(signals)  # keeps the signal object alive until the callback ran

        def done(value: T) -> None:
            self._live.discard(signals)
            on_done(value)

        def failed(failure: TaskFailure) -> None:
            self._live.discard(signals)
            on_failed(failure)

        queued = Qt.ConnectionType.QueuedConnection
        signals.done.connect(done, queued)
        signals.failed.connect(failed, queued)
        if on_progress is not None:
            signals.progress.connect(on_progress, queued)
        _adjust(1)
        self._pool.start(_Task(work, signals))

    @property
    def busy(self) -> bool:
        return bool(self._live)

    def wait(self, timeout_ms: int = 10000) -> bool:
        """Block until every worker of every runner returned (used when the window closes)."""
        return self._pool.waitForDone(timeout_ms)
