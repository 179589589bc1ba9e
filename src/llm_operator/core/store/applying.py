"""Approved changes reach the disk here: atomic writes, stale checks, deletes to the trash.

Invariants:
- Every path is reached through ``fsaccess``: walked from a descriptor of the root, one
  component at a time, with ``O_NOFOLLOW``; every write, rename, unlink and mkdir is made
  relative to the descriptor of the folder that was checked. A folder swapped for a
  symlink at any moment fails the change with ERR_PATH_OUTSIDE_WORKSPACE; nothing is
  created, read or removed outside the workspace.
- Nothing is touched until every change of the ChangeSet passed its stale check: each path
  still holds exactly what it was previewed against (the same bytes; or nothing; or still a
  folder, or still a symlink, for deletes).
- A file is never written in place. Its new bytes go to a temp file in the same folder
  (``.<name>.llmop-<8 hex>.tmp``, see atomic), are fsynced, take the old file's permission
  bits, and one rename inside the held folder swaps it in: a reader sees the old bytes or
  the new, never a mix.
- A ChangeSet is all or nothing. Writes run first and deletes last; when any step fails,
  files already replaced get their previous bytes back (atomically too), files and folders
  the ChangeSet created are removed, entries already trashed are rebuilt from the copy saved
  before the delete, and the error is raised. The recorder forgets the ChangeSet's
  entries, except those of paths that could not be taken back.
- A folder that is, or holds, a mount point is refused in the stale check (see mounts):
  the trash cannot take it whole.
- Deletes go to the system trash, never ``os.remove``; if no trash takes an entry, nothing is
  erased (ERR_TRASH_UNAVAILABLE). The freedesktop trash moves a symlink itself (its target
  survives) but refuses a dangling one; such a link is unlinked, its target text having been
  saved first, since that text is all a symlink holds. On Linux the entry is moved
  into the freedesktop trash by one rename from its held folder (see trashing, also for
  the send2trash fallback and its window).
- Temp files are removed on every failure path; a process killed mid-write can leave only a
  temp file beside the untouched original, which ``clean_stale_temp_files`` removes.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..changes import ChangeSet, FileChange
from ..errors import OperatorError
from . import entries
from .atomic import TEMP_NAME
from .entries import make_missing_dirs, restore_entry, write_in
from .fsaccess import DIR_FLAGS, Spot, locate
from .oserrors import code_of, reason_of
from .saved import (
    SNAPSHOT_CAP,
    SavedDir,
    SavedEntry,
    SavedFile,
    SavedLink,
    SavedTooLarge,
    capture_at,
    holds_exactly,
    remove_tree_at,
)
from .workspace import Workspace

if TYPE_CHECKING:
    from .trashing import Trashed

Times = tuple[int, int]  # (atime_ns, mtime_ns) of an entry before its delete


class Recorder(Protocol):
    """What applying needs of an undo journal (the journal's BatchRecorder is one).

    Declared here so that applying does not depend on the journal, which depends on it.
    """

    def record_before(
        self, change: FileChange, *, saved: SavedEntry | None, created_dirs: tuple[str, ...] = ()
    ) -> None:
        """Save what ``change.path`` holds before it is touched; OSError if it cannot."""

    def record_trashed(
        self,
        change: FileChange,
        files: str,
        info: str,
        times: Times,
        identity: tuple[int, int, int] | None = None,
    ) -> None:
        """``change`` (a delete) moved its entry to ``files`` in the trash, with its
        .trashinfo ``info``; ``times``: the entry's (atime_ns, mtime_ns) before;
        ``identity``: the trashed entry's (device, inode, change time). Kept so an
        undo takes the entry back out of the trash; a store that cannot keep it only
        makes the undo restore the saved copy (the trash then keeps its own)."""

    def changeset_applied(self) -> None:
        """Every change recorded since the last call reached the disk."""

    def changeset_failed(self, kept: Collection[str] = ()) -> None:
        """The changes recorded since the last call were rolled back, except those of the
        ``kept`` paths (their rollback failed: they still hold the change)."""


@dataclass(frozen=True)
class _Target:
    """A change checked against the disk and found as previewed: where it lands and what the
    write needs."""

    change: FileChange
    real: Path  # root joined with rel: for the journal and messages, never opened by name
    rel: str
    mode: int | None  # permission bits of the file being overwritten
    missing_dirs: tuple[str, ...]  # folders the write must create, outermost first


def _observe(spot: Spot) -> tuple[str, os.stat_result | None]:
    info = spot.info
    if info is None:
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


def _locate_target(workspace: Workspace, change: FileChange) -> Spot:
    """The spot of a change's path; the last part is never followed (it is the real file,
    or for a delete the entry itself)."""
    path = change.path
    spot = workspace.locate(path, follow_last=False)
    try:
        workspace.check_spot_writable(path, spot)
        if spot.rel != path:
            raise _stale(path, "the same file", f"a path leading to {spot.rel}")
        if not change.is_delete and spot.is_link:
            raise _stale(path, "a file or nothing", "a symlink")
    except BaseException:
        spot.close()
        raise
    return spot


def _check_fresh(workspace: Workspace, change: FileChange) -> _Target:
    path = change.path
    if not change.is_delete and (change.before_is_dir or change.before_is_symlink):
        raise ValueError(f"a write must name the real file, not a folder or link: {path}")
    with _locate_target(workspace, change) as spot:
        found, info = _observe(spot)
        if change.before_is_symlink:
            expected = "a symlink"
        elif change.before_is_dir:
            expected = "a folder"
        elif change.before is None:
            if change.is_delete:
                raise ValueError(f"a delete without previewed bytes: {path}")
            expected = "nothing"
        else:
            # The digest only names the bytes in a refusal; the bytes themselves are compared.
            expected = f"a file of {len(change.before)} bytes"
            if found == "a file":
                assert info is not None
                if info.st_size != len(change.before):
                    found = f"a file of {info.st_size} bytes"
                elif holds_exactly(spot.dir_fd, spot.name, change.before):
                    found = expected
                else:
                    found = f"a file of {info.st_size} bytes with other content"
            if found != expected:
                expected += f" ({change.before_digest})"
        if found != expected:
            raise _stale(path, expected, found)
        if change.is_delete and found == "a folder":
            from .mounts import refuse_mount_points  # lazy, as the trash: deletes only

            refuse_mount_points(workspace.root / spot.rel, spot.rel, spot.dir_fd, info)
        mode = None
        if change.before is not None and info is not None:
            mode = stat.S_IMODE(info.st_mode)
        missing = () if change.is_delete else _missing_rels(spot)
        return _Target(change, workspace.root / spot.rel, spot.rel, mode, missing)


def _missing_rels(spot: Spot) -> tuple[str, ...]:
    parts = list(spot.dir_parts)
    rels = []
    for name in spot.missing:
        parts.append(name)
        rels.append("/".join(parts))
    return tuple(rels)


# -- apply ----------------------------------------------------------------------------------


def _reason(exc: OSError) -> str:
    return reason_of(exc)


@dataclass
class _Rollback:
    """What this ChangeSet has done so far, newest last, so it can be taken back."""

    workspace: Workspace
    replaced: list[tuple[str, SavedFile]] = field(default_factory=list)
    created_files: list[str] = field(default_factory=list)
    created_dirs: list[str] = field(default_factory=list)
    trashed: list[tuple[str, SavedEntry]] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)  # paths that could not be taken back

    def run(self) -> list[str]:
        problems: list[str] = []
        steps: list[tuple[str, SavedEntry | None]] = [
            *reversed(self.trashed),
            *reversed(self.replaced),
            *((rel, None) for rel in self.created_files),
        ]
        for rel, saved in steps:
            try:
                if saved is None:
                    with locate(self.workspace.root, rel, follow_last=False) as spot:
                        os.unlink(spot.name, dir_fd=spot.dir_fd)
                else:
                    real = self.workspace.root / rel
                    problems += restore_entry(real, saved, self.workspace)
            except OSError as exc:
                problems.append(f"{rel}: {_reason(exc)}")
                self.failed.add(rel)
            except OperatorError as exc:
                problems.append(f"{rel}: {exc.message}")
                self.failed.add(rel)
        for folder in reversed(self.created_dirs):
            with (
                contextlib.suppress(OSError, OperatorError),
                locate(self.workspace.root, folder, follow_last=False) as spot,
            ):
                os.rmdir(spot.name, dir_fd=spot.dir_fd)
        return problems


def _mode_after(target: _Target) -> int | None:
    """The permission bits to write: the file's own, with the execute bits a patch's
    ``new mode`` sets (x wherever r is) or clears."""
    wanted = target.change.executable
    if wanted is None:
        return target.mode
    base = target.mode
    if base is None:
        umask = os.umask(0)
        os.umask(umask)
        base = 0o666 & ~umask
    return base | ((base & 0o444) >> 2) if wanted else base & ~0o111


def _write(workspace: Workspace, target: _Target, rollback: _Rollback) -> None:
    with _locate_target(workspace, target.change) as spot:
        fd, _ = make_missing_dirs(spot, rollback.created_dirs)
        try:
            assert target.change.after is not None
            write_in(fd, spot.name, target.real, target.change.after, _mode_after(target))
        finally:
            os.close(fd)
    if target.change.before is None:
        rollback.created_files.append(target.rel)
    else:
        assert target.mode is not None
        rollback.replaced.append((target.rel, SavedFile(target.change.before, target.mode)))


def _trash(
    workspace: Workspace, target: _Target, saved: SavedEntry, rollback: _Rollback
) -> tuple[Trashed | None, Times]:
    """Move the entry to the trash; returns where it went (None: a dangling link, removed)
    and the entry's (atime_ns, mtime_ns) before."""
    where = None
    with _locate_target(workspace, target.change) as spot:
        if spot.info is None:
            raise _stale(target.change.path, "an entry to delete", "nothing")
        times = (spot.info.st_atime_ns, spot.info.st_mtime_ns)
        dangling = False
        if isinstance(saved, SavedLink):
            try:
                os.stat(spot.name, dir_fd=spot.dir_fd)
            except OSError:
                dangling = True  # missing, a loop (x -> y -> x), or out of reach
        if dangling:
            # The trash refuses a link whose target cannot be reached, and the saved text
            # is the whole link: deleting a link never needs its target.
            os.unlink(spot.name, dir_fd=spot.dir_fd)
        else:
            from .trashing import move_to_trash  # lazy: a run that only writes never trashes

            try:
                where = move_to_trash(workspace.root, spot, target.change.path)
            except (OSError, OperatorError) as exc:
                if isinstance(saved, SavedDir):
                    _put_back_after_failed_trash(spot, saved, target.change.path, exc)
                elif isinstance(saved, SavedTooLarge) and saved.listing:
                    _say_what_the_trash_took(spot, saved.listing, target.change.path, exc)
                raise
    rollback.trashed.append((target.rel, saved))
    return where, times


def _put_back_after_failed_trash(
    spot: Spot, saved: SavedDir, path: str, exc: OSError | OperatorError
) -> None:
    """A trash that copies a folder and then removes it entry by entry may have removed
    part of it before failing: put those entries back from the undo copy, and raise the
    error saying what happened (returns when nothing was missing)."""
    try:
        fd = os.open(spot.name, DIR_FLAGS, dir_fd=spot.dir_fd)
    except OSError:
        return  # gone or replaced as a whole: the trash's own error says so
    from .refill import refill_at  # lazy: only a trash that failed half-way needs it

    try:
        put_back, problems = refill_at(fd, saved, path, entries.write_all)
    finally:
        os.close(fd)
    if not put_back and not problems:
        return
    code, reason = _failed_trash_reason(exc)
    shown = ", ".join(put_back[:5]) + (
        f" and {len(put_back) - 5} more" if len(put_back) > 5 else ""
    )
    if not problems:
        message = (
            f"could not move {path} to the system trash ({reason}); nothing was deleted. "
            f"The trash had already taken {len(put_back)} of its entries ({shown}) when it "
            "failed: they were put back from the undo copy, so the folder is as it was "
            "(the system trash keeps a copy of them). Deletes only ever go to the trash: "
            "the user can fix what kept it from being removed, or delete it by hand."
        )
    else:
        message = (
            f"could not move {path} to the system trash ({reason}), and the trash had "
            f"already taken part of it; these could not be put back and are in the system "
            f"trash: {'; '.join(problems)}" + (f" (put back: {shown})" if put_back else "")
        )
    raise OperatorError(
        code, message, {"path": path, "reason": reason, "put_back": put_back, "lost": problems}
    ) from None


def _failed_trash_reason(exc: OSError | OperatorError) -> tuple[str, str]:
    if isinstance(exc, OperatorError):
        return exc.code, str(exc.details.get("reason") or exc.message)
    return code_of(exc, "ERR_TRASH_UNAVAILABLE"), _reason(exc)


def _say_what_the_trash_took(
    spot: Spot, listing: tuple[str, ...], path: str, exc: OSError | OperatorError
) -> None:
    """A folder too large for an undo copy that the trash took only in part: nothing can
    be put back here, so the error names what is gone (it is in the system trash) instead
    of saying nothing was deleted. Returns when every entry is still there."""
    try:
        fd = os.open(spot.name, DIR_FLAGS, dir_fd=spot.dir_fd)
    except OSError:
        return  # gone or replaced as a whole: the trash's own error says so
    gone: list[str] = []
    gone_set: set[str] = set()
    try:
        for rel in listing:
            parts = rel.split("/")
            if any("/".join(parts[:end]) in gone_set for end in range(1, len(parts))):
                continue  # inside a folder already named as gone
            try:
                os.stat(rel, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                gone.append(rel)
                gone_set.add(rel)
            except OSError:
                continue
    finally:
        os.close(fd)
    if not gone:
        return
    code, reason = _failed_trash_reason(exc)
    taken = [f"{path}/{rel}" for rel in gone]
    shown = ", ".join(taken[:5]) + (f" and {len(taken) - 5} more" if len(taken) > 5 else "")
    raise OperatorError(
        code,
        f"could not move {path} to the system trash ({reason}), and the trash had already "
        f"taken part of it: {shown} {'is' if len(taken) == 1 else 'are'} gone from the "
        "workspace and in the system trash. The folder is too large for an undo copy, so "
        "they could not be put back here: restore them from the system trash, then fix "
        "what kept the rest from being removed.",
        {"path": path, "reason": reason, "put_back": [], "lost": taken},
    ) from None


def _record(recorder: Recorder, target: _Target, saved: SavedEntry | None) -> None:
    try:
        recorder.record_before(target.change, saved=saved, created_dirs=target.missing_dirs)
    except OSError as exc:
        raise OperatorError(
            "ERR_JOURNAL_FAILED",
            f"could not save the undo copy of {target.change.path} ({_reason(exc)}); "
            "nothing was written",
            {"path": target.change.path, "reason": _reason(exc)},
        ) from exc


def _capture_target(workspace: Workspace, target: _Target) -> SavedEntry:
    with _locate_target(workspace, target.change) as spot:
        return capture_at(spot.dir_fd, spot.name, SNAPSHOT_CAP)


def apply_changeset(
    workspace: Workspace, changeset: ChangeSet, recorder: Recorder | None
) -> tuple[str, ...]:
    """Apply every change of ``changeset`` or none of them.

    Returns notes for the result: where a delete landed in a trash folder inside the
    workspace, "the trash folder <rel> inside the workspace". Raises ERR_STALE_FILE
    (nothing written), ERR_PATH_OUTSIDE_WORKSPACE, a named OS error code (ERR_NO_SPACE,
    ERR_PERMISSION_DENIED, ... or ERR_WRITE_FAILED), ERR_TRASH_UNAVAILABLE or
    ERR_JOURNAL_FAILED; after any of them the workspace holds what it held before.
    """
    rollback = _Rollback(workspace)
    notes: list[str] = []
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
                deletes.append((target, _capture_target(workspace, target)))
        if recorder is not None:
            for target in writes:
                previous = None
                if target.change.before is not None and target.mode is not None:
                    previous = SavedFile(target.change.before, target.mode)
                _record(recorder, target, previous)
            for target, saved in deletes:
                _record(recorder, target, saved)
        doing = "write"
        for target in writes:
            path = target.change.path
            _write(workspace, target, rollback)
        doing = "delete"
        for target, saved in deletes:
            path = target.change.path
            where, times = _trash(workspace, target, saved, rollback)
            if where is not None and where.inside is not None:
                notes.append(f"the trash folder {where.inside} inside the workspace")
            if recorder is not None and where is not None and where.files and where.info:
                with contextlib.suppress(OSError, OperatorError):
                    recorder.record_trashed(
                        target.change, where.files, where.info, times, where.identity
                    )
    except OSError as exc:
        problems = _fail(rollback, recorder)
        undone = "nothing was changed" if not problems else "taking back the partial change "
        if problems:
            undone += "also failed: " + "; ".join(problems)
        raise OperatorError(
            code_of(exc, "ERR_WRITE_FAILED"),
            f"could not {doing} {path}: {_reason(exc)}; {undone}",
            {"path": path, "reason": _reason(exc), "rollback_problems": problems},
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
    return tuple(notes)


def _fail(rollback: _Rollback, recorder: Recorder | None) -> list[str]:
    problems = rollback.run()
    if recorder is not None:
        # A store that cannot forget the taken-back entries now forgets them when the
        # batch is committed (the recorder keeps them apart): the error that made the
        # change fail stays the one reported.
        with contextlib.suppress(OSError, OperatorError):
            if rollback.failed:
                recorder.changeset_failed(kept=rollback.failed)
            else:
                recorder.changeset_failed()
    return problems


# -- leftovers of a killed process ----------------------------------------------------------


def clean_stale_temp_files(workspace: Workspace) -> tuple[str, ...]:
    """Remove temp files (and half-built restore folders) left by a killed write.

    Only names this module makes are touched: ``.<name>.llmop-<8 hex>.tmp``. The walk is
    made by descriptors and never follows a symlink. Returns their workspace-relative paths.
    """
    removed: list[str] = []
    root_fd = os.open(workspace.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        walk = os.fwalk(".", dir_fd=root_fd, follow_symlinks=False)
        for folder, dirnames, filenames, fd in walk:
            dirnames[:] = [d for d in dirnames if d != ".git"]
            for name in [*dirnames, *filenames]:
                if not TEMP_NAME.fullmatch(name):
                    continue
                try:
                    remove_tree_at(fd, name)
                except OSError:
                    continue
                removed.append(os.path.normpath(os.path.join(folder, name)))
            dirnames[:] = [d for d in dirnames if not TEMP_NAME.fullmatch(d)]
    finally:
        os.close(root_fd)
    return tuple(removed)
