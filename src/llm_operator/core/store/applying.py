"""Approved changes reach the disk here: atomic writes, stale checks, deletes to the trash.

Invariants:
- Nothing is touched until every change of the ChangeSet passed its stale check: each path
  still holds exactly what it was previewed against (the same bytes; or nothing; or still a
  folder, or still a symlink, for deletes).
- A file is never written in place. Its new bytes go to a temp file in the same folder
  (``.<name>.llmop-<8 hex>.tmp``), are fsynced, take the old file's permission bits, and one
  ``os.replace`` swaps it in: a reader sees the old bytes or the new, never a mix.
- A ChangeSet is all or nothing. Writes run first and deletes last; when any step fails,
  files already replaced get their previous bytes back (atomically too), files and folders
  the ChangeSet created are removed, entries already trashed are rebuilt from the copy saved
  before the delete, and the error is raised.
- Deletes go to the system trash, never ``os.remove``; if no trash takes an entry, nothing is
  erased (ERR_TRASH_UNAVAILABLE). The freedesktop trash moves a symlink itself (its target
  survives) but refuses a dangling one; such a link is unlinked, its target text having been
  saved first, since that text is all a symlink holds.
- Temp files are removed on every failure path; a process killed mid-write can leave only a
  temp file beside the untouched original, which ``clean_stale_temp_files`` removes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeAlias

from ..errors import OperatorError
from ..plan.changes import ChangeSet, FileChange, digest
from .workspace import Workspace, check_path_text

# A folder tree larger than this is not copied into the journal before its delete: the
# system trash is then the only way back, and undo says so.
SNAPSHOT_CAP = 200 * 1024 * 1024

TEMP_NAME = re.compile(r"\..+\.llmop-[0-9a-f]{8}\.tmp", re.DOTALL)


# -- what a deleted or overwritten entry held ------------------------------------------


@dataclass(frozen=True)
class SavedFile:
    data: bytes
    mode: int


@dataclass(frozen=True)
class SavedLink:
    target: str


@dataclass(frozen=True)
class SavedDir:
    mode: int
    children: tuple[tuple[str, SavedEntry], ...]


@dataclass(frozen=True)
class SavedTooLarge:
    """An entry over SNAPSHOT_CAP: only the system trash holds its content."""

    size: int


@dataclass(frozen=True)
class SavedUnsupported:
    """A fifo, socket or device inside a deleted folder: it cannot be rebuilt."""

    kind: str


SavedEntry: TypeAlias = SavedFile | SavedLink | SavedDir | SavedTooLarge | SavedUnsupported


class Recorder(Protocol):
    """What applying needs of an undo journal (the journal's BatchRecorder is one).

    Declared here so that applying does not depend on the journal, which depends on it.
    """

    def record_before(
        self, change: FileChange, *, saved: SavedEntry | None, created_dirs: tuple[str, ...] = ()
    ) -> None:
        """Save what ``change.path`` holds before it is touched; OSError if it cannot."""

    def changeset_applied(self) -> None:
        """Every change recorded since the last call reached the disk."""

    def changeset_failed(self) -> None:
        """The changes recorded since the last call were rolled back."""


def _tree_size(real: Path) -> int:
    total = 0
    with os.scandir(real) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                total += _tree_size(Path(entry.path))
            elif entry.is_file(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
    return total


def _capture(real: Path) -> SavedEntry:
    info = os.lstat(real)
    if stat.S_ISLNK(info.st_mode):
        return SavedLink(os.readlink(real))
    if stat.S_ISREG(info.st_mode):
        return SavedFile(real.read_bytes(), stat.S_IMODE(info.st_mode))
    if stat.S_ISDIR(info.st_mode):
        names = sorted(os.listdir(real))
        children = tuple((name, _capture(real / name)) for name in names)
        return SavedDir(stat.S_IMODE(info.st_mode), children)
    return SavedUnsupported(_kind_name(info.st_mode))


def capture_entry(real: Path, cap: int | None = None) -> SavedEntry:
    """Everything needed to rebuild ``real`` (not following it if it is a symlink)."""
    cap = SNAPSHOT_CAP if cap is None else cap
    info = os.lstat(real)
    if stat.S_ISREG(info.st_mode) and info.st_size > cap:
        return SavedTooLarge(info.st_size)
    if stat.S_ISDIR(info.st_mode):
        size = _tree_size(real)
        if size > cap:
            return SavedTooLarge(size)
    return _capture(real)


def _kind_name(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device"


# -- the primitive write ------------------------------------------------------------------


def _write_all(fd: int, data: bytes) -> None:
    """Seam: write every byte of ``data`` (tests slow it down or make it fail)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _replace(src: Path, dst: Path) -> None:
    """Seam: the one step that makes a write visible."""
    os.replace(src, dst)


def temp_path_for(target: Path) -> Path:
    # Cut long names so the temp name stays under the usual 255-byte limit.
    return target.with_name(f".{target.name[:200]}.llmop-{secrets.token_hex(4)}.tmp")


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every file system allows it, hence best effort.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_file_atomically(target: Path, data: bytes, mode: int | None) -> None:
    """Replace ``target`` with ``data`` in one step; ``mode`` None keeps the umask default."""
    tmp = temp_path_for(target)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o666)
    try:
        try:
            _write_all(fd, data)
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        _replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(target.parent)


def restore_entry(real: Path, saved: SavedEntry) -> list[str]:
    """Put ``saved`` back at ``real`` atomically; returns what could not be rebuilt.

    A file replaces whatever file stands at ``real``; a symlink or a folder needs the
    place to be free (a folder is built under a temp name and renamed into place).
    """
    problems: list[str] = []
    if isinstance(saved, SavedFile):
        write_file_atomically(real, saved.data, saved.mode)
    elif isinstance(saved, SavedLink):
        tmp = temp_path_for(real)
        os.symlink(saved.target, tmp)
        try:
            _replace(tmp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    elif isinstance(saved, SavedDir):
        if os.path.lexists(real):
            raise FileExistsError(errno.EEXIST, "something already stands there", str(real))
        tmp = temp_path_for(real)
        try:
            _build_tree(tmp, saved, real.name, problems)
            os.rename(tmp, real)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    elif isinstance(saved, SavedTooLarge):
        problems.append(
            f"{real.name} ({saved.size} bytes) was over the journal's size limit; "
            "restore it from the system trash"
        )
    else:
        problems.append(f"{real.name}: a {saved.kind} cannot be restored")
    _fsync_dir(real.parent)
    return problems


def _build_tree(dst: Path, saved: SavedDir, rel: str, problems: list[str]) -> None:
    os.mkdir(dst, 0o700)
    for name, child in saved.children:
        if isinstance(child, SavedFile):
            fd = os.open(dst / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW)
            try:
                _write_all(fd, child.data)
                os.fchmod(fd, child.mode)
                os.fsync(fd)
            finally:
                os.close(fd)
        elif isinstance(child, SavedLink):
            os.symlink(child.target, dst / name)
        elif isinstance(child, SavedDir):
            _build_tree(dst / name, child, f"{rel}/{name}", problems)
        elif isinstance(child, SavedUnsupported):
            problems.append(f"{rel}/{name}: a {child.kind} cannot be restored")
    # Last, so a read-only folder can still be filled first.
    os.chmod(dst, saved.mode)


# -- stale checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Target:
    change: FileChange
    real: Path
    mode: int | None  # permission bits of the file being overwritten
    missing_dirs: tuple[Path, ...]  # folders the write must create, outermost first


def _observe(real: Path) -> tuple[str, os.stat_result | None]:
    try:
        info = os.lstat(real)
    except (FileNotFoundError, NotADirectoryError):
        return "nothing", None
    if stat.S_ISLNK(info.st_mode):
        return "a symlink", info
    if stat.S_ISDIR(info.st_mode):
        return "a folder", info
    if stat.S_ISREG(info.st_mode):
        return "a file", info
    return "a special file", info


def _stale(path: str, expected: str, found: str) -> OperatorError:
    return OperatorError(
        "ERR_STALE_FILE",
        f"{path} changed on disk since it was previewed (expected {expected}, found {found}); "
        "nothing was written. Read it again (fs.read or fs.readSlice) and send a new "
        "command built on what it holds now.",
        {"path": path, "expected": expected, "found": found},
    )


def _missing_dirs(workspace: Workspace, folder: Path) -> tuple[Path, ...]:
    missing: list[Path] = []
    while folder != workspace.root and not os.path.lexists(folder):
        missing.append(folder)
        folder = folder.parent
    return tuple(reversed(missing))


def _check_fresh(workspace: Workspace, change: FileChange) -> _Target:
    path = change.path
    if change.is_delete:
        real = workspace.resolve_link(path)
        workspace.check_writable(path, real)
    else:
        if change.before_is_dir or change.before_is_symlink:
            raise ValueError(f"a write must name the real file, not a folder or link: {path}")
        real = workspace.resolve_for_write(path)
        if workspace.relative(real) != check_path_text(path):
            found = f"a path leading to {workspace.relative(real)}"
            raise _stale(path, "the same file", found)
    found, info = _observe(real)
    if change.before_is_symlink:
        expected = "a symlink"
    elif change.before_is_dir:
        expected = "a folder"
    elif change.before is None:
        if change.is_delete:
            raise ValueError(f"a delete without previewed bytes: {path}")
        expected = "nothing"
    else:
        expected = f"a file of {len(change.before)} bytes ({change.before_digest})"
        if found == "a file":
            assert info is not None
            if info.st_size != len(change.before):
                found = f"a file of {info.st_size} bytes"
            elif digest(real.read_bytes()) == change.before_digest:
                found = expected
            else:
                found = f"a file of {info.st_size} bytes with other content"
    if found != expected:
        raise _stale(path, expected, found)
    mode = None
    if change.before is not None and info is not None:
        mode = stat.S_IMODE(info.st_mode)
    missing = () if change.is_delete else _missing_dirs(workspace, real.parent)
    return _Target(change, real, mode, missing)


# -- apply ----------------------------------------------------------------------------------


def _reason(exc: OSError) -> str:
    if exc.errno == errno.EISDIR:
        return "a folder now stands at that path"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if exc.errno == errno.ENOSPC:
        return "the disk is full"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return exc.strerror or str(exc)


@dataclass
class _Rollback:
    """What this ChangeSet has done so far, newest last, so it can be taken back."""

    replaced: list[tuple[Path, SavedFile]] = field(default_factory=list)
    created_files: list[Path] = field(default_factory=list)
    created_dirs: list[Path] = field(default_factory=list)
    trashed: list[tuple[Path, SavedEntry]] = field(default_factory=list)

    def run(self) -> list[str]:
        problems: list[str] = []
        steps: list[tuple[Path, SavedEntry | None]] = [
            *reversed(self.trashed),
            *reversed(self.replaced),
            *((path, None) for path in self.created_files),
        ]
        for real, saved in steps:
            try:
                if saved is None:
                    os.unlink(real)
                else:
                    problems += restore_entry(real, saved)
            except OSError as exc:
                problems.append(f"{real}: {_reason(exc)}")
        for folder in reversed(self.created_dirs):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        return problems


def _write(target: _Target, rollback: _Rollback) -> None:
    for folder in target.missing_dirs:
        try:
            os.mkdir(folder)
        except FileExistsError:
            if not folder.is_dir():
                raise
            continue  # an earlier write of this ChangeSet made it
        rollback.created_dirs.append(folder)
    assert target.change.after is not None
    write_file_atomically(target.real, target.change.after, target.mode)
    if target.change.before is None:
        rollback.created_files.append(target.real)
    else:
        assert target.mode is not None
        rollback.replaced.append((target.real, SavedFile(target.change.before, target.mode)))


def _trash(target: _Target, saved: SavedEntry, rollback: _Rollback) -> None:
    real = target.real
    if isinstance(saved, SavedLink) and not os.path.exists(real):
        os.unlink(real)  # dangling: the trash refuses it, and the saved text is the whole link
    else:
        from send2trash import send2trash  # lazy: only deletes need it

        try:
            send2trash(os.fspath(real))
        except OSError as exc:
            raise OperatorError(
                "ERR_TRASH_UNAVAILABLE",
                f"could not move {target.change.path} to the system trash ({_reason(exc)}); "
                "nothing was deleted. Deletes only ever go to the trash: the user can free or "
                "fix the trash, or delete the path by hand.",
                {"path": target.change.path, "reason": str(exc)},
            ) from exc
        if os.path.lexists(real):
            raise OperatorError(
                "ERR_TRASH_UNAVAILABLE",
                f"the system trash did not take {target.change.path}; nothing was deleted",
                {"path": target.change.path},
            )
    rollback.trashed.append((real, saved))


def _record(
    recorder: Recorder, workspace: Workspace, target: _Target, saved: SavedEntry | None
) -> None:
    created = tuple(workspace.relative(folder) for folder in target.missing_dirs)
    try:
        recorder.record_before(target.change, saved=saved, created_dirs=created)
    except OSError as exc:
        raise OperatorError(
            "ERR_JOURNAL_FAILED",
            f"could not save the undo copy of {target.change.path} ({_reason(exc)}); "
            "nothing was written",
            {"path": target.change.path, "reason": str(exc)},
        ) from exc


def apply_changeset(workspace: Workspace, changeset: ChangeSet, recorder: Recorder | None) -> None:
    """Apply every change of ``changeset`` or none of them.

    Raises ERR_STALE_FILE (nothing written), ERR_WRITE_FAILED, ERR_TRASH_UNAVAILABLE or
    ERR_JOURNAL_FAILED; after any of them the workspace holds what it held before.
    """
    rollback = _Rollback()
    path, doing = "", "read"
    try:
        targets: list[_Target] = []
        for change in changeset.changes:
            path = change.path
            targets.append(_check_fresh(workspace, change))
        writes = [t for t in targets if not t.change.is_delete]
        deletes: list[tuple[_Target, SavedEntry]] = []
        for target in targets:
            if target.change.is_delete:
                path = target.change.path
                deletes.append((target, capture_entry(target.real)))
        if recorder is not None:
            for target in writes:
                previous = None
                if target.change.before is not None and target.mode is not None:
                    previous = SavedFile(target.change.before, target.mode)
                _record(recorder, workspace, target, previous)
            for target, saved in deletes:
                _record(recorder, workspace, target, saved)
        doing = "write"
        for target in writes:
            path = target.change.path
            _write(target, rollback)
        doing = "delete"
        for target, saved in deletes:
            path = target.change.path
            _trash(target, saved, rollback)
    except OSError as exc:
        problems = _fail(rollback, recorder)
        undone = "nothing was changed" if not problems else "taking back the partial change "
        if problems:
            undone += "also failed: " + "; ".join(problems)
        raise OperatorError(
            "ERR_WRITE_FAILED",
            f"could not {doing} {path}: {_reason(exc)}; {undone}",
            {"path": path, "reason": str(exc), "rollback_problems": problems},
        ) from exc
    except BaseException as exc:
        problems = _fail(rollback, recorder)
        if problems and isinstance(exc, OperatorError):
            raise OperatorError(
                exc.code,
                f"{exc.message}. Taking back the partial change also failed: {'; '.join(problems)}",
                {**exc.details, "rollback_problems": problems},
            ) from exc
        raise
    if recorder is not None:
        recorder.changeset_applied()


def _fail(rollback: _Rollback, recorder: Recorder | None) -> list[str]:
    problems = rollback.run()
    if recorder is not None:
        with contextlib.suppress(OSError):
            recorder.changeset_failed()
    return problems


# -- leftovers of a killed process ----------------------------------------------------------


def _walk_temp_files(root: Path) -> Iterator[Path]:
    for folder, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in [*dirnames, *filenames]:
            if TEMP_NAME.fullmatch(name):
                yield Path(folder) / name
        dirnames[:] = [d for d in dirnames if not TEMP_NAME.fullmatch(d)]


def clean_stale_temp_files(workspace: Workspace) -> tuple[str, ...]:
    """Remove temp files (and half-built restore folders) left by a killed write.

    Only names this module makes are touched: ``.<name>.llmop-<8 hex>.tmp``. Returns
    their workspace-relative paths.
    """
    removed: list[str] = []
    for path in list(_walk_temp_files(workspace.root)):
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                os.unlink(path)
        except OSError:
            continue
        removed.append(workspace.relative(path))
    return tuple(removed)
