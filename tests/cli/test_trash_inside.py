"""What a delete put in a trash folder inside the workspace is never read again, and a
trash folder reached through a symbolic link is never used.

Real ``exec`` processes: a workspace that is the home folder (its trash is
``.local/share/Trash`` inside it, where a second ``.env`` is named ``.env 1``: a copy's
name, secret-looking too, so its read is approved here to show that the trash itself is
what refuses it), an empty ``XDG_DATA_HOME`` (which send2trash took for a ``Trash``
folder in the current folder), and a mount root holding a planted ``.Trash-<uid>`` link.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.fixtures import parse_results
from support.tmpfs import mounted_tmpfs

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the freedesktop trash")


def _block(cmd_id: str, action: str, path: str, extra: str = "") -> str:
    return (
        f"OPERATOR_CMD\nversion: 1\nid: {cmd_id}\naction: {action}\npath: {path}\n{extra}"
        "END_OPERATOR_CMD\n"
    )


def _exec(ws: Path, state: Path, text: str, answer: str, env: dict[str, str], cwd: Path) -> str:
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(ws)]
    argv += ["--state-dir", str(state), answer, "-"]
    done = subprocess.run(
        argv, input=text, capture_output=True, text=True, timeout=60, env=env, cwd=cwd, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def _two_env_files(root: Path) -> str:
    for n in (1, 2):
        (root / f"proj{n}").mkdir(parents=True)
        (root / f"proj{n}" / ".env").write_text(f"TOKEN=secret{n}\n")
    return _block("d1", "fs.delete", "proj1/.env") + _block("d2", "fs.delete", "proj2/.env")


def test_the_home_trash_inside_a_home_workspace_is_never_read(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"} | {"HOME": str(home)}
    deleted = _exec(home, tmp_path / "st", _two_env_files(home), "--yes", env, tmp_path)
    assert deleted.count("inside the workspace") == 2, deleted
    trashed = home / ".local" / "share" / "Trash" / "files"
    assert (trashed / ".env 1").read_text() in ("TOKEN=secret1\n", "TOKEN=secret2\n")
    reply = (
        _block("s", "fs.searchTree", ".", "query: TOKEN\n")
        + _block("r", "fs.read", ".local/share/Trash/files/.env 1")
        + _block("l", "fs.list", ".local/share")
    )
    # Approved (--yes): the secret rule would refuse the copy's name first; the trash folder
    # must refuse it even so.
    search, read, listed = parse_results(_exec(home, tmp_path / "st", reply, "--yes", env, home))
    assert search.ok
    assert "Found 0 matches" in search.summary
    assert read.code == "ERR_PATH_PROTECTED", read.summary
    assert "secret" not in (read.details or "")
    assert listed.ok
    assert "Trash" not in (listed.details or "")


def test_an_empty_xdg_data_home_is_the_default_one_not_the_current_folder(
    tmp_path: Path,
) -> None:
    ws, home = tmp_path / "ws", tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ) | {"HOME": str(home), "XDG_DATA_HOME": ""}
    deleted = _exec(ws, tmp_path / "st", _two_env_files(ws), "--yes", env, cwd=ws)
    assert deleted.count("ok: true") == 2, deleted
    assert "inside the workspace" not in deleted
    assert not (ws / "Trash").exists()
    assert (home / ".local" / "share" / "Trash" / "files" / ".env").is_file()


def test_a_planted_trash_link_at_a_mount_root_is_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    with mounted_tmpfs(tmp_path / "disk", "4m") as root:
        (root / "a.txt").write_text("hello\n")
        os.symlink(outside, root / f".Trash-{os.getuid()}")
        out = _exec(root, tmp_path / "st", _block("d", "fs.delete", "a.txt"), "--yes",
                    dict(os.environ), tmp_path)  # fmt: skip
        (result,) = parse_results(out)
        assert result.code == "ERR_TRASH_UNAVAILABLE", result.summary
        assert "the trash folder is reached through a symbolic link" in result.summary
        assert (root / "a.txt").read_text() == "hello\n"  # nothing was deleted
        assert list(outside.iterdir()) == []  # and nothing made outside


def test_a_home_trash_the_user_linked_to_another_folder_is_used(tmp_path: Path) -> None:
    ws, home, elsewhere = tmp_path / "ws", tmp_path / "home", tmp_path / "big-disk-trash"
    ws.mkdir()
    (ws / "a.txt").write_text("hello\n")
    (home / ".local" / "share").mkdir(parents=True, exist_ok=True)
    elsewhere.mkdir()
    (home / ".local" / "share" / "Trash").symlink_to(elsewhere)
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"} | {"HOME": str(home)}
    out = _exec(ws, tmp_path / "st", _block("d", "fs.delete", "a.txt"), "--yes", env, tmp_path)
    (result,) = parse_results(out)
    assert result.ok, result.summary
    assert (elsewhere / "files" / "a.txt").read_text() == "hello\n"
