"""The files as the pending writes of one reply would leave them, and the outlines kept
between runs: what a session plans against.

Invariants:
- ``Overlay.planned`` maps a file to the bytes the reply's earlier planned writes leave
  there (None: deleted) and the pending item that planned it; a later command of the
  reply reads those bytes, never the disk's, so its change builds on theirs.
- ``Overlay.held`` names the files of held writes (not planned yet): a read of them is
  deferred like a read of a planned file.
"""

from __future__ import annotations

from ..actions.base import FileSource, OutlineMemo
from ..store.database import StateStore
from ..store.workspace import Workspace


class Overlay(FileSource):
    """Files as the pending writes of this message would leave them."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self.planned: dict[str, tuple[bytes | None, int]] = {}
        self.ids: dict[int, str] = {}  # index of a pending item -> its command id
        self.held: set[str] = set()  # files that held writes (not planned yet) may change

    def read(self, rel: str) -> bytes | None:
        if rel in self.planned:
            return self.planned[rel][0]
        from ..store.files import read_if_file

        return read_if_file(self._workspace, rel)

    def plans_folder(self, rel: str) -> bool:
        prefix = rel.rstrip("/") + "/"
        return any(
            path.startswith(prefix) and after is not None
            for path, (after, _) in self.planned.items()
        )

    def owners(self, rel: str) -> set[int]:
        """The earlier pending items whose planned changes are at ``rel`` or inside it."""
        prefix = rel.rstrip("/") + "/"
        return {
            index
            for path, (_, index) in self.planned.items()
            if path == rel or path.startswith(prefix)
        }


def related(a: str, b: str) -> bool:
    if a == "." or b == "." or a == b:
        return True
    return a.startswith(b + "/") or b.startswith(a + "/")


class KeptOutlines:
    """The state store's outlines, its module loaded on first use (a run that outlines
    nothing, most runs, never loads it)."""

    def __init__(self, store: StateStore) -> None:
        self._store = store
        self._memo: OutlineMemo | None = None

    def _kept(self) -> OutlineMemo:
        if self._memo is None:
            from ..store.outline_cache import StoredOutlines

            self._memo = StoredOutlines(self._store)
        return self._memo

    def get(self, key: str) -> tuple[list[str], str] | None:
        return self._kept().get(key)

    def put(self, key: str, made: tuple[list[str], str]) -> None:
        self._kept().put(key, made)

    def flush(self) -> None:
        if self._memo is not None:
            self._memo.flush()
