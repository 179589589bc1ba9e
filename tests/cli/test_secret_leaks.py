"""No byte of a secret-looking file leaves through any action family without approval.

Each test runs ``llm-operator exec --no`` in a child process, as a user who rejects every
request would, and looks for every secret token in every summary and every decoded
details_b64 payload. The secret files are reached by odd-case names, by a symlink named
like a secret, and by an innocent-looking symlink to one.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.protocol.result_reader import read_results
from support.actions import b64, cli, edits_b64

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks")

# Tokens no message of the app could contain by chance; each sits in one secret file.
TOKENS = {
    ".ENV": "sk-live-UPPERCASEENV4d1f",
    "server.PEM": "MIIEpemTOKEN8c2a",
    "envs/prod.txt": "prod-db-password-77e0",
    "secrets.py": "vault-token-0b9d",
    "credentials.json": "json-client-secret-5f3c",
    ".env.local": "region-secret-2a6e",
    ".git/config": "https://user:git-cred-91bd@host",
    "conf/.aws/credentials": "AKIAawsTOKEN3e1f",
}

FILES = {
    ".ENV": f"API_KEY={TOKENS['.ENV']}\nDEBUG=1\n",
    "server.PEM": f"-----BEGIN KEY-----\n{TOKENS['server.PEM']}\n-----END KEY-----\n",
    "envs/prod.txt": f"DB_PASSWORD={TOKENS['envs/prod.txt']}\n",
    "secrets.py": (
        "class Vault:\n"
        f"    TOKEN = '{TOKENS['secrets.py']}'\n"
        "\n"
        "    def get(self):\n"
        "        return self.TOKEN\n"
    ),
    "credentials.json": json.dumps({"client_secret": TOKENS["credentials.json"]}) + "\n",
    ".env.local": (
        "# OPERATOR_BEGIN keys\n"
        f"SECRET={TOKENS['.env.local']}\n"
        "# OPERATOR_END keys\n"
        "# OPERATOR_BEGIN other\n"
        "# OPERATOR_END other\n"
    ),
    ".git/config": f'[remote "origin"]\n\turl = {TOKENS[".git/config"]}\n',
    "conf/.aws/credentials": f"[default]\naws_access_key_id = {TOKENS['conf/.aws/credentials']}\n",
}


@pytest.fixture
def secret_ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    os.symlink("envs/prod.txt", root / ".env")  # a link named like a secret
    os.symlink(".env", root / "notes.txt")  # an innocent name leading to one
    os.symlink("conf/.aws", root / "awsconf")  # a folder link on the way
    (root / "README.md").write_text("# public\nnothing to hide\n", encoding="utf-8")
    return root


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def exec_no(workspace: Path, tmp_path: Path, blocks: list[str]) -> list[dict[str, Any]]:
    state = tmp_path / "state"
    state.mkdir(exist_ok=True)
    done = cli(
        "exec", "--workspace", workspace, "--state-dir", state, "--no", stdin="\n\n".join(blocks)
    )
    assert done.returncode in (0, 1), done.stderr
    found = [  # the default, readable form: secret bytes would show as plain text
        {
            "id": result.id,
            "ok": result.ok,
            "summary": result.summary,
            "details": (result.details or b"").decode("utf-8"),
        }
        for result in read_results(done.stdout)
    ]
    assert len(found) == len(blocks), done.stdout
    for result in found:
        text = result["summary"] + "\n" + result["details"]
        for rel, token in TOKENS.items():
            # Any 8-character piece of a token counts as a leak, not just the whole token.
            pieces = {token[i : i + 8] for i in range(len(token) - 7)}
            leaked = [piece for piece in pieces if piece in text]
            assert not leaked, f"{result['id']} leaks {rel}: {text}"
    return found


def by_id(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {result["id"]: result for result in results}


READ_PATHS = [
    ".ENV",
    "server.PEM",
    ".env",
    "notes.txt",
    "secrets.py",
    "credentials.json",
    ".git/config",
    "conf/.aws/credentials",
    "awsconf/credentials",
]


def test_reads_of_every_kind_are_rejected_without_a_byte(secret_ws: Path, tmp_path: Path) -> None:
    blocks = []
    for n, path in enumerate(READ_PATHS):
        blocks += [
            block(f"read-{n}", "fs.read", path=path),
            block(f"slice-{n}", "fs.readSlice", path=path, start="1", lines="5"),
            block(f"search-{n}", "fs.search", path=path, query="="),
            block(f"miss-{n}", "fs.search", path=path, query="no such text anywhere"),
        ]
    results = by_id(exec_no(secret_ws, tmp_path, blocks))
    for n in range(len(READ_PATHS)):
        for kind in ("read", "slice", "search", "miss"):
            result = results[f"{kind}-{n}"]
            assert not result["ok"]
            assert "ERR_REJECTED_BY_USER" in result["summary"], result


def test_stat_and_list_show_names_only_and_need_no_approval(
    secret_ws: Path, tmp_path: Path
) -> None:
    results = by_id(
        exec_no(
            secret_ws,
            tmp_path,
            [block("st", "fs.stat", path=".ENV"), block("ls", "fs.list", path=".")],
        )
    )
    assert results["st"]["ok"]
    assert results["ls"]["ok"]
    assert ".ENV" in results["ls"]["details"].split("\n")


def test_structure_and_region_reads_are_rejected(secret_ws: Path, tmp_path: Path) -> None:
    blocks = [
        block("struct-root", "fs.readStructure", path="credentials.json", target_b64=b64("")),
        block("struct-py", "fs.readStructure", path="secrets.py", target="class Vault"),
        block("struct-miss", "fs.readStructure", path="secrets.py", target="class Nope"),
        block("regions", "fs.listRegions", path=".env.local", comment_line_prefix="#"),
        block(
            "region", "fs.readRegion", path=".env.local", marker_id="keys", comment_line_prefix="#"
        ),
        block(
            "region-miss",
            "fs.readRegion",
            path=".env.local",
            marker_id="nope",
            comment_line_prefix="#",
        ),
    ]
    results = by_id(exec_no(secret_ws, tmp_path, blocks))
    # Asked before they run, so a target or marker that is not there gets the same answer.
    for result in results.values():
        assert result["summary"].endswith("(ERR_REJECTED_BY_USER): rejected by the user"), result


def test_edits_are_asked_about_before_they_are_planned(secret_ws: Path, tmp_path: Path) -> None:
    patch = "--- a/.ENV\n+++ b/.ENV\n@@ -1,2 +1,2 @@\n-API_KEY=guess\n+API_KEY=x\n DEBUG=1\n"
    blocks = [
        block(
            "edit-similar",
            "fs.applyEdits",
            path=".ENV",
            edits_b64=edits_b64({"op": "replaceFirst", "find": "API_KEY=sk-test", "text": "x"}),
        ),
        block(
            "edit-through-link",
            "fs.applyEdits",
            path="notes.txt",
            edits_b64=edits_b64({"op": "insertAfter", "anchor": "DB_PASS=", "text": "x"}),
        ),
        block("patch", "fs.patch", path=".ENV", patch_b64=b64(patch)),
        block(
            "insert-region",
            "fs.insertRegion",
            path="server.PEM",
            marker_id="r",
            content_b64=b64("x\n"),
            anchor="BEGIN PRIVATE",
            comment_line_prefix="#",
        ),
        block("same", "fs.write", path=".ENV", content_b64=b64(FILES[".ENV"])),
        block(
            "struct-edit",
            "fs.replaceStructure",
            path="secrets.py",
            target="class Nope",
            content_b64=b64("class Vault:\n    pass\n"),
        ),
        block(
            "struct-text",
            "fs.replaceTextInStructure",
            path="secrets.py",
            target="class Vault:",
            old_text="TOKEN = 'guess'",
            new_text="x",
        ),
    ]
    results = by_id(exec_no(secret_ws, tmp_path, blocks))
    # Not planned before the user lets the app read the file: no "not found", no similar
    # line, no "already holds this content"; the one answer of a rejected command.
    for result in results.values():
        assert result["summary"].endswith("(ERR_REJECTED_BY_USER): rejected by the user"), result


def test_search_tree_neither_shows_nor_names_matching_secrets(
    secret_ws: Path, tmp_path: Path
) -> None:
    blocks = [
        block("tree", "fs.searchTree", path=".", query="TOKEN"),
        block("tree-regex", "fs.searchTree", path=".", query="TOKEN[0-9a-f]+", regex="true"),
        block("tree-ci", "fs.searchTree", path=".", query="api_key", case_sensitive="false"),
        block("tree-none", "fs.searchTree", path=".", query="text nowhere at all"),
        block("tree-folder", "fs.searchTree", path="awsconf", query="aws_access_key_id"),
        block("tree-file", "fs.searchTree", path="notes.txt", query="DB_PASSWORD"),
    ]
    results = by_id(exec_no(secret_ws, tmp_path, blocks))

    def without_query(details: str) -> list[str]:
        return [
            line for line in details.split("\n") if not line.startswith(("# query:", "# mode:"))
        ]

    # A search started at a secret-looking folder or through a link to a secret file.
    for cmd_id in ("tree-folder", "tree-file"):
        assert results[cmd_id]["ok"]
        assert "# matches: 0 (complete)" in results[cmd_id]["details"]
        assert "# secret-looking files not searched: 1 (never opened" in results[cmd_id]["details"]
    for cmd_id in ("tree", "tree-regex", "tree-ci"):
        details = results[cmd_id]["details"]
        assert results[cmd_id]["ok"]
        for rel in [*FILES, ".env", "notes.txt"]:
            assert f"\n{rel}:" not in details
        # .ENV, server.PEM, .env, notes.txt, secrets.py, credentials.json, .env.local and
        # conf/.aws/credentials (.git is never searched; envs/prod.txt is not secret by name)
        assert "# secret-looking files not searched: 8 (never opened" in details
        # The result is the one a search matching no secret file gives: nothing to tell.
        assert without_query(details) == without_query(results["tree-none"]["details"])


def test_approved_failures_and_reads_show_the_text(secret_ws: Path, tmp_path: Path) -> None:
    """The same commands with --yes: what was held back is what the user approved."""
    blocks = [
        block(
            "edit-similar",
            "fs.applyEdits",
            path=".ENV",
            edits_b64=edits_b64({"op": "replaceFirst", "find": "API_KEY=sk-test", "text": "x"}),
        ),
        block("read-link", "fs.read", path="notes.txt"),
    ]
    state = tmp_path / "state-yes"
    done = cli(
        "exec", "--workspace", secret_ws, "--state-dir", state, "--yes", stdin="\n\n".join(blocks)
    )
    found = {result.id: result for result in read_results(done.stdout)}
    assert TOKENS[".ENV"] in (found["edit-similar"].details or b"").decode("utf-8")
    details = (found["read-link"].details or b"").decode("utf-8")
    assert TOKENS["envs/prod.txt"] in details
