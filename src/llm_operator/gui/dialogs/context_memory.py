"""What the context builder keeps of each workspace across restarts: the ticked files, the
filter, the outline and its budget, and named selections (sets of ticked files) to recall.

Kept in the app's settings file (``Settings.context_memory``), keyed by the workspace's
folder, never in a file of the workspace (a reply can write those). Every value read back
is checked: a damaged or hand-edited entry is dropped, never trusted. A secret-looking file
is never ticked again by a restart or a recalled selection: only a tick by hand lets one
in, so the builder says how many it left unticked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

MAX_WORKSPACES = 20  # the least recently used beyond this are forgotten
MAX_SELECTIONS = 50
MAX_PATHS = 5000  # per list: a ticked tree bigger than this is not worth a message
MAX_NAME = 60


@dataclass
class Remembered:
    """A workspace's builder as it was left."""

    ticked: list[str] = field(default_factory=list)
    filter: str = ""
    budget: int = 0  # 0: the default
    outline: bool = True
    selections: dict[str, list[str]] = field(default_factory=dict)


def _paths(value: object) -> list[str]:
    if not isinstance(value, list):
        return []
    return [p for p in value[:MAX_PATHS] if isinstance(p, str) and p and "\x00" not in p]


def _read(raw: object) -> Remembered:
    if not isinstance(raw, dict):
        return Remembered()
    found = Remembered(_paths(raw.get("ticked")))
    if isinstance(raw.get("filter"), str):
        found.filter = str(raw["filter"])[:500]
    budget = raw.get("budget")
    if isinstance(budget, int) and not isinstance(budget, bool) and budget > 0:
        found.budget = budget
    if isinstance(raw.get("outline"), bool):
        found.outline = bool(raw["outline"])
    selections = raw.get("selections")
    if isinstance(selections, dict):
        for name, paths in list(selections.items())[:MAX_SELECTIONS]:
            if isinstance(name, str) and 0 < len(name) <= MAX_NAME:
                found.selections[name] = _paths(paths)
    return found


class ContextMemory:
    """One workspace's entry in the settings; ``save`` writes the settings file."""

    def __init__(self, store: dict[str, Any] | None, root: str, save: Callable[[], None]) -> None:
        self._store = store
        self._root = root
        self._save = save
        self.state = _read(store.get(root) if store is not None else None)

    @classmethod
    def of(cls, parent: object, root: str) -> ContextMemory:
        """The memory kept in ``parent``'s settings (the window); none for a bare dialog."""
        settings = getattr(parent, "settings", None)
        store = getattr(settings, "context_memory", None)
        save = getattr(parent, "save_settings", None)
        return cls(
            store if isinstance(store, dict) else None,
            root,
            save if callable(save) else lambda: None,
        )

    def keep(self, ticked: Iterable[str], filter_text: str, budget: int, outline: bool) -> None:
        """Remember the builder as it is now (written only when something changed)."""
        state = self.state
        now = (list(ticked)[:MAX_PATHS], filter_text, budget, outline)
        if now == (state.ticked, state.filter, state.budget, state.outline):
            return
        state.ticked, state.filter, state.budget, state.outline = now
        self._write()

    def names(self) -> list[str]:
        return sorted(self.state.selections, key=str.casefold)

    def save_selection(self, name: str, ticked: Iterable[str]) -> str:
        """Keep ``ticked`` under ``name`` (replacing one of that name); the name as kept."""
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise ValueError("a selection needs a name")
        selections = self.state.selections
        if name not in selections and len(selections) >= MAX_SELECTIONS:
            raise ValueError(f"at most {MAX_SELECTIONS} selections are kept; remove one first")
        selections[name] = list(ticked)[:MAX_PATHS]
        self._write()
        return name

    def remove_selection(self, name: str) -> None:
        if self.state.selections.pop(name, None) is not None:
            self._write()

    def _write(self) -> None:
        store = self._store
        if store is None:
            return
        state = self.state
        store.pop(self._root, None)  # last used goes last; the oldest are forgotten first
        store[self._root] = {
            "ticked": state.ticked,
            "filter": state.filter,
            "budget": state.budget,
            "outline": state.outline,
            "selections": state.selections,
        }
        for old in list(store)[: max(0, len(store) - MAX_WORKSPACES)]:
            del store[old]
        self._save()
