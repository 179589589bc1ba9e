"""Running one command line in a workspace folder, bounded and clean.

It touches processes and the workspace's files, so it sits with the store layer; the
actions (``actions.run``) decide whether it may run and word its result.

Invariants:
- A line is split by POSIX shell quoting rules (``shlex``) into an argument list that is
  run directly: no shell, so no pipes, redirection, globbing or variables, unless the
  line is explicitly a shell line (``shell``), which runs as ``/bin/sh -c <line>``.
- The folder goes through the workspace jail exactly as a path does (``Workspace.resolve``):
  outside the workspace, in its trash or in the app's state folder it is refused before
  anything starts. (The jail says where the command starts; what it may touch is the
  person's decision when they approve it, as it would be in their own terminal.)
- No standard input (``/dev/null``); its own session and process group; standard output
  and error share one pipe, so they come interleaved as the command wrote them, and are
  read as they come into an ``OutputKeeper`` (bounded memory whatever it prints).
- The whole process group is ended when the command exits, times out or is cancelled:
  SIGTERM, then SIGKILL after ``TERM_GRACE`` seconds. Nothing it started in its group is
  left running. (A process that leaves the group on purpose, with setsid, escapes this:
  only an operating-system sandbox could hold it.)
- Environment variables whose names look secret (the workspace's ``secret_environment``,
  a setting whose default is ``SECRET_ENVIRONMENT``; case-insensitive) are removed unless
  the caller keeps them by name.
- A watcher the front end installed (``command_watch``) is told when the command starts
  and ends, gets a copy of its output as it comes, and can stop it (as a cancel does).
- The CPU time of the command (and of the children it waited for) is counted against the
  reply's work budget.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
import resource
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from ..errors import OperatorError
from ..work_budget import charge_cpu
from .command_output import KeptOutput, OutputKeeper
from .command_watch import CommandWatch, Ended, Started, current_watch
from .file_snapshot import changed_files, take_snapshot
from .workspace import DEFAULT_SECRET_ENVIRONMENT, Workspace

DEFAULT_TIMEOUT = 120
MAX_TIMEOUT = 1800
TERM_GRACE = 2.0
# After the command exits and its group is ended: how long to drain what is still in the
# pipe (a process that left the group could hold it open forever).
DRAIN_SECONDS = 1.0
POLL_SECONDS = 0.05
CHUNK = 64 * 1024
SECRET_ENVIRONMENT = DEFAULT_SECRET_ENVIRONMENT
SHELL = "/bin/sh"

Cancelled = Callable[[], bool]
OnOutput = Callable[[bytes], None]


SHOWN_CHARS = 200


def shown_argument(text: str, limit: int = SHOWN_CHARS) -> str:
    """``text`` quoted for a message, cut when long (a name can be any length)."""
    return (
        repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text):,} characters)"
    )


def split_command(line: str, shell: bool = False) -> tuple[str, ...]:
    """The argument list of ``line``; ERR_INVALID_FIELD when it cannot be split or is empty."""
    if "\x00" in line:
        raise OperatorError("ERR_INVALID_FIELD", "the command line holds a NUL character")
    if shell:
        if not line.strip():
            raise OperatorError("ERR_INVALID_FIELD", "the command line is empty")
        return (SHELL, "-c", line)
    try:
        argv = tuple(shlex.split(line, posix=True))
    except ValueError as exc:
        raise OperatorError(
            "ERR_INVALID_FIELD",
            f"the command line cannot be split into arguments ({exc}); close the quote, or "
            "escape it with a backslash",
        ) from None
    if not argv:
        raise OperatorError("ERR_INVALID_FIELD", "the command line is empty")
    return argv


def looks_secret(name: str, patterns: Iterable[str] = SECRET_ENVIRONMENT) -> bool:
    upper = name.upper()
    return any(fnmatch.fnmatchcase(upper, pattern.upper()) for pattern in patterns)


def clean_environment(
    environ: Mapping[str, str],
    patterns: Iterable[str] = SECRET_ENVIRONMENT,
    keep: Iterable[str] = (),
) -> dict[str, str]:
    """``environ`` without the variables whose names look secret (``keep`` names stay)."""
    kept = set(keep)
    listed = tuple(patterns)
    return {k: v for k, v in environ.items() if k in kept or not looks_secret(k, listed)}


@dataclass(frozen=True)
class Finished:
    """How a command ended and what it left: output, changed files, times."""

    argv: tuple[str, ...]
    cwd: str  # workspace-relative folder it ran in
    status: int | None  # exit status; None when it was ended by a signal
    signal: int | None  # the signal that ended it
    timed_out: bool
    cancelled: bool
    seconds: float  # wall-clock time it took
    cpu_seconds: float
    output: KeptOutput
    changed: tuple[str, ...]  # workspace files created, changed or deleted while it ran
    changes_capped: bool  # the files compared were capped: others may have changed too


def _end_group(pgid: int, grace: float, reap: Callable[[], object]) -> None:
    """SIGTERM to the whole group, then SIGKILL to what is left after ``grace`` seconds."""
    try:
        os.killpg(pgid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        reap()
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(POLL_SECONDS)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


class _Child:
    """The started process: reaped once, with its resource use (``os.wait4``)."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.status: int | None = None
        self.usage: resource.struct_rusage | None = None

    def reap(self, block: bool = False) -> bool:
        if self.status is not None:
            return True
        try:
            pid, status, usage = os.wait4(self.process.pid, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return self.status is not None
        if pid == 0:
            return False
        self.status, self.usage = status, usage
        # Popen must not wait for it again.
        self.process.returncode = os.waitstatus_to_exitcode(status)
        return True


def run_command(
    workspace: Workspace,
    argv: tuple[str, ...],
    cwd: str = ".",
    timeout: float = DEFAULT_TIMEOUT,
    *,
    environ: Mapping[str, str] | None = None,
    keep_environment: Iterable[str] = (),
    cancelled: Cancelled | None = None,
    on_output: OnOutput | None = None,
    grace: float = TERM_GRACE,
) -> Finished:
    """Run ``argv`` in workspace folder ``cwd`` and wait for it (at most ``timeout`` s).

    Raises OperatorError before anything starts: the folder is refused by the jail or is
    not a folder (ERR_NOT_A_DIRECTORY), or the program cannot be found or started
    (ERR_COMMAND_NOT_FOUND).
    """
    real = workspace.resolve(cwd)
    if not real.is_dir():
        raise OperatorError("ERR_NOT_A_DIRECTORY", f"cwd {shown_argument(cwd)} is not a folder")
    rel = workspace.relative(real)
    env = clean_environment(
        os.environ if environ is None else environ,
        workspace.secret_environment,
        keep=keep_environment,
    )
    before = take_snapshot(workspace)
    started = time.monotonic()
    process = _start(argv, real, env)
    child = _Child(process)
    keeper = OutputKeeper()
    watch = current_watch()
    timed_out = was_cancelled = False
    assert process.stdout is not None
    pipe = process.stdout
    try:
        if watch is not None:  # inside: a watcher that fails still leaves nothing running
            watch.started(Started(argv, rel, timeout))
            cancelled, on_output = _watched(watch, cancelled, on_output)
        deadline = started + max(0.0, timeout)
        eof = _read_until(pipe, keeper, on_output, child, deadline, cancelled)
        if not child.reap():
            timed_out = time.monotonic() >= deadline
            was_cancelled = not timed_out
        _end_group(process.pid, grace, child.reap)
        child.reap(block=True)
        if not eof:
            _drain(pipe, keeper, on_output, time.monotonic() + DRAIN_SECONDS)
    finally:
        pipe.close()
        if child.status is None:  # an exception above: never leave it behind
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            child.reap(block=True)
    seconds = time.monotonic() - started
    usage = child.usage
    cpu = usage.ru_utime + usage.ru_stime if usage is not None else 0.0
    charge_cpu(cpu)
    after = take_snapshot(workspace)
    status = child.status if child.status is not None else 0
    exit_status = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    ended_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if watch is not None:
        watch.ended(Ended(exit_status, ended_by, timed_out, was_cancelled, seconds))
    return Finished(
        argv=argv,
        cwd=rel,
        status=exit_status,
        signal=ended_by,
        timed_out=timed_out,
        cancelled=was_cancelled,
        seconds=seconds,
        cpu_seconds=cpu,
        output=keeper.finish(),
        changed=tuple(changed_files(before, after)),
        changes_capped=before.capped or after.capped,
    )


def _start(argv: tuple[str, ...], real: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """The command started in its own session (so its whole group can be ended), with no
    standard input and its two outputs on one pipe; ERR_COMMAND_NOT_FOUND when it cannot."""
    try:
        return subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=real,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
    except FileNotFoundError:
        raise OperatorError(
            "ERR_COMMAND_NOT_FOUND",
            f"{shown_argument(argv[0])} was not found (looked in the folder for a path, else "
            "in PATH)",
        ) from None
    except PermissionError:
        raise OperatorError(
            "ERR_COMMAND_NOT_FOUND",
            f"{shown_argument(argv[0])} cannot be run (it is not executable)",
        ) from None
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise OperatorError(
            "ERR_COMMAND_NOT_FOUND", f"{shown_argument(argv[0])} cannot be run ({reason})"
        ) from None


def _watched(
    watch: CommandWatch, cancelled: Cancelled | None, on_output: OnOutput | None
) -> tuple[Cancelled, OnOutput]:
    """``cancelled`` and ``on_output`` with the watcher's stop and copy of the output added."""

    def stop() -> bool:
        return watch.stop_asked() or (cancelled is not None and cancelled())

    def output(data: bytes) -> None:
        watch.output(data)
        if on_output is not None:
            on_output(data)

    return stop, output


def _read_until(
    pipe: IO[bytes],
    keeper: OutputKeeper,
    on_output: OnOutput | None,
    child: _Child,
    deadline: float,
    cancelled: Cancelled | None,
) -> bool:
    """Read output until the command exits, the deadline passes or it is cancelled.

    True when the pipe reached its end (nothing holds it open any more).
    """
    fd = pipe.fileno()
    os.set_blocking(fd, False)
    eof = False
    pause = 0.001
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            if child.reap() and eof:
                return True
            if cancelled is not None and cancelled():
                return eof
            now = time.monotonic()
            if now >= deadline:
                return eof
            if eof:
                # The pipe is closed but the command still runs: wait for it, looking
                # often at first (most commands exit right after closing their output).
                time.sleep(min(pause, deadline - now))
                pause = min(pause * 2, POLL_SECONDS)
                continue
            if child.status is not None:
                # Exited; what is in the pipe now is read, the rest after its group ends.
                return _drain(pipe, keeper, on_output, now)
            if selector.select(min(POLL_SECONDS, deadline - now)):
                eof = not _read_some(fd, keeper, on_output)


def _read_some(fd: int, keeper: OutputKeeper, on_output: OnOutput | None) -> bool:
    """One read; False at the end of the pipe."""
    try:
        data = os.read(fd, CHUNK)
    except BlockingIOError:
        return True
    if not data:
        return False
    keeper.feed(data)
    if on_output is not None:
        on_output(data)
    return True


def _drain(pipe: IO[bytes], keeper: OutputKeeper, on_output: OnOutput | None, until: float) -> bool:
    """Read what the pipe holds until its end or ``until``; True at the end of the pipe."""
    fd = pipe.fileno()
    os.set_blocking(fd, False)
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while True:
            wait = until - time.monotonic()
            if selector.select(max(0.0, min(POLL_SECONDS, wait))) and not _read_some(
                fd, keeper, on_output
            ):
                return True
            if wait <= 0:  # checked after each read: a pipe that never empties still ends
                return False
