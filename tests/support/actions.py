"""Helpers for the action-level tests: payload encoding, whole-tree snapshots, a trash
under tmp_path, and the ``llm-operator`` command line run as a subprocess.

The shared fixtures (workspace, state_dir, run_reply, cmd...) live in conftest.py; these
are plain functions so the test modules can import them by name.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

Entry = tuple[str, bytes | str | None, int]


def b64(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return base64.b64encode(data).decode("ascii")


def edits_b64(*edits: dict[str, Any]) -> str:
    return b64(json.dumps({"version": 1, "edits": list(edits)}))


def tree(root: Path) -> dict[str, Entry]:
    """Every entry under ``root``: kind, content (bytes or link text) and permission bits."""
    found: dict[str, Entry] = {}
    for folder, dirnames, filenames in os.walk(root):
        for name in sorted([*dirnames, *filenames]):
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            info = os.lstat(path)
            mode = stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(path), 0)
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir", None, mode)
            else:
                found[rel] = ("file", path.read_bytes(), mode)
    return found


def snapshot(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` with its bytes (symlinks not followed)."""
    return {rel: data for rel, (kind, data, _) in tree(root).items() if isinstance(data, bytes)}


def temp_leftovers(root: Path) -> list[str]:
    """Temp files an atomic write leaves behind when it fails or is killed."""
    from llm_operator.core.store.atomic import TEMP_NAME

    return [rel for rel in tree(root) if TEMP_NAME.fullmatch(rel.rsplit("/", 1)[-1])]


def redirect_trash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Send deletes made in this process to a trash under ``tmp_path``; returns its files dir.

    Also sets HOME and XDG_DATA_HOME, so subprocesses started afterwards use it too.
    """
    import send2trash
    import send2trash.plat_other as freedesktop

    data_home = tmp_path / "home" / ".local" / "share"
    data_home.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    # plat_other reads XDG_DATA_HOME once, at import: point its copies at the tmp home too.
    monkeypatch.setattr(freedesktop, "XDG_DATA_HOME", os.fsencode(data_home))
    monkeypatch.setattr(freedesktop, "HOMETRASH_B", os.fsencode(data_home / "Trash"))
    monkeypatch.setattr(freedesktop, "HOMETRASH", str(data_home / "Trash"))
    monkeypatch.setattr(send2trash, "send2trash", freedesktop.send2trash)
    return data_home / "Trash" / "files"


def cli(
    *args: str | Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``llm-operator ARGS`` in a child process (the environment of this process by default)."""
    command: Sequence[str] = [sys.executable, "-m", "llm_operator.cli", *map(str, args)]
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env if env is not None else dict(os.environ),
        check=False,
    )


def expect_failure(
    run: Any, root: Path, text: str, code: str, cmd_id: str, path: str | None = None
) -> Any:
    """Run ``text`` (one command, approved) and check it failed with ``code`` and wrote nothing.

    ``path`` names the file the command aims at: its bytes are read before and after and
    must be identical. The whole tree (kinds, bytes, modes, links) must be unchanged too.
    """
    target = root / path if path is not None else None
    bytes_before = target.read_bytes() if target is not None and target.is_file() else None
    before = tree(root)
    (result,) = run(text, True)
    assert result.id == cmd_id
    assert not result.ok, result.summary
    assert result.code == code, result.summary
    if target is not None and bytes_before is not None:
        assert target.read_bytes() == bytes_before
    assert tree(root) == before
    return result


def run_decided(session: Any, text: str, decide: dict[str, Any], parse: Any) -> list[Any]:
    """Run ``text`` through ``session`` with a Decision per command id (others rejected)."""
    from llm_operator.core.protocol.encoder import encode_results

    run = session.prepare(text)
    decisions = {p.index: decide[p.id] for p in run.pending if p.id in decide}
    results = session.execute(run, decisions)
    return list(parse(encode_results(results)))
