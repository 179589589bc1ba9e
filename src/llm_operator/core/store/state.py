"""Where the app keeps what it remembers: outside every workspace, one folder per workspace."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import platformdirs

APP = "llm-operator"


def default_state_dir() -> Path:
    """The platform's user state folder for llm-operator."""
    return Path(platformdirs.user_state_dir(APP, appauthor=False))


def workspace_state_dir(state_dir: Path, root: Path) -> Path:
    """The folder holding one workspace's session memory and undo journal.

    Named by the workspace folder's name (for people) and a hash of its real path (so two
    folders with one name never share a journal).
    """
    real = str(root.resolve())
    key = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9._-]", "_", root.name)[:40] or "root"
    return state_dir / "workspaces" / f"{name}-{key}"
