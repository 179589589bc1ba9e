"""Copies of secrets under other names are secrets too: a backup or swap copy (``.env~``,
``#.env#``, ``key.pem.bak``, vim's ``.id_rsa.swp``), the copies file managers, browsers and
sync tools make (``.env copy``, ``.env - Copy``, ``credentials (1).json``, ...) and the config
of any git folder (a submodule's ``.git/modules/<name>/config``, a bare ``app.git/config``),
whose remote URLs carry tokens.

Two workspaces hold these files with the same sizes and different keys; the same hostile
reply goes to ``llm-operator exec --no`` in each. The printed results must be identical
byte for byte and hold no key, as for ``.env`` itself.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

from support.actions import cli
from support.mcp_client import call, connected

KEYS = {"A": "sk-AAAA1111BBBB22", "B": "zq-9999ZZZZ8888YY"}
COPIES = (
    ".env~",
    "#.env#",
    ".env.~1~",
    "deploy/key.pem.bak",
    ".id_rsa.swp",
    ".git/modules/lib/config",
    ".repo/projects/app.git/config",
    "vendor/lib.git/config.worktree",
)


def make_workspace(root: Path, key: str) -> Path:
    for rel in COPIES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"url = https://user:{key}@example.org/x\n", encoding="utf-8")
    (root / "app.py").write_text("x = 1\n", encoding="utf-8")
    return root


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def test_backup_copies_and_git_configs_answer_alike_whatever_they_hold(tmp_path: Path) -> None:
    blocks = []
    for n, rel in enumerate(COPIES):
        blocks.append(block(f"slice-{n}", "fs.readSlice", path=rel))
        blocks.append(block(f"search-{n}", "fs.search", path=rel, q="user:sk-A"))
    blocks.append(block("tree", "fs.searchTree", path=".", q="sk-A"))
    text = "\n\n".join(blocks)
    done = {}
    for which, key in KEYS.items():
        workspace = make_workspace(tmp_path / which / "ws", key)
        done[which] = cli(
            "exec",
            "--workspace",
            workspace,
            "--state-dir",
            tmp_path / which / "state",
            "--no",
            stdin=text,
        )
    a, b = done["A"], done["B"]
    assert a.returncode == b.returncode == 1, a.stdout + a.stderr
    assert KEYS["A"] not in a.stdout
    assert KEYS["B"] not in b.stdout
    assert a.stdout == b.stdout
    summaries = dict(
        re.findall(r"^id: ([^\n]*)\nok: false\nsummary: ([^\n]*)", a.stdout, flags=re.MULTILINE)
    )
    assert len(summaries) == 2 * len(COPIES)
    for summary in summaries.values():
        assert summary.endswith("(ERR_REJECTED_BY_USER): rejected by the user"), summary
    # The tree search passes over every copy unread (.git is never walked at all).
    assert f"# secret-looking files not searched: {len(COPIES) - 1} " in a.stdout


# The copies file managers, editors, browsers and sync tools make, as they name them.
TOOL_COPIES = (
    ".env copy",  # Finder, VS Code
    ".env copy 2",
    ".env (copy)",  # GNOME Files
    ".env (another copy)",
    ".env - Copy",  # Windows Explorer
    ".env - Copy (2)",
    ".env (1)",  # browsers, GNOME, Google Drive
    "Copy of .env",  # Google Drive, older Windows
    "credentials copy.json",
    "credentials (1).json",
    "credentials (Someone's conflicted copy 2024-01-01).json",  # Dropbox
    "secrets copy.py",
    ".netrc copy",
    "prod.env copy",
    "conf/.env-DESKTOP-ABC123",  # OneDrive
    "conf/.env.sync-conflict-20240101-101500-ABCDEFG",  # Syncthing
    "deploy/server.pem.orig",  # git mergetool, patch
    "deploy/server.pem.rej",
)


def make_copies(root: Path, key: str) -> Path:
    for rel in TOOL_COPIES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(f"API_KEY = '{key}'\n\n\ndef load():\n    return API_KEY\n")
    (root / "app.py").write_text("def main():\n    return 0\n", encoding="utf-8")
    os.symlink(".env (1)", root / "notes.txt")  # an innocent name leading to a copy
    return root


def test_tool_copies_are_asked_about_by_every_read_and_skipped_by_walks(tmp_path: Path) -> None:
    blocks = []
    for n, rel in enumerate((*TOOL_COPIES, "notes.txt")):
        blocks.append(block(f"read-{n}", "fs.read", path=rel))
        blocks.append(block(f"slice-{n}", "fs.readSlice", path=rel))
        blocks.append(block(f"search-{n}", "fs.search", path=rel, q="API_KEY"))
        blocks.append(block(f"outline-{n}", "fs.outline", path=rel))
    blocks.append(block("tree", "fs.searchTree", path=".", q="API_KEY"))
    blocks.append(block("folder", "fs.outline", path="."))
    text = "\n\n".join(blocks)
    done = {}
    for which, key in KEYS.items():
        workspace = make_copies(tmp_path / which / "ws", key)
        done[which] = cli(
            "exec",
            "--workspace",
            workspace,
            "--state-dir",
            tmp_path / which / "state",
            "--no",
            stdin=text,
        )
    a, b = done["A"], done["B"]
    assert a.returncode == b.returncode == 1, a.stdout + a.stderr
    assert KEYS["A"] not in a.stdout
    assert KEYS["B"] not in b.stdout
    assert a.stdout == b.stdout  # nothing in the answers depends on what the copies hold
    summaries = dict(
        re.findall(r"^id: ([^\n]*)\nok: false\nsummary: ([^\n]*)", a.stdout, flags=re.MULTILINE)
    )
    assert len(summaries) == 4 * (len(TOOL_COPIES) + 1)
    for summary in summaries.values():
        assert summary.endswith("(ERR_REJECTED_BY_USER): rejected by the user"), summary
    # The walks pass over every copy unread (and the link to one), and name none of them.
    assert f"# secret-looking files not searched: {len(TOOL_COPIES) + 1} " in a.stdout
    assert "def load" not in a.stdout
    assert "API_KEY" not in a.stdout.replace("query: API_KEY", "").replace("q: API_KEY", "")


def test_pack_leaves_tool_copies_out(tmp_path: Path) -> None:
    workspace = make_copies(tmp_path / "ws", KEYS["A"])
    done = cli("pack", "--workspace", workspace, "--outline", ".")
    assert done.returncode == 1, done.stderr
    assert KEYS["A"] not in done.stdout
    assert "def load" not in done.stdout
    for rel in (*TOOL_COPIES, "notes.txt"):
        assert f"left out {rel}: secret-looking" in done.stderr, rel
    assert "app.py" in done.stdout


@pytest.mark.skipif(os.name != "posix", reason="POSIX processes")
def test_mcp_reads_of_tool_copies_need_approval(tmp_path: Path) -> None:
    workspace = make_copies(tmp_path / "ws", KEYS["A"])
    state_dir = tmp_path / "state"

    async def scenario() -> list[tuple[bool, str]]:
        async with connected(workspace, state_dir, "--approve", "no", errlog=tmp_path / "e") as s:
            return [
                await call(s, "fs_read", path=".env - Copy"),
                await call(s, "fs_readSlice", path="credentials (1).json", start=1, lines=5),
                await call(s, "fs_outline", path="secrets copy.py"),
                await call(s, "fs_read", path="notes.txt"),
                await call(s, "fs_searchTree", path=".", query="API_KEY"),
            ]

    *refused, searched = asyncio.run(scenario())
    for failed, text in refused:
        assert failed
        assert "(ERR_REJECTED_BY_USER)" in text
        assert KEYS["A"] not in text
    assert KEYS["A"] not in searched[1]
    assert "def load" not in searched[1]
