"""The undo journal: what each approved batch changed, kept outside the workspace.

Invariants:
- A batch lives in its own folder ``<state>/journal/<seq>-<time>``; ``seq`` only grows.
  Its ``manifest.json`` is rewritten atomically after every recorded change, and a blob is
  on disk (fsynced) before a manifest names it. A crash at any moment leaves a readable
  manifest; at most the entries of one ChangeSet are marked not applied, and their writes
  may or may not have happened.
- Undo never overwrites work done after the batch. Every path must still hold what the
  batch left there, or already hold what it held before; otherwise the whole undo is
  refused, nothing is touched, and the report lists the conflicting paths.
- A path touched several times in one batch is undone once: back to what it held before
  the batch's first change, checked against what the batch's last change left.
- Only the newest MAX_BATCHES batches are kept; older ones are deleted when a batch begins.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from ..errors import OperatorError
from ..plan.changes import FileChange, digest
from .applying import (
    Recorder,
    SavedDir,
    SavedEntry,
    SavedFile,
    SavedLink,
    SavedTooLarge,
    SavedUnsupported,
    restore_entry,
    unlink_entry,
)
from .atomic import write_path_atomically
from .oserrors import reason_of
from .workspace import Workspace

MAX_BATCHES = 50
_FORMAT = 1

ChangeKind = Literal["edited", "created", "deleted"]


@dataclass(frozen=True)
class BatchChange:
    path: str
    kind: ChangeKind


@dataclass(frozen=True)
class BatchInfo:
    id: str
    label: str
    created: datetime
    changes: tuple[BatchChange, ...]
    complete: bool  # False when the run never ended (the app stopped mid-batch)
    undone: bool


@dataclass(frozen=True)
class UndoReport:
    batch: BatchInfo | None  # None when there was nothing to undo
    restored: tuple[str, ...]  # paths given back their previous content
    removed: tuple[str, ...]  # files and folders the batch had created
    already_undone: tuple[str, ...]  # paths that already held their previous content
    problems: tuple[str, ...]
    refused: bool  # True when a conflict stopped the whole undo before it touched anything
    summary: str

    @property
    def ok(self) -> bool:
        return self.batch is not None and not self.refused and not self.problems


# -- storage --------------------------------------------------------------------------------


def _write_durably(path: Path, data: bytes) -> None:
    write_path_atomically(path, data)


def _node_to_json(saved: SavedEntry, blobs: Path) -> dict[str, Any]:
    if isinstance(saved, SavedFile):
        name = digest(saved.data).removeprefix("sha256:")
        if not (blobs / name).exists():
            blobs.mkdir(exist_ok=True)
            _write_durably(blobs / name, saved.data)
        return {"type": "file", "mode": saved.mode, "blob": name}
    if isinstance(saved, SavedLink):
        return {"type": "symlink", "target": saved.target}
    if isinstance(saved, SavedDir):
        children = [[name, _node_to_json(child, blobs)] for name, child in saved.children]
        return {"type": "dir", "mode": saved.mode, "children": children}
    if isinstance(saved, SavedTooLarge):
        return {"type": "too_large", "size": saved.size}
    return {"type": "unsupported", "kind": saved.kind}


def _node_from_json(node: dict[str, Any], blobs: Path) -> SavedEntry:
    kind = node["type"]
    if kind == "file":
        return SavedFile((blobs / node["blob"]).read_bytes(), int(node["mode"]))
    if kind == "symlink":
        return SavedLink(str(node["target"]))
    if kind == "dir":
        children = tuple((str(n), _node_from_json(c, blobs)) for n, c in node["children"])
        return SavedDir(int(node["mode"]), children)
    if kind == "too_large":
        return SavedTooLarge(int(node["size"]))
    return SavedUnsupported(str(node.get("kind", "special file")))


def _fingerprint_of_node(node: dict[str, Any] | None) -> str | None:
    """What the path held before, in _fingerprint's terms; None if not cheaply comparable."""
    if node is None:
        return "absent"
    if node["type"] == "file":
        return "sha256:" + str(node["blob"])
    if node["type"] == "symlink":
        return "symlink:" + str(node["target"])
    return None


def _fingerprint(real: Path) -> str:
    try:
        info = os.lstat(real)
    except (FileNotFoundError, NotADirectoryError):
        return "absent"
    if stat.S_ISLNK(info.st_mode):
        return "symlink:" + os.readlink(real)
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if stat.S_ISREG(info.st_mode):
        return digest(real.read_bytes())
    return "special file"


def _describe(fingerprint: str) -> str:
    if fingerprint == "absent":
        return "nothing"
    if fingerprint.startswith("sha256:"):
        return f"a file ({fingerprint[:19]}...)"
    if fingerprint.startswith("symlink:"):
        return f"a symlink to {fingerprint.removeprefix('symlink:')}"
    return f"a {fingerprint}"


@dataclass
class _Manifest:
    folder: Path
    data: dict[str, Any]

    @classmethod
    def load(cls, folder: Path) -> _Manifest | None:
        try:
            data = json.loads((folder / "manifest.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None  # a batch folder from a crash before its first manifest
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            return None
        return cls(folder, data)

    def save(self) -> None:
        text = json.dumps(self.data, indent=1, ensure_ascii=True)
        _write_durably(self.folder / "manifest.json", text.encode("ascii"))

    @property
    def entries(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.data["entries"]
        return entries

    def info(self) -> BatchInfo:
        return BatchInfo(
            id=str(self.data["id"]),
            label=str(self.data["label"]),
            created=datetime.fromisoformat(self.data["created"]),
            changes=tuple(BatchChange(e["path"], e["kind"]) for e in self.entries),
            complete=self.data["state"] != "open",
            undone=self.data["state"] == "undone",
        )


# -- recording ------------------------------------------------------------------------------


class BatchRecorder(Recorder):
    """Records one approved run as it happens; ``apply_changeset`` calls it per ChangeSet."""

    def __init__(self, manifest: _Manifest) -> None:
        self._manifest = manifest
        self._pending = 0
        self._closed = False

    @property
    def batch_id(self) -> str:
        return str(self._manifest.data["id"])

    def record_before(
        self,
        change: FileChange,
        *,
        saved: SavedEntry | None,
        created_dirs: tuple[str, ...] = (),
    ) -> None:
        """Save what ``change.path`` holds before it is touched (``saved`` None: nothing)."""
        if self._closed:
            raise RuntimeError("this batch is already committed")
        kind: ChangeKind = (
            "deleted" if change.is_delete else "created" if saved is None else "edited"
        )
        node = None if saved is None else _node_to_json(saved, self._manifest.folder / "blobs")
        entry = {
            "path": change.path,
            "kind": kind,
            "before": node,
            "after": digest(change.after),
            "created_dirs": list(created_dirs),
            "applied": False,
        }
        self._manifest.entries.append(entry)
        self._pending += 1
        self._manifest.save()

    def changeset_applied(self) -> None:
        for entry in self._manifest.entries[len(self._manifest.entries) - self._pending :]:
            entry["applied"] = True
        self._pending = 0
        self._manifest.save()

    def changeset_failed(self) -> None:
        """Forget the entries of a ChangeSet that was rolled back (nothing of it remains)."""
        if self._pending:
            del self._manifest.entries[-self._pending :]
            self._pending = 0
            self._manifest.save()
            self._drop_unused_blobs()

    def commit(self) -> BatchInfo | None:
        """End the run; a batch that changed nothing is not kept (returns None)."""
        self._closed = True
        if not self._manifest.entries:
            shutil.rmtree(self._manifest.folder, ignore_errors=True)
            return None
        self._manifest.data["state"] = "committed"
        self._manifest.save()
        return self._manifest.info()

    def _drop_unused_blobs(self) -> None:
        used: set[str] = set()

        def collect(node: dict[str, Any] | None) -> None:
            if node is None:
                return
            if node["type"] == "file":
                used.add(node["blob"])
            for _, child in node.get("children", []):
                collect(child)

        for entry in self._manifest.entries:
            collect(entry["before"])
        blobs = self._manifest.folder / "blobs"
        if blobs.is_dir():
            for blob in blobs.iterdir():
                if blob.name not in used:
                    blob.unlink(missing_ok=True)


# -- the journal ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _PathUndo:
    """One path's whole story in a batch: what it held first and what it was left holding."""

    path: str
    before: dict[str, Any] | None
    after: str
    created_dirs: tuple[str, ...]


@dataclass
class _UndoProgress:
    restored: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    failed: bool = False  # an OS error: the batch stays undoable so undo can be retried


def _seq(folder: Path) -> int | None:
    head = folder.name.partition("-")[0]
    return int(head) if head.isdigit() else None


class Journal:
    """The approved batches of one workspace, newest last on disk, newest first in lists."""

    def __init__(self, state_dir_for_workspace: Path) -> None:
        self._folder = state_dir_for_workspace / "journal"

    def _batch_folders(self) -> list[Path]:
        """Batch folders, newest first."""
        if not self._folder.is_dir():
            return []
        folders = [p for p in self._folder.iterdir() if p.is_dir() and _seq(p) is not None]
        return sorted(folders, key=lambda p: _seq(p) or 0, reverse=True)

    def begin_batch(self, label: str) -> BatchRecorder:
        self._folder.mkdir(parents=True, exist_ok=True)
        folders = self._batch_folders()
        for old in folders[MAX_BATCHES - 1 :]:
            shutil.rmtree(old, ignore_errors=True)
        seq = (_seq(folders[0]) or 0) + 1 if folders else 1
        now = datetime.now(timezone.utc)
        while True:
            batch_id = f"{seq:06d}-{now:%Y%m%dT%H%M%S}"
            try:
                (self._folder / batch_id).mkdir()
                break
            except FileExistsError:
                seq += 1  # another process began a batch at the same moment
        manifest = _Manifest(
            self._folder / batch_id,
            {
                "format": _FORMAT,
                "id": batch_id,
                "label": label,
                "created": now.isoformat(),
                "state": "open",
                "entries": [],
            },
        )
        manifest.save()
        return BatchRecorder(manifest)

    def _manifests(self) -> list[_Manifest]:
        loaded = (_Manifest.load(folder) for folder in self._batch_folders())
        return [m for m in loaded if m is not None and m.entries]

    def batches(self) -> list[BatchInfo]:
        """Every kept batch that changed something, newest first (undone ones included)."""
        return [m.info() for m in self._manifests()]

    def last_batch(self) -> BatchInfo | None:
        """The batch ``undo_last`` would undo: the newest one not yet undone."""
        manifest = self._undoable()
        return manifest.info() if manifest else None

    def _undoable(self) -> _Manifest | None:
        return next((m for m in self._manifests() if m.data["state"] != "undone"), None)

    def undo_last(self, workspace: Workspace) -> UndoReport:
        manifest = self._undoable()
        if manifest is None:
            summary = "Nothing to undo: no approved change is recorded for this workspace."
            return UndoReport(None, (), (), (), (), False, summary)
        info = manifest.info()
        paths = _paths_of(manifest.entries)
        conflicts = {p.path: c for p in paths if (c := _conflict(workspace, p))}
        if conflicts:
            summary = (
                f"Undo of '{info.label}' refused: {len(conflicts)} path(s) changed after the "
                f"batch wrote them ({', '.join(conflicts)}). Nothing was undone; put those "
                "paths back as the batch left them, or undo them by hand."
            )
            return UndoReport(info, (), (), (), tuple(conflicts.values()), True, summary)
        progress = _UndoProgress()
        blobs = manifest.folder / "blobs"
        for path in paths:
            _undo_path(workspace, path, blobs, progress)
        _remove_created_dirs(workspace, paths, progress)
        if not progress.failed:
            manifest.data["state"] = "undone"
            manifest.data["undone_at"] = datetime.now(timezone.utc).isoformat()
            manifest.save()
            info = manifest.info()
        summary = (
            f"Undid '{info.label}': restored {len(progress.restored)} path(s), "
            f"removed {len(progress.removed)}"
        )
        if progress.problems:
            summary += f"; {len(progress.problems)} problem(s): " + "; ".join(progress.problems)
        return UndoReport(
            info,
            tuple(progress.restored),
            tuple(progress.removed),
            tuple(progress.already),
            tuple(progress.problems),
            False,
            summary + ".",
        )


# -- undo, path by path -------------------------------------------------------------------------


def _paths_of(entries: list[dict[str, Any]]) -> list[_PathUndo]:
    """One _PathUndo per path, the path changed last first (undo walks back in time)."""
    first: dict[str, dict[str, Any]] = {}
    last: dict[str, dict[str, Any]] = {}
    dirs: dict[str, list[str]] = {}
    for entry in entries:
        first.setdefault(entry["path"], entry)
        last.pop(entry["path"], None)
        last[entry["path"]] = entry
        dirs.setdefault(entry["path"], []).extend(entry["created_dirs"])
    return [
        _PathUndo(path, first[path]["before"], entry["after"], tuple(dirs[path]))
        for path, entry in reversed(last.items())
    ]


def _conflict(workspace: Workspace, path: _PathUndo) -> str | None:
    try:
        current = _fingerprint(workspace.resolve_link(path.path))
    except (OperatorError, OSError) as exc:
        return f"{path.path}: cannot be reached any more ({exc})"
    if current in (path.after, _fingerprint_of_node(path.before)):
        return None
    return (
        f"{path.path}: holds {_describe(current)} now, but the batch left "
        f"{_describe(path.after)} there"
    )


def _undo_path(workspace: Workspace, path: _PathUndo, blobs: Path, progress: _UndoProgress) -> None:
    real = workspace.resolve_link(path.path)
    try:
        current = _fingerprint(real)
        if current != path.after or current == _fingerprint_of_node(path.before):
            progress.already.append(path.path)
            return
        if path.before is None:
            unlink_entry(workspace, path.path)
            progress.removed.append(path.path)
            return
        saved = _node_from_json(path.before, blobs)
        if current != "absent" and not isinstance(saved, SavedFile):
            unlink_entry(workspace, path.path)  # the batch's file stands where a folder was
        problems = restore_entry(real, saved, workspace)
    except OSError as exc:
        progress.failed = True
        progress.problems.append(f"{path.path}: {reason_of(exc)}")
        return
    except OperatorError as exc:
        progress.failed = True
        progress.problems.append(f"{path.path}: {exc.message}")
        return
    progress.problems += [f"{path.path}: {p}" for p in problems]
    if not isinstance(saved, SavedTooLarge):
        progress.restored.append(path.path)


def _remove_created_dirs(
    workspace: Workspace, paths: list[_PathUndo], progress: _UndoProgress
) -> None:
    folders = {folder for path in paths for folder in path.created_dirs}
    for folder in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        real = workspace.root / folder
        if real.is_dir() and not real.is_symlink() and not any(real.iterdir()):
            with contextlib.suppress(OSError):
                real.rmdir()
                progress.removed.append(folder)
