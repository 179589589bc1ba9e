"""Walking a folder of the workspace by descriptors, in one deterministic order.

fs.searchTree and the folder outline both read many files under one folder; this module
hands them out one at a time, so a caller that has seen enough simply stops iterating and
the walk costs nothing more (open descriptors are closed when the generator is closed).

Invariants:
- Every folder is opened relative to its parent's descriptor with O_NOFOLLOW|O_DIRECTORY,
  starting from a descriptor of the workspace root: a folder swapped for a symlink while
  the walk runs makes that folder unreadable (skipped and counted), never a way outside.
- Symlinked folders are never followed. A symlinked file is read only when its target
  resolves inside the workspace; the target is then opened by walking its real path from
  the root descriptor, one component at a time, without following links.
- The order is depth first with each folder's names sorted by code point, i.e. files come
  in the lexicographic order of their path components. ``after`` resumes strictly after a
  path in that order, skipping whole folders that lie before it without reading them.
- The walk is a loop over an explicit stack, never a recursion, so folders nested to any
  depth are walked (no RecursionError). At most ``MAX_OPEN_FOLDERS`` folder descriptors
  are held: a deeper walk closes the ones above, and returning to such a folder opens it
  again through ``..`` of the folder below and checks it is the very folder it left
  (device, inode); a folder that cannot be regained so is counted unreadable.
- Skipped and counted, never read: entries of .gitignore'd paths, entries the caller's
  ``select`` filter drops, names that cannot be shown on one line (``display_name`` would
  change them), folders and files that cannot be opened. Silently passed over: ``.git``
  folders, the trash folders at the root (``.Trash``, ``.Trash-<uid>``), symlinked folders,
  FIFOs, sockets and devices.
- A caller that must say what it left out (a context pack) gives ``WalkCounts.left_out`` a
  list: every entry passed over for what it is (a FIFO, socket or device, a link leading
  outside, into ``.git``, to a folder or nowhere, a name that cannot be shown on one line,
  a folder that cannot be opened) is added to it by path, with why. .gitignore'd entries
  and those the caller's filter drops are only counted; ``.git``, the trash and the app's
  own state folder are never named.
"""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import OperatorError
from ..file_names import is_plain_name
from ..work_budget import charge, spent
from .ignores import Ignores
from .passed_over import LINK_REASONS, kind_of, os_reason
from .pathtext import check_path_text

if TYPE_CHECKING:
    from .workspace import Workspace

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
MAX_OPEN_FOLDERS = 64

Select = Callable[[str, bool], bool]
"""``select(path relative to the start folder, is_folder)``: False drops the entry."""


@dataclass
class WalkCounts:
    """What the walk passed over, by reason (shown in the searchTree header)."""

    ignored: int = 0  # by a .gitignore
    filtered: int = 0  # by the caller's select (glob / exclude)
    odd_names: int = 0  # names that cannot be shown on one line
    unreadable: int = 0  # folders or files that could not be opened, links leading outside
    visited: int = 0  # files handed out
    budget_stop: bool = False  # the reply's work budget ended the walk before its end
    passed: str | None = None  # the last entry passed over past ``after`` since the last file
    gitignore_dropped: int = 0  # .gitignore pattern lines over the caps, not applied
    # When a list: each entry passed over for what it is, by path, with why (see above).
    left_out: list[tuple[str, str]] | None = None

    def leave_out(self, rel: str, reason: str) -> None:
        if self.left_out is not None:
            self.left_out.append((rel, reason))


@dataclass(frozen=True)
class TreeFile:
    """One regular file (or a link to one inside the workspace) met by the walk.

    ``read`` is valid only while the walk is positioned at this file.
    """

    rel: str  # workspace-relative path as walked (the link's own path for a link)
    target_rel: str  # workspace-relative path of the real file (== rel unless a link)
    _dir_fd: int = field(repr=False)
    _name: str = field(repr=False)
    _root_fd: int = field(repr=False)

    @property
    def is_link(self) -> bool:
        return self.rel != self.target_rel

    def is_secret(self, workspace: Workspace, start_secret: bool = False) -> bool:
        """Whether this file looks secret: the start folder, the path as walked, the file
        ``open`` opens (``target_rel``: exact, whatever a link says by the time it is read
        again) and, for a link, every hop as it stands now."""
        if start_secret or workspace.is_secret(self.rel):
            return True
        if not self.is_link:
            return False
        return workspace.is_secret(self.target_rel) or workspace.secret_match(self.rel) is not None

    def lstat(self) -> os.stat_result:
        """The entry as walked (a link itself, not its target); OSError when it is gone."""
        return os.stat(self._name, dir_fd=self._dir_fd, follow_symlinks=False)

    def open(self) -> int:
        """A read descriptor of the file (the caller closes it); OSError when it cannot."""
        if not self.is_link:
            return os.open(self._name, _FILE_FLAGS, dir_fd=self._dir_fd)
        return open_below(self._root_fd, self.target_rel, _FILE_FLAGS)


def open_below(root_fd: int, rel: str, flags: int) -> int:
    """Open ``rel`` (no ``..``, no symlinks) from ``root_fd`` one component at a time."""
    parts = [part for part in rel.split("/") if part not in ("", ".")]
    if not parts:
        return os.open(".", flags, dir_fd=root_fd)
    current = root_fd
    try:
        for part in parts[:-1]:
            following = os.open(part, _DIR_FLAGS, dir_fd=current)
            if current != root_fd:
                os.close(current)
            current = following
        return os.open(parts[-1], flags, dir_fd=current)
    finally:
        if current != root_fd:
            os.close(current)


@dataclass
class _Frame:
    """One folder on the walk's stack: its descriptor (-1 while closed), its entries and how
    far the walk has come in them."""

    fd: int
    key: tuple[str, ...]
    entries: list[os.DirEntry[str]]
    pushed: int  # .gitignore specs pushed for it
    owned: bool  # whether the walk opened (and closes) fd
    identity: tuple[int, int]
    index: int = 0


def _key(rel: str) -> tuple[str, ...]:
    return tuple(part for part in rel.split("/") if part not in ("", "."))


@dataclass
class _Walk:
    """One walk under a folder: the root descriptor it opens everything from, its filter,
    resume point, .gitignore rules and counts."""

    workspace: Workspace
    root_fd: int
    select: Select | None
    after: tuple[str, ...] | None
    counts: WalkCounts
    ignores: Ignores
    start_depth: int

    def entries(self, fd: int) -> list[os.DirEntry[str]]:
        with os.scandir(fd) as scan:
            return sorted(scan, key=lambda entry: entry.name)

    def files(self, start_fd: int, start: tuple[str, ...]) -> Iterator[TreeFile]:
        """The files under the folder open at ``start_fd`` (owned by the caller)."""
        stack: list[_Frame] = []
        try:
            self.enter(stack, start_fd, start, owned=False)
            while stack:
                frame = stack[-1]
                if frame.fd < 0 and not self.regain(stack):
                    self.leave(stack)
                    continue
                if frame.index >= len(frame.entries):
                    self.leave(stack)
                    continue
                entry = frame.entries[frame.index]
                frame.index += 1
                found = self.entry(frame.fd, frame.key, entry)
                if isinstance(found, TreeFile):
                    # The caller says where it got to; what was passed before it counts no more.
                    self.counts.passed = None
                    yield found
                    continue
                key = (*frame.key, entry.name)
                if self.after is None or key > self.after:
                    # Passed over (skipped, or a folder walked into): a resume point that
                    # moves forward even when no file is handed out.
                    self.counts.passed = "/".join(key)
                progressed = self.counts.passed is not None or self.counts.visited > 0
                if spent() and progressed:
                    # Skipped entries and folders (their .gitignore files) can use up the
                    # budget; the walk always moves at least one entry past ``after``.
                    if found is not None:
                        os.close(found[0])
                    self.counts.budget_stop = True
                    return
                if found is not None:
                    child_fd, child_key = found
                    self.enter(stack, child_fd, child_key, owned=True)
        finally:
            for frame in stack:
                self.ignores.pop(frame.pushed)
                if frame.owned and frame.fd >= 0:
                    os.close(frame.fd)

    def enter(self, stack: list[_Frame], fd: int, key: tuple[str, ...], owned: bool) -> None:
        pushed = self.ignores.load(fd, "/".join(key) or ".")
        self.counts.gitignore_dropped = self.ignores.dropped
        try:
            entries = self.entries(fd)
            identity = os.fstat(fd)
        except OSError:
            self.counts.unreadable += 1
            self.ignores.pop(pushed)
            if owned:
                os.close(fd)
            return
        stack.append(_Frame(fd, key, entries, pushed, owned, (identity.st_dev, identity.st_ino)))
        # Keep few descriptors open: close the one MAX_OPEN_FOLDERS above (regained later).
        if len(stack) > MAX_OPEN_FOLDERS:
            far = stack[-MAX_OPEN_FOLDERS - 1]
            if far.owned and far.fd >= 0:
                os.close(far.fd)
                far.fd = -1

    def leave(self, stack: list[_Frame]) -> None:
        frame = stack[-1]
        if len(stack) > 1 and stack[-2].fd < 0 and frame.fd >= 0:
            self.regain_parent(stack)
        stack.pop()
        self.ignores.pop(frame.pushed)
        if frame.owned and frame.fd >= 0:
            os.close(frame.fd)

    def regain_parent(self, stack: list[_Frame]) -> None:
        """Open the closed folder above the top frame through its ``..``."""
        child, parent = stack[-1], stack[-2]
        try:
            fd = os.open("..", _DIR_FLAGS, dir_fd=child.fd)
        except OSError:
            return
        info = os.fstat(fd)
        if (info.st_dev, info.st_ino) != parent.identity:
            os.close(fd)  # moved meanwhile: never continue in a folder other than the one left
            return
        parent.fd = fd

    def regain(self, stack: list[_Frame]) -> bool:
        """Whether the top frame, whose descriptor was closed, could be opened again."""
        frame = stack[-1]
        try:
            fd = open_below(self.root_fd, "/".join(frame.key) or ".", _DIR_FLAGS)
        except OSError:
            fd = -1
        if fd >= 0:
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) == frame.identity:
                frame.fd = fd
                return True
            os.close(fd)
        self.counts.unreadable += 1
        frame.entries = []
        return False

    def before_resume_point(self, key: tuple[str, ...], is_dir: bool) -> bool:
        """Whether ``key`` (and, for a folder, all it holds) comes at or before ``after``."""
        if self.after is None:
            return False
        if is_dir and self.after[: len(key)] == key:
            return False  # the resume point is inside: walk in
        return key <= self.after

    def entry(
        self, fd: int, folder: tuple[str, ...], entry: os.DirEntry[str]
    ) -> TreeFile | tuple[int, tuple[str, ...]] | None:
        """The file ``entry`` is, or the opened folder to walk into, or None (passed over)."""
        name = entry.name
        key = (*folder, name)
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            is_link = not is_dir and entry.is_symlink()
        except OSError:
            self.counts.unreadable += 1
            return None
        if is_dir and (name.casefold() == ".git" or self.workspace.is_trash("/".join(key))):
            return None
        if self.workspace.is_app_state("/".join(key)):
            return None  # the app's own state folder is never searched
        if self.before_resume_point(key, is_dir):
            return None
        if not is_plain_name(name):
            self.counts.odd_names += 1
            self.counts.leave_out("/".join(key), "a name that cannot be shown on one line")
            return None
        rel = "/".join(key)
        if self.ignores.ignored(rel, is_dir):
            self.counts.ignored += 1
            return None
        if self.select is not None and not self.select("/".join(key[self.start_depth :]), is_dir):
            self.counts.filtered += 1
            return None
        if is_dir:
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except OSError as error:
                self.counts.unreadable += 1
                self.counts.leave_out(rel, f"a folder that cannot be opened ({os_reason(error)})")
                return None
            return child, key
        if is_link:
            target = self.link_target(rel)
            if target is None:
                return None
        else:
            try:
                # The type from the folder listing (no system call); lstat only for the rare
                # entry that is not a regular file, to say what it is.
                if not entry.is_file(follow_symlinks=False):
                    if self.counts.left_out is not None:
                        mode = entry.stat(follow_symlinks=False).st_mode
                        self.counts.leave_out(rel, f"a {kind_of(mode)}, not a regular file")
                    return None  # FIFOs, sockets, devices: never opened
            except OSError as error:
                self.counts.unreadable += 1
                self.counts.leave_out(rel, f"unreadable ({os_reason(error)})")
                return None
            target = rel
        self.counts.visited += 1
        return TreeFile(rel, target, fd, name, self.root_fd)

    def link_target(self, rel: str) -> str | None:
        """The workspace path a symlinked file leads to; None for folders and the outside."""
        try:
            real = self.workspace.resolve(rel)
        except OperatorError as error:
            if error.code == "ERR_PATH_PROTECTED":
                self.counts.leave_out(rel, "a link into .git")
            else:
                self.counts.unreadable += 1
                reason = LINK_REASONS.get(
                    error.code, f"a link that cannot be followed ({error.code})"
                )
                self.counts.leave_out(rel, reason)
            return None
        try:
            info = os.stat(real)
        except OSError:
            self.counts.unreadable += 1
            self.counts.leave_out(rel, "a dangling link (its target does not exist)")
            return None
        if stat.S_ISDIR(info.st_mode):
            self.counts.leave_out(rel, "a link to a folder (links to folders are not followed)")
            return None
        if not stat.S_ISREG(info.st_mode):
            self.counts.leave_out(rel, f"a link to a {kind_of(info.st_mode)}, not a regular file")
            return None
        target = self.workspace.relative(real)
        if self.workspace.is_trash(target) or any(
            p.casefold() == ".git" for p in target.split("/")
        ):
            self.counts.leave_out(rel, "a link into .git or the trash")
            return None
        return target


def one_after(after: str | None, after_b64: str | None) -> None:
    """Refuse ``after`` given twice (as after and as after_b64 / after_json)."""
    if after is not None and after_b64 is not None:
        from ..errors import InvalidCommand

        raise InvalidCommand(
            "ERR_CONFLICTING_FIELDS",
            "give either after or after_json (or after_b64), not both; send back the one "
            "the '# more:' line gives",
        )


def furthest(*paths: str | None) -> str | None:
    """The path of ``paths`` that comes last in the walk's order (None if all are None)."""
    given = [path for path in paths if path is not None]
    return max(given, key=_key) if given else None


def check_after(after: str, start: str, code: str) -> str:
    """``after`` as the continuation of a walk of folder ``start``: a workspace path under
    it (as a ``# more: after:`` line gives it), normalized; ``code`` names the refusal.
    A value outside it would resume nowhere and report an empty walk as complete."""
    normal = posixpath.normpath(check_path_text(after))
    prefix = "" if start in (".", "") else start.rstrip("/") + "/"
    if ".." in normal.split("/") or not (normal + "/").startswith(prefix) or normal == start:
        raise OperatorError(
            code,
            f"after must be a path inside {start!r}, as the '# more:' line of the "
            f"previous result gives it; got {after!r}",
        )
    return normal


def walk_files(
    workspace: Workspace,
    start: str,
    counts: WalkCounts,
    *,
    select: Select | None = None,
    after: str | None = None,
    gitignore: bool = True,
) -> Generator[TreeFile, None, None]:
    """The files under workspace folder ``start`` (a real, symlink-free relative path).

    Stop iterating at any time; the descriptors are closed when the generator is.
    Raises OperatorError(ERR_PATH_OUTSIDE_WORKSPACE) when ``start`` cannot be opened
    without following a symlink, and OSError for other failures to open it.
    """
    root_fd = os.open(workspace.root, _DIR_FLAGS)
    try:
        start_key = _key(start)
        ignores = Ignores(enabled=gitignore, is_secret=workspace.is_secret)
        # The .gitignore files of the folders above the start apply too, as in git.
        for depth in range(len(start_key)):
            above = "/".join(start_key[:depth]) or "."
            try:
                fd = open_below(root_fd, above, _DIR_FLAGS)
            except OSError:
                continue
            try:
                ignores.load(fd, above)
            finally:
                os.close(fd)
        try:
            start_fd = open_below(root_fd, start, _DIR_FLAGS)
        except OSError as exc:
            if exc.errno in (getattr(os, "ELOOP", -1), getattr(os, "ENOTDIR", -1)):
                raise OperatorError(
                    "ERR_PATH_OUTSIDE_WORKSPACE",
                    f"{start!r} changed into a symlink while it was being searched",
                ) from None
            raise
        walk = _Walk(
            workspace,
            root_fd,
            select,
            _key(after) if after else None,
            counts,
            ignores,
            len(start_key),
        )
        try:
            yield from walk.files(start_fd, start_key)
        finally:
            os.close(start_fd)
    finally:
        os.close(root_fd)


def walk_one(workspace: Workspace, rel: str, counts: WalkCounts) -> Generator[TreeFile, None, None]:
    """The single regular file at workspace path ``rel`` (real, symlink-free), as a walk."""
    parent, _, name = rel.rpartition("/")
    root_fd = os.open(workspace.root, _DIR_FLAGS)
    try:
        try:
            folder_fd = open_below(root_fd, parent or ".", _DIR_FLAGS)
        except OSError:
            counts.unreadable += 1
            return
        try:
            info = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
            if stat.S_ISREG(info.st_mode):
                counts.visited += 1
                yield TreeFile(rel, rel, folder_fd, name, root_fd)
        except OSError:
            counts.unreadable += 1
        finally:
            os.close(folder_fd)
    finally:
        os.close(root_fd)


def read_limited(fd: int, limit: int) -> bytes | None:
    """The bytes of the regular file open at ``fd``; None when it is larger than ``limit``.

    Raises OSError when the descriptor is not a regular file (a FIFO swapped in).
    """
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise IsADirectoryError(0, "not a regular file")
    if info.st_size > limit:
        return None
    chunks = []
    remaining = limit + 1
    while remaining > 0:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    data = b"".join(chunks)
    charge(len(data))
    return None if len(data) > limit else data


def count_files(dir_fd: int, name: str) -> int:
    """How many non-folder entries the folder ``name`` (in ``dir_fd``) holds at any depth,
    symlinks counted, never followed: what a delete of the folder takes with it."""
    return measure_folder(dir_fd, name)[0]


def measure_folder(dir_fd: int, name: str) -> tuple[int, int, int]:
    """(non-folder entries at any depth, folders at any depth, deepest folder level below
    ``name``).

    A loop over an explicit stack, as the walk: any depth, at most ``MAX_OPEN_FOLDERS``
    descriptors open (a closed one is regained through ``..`` and checked by identity);
    folders that cannot be read are not counted.
    """
    total = 0
    total_folders = 0
    deepest = 0
    # each frame: [fd (-1 while closed), subfolder names left, (dev, ino)]
    stack: list[tuple[list[int], list[str], tuple[int, int]]] = []

    def enter(fd: int) -> None:
        nonlocal total, total_folders, deepest
        deepest = max(deepest, len(stack))
        folders = []
        try:
            with os.scandir(fd) as scan:
                for entry in scan:
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(entry.name)
                    else:
                        total += 1
            info = os.fstat(fd)
        except OSError:
            os.close(fd)
            return
        total_folders += len(folders)
        stack.append(([fd], folders, (info.st_dev, info.st_ino)))
        if len(stack) > MAX_OPEN_FOLDERS:
            far = stack[-MAX_OPEN_FOLDERS - 1][0]
            if far[0] >= 0:
                os.close(far[0])
                far[0] = -1

    try:
        enter(os.open(name, _DIR_FLAGS, dir_fd=dir_fd))
    except OSError:
        return 0, 0, 0
    try:
        while stack:
            fd_box, folders, _ = stack[-1]
            if folders and fd_box[0] >= 0:
                try:
                    child = os.open(folders.pop(), _DIR_FLAGS, dir_fd=fd_box[0])
                except OSError:
                    continue
                enter(child)
                continue
            stack.pop()
            if stack and stack[-1][0][0] < 0 and fd_box[0] >= 0:
                try:
                    parent = os.open("..", _DIR_FLAGS, dir_fd=fd_box[0])
                    info = os.fstat(parent)
                    if (info.st_dev, info.st_ino) == stack[-1][2]:
                        stack[-1][0][0] = parent
                    else:
                        os.close(parent)
                except OSError:
                    pass
            if fd_box[0] >= 0:
                os.close(fd_box[0])
    finally:
        for fd_box, _, _ in stack:
            if fd_box[0] >= 0:
                os.close(fd_box[0])
    return total, total_folders, deepest
