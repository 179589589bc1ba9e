"""A rejected command on a secret-looking file answers the same whatever the file holds.

Two workspaces hold secret-looking files of the same names and sizes but different bytes
(``A`` and ``B``: other keys, another line count, another class name). The same hostile
reply, every command guessing at ``A``'s bytes, goes to ``llm-operator exec --no`` in each:
the printed results and the exit code must be identical byte for byte, so no guess can be
told right from wrong. The same reply with ``--yes`` really runs (the feature still works
after approval), and a run under ``strace`` shows the secret files are never opened
before the user approves.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.actions import b64, cli, edits_b64
from support.fixtures import parse_results

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symlinks")

KEY_A = "sk-AAAA1111BBBB22"
KEY_B = "zq-9999ZZZZ8888YY"
# Same sizes; A's .env has three lines, B's two; B's class and JSON key are named otherwise.
ENV = {
    "A": f"API_KEY={KEY_A}\nDEBUG=1\nX=1\n",
    "B": f"API_KEY={KEY_B}\nDEBUG=1;X=1\n",
}
SECRETS_PY = {
    "A": "class Vault:\n    TOKEN = 'vault-AAAA'\n\n    def get(self):\n        return 1\n",
    "B": "class Wault:\n    TOKEN = 'vault-BBBB'\n\n    def got(self):\n        return 1\n",
}
CREDENTIALS = {
    "A": json.dumps({"client_secret": "AAAA1111"}) + "\n",
    "B": json.dumps({"client_zecret": "BBBB2222"}) + "\n",
}
APP_PY = "def helper():\n    return 2\n"


def make_workspace(root: Path, which: str) -> Path:
    root.mkdir(parents=True)
    (root / ".env").write_text(ENV[which], encoding="utf-8")
    (root / "secrets.py").write_text(SECRETS_PY[which], encoding="utf-8")
    (root / "credentials.json").write_text(CREDENTIALS[which], encoding="utf-8")
    (root / "app.py").write_text(APP_PY, encoding="utf-8")
    (root / "conf").mkdir()
    (root / "conf" / "settings.env").write_text(ENV[which], encoding="utf-8")
    os.symlink(".env", root / "notes.txt")  # an innocent name leading to a secret
    for rel in (".env", "secrets.py", "credentials.json"):
        assert (root / rel).stat().st_size == len(
            {".env": ENV, "secrets.py": SECRETS_PY, "credentials.json": CREDENTIALS}[rel]["A"]
        )
    return root


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def attacks() -> list[str]:
    """The hostile reply: every command guesses at A's bytes."""
    blocks = []
    # One character more of the key per command: a right guess would plan, a wrong fail.
    for n in range(1, len(KEY_A) + 1):
        guess = re.escape(KEY_A[:n])
        blocks.append(
            block(
                f"guess-{n}",
                "fs.applyEdits",
                path=".env",
                edits_b64=edits_b64(
                    {"op": "replaceFirst", "find": "DEBUG=1", "text": "DEBUG=1"},
                    {"op": "replaceFirst", "find": f"^API_KEY={guess}", "regex": True, "text": "K"},
                ),
            )
        )
    patch = f"--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n API_KEY={KEY_A}\n-DEBUG=1\n+DEBUG=0\n"
    blocks += [
        block("patch-context", "fs.patch", path=".env", patch_b64=b64(patch)),
        block(
            "anchor-prefix",
            "fs.insertRegion",
            path=".env",
            marker_id="r",
            content_b64=b64("Y=2\n"),
            anchor="API_KEY=sk-A",
            comment_line_prefix="#",
        ),
        block(
            "replace-text-count",
            "fs.replaceTextInStructure",
            path="secrets.py",
            target="class Vault",
            old_text="vault-AAAA",
            new_text="vault-CCCC",
        ),
        block(
            "replace-all-count",
            "fs.replaceAllTextInStructure",
            path="secrets.py",
            target="class Vault",
            old_text="vault-AAAA",
            new_text="vault-CCCC",
            expected_count="1",
        ),
        block("delete-struct", "fs.deleteStructure", path="secrets.py", target="class Vault"),
        block(
            "move-into-secret",
            "fs.moveStructure",
            path="app.py",
            target="def helper",
            position="after",
            dest_path="secrets.py",
            dest_target="class Vault",
        ),
        block(
            "move-out-of-secret",
            "fs.moveStructure",
            path="secrets.py",
            target="class Vault",
            position="end",
            dest_path="app.py",
        ),
        block(
            "read-struct",
            "fs.readStructure",
            path="credentials.json",
            target_b64=b64('{"client_secret": "AAAA'),
        ),
        block("read-struct-py", "fs.readStructure", path="secrets.py", target="class Vault"),
        block("slice-past-end", "fs.readSlice", path=".env", start="3", lines="1"),
        block("slice-link", "fs.readSlice", path="notes.txt", start="3", lines="1"),
        block(
            "replace-range",
            "fs.applyEdits",
            path=".env",
            edits_b64=edits_b64({"op": "replaceRange", "startLine": 3, "endLine": 3, "text": "Z"}),
        ),
        block(
            "link-edit",
            "fs.applyEdits",
            path="notes.txt",
            edits_b64=edits_b64({"op": "insertAfter", "anchor": f"API_KEY={KEY_A}", "text": "Q"}),
        ),
        block("same-content", "fs.write", path=".env", content_b64=b64(ENV["A"])),
        block("search", "fs.search", path=".env", query=KEY_A[:6]),
        block("regions", "fs.listRegions", path=".env", comment_line_prefix="#"),
        block("outline", "fs.outline", path="secrets.py"),
        block("tree", "fs.searchTree", path=".", query=f"API_KEY={KEY_A[:4]}"),
        block("tree-regex", "fs.searchTree", path=".", query="API_KEY=sk-A+1", regex="true"),
        block("tree-outline", "fs.outline", path="."),
    ]
    return blocks


def run_exec(
    workspace: Path, state: Path, answer: str, text: str, prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    if not prefix:
        return cli("exec", "--workspace", workspace, "--state-dir", state, answer, stdin=text)
    command = [
        *prefix,
        sys.executable,
        "-m",
        "llm_operator.cli",
        "exec",
        "--workspace",
        str(workspace),
        "--state-dir",
        str(state),
        answer,
    ]
    return subprocess.run(
        command, input=text, capture_output=True, text=True, timeout=120, check=False
    )


def result_ids(stdout: str) -> list[str]:
    return re.findall(r"^OPERATOR_RESULT\nid: ([^\n]*)", stdout, flags=re.MULTILINE)


@pytest.mark.slow
def test_rejected_guesses_get_the_same_answers_whatever_the_secret_holds(tmp_path: Path) -> None:
    text = "\n\n".join(attacks())
    done = {}
    for which in ("A", "B"):
        workspace = make_workspace(tmp_path / which / "ws", which)
        done[which] = run_exec(workspace, tmp_path / which / "state", "--no", text)
    a, b = done["A"], done["B"]
    assert len(result_ids(a.stdout)) == len(attacks()), a.stdout + a.stderr
    assert a.returncode == b.returncode == 1
    assert a.stdout == b.stdout
    for which in ("A", "B"):  # nothing was written
        root = tmp_path / which / "ws"
        assert (root / ".env").read_text(encoding="utf-8") == ENV[which]
        assert (root / "secrets.py").read_text(encoding="utf-8") == SECRETS_PY[which]
    # Each command on a secret got its one fixed answer: asked, and rejected by the user (a
    # read after a write of the same file in the reply: not asked at all).
    summaries = dict(
        re.findall(r"^id: ([^\n]*)\nok: false\nsummary: ([^\n]*)", a.stdout, flags=re.MULTILINE)
    )
    assert len(summaries) == len(attacks()) - 3  # all but the two tree searches and outline
    fixed = ("(ERR_REJECTED_BY_USER): rejected by the user", "(ERR_SECRET_READ_NOT_ASKED)")
    for cmd_id, summary in summaries.items():
        assert summary.endswith(fixed[0]) or fixed[1] in summary, (cmd_id, summary)
    # Folder walks pass over the secret files and say how many, reading none.
    assert "# secret-looking files not searched: 5 " in _details(a.stdout, "tree")
    assert "# left out: 5 secret-looking file(s), never opened" in _details(
        a.stdout, "tree-outline"
    )


@pytest.mark.slow
def test_a_missing_secret_file_gets_the_same_answers_as_a_present_one(tmp_path: Path) -> None:
    per_file = [text for text in attacks() if "action: fs.searchTree" not in text]
    per_file = [text for text in per_file if "id: tree-outline" not in text]
    done = {}
    for which in ("A", "missing"):
        root = tmp_path / which / "ws"
        if which == "A":
            make_workspace(root, "A")
        else:  # only the public file, and the link to an .env that is not there
            (root / "conf").mkdir(parents=True)
            (root / "app.py").write_text(APP_PY, encoding="utf-8")
            os.symlink(".env", root / "notes.txt")
        done[which] = run_exec(root, tmp_path / which / "state", "--no", "\n\n".join(per_file))
    assert len(result_ids(done["A"].stdout)) == len(per_file)
    assert done["A"].returncode == done["missing"].returncode == 1
    assert done["A"].stdout == done["missing"].stdout


def _details(stdout: str, cmd_id: str) -> str:
    """The details of ``cmd_id``'s ok result, in whichever form exec printed them."""
    found = [result for result in parse_results(stdout) if result.id == cmd_id and result.ok]
    assert found, stdout
    return found[0].details


def test_approved_commands_on_secrets_are_planned_and_applied(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws", "A")
    patch = f"--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n API_KEY={KEY_A}\n-DEBUG=1\n+DEBUG=0\n"
    blocks = [
        block(
            "edit",
            "fs.applyEdits",
            path=".env",
            edits_b64=edits_b64(
                {
                    "op": "replaceFirst",
                    "find": "^API_KEY=sk-A+",
                    "regex": True,
                    "text": "API_KEY=new-",
                }
            ),
        ),
        block(
            "patch",
            "fs.patch",
            path=".env",
            patch_b64=b64(patch.replace(KEY_A, "new-" + KEY_A[7:])),
        ),
        block(
            "anchor",
            "fs.insertRegion",
            path=".env",
            marker_id="r",
            content_b64=b64("Y=2\n"),
            anchor="X=1",
            comment_line_prefix="#",
        ),
        block("delete-struct", "fs.deleteStructure", path="secrets.py", target="class Vault"),
    ]
    done = run_exec(workspace, tmp_path / "state", "--yes", "\n\n".join(blocks))
    assert result_ids(done.stdout) == ["edit", "patch", "anchor", "delete-struct"]
    assert done.returncode == 0, done.stdout
    env = (workspace / ".env").read_text(encoding="utf-8")
    assert env.startswith(f"API_KEY=new-{KEY_A[7:]}\nDEBUG=0\nX=1\n# OPERATOR_BEGIN r\nY=2\n"), env
    assert "class Vault" not in (workspace / "secrets.py").read_text(encoding="utf-8")
    reads = [
        block("slice", "fs.readSlice", path=".env", start="1", lines="2"),
        block("miss", "fs.readStructure", path="credentials.json", target="no_such_key"),
    ]
    done = run_exec(workspace, tmp_path / "state", "--yes", "\n\n".join(reads))
    # The read shows the file; the failed one says what failed in full, quoting the file
    # (the user approved sending it).
    assert "DEBUG=0" in _details(done.stdout, "slice")
    assert "ERR_TARGET_NOT_FOUND" in done.stdout
    assert "client_secret" in done.stdout


STRACE = shutil.which("strace")


@pytest.mark.skipif(STRACE is None, reason="strace is not installed")
def test_secret_files_are_never_opened_before_approval(tmp_path: Path) -> None:
    workspace = make_workspace(tmp_path / "ws", "A")
    trace = tmp_path / "trace.txt"
    assert STRACE is not None
    prefix = (STRACE, "-f", "-qq", "-e", "trace=open,openat,openat2", "-o", str(trace))
    done = run_exec(workspace, tmp_path / "state", "--no", "\n\n".join(attacks()), prefix)
    assert len(result_ids(done.stdout)) == len(attacks()), done.stdout + done.stderr
    opens = trace.read_text(encoding="utf-8", errors="replace").splitlines()
    # The run did open the workspace's other files (the walk read app.py), so the trace sees
    # them; none of the secret-looking files was opened to read (O_PATH only names a place).
    assert any(re.search(r'"[^"]*app\.py"', line) for line in opens)
    secret = re.compile(r'"(?:[^"]*/)?(?:\.env|secrets\.py|credentials\.json|settings\.env)"')
    read_opens = [line for line in opens if secret.search(line) and "O_PATH" not in line]
    assert not read_opens, read_opens


def test_a_gitignore_that_looks_secret_is_never_read(tmp_path: Path) -> None:
    """A .gitignore in a folder named like a secret is a secret-looking file itself: what
    it ignores must not change a folder search's or outline's counts. Two workspaces differ
    only in its bytes (one ignores nothing, the other everything) and answer the same."""
    gitignores = {"A": "zzzz\n", "B": "*\n!x\n"}
    text = "\n\n".join(
        [
            block("tree", "fs.searchTree", path=".", query="hello"),
            block("o", "fs.outline", path="."),
        ]
    )
    done = {}
    for which, ignore in gitignores.items():
        root = tmp_path / which / "ws"
        (root / "secrets.d").mkdir(parents=True)
        (root / "notes.txt").write_text("hello\n", encoding="utf-8")
        (root / "secrets.d" / "conf.yml").write_text("val: 1\n", encoding="utf-8")
        (root / "secrets.d" / "more.yml").write_text("val: 2\n", encoding="utf-8")
        (root / "secrets.d" / ".gitignore").write_text(ignore, encoding="utf-8")
        done[which] = run_exec(root, tmp_path / which / "state", "--no", text)
    assert done["A"].returncode == done["B"].returncode == 0, done["A"].stdout
    assert done["A"].stdout == done["B"].stdout
    assert "# secret-looking files not searched: 3 " in _details(done["A"].stdout, "tree")
