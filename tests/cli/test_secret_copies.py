"""Copies of secrets under other names are secrets too: a backup or swap copy (``.env~``,
``#.env#``, ``key.pem.bak``, vim's ``.id_rsa.swp``) and the config of any git folder (a
submodule's ``.git/modules/<name>/config``, a bare ``app.git/config``), whose remote URLs
carry tokens.

Two workspaces hold these files with the same sizes and different keys; the same hostile
reply goes to ``llm-operator exec --no`` in each. The printed results must be identical
byte for byte and hold no key, as for ``.env`` itself.
"""

from __future__ import annotations

import re
from pathlib import Path

from support.actions import cli

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
