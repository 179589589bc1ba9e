"""The user's config and state folders for llm-operator, as platformdirs names them.

Importing platformdirs costs a short ``exec`` about 5 ms (its Unix module imports
``tempfile``), a tenth of a run, and every run needs the settings file's place. On a
plain Linux account the answer is two environment variables away, so that case is worked
out here by platformdirs' own rules; every other case (another system, Android, a HOME
that is unset or relative) asks platformdirs itself. ``tests/core/store/test_user_dirs.py``
holds the two equal over the cases each variable can be in, against the installed
platformdirs, so a release that changes its rules is noticed.

The rules (platformdirs 4, ``Unix`` with ``XDGMixin``, no version, ``appauthor=False``,
``use_site_for_root`` off): ``$XDG_CONFIG_HOME`` / ``$XDG_STATE_HOME`` when it is an
absolute path, else ``~/.config`` / ``~/.local/state`` expanded from ``$HOME``; then the
app's name.
"""

from __future__ import annotations

import os
import posixpath
import sys
from pathlib import Path

APP = "llm-operator"


def _plain_linux_home() -> str | None:
    """``$HOME`` where the fast rules hold (see the module's doc), else None."""
    if not sys.platform.startswith("linux") or hasattr(sys, "getandroidapilevel"):
        return None
    if os.environ.get("ANDROID_DATA") == "/data" and os.environ.get("ANDROID_ROOT") == "/system":
        return None  # platformdirs may take this for an Android app
    home = os.environ.get("HOME", "")
    return home if posixpath.isabs(home) else None


def _xdg_or_home(variable: str, under_home: str) -> Path | None:
    home = _plain_linux_home()
    if home is None:
        return None
    chosen = os.environ.get(variable, "")
    base = chosen if posixpath.isabs(chosen) else os.path.expanduser(under_home)
    return Path(os.path.join(base, APP))


def user_config_dir() -> Path:
    fast = _xdg_or_home("XDG_CONFIG_HOME", "~/.config")
    if fast is not None:
        return fast
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def user_state_dir() -> Path:
    fast = _xdg_or_home("XDG_STATE_HOME", "~/.local/state")
    if fast is not None:
        return fast
    import platformdirs

    return Path(platformdirs.user_state_dir(APP, appauthor=False))
