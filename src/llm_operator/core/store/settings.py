"""The app's settings: one typed object, saved as one JSON file.

The window keeps its geometry, recent workspaces and options here; the command line reads
the same file for the settings it shares, the secret-looking file patterns and the
secret-looking environment variable names. The file
lives in the platform's config folder (``LLM_OPERATOR_CONFIG_DIR`` overrides it, so tests
and scripts never touch a person's real settings). A damaged or partly wrong file never
stops the app: every field that cannot be read keeps its default.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import platformdirs

from .chat_presets import CUSTOM, part_size_for, preset
from .state import APP
from .workspace import DEFAULT_SECRET_ENVIRONMENT, DEFAULT_SECRET_PATTERNS

# The defaults before .envrc, .git/config, .aws/credentials, *.kdbx and the rest were added:
# a settings file saved without ``secret_defaults_seen`` knew these only.
LEGACY_SECRET_DEFAULTS = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".pypirc",
    ".npmrc",
    ".git-credentials",
    "credentials.json",
    "*.keystore",
    "secrets.*",
)

CONFIG_ENV = "LLM_OPERATOR_CONFIG_DIR"
MAX_RECENT = 10
MIN_PART_SIZE = 4000  # below this a single block's header and summary may not fit in a part


def default_settings_path() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override) / "settings.json"
    return Path(platformdirs.user_config_dir(APP, appauthor=False)) / "settings.json"


@dataclass
class Settings:
    """The app's settings, a JSON key per field, kept in the file at ``path`` (None: unsaved)."""

    geometry: str = ""  # QMainWindow.saveGeometry(), base64
    splitter: str = ""  # QSplitter.saveState() of the paste/results split, base64
    # The review dialog's geometry, splits (base64) and view ("file" or "all").
    review_layout: dict[str, str] = field(default_factory=dict)
    # The context builder's ticks, filter, budget and named selections, per workspace
    # folder (gui.dialogs.context_memory reads it and checks every value).
    context_memory: dict[str, Any] = field(default_factory=dict)
    recent_workspaces: list[str] = field(default_factory=list)
    auto_copy: bool = True
    clipboard_watch: bool = False
    # A copied reply of reads only runs with the window left where it is; on: it comes
    # forward for every copied reply (writes always bring it: their review needs the person).
    raise_every_reply: bool = False
    part_size: int = 30000  # the custom size; a chat preset (``chat``) sets its own
    chat: str = "custom"  # the chat parts are made for: a key of chat_presets.PRESETS
    results_form: str = "readable"  # or "base64": strict v3 details_b64 for tools that need it
    show_history: bool = False
    reopen_last_workspace: bool = True  # the window starts in the last workspace used
    tab_inserts_tab: bool = False  # Tab in the reply box types a tab instead of moving on
    clipboard_hint_seen: bool = False  # the first-run hint offering clipboard watching
    # Reads of files whose name matches one of these need the user's approval.
    secret_patterns: list[str] = field(default_factory=lambda: list(DEFAULT_SECRET_PATTERNS))
    # The default patterns this file has been offered: a default added by a later version
    # joins the saved list once, and a default the user removed stays removed.
    secret_defaults_seen: list[str] = field(default_factory=lambda: list(DEFAULT_SECRET_PATTERNS))
    # Environment variables whose names match one of these (any case) are removed before a
    # command (run.command, run.check) starts, unless the check keeps them by name.
    secret_environment: list[str] = field(default_factory=lambda: list(DEFAULT_SECRET_ENVIRONMENT))
    path: Path | None = field(default=None, compare=False, repr=False)

    @classmethod
    def load(cls, path: Path | None = None) -> Settings:
        where = path if path is not None else default_settings_path()
        loaded = cls(path=where)
        try:
            raw = json.loads(where.read_text("utf-8"))
        except (OSError, ValueError):
            return loaded
        if not isinstance(raw, dict):
            return loaded
        defaults = cls()
        for spec in fields(cls):
            if spec.name == "path" or spec.name not in raw:
                continue
            value = raw[spec.name]
            # A value of the wrong type (hand edits, older versions) keeps the default.
            if type(value) is type(getattr(defaults, spec.name)):
                setattr(loaded, spec.name, value)
        loaded.recent_workspaces = [p for p in loaded.recent_workspaces if isinstance(p, str)]
        loaded.secret_patterns = [
            p for p in loaded.secret_patterns if isinstance(p, str) and p.strip()
        ]
        loaded.review_layout = {
            k: v for k, v in loaded.review_layout.items() if isinstance(v, str) and len(v) < 4096
        }
        loaded.secret_environment = [
            p.strip() for p in loaded.secret_environment if isinstance(p, str) and p.strip()
        ]
        loaded.part_size = max(MIN_PART_SIZE, loaded.part_size)
        found = preset(loaded.chat)
        loaded.chat = found.key if found is not None else CUSTOM
        if loaded.results_form not in ("readable", "base64"):
            loaded.results_form = "readable"
        if "secret_patterns" in raw:
            seen = raw.get("secret_defaults_seen")
            if not isinstance(seen, list):
                seen = list(LEGACY_SECRET_DEFAULTS)
            added = [
                p
                for p in DEFAULT_SECRET_PATTERNS
                if p not in seen and p not in loaded.secret_patterns
            ]
            loaded.secret_patterns += added
        loaded.secret_defaults_seen = list(DEFAULT_SECRET_PATTERNS)
        return loaded

    @property
    def chat_part_size(self) -> int:
        """Characters per part for the chat in use: its preset's, else ``part_size``."""
        return part_size_for(self.chat, self.part_size)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("path")
        return data

    def save(self) -> None:
        """Write atomically and durably (temp file, fsync, rename, folder fsync), so a crash
        mid-save never leaves a half-written or empty file."""
        if self.path is None:
            return
        from .atomic import write_path_atomically  # lazy: saving happens long after start-up

        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = json.dumps(self.to_json(), indent=2)
        write_path_atomically(self.path, text.encode("utf-8"))

    def remember_workspace(self, folder: Path) -> None:
        """Put ``folder`` first in the recent list, without duplicates."""
        text = str(folder)
        self.recent_workspaces = [text] + [p for p in self.recent_workspaces if p != text]
        del self.recent_workspaces[MAX_RECENT:]
