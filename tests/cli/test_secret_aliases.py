"""Names that file systems take for a secret's own name, or that a person reads as it.

Windows and SMB shares drop trailing dots and spaces (``key.pem.`` opens ``key.pem``) and
read ``name:stream`` (``.env::$DATA``) as the file ``name``; macOS's HFS+ ignores zero-width
and other invisible characters in names (``.e<ZWSP>nv`` opens ``.env``); full-width and
other compatibility forms (``<U+FF0E>env``) read as the plain characters. Each of them must be
held like the name it stands for, by searchTree, reads and the context pack: the key never
appears before the user approves.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

from support.actions import cli
from support.mcp_client import call, connected

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="names Windows refuses")

KEY = "sk-ALIAS1111KEY"
ALIASES = (
    ".env.",  # Windows: trailing dots and spaces are dropped
    ".env ",
    "key.pem.",
    "key.pem ",
    ".netrc..",
    ".env::$DATA",  # NTFS: the file's data stream
    "key.pem:backup",  # an alternate data stream of key.pem
    ".e\u200bnv",  # HFS+: zero-width and other invisible characters are ignored
    ".env\u200c",
    "key.pem\ufeff",
    ".env\u202c",
    "\uff0eenv",  # full-width full stop
    "id\uff3frsa",  # full-width low line
    "key.\uff50em",  # full-width letters
)

# A pasted command's path is printable ASCII without spaces at its ends; MCP takes any.
PASTABLE = (
    *(name for name in ALIASES if name.isascii() and name == name.strip()),
    "notes.txt",  # a link to one that is not
)


def make_workspace(root: Path) -> Path:
    root.mkdir()
    for name in ALIASES:
        (root / name).write_text(f"API_KEY={KEY}\n", encoding="utf-8")
    (root / "app.py").write_text("x = 1\n", encoding="utf-8")
    # An ASCII name a command can write, leading to a name only a walk could reach.
    os.symlink("\uff0eenv", root / "notes.txt")
    return root


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def test_aliases_of_secret_names_are_not_searched_or_read(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws")
    text = "\n\n".join(
        [
            block("tree", "fs.searchTree", path=".", query="API_KEY"),
            block("outline", "fs.outline", path="."),
            *(block(f"read-{n}", "fs.readSlice", path=name) for n, name in enumerate(PASTABLE)),
        ]
    )
    done = cli(
        "exec", "--workspace", workspace, "--state-dir", tmp_path / "state", "--no", stdin=text
    )
    assert KEY not in done.stdout, done.stdout
    tree = done.stdout.split("id: tree\n", 1)[1].split("END_OPERATOR_RESULT", 1)[0]
    assert "Found 0 matches in . (1 file scanned)" in tree, tree  # app.py alone
    rejected = re.findall(r"\(ERR_REJECTED_BY_USER\): rejected by the user", done.stdout)
    assert len(rejected) == len(PASTABLE), done.stdout


def test_the_pack_leaves_aliases_of_secret_names_out(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws")
    done = cli("pack", "--workspace", workspace, ".")
    assert KEY not in done.stdout, done.stdout
    assert "=== FILE: app.py" in done.stdout
    assert done.stderr.count("llm-operator: left out ") == len(ALIASES) + 1, done.stderr


@pytest.mark.skipif(os.name != "posix", reason="POSIX processes")
def test_mcp_reads_and_searches_of_aliases_need_approval(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws")

    async def scenario() -> list[tuple[bool, str]]:
        async with connected(
            workspace, tmp_path / "state", "--approve", "no", errlog=tmp_path / "e"
        ) as session:
            return [
                *[await call(session, "fs_read", path=name) for name in PASTABLE],
                await call(session, "fs_searchTree", path=".", query="API_KEY"),
            ]

    *reads, (_, searched) = asyncio.run(scenario())
    for failed, text in reads:
        assert failed, text
        assert "(ERR_REJECTED_BY_USER)" in text, text
        assert KEY not in text
    assert "Found 0 matches in . (1 file scanned)" in searched, searched
