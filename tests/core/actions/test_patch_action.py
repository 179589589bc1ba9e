"""fs.patch through the protocol path, and real commits of a real git repository.

The real-world test builds a small repository, commits realistic changes, and applies
each commit's ``git diff`` with fs.patch (through Session, approved) to a checkout of the
parent commit. The result must equal what ``git apply`` makes of the same diff.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.run import APPROVE
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.encoder import encode_results
from llm_operator.core.store.workspace import Workspace
from support.actions import b64, expect_failure, snapshot, tree

MAIN_PY = "import sys\n\n\ndef main():\n    print('hello')\n    return 0\n"

TWO_HUNKS = (
    "--- a/src/main.py\n"
    "+++ b/src/main.py\n"
    "@@ -1,2 +1,3 @@\n"
    " import sys\n"
    "+import os\n"
    " \n"
    "@@ -4,3 +5,3 @@\n"
    " def main():\n"
    "-    print('hello')\n"
    "+    print('hello', os.getcwd())\n"
    "     return 0\n"
)


def test_patch_applies_two_hunks(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (result,) = run_reply(cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(TWO_HUNKS)))
    assert result.ok, result.summary
    assert "2 hunks applied" in result.summary
    assert (workspace / "src" / "main.py").read_text(encoding="utf-8") == (
        "import sys\nimport os\n\n\ndef main():\n    print('hello', os.getcwd())\n    return 0\n"
    )


def test_patch_at_an_offset_reports_it(run_reply: Any, cmd: Any, workspace: Path) -> None:
    (workspace / "src" / "main.py").write_text("# header\n# more\n" + MAIN_PY, encoding="utf-8")
    patch = "@@ -5,2 +5,2 @@\n     print('hello')\n-    return 0\n+    return 1\n"
    (result,) = run_reply(cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert "offset +2" in result.summary
    assert (workspace / "src" / "main.py").read_text(encoding="utf-8").endswith("return 1\n")


def test_patch_creates_a_missing_file(run_reply: Any, cmd: Any, workspace: Path) -> None:
    patch = "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1,2 @@\n+# New\n+text\n"
    (result,) = run_reply(cmd("p1", "fs.patch", path="docs/new.md", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert (workspace / "docs" / "new.md").read_bytes() == b"# New\ntext\n"


# -- failures ---------------------------------------------------------------------------


def test_missing_patch_b64(run_reply: Any, cmd: Any, workspace: Path) -> None:
    expect_failure(
        run_reply,
        workspace,
        cmd("p1", "fs.patch", path="src/main.py"),
        "ERR_MISSING_PATCH_B64",
        "p1",
        path="src/main.py",
    )


@pytest.mark.parametrize(
    "patch",
    [
        "this is not a diff\n",
        "@@ -1,3 +1,3 @@\n import sys\nimport os\n",  # a context line without its space
        "--- a/other.py\n+++ b/other.py\n@@ -1 +1 @@\n-import sys\n+import os\n",
        "```diff\n@@ -1 +1 @@\n-import sys\n+import os\n```\n",
    ],
    ids=["prose", "bad-count", "other-file", "fenced"],
)
def test_invalid_patch(run_reply: Any, cmd: Any, workspace: Path, patch: str) -> None:
    expect_failure(
        run_reply,
        workspace,
        cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(patch)),
        "ERR_INVALID_PATCH",
        "p1",
        path="src/main.py",
    )


def test_context_mismatch_names_the_hunk_and_shows_expected_and_found(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    wrong = TWO_HUNKS.replace(" def main():\n", " def main(argv):\n")
    result = expect_failure(
        run_reply,
        workspace,
        cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(wrong)),
        "ERR_PATCH_CONTEXT_MISMATCH",
        "p1",
        path="src/main.py",
    )
    summary = result.summary
    assert summary.startswith("fs.patch failed (ERR_PATCH_CONTEXT_MISMATCH)")
    assert "hunk 2 (@@ -4,3 +5,3 @@)" in summary
    # The file's lines are shown in the details, never in the one-line summary.
    assert summary.endswith("(more in the details)")
    assert "def main():" not in summary
    message = result.json()["message"]
    expected_at = message.index("Expected")
    found_at = message.index("The file at the nearest place")
    assert expected_at < found_at
    assert "def main(argv):" in message[expected_at:found_at]
    assert "def main():" in message[found_at:]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("src/missing.py", "ERR_FILE_NOT_FOUND"),
        ("src", "ERR_IS_A_DIRECTORY"),
        (".git/HEAD", "ERR_PATH_PROTECTED"),
        (".", "ERR_PATH_PROTECTED"),
        ("../main.py", "ERR_PATH_OUTSIDE_WORKSPACE"),
        ("latin1.py", "ERR_ENCODING_ERROR"),
    ],
)
def test_patch_path_failures(
    run_reply: Any, cmd: Any, workspace: Path, path: str, code: str
) -> None:
    (workspace / ".git").mkdir()
    (workspace / ".git" / "HEAD").write_bytes(b"import sys\n")
    (workspace / "latin1.py").write_bytes(b"import sys\n# caf\xe9\n")
    patch = "@@ -1 +1 @@\n-import sys\n+import os\n"
    expect_failure(
        run_reply,
        workspace,
        cmd("p1", "fs.patch", path=path, patch_b64=b64(patch)),
        code,
        "p1",
        path=path,
    )


def test_rejected_patch_changes_nothing(run_reply: Any, cmd: Any, workspace: Path) -> None:
    before = tree(workspace)
    (result,) = run_reply(
        cmd("p1", "fs.patch", path="src/main.py", patch_b64=b64(TWO_HUNKS)), False
    )
    assert result.code == "ERR_REJECTED_BY_USER"
    assert tree(workspace) == before


# -- real commits of a real repository ----------------------------------------------------

ENTITIES = ("Product", "Supplier", "Warehouse", "Order", "Shipment", "Customer", "Invoice")


def inventory_source() -> str:
    out = [
        '"""Inventory records and the rules that keep them consistent."""',
        "",
        "from __future__ import annotations",
        "",
        "import logging",
        "from dataclasses import dataclass, field",
        "",
        "log = logging.getLogger(__name__)",
        "",
    ]
    for number, name in enumerate(ENTITIES, start=1):
        lower = name.lower()
        out += [
            "",
            "@dataclass",
            f"class {name}:",
            f'    """A {lower} as the warehouse system stores it."""',
            "",
            f"    {lower}_id: int",
            "    name: str",
            f"    priority: int = {number}",
            "    tags: list[str] = field(default_factory=list)",
            "",
            "    def validate(self) -> list[str]:",
            "        problems = []",
            f"        if self.{lower}_id <= 0:",
            f"            problems.append('{lower}_id must be positive')",
            "        if not self.name.strip():",
            f"            problems.append('{lower} name is empty')",
            f"        if self.priority > {number * 10}:",
            f"            log.warning('{lower} %s has an unusual priority', self.name)",
            "        return problems",
            "",
            "    def label(self) -> str:",
            f"        return f'{name} #{{self.{lower}_id}}: {{self.name}}'",
            "",
        ]
    out += ["", "def load_all(rows):", "    return [Product(**row) for row in rows]", ""]
    return "\n".join(out)


def report_source() -> str:
    out = ["'use strict';", "", "const { formatMoney } = require('./money');", ""]
    for index, metric in enumerate(("revenue", "orders", "refunds", "visits", "signups")):
        out += [
            f"function summarize{metric.title()}(rows, options = {{}}) {{",
            f"  const total = rows.reduce((sum, row) => sum + row.{metric}, 0);",
            "  const days = options.days || rows.length || 1;",
            f"  const average = total / days; // {metric} per day",
            "  if (options.verbose) {",
            f"    console.log('{metric}', total, average);",
            "  }",
            f"  return {{ metric: '{metric}', total, average, rank: {index} }};",
            "}",
            "",
        ]
    out += [
        "module.exports = {",
        "  summarizeRevenue,",
        "  summarizeOrders,",
        "  summarizeRefunds,",
        "  summarizeVisits,",
        "  summarizeSignups,",
        "};",
    ]
    return "\n".join(out)  # no final newline


def deploy_source() -> str:
    lines = ["@echo off", "setlocal enabledelayedexpansion", "rem Deploy the service", ""]
    for step in ("build", "test", "package", "upload", "restart", "verify"):
        lines += [
            f":{step}",
            f"echo Running {step}...",
            f"call tools\\{step}.cmd %1 %2",
            f"if errorlevel 1 goto fail_{step}",
            "",
        ]
    lines += ["echo Deployed.", "exit /b 0", ""]
    return "\r\n".join(lines)


def _replace(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def commit_series() -> list[tuple[str, Callable[[dict[str, str]], None]]]:
    """(message, change of the files) for each commit after the first."""

    def multi_hunk(files: dict[str, str]) -> None:
        src = files["app/inventory.py"]
        src = _replace(src, "import logging\n", "import logging\nimport time\n")
        src = _replace(
            src,
            "        if self.order_id <= 0:\n",
            "        if self.order_id is None:\n            return ['order_id is missing']\n"
            "        if self.order_id <= 0:\n",
        )
        src = _replace(src, "    priority: int = 6\n", "    priority: int = 60\n")
        src = _replace(
            src,
            "    return [Product(**row) for row in rows]\n",
            "    started = time.monotonic()\n    products = [Product(**row) for row in rows]\n"
            "    log.info('loaded %d in %.3fs', len(products), time.monotonic() - started)\n"
            "    return products\n",
        )
        files["app/inventory.py"] = src
        files["app/report.js"] = _replace(
            files["app/report.js"],
            "  const days = options.days || rows.length || 1;\n  const "
            "average = total / days; // visits per day",
            "  const days = Math.max(options.days || rows.length, 1);\n  const "
            "average = total / days; // visits per day",
        )

    def last_line_without_newline(files: dict[str, str]) -> None:
        files["app/report.js"] = _replace(
            files["app/report.js"], "  summarizeSignups,\n};", "  summarizeSignups,\n  v: 2,\n};"
        )

    def start_and_end(files: dict[str, str]) -> None:
        files["app/inventory.py"] = (
            "# Copyright (c) the inventory team.\n# Licensed under the MIT license.\n"
            + files["app/inventory.py"]
            + "\n\ndef count(records):\n    return len(list(records))\n"
        )
        files["app/report.js"] = "// Reports for the dashboard.\n" + files["app/report.js"]

    def crlf_edit(files: dict[str, str]) -> None:
        src = files["scripts/deploy.bat"]
        src = _replace(src, "test.cmd %1 %2\r\n", "test.cmd %1 %2 --fast\r\n")
        src = _replace(src, ":verify\r\n", ":smoke\r\ncall tools\\smoke.cmd\r\n\r\n:verify\r\n")
        src = _replace(src, "echo Deployed.\r\n", "echo Deployed at %TIME%.\r\n")
        files["scripts/deploy.bat"] = src

    def new_file_and_final_newline(files: dict[str, str]) -> None:
        files["app/util.py"] = (
            "def chunks(items, size):\n    for i in range(0, len(items), size):\n"
            "        yield items[i : i + size]\n"
        )
        files["app/report.js"] = files["app/report.js"] + "\n"
        src = files["app/inventory.py"]
        start = src.index("@dataclass\nclass Shipment:")
        end = src.index("@dataclass\nclass Customer:")
        files["app/inventory.py"] = src[:start] + src[end:]

    return [
        ("multi-hunk edits in two files", multi_hunk),
        ("edit the last line of a file without final newline", last_line_without_newline),
        ("additions at the start and at the end", start_and_end),
        ("edit a CRLF batch file", crlf_edit),
        ("new file, final newline added, a class removed", new_file_and_final_newline),
    ]


@dataclass(frozen=True)
class Commit:
    parent: str
    sha: str
    diffs: dict[str, str]  # path -> the `git diff` of that path


def git(repo: Path, *args: str, text: bool = True) -> Any:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(repo.parent),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
        "LC_ALL": "C",
    }
    done = subprocess.run(
        ["git", "-c", "core.autocrlf=false", "-c", "color.ui=never", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        check=True,
        text=text,
    )
    return done.stdout


def write_files(root: Path, files: dict[str, str]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.encode("utf-8"))


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Commit]]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path_factory.mktemp("history") / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    files = {
        "app/inventory.py": inventory_source(),
        "app/report.js": report_source(),
        "scripts/deploy.bat": deploy_source(),
    }
    assert sum(text.count("\n") for text in files.values()) > 250
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "initial import")
    commits = []
    for message, change in commit_series():
        parent = git(repo, "rev-parse", "HEAD").strip()
        change(files)
        write_files(repo, files)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", message)
        sha = git(repo, "rev-parse", "HEAD").strip()
        names = git(repo, "diff", "--name-only", parent, sha).split()
        diffs = {
            name: git(repo, "diff", "--no-ext-diff", parent, sha, "--", name, text=False).decode(
                "utf-8"
            )
            for name in names
        }
        commits.append(Commit(parent, sha, diffs))
    return repo, commits


def checkout(repo: Path, sha: str, dest: Path) -> Path:
    data = git(repo, "archive", "--format=tar", sha, text=False)
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        archive.extractall(dest, filter="data")
    return dest


def patch_reply(cmd: Any, commit: Commit, diffs: dict[str, str]) -> str:
    blocks = [
        cmd(f"patch-{commit.sha[:7]}-{n}", "fs.patch", path=path, patch_b64=b64(diff))
        for n, (path, diff) in enumerate(sorted(diffs.items()))
    ]
    return "Applying the commit.\n\n" + "\n\n".join(blocks) + "\n"


def test_patches_of_real_commits_match_git_apply(
    history: tuple[Path, list[Commit]], tmp_path: Path, cmd: Any
) -> None:
    repo, commits = history
    assert len(commits) == 5
    for number, commit in enumerate(commits):
        by_git = checkout(repo, commit.parent, tmp_path / f"git-{number}")
        mine = checkout(repo, commit.parent, tmp_path / f"mine-{number}")
        for path, diff in commit.diffs.items():
            patch_file = tmp_path / f"{number}-{path.replace('/', '_')}.diff"
            patch_file.write_bytes(diff.encode("utf-8"))
            subprocess.run(
                ["git", "apply", "--whitespace=nowarn", str(patch_file)],
                cwd=by_git,
                check=True,
                capture_output=True,
            )
        session = Session(Workspace(mine), tmp_path / f"state-{number}")
        run = session.prepare(patch_reply(cmd, commit, commit.diffs))
        assert len(run.pending) == len(commit.diffs), [i.result for i in run.items]
        results = session.execute(run, {p.index: APPROVE for p in run.pending})
        assert all(r.ok for r in results), [r.outcome.summary for r in results]
        assert snapshot(mine) == snapshot(by_git), f"commit {number} differs from git apply"
        # and both equal the commit itself
        assert snapshot(mine) == snapshot(checkout(repo, commit.sha, tmp_path / f"c-{number}"))


def corrupt_one_context_line(diff: str) -> str | None:
    """The diff with the first context line of its last hunk changed; None if it has none."""
    lines = diff.splitlines(keepends=True)
    last_hunk = max(i for i, line in enumerate(lines) if line.startswith("@@"))
    for i in range(last_hunk + 1, len(lines)):
        line = lines[i]
        if line.startswith(" ") and line.strip():
            body = line.rstrip("\r\n")
            ending = line[len(body) :]
            cr = "\r" if body.endswith("\r") else ""
            lines[i] = body.removesuffix("\r") + " # changed" + cr + ending
            return "".join(lines)
    return None


def test_real_patches_with_a_corrupted_context_line_fail_and_change_nothing(
    history: tuple[Path, list[Commit]], tmp_path: Path, cmd: Any, parse_results: Any
) -> None:
    repo, commits = history
    tried = 0
    for number, commit in enumerate(commits):
        mine = checkout(repo, commit.parent, tmp_path / f"mine-{number}")
        before = tree(mine)
        for path, diff in sorted(commit.diffs.items()):
            bad = corrupt_one_context_line(diff)
            if bad is None:
                continue  # a new file has no context to corrupt
            patch_file = tmp_path / "bad.diff"
            patch_file.write_bytes(bad.encode("utf-8"))
            check = subprocess.run(
                ["git", "apply", "--check", str(patch_file)], cwd=mine, capture_output=True
            )
            assert check.returncode != 0, "git itself must refuse the corrupted patch"
            session = Session(Workspace(mine), tmp_path / f"state-{number}")
            run = session.prepare(patch_reply(cmd, commit, {path: bad}))
            assert run.pending == []
            (result,) = parse_results(encode_results(session.execute(run, {})))
            assert not result.ok
            assert result.code == "ERR_PATCH_CONTEXT_MISMATCH", result.summary
            assert "# changed" in result.json()["message"]  # the file's lines: in the details
            assert tree(mine) == before
            tried += 1
    assert tried >= 6


# -- modes and line breaks through the write path ------------------------------------------


def test_new_mode_100755_makes_the_file_executable_like_git_apply(
    run_reply: Any, cmd: Any, workspace: Path, tmp_path: Path
) -> None:
    script = workspace / "run.sh"
    script.write_text("echo a\n", encoding="utf-8")
    script.chmod(0o644)
    patch = (
        "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
        "--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo a\n+echo b\n"
    )
    (result,) = run_reply(cmd("m1", "fs.patch", path="run.sh", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert "file mode set to executable (100755)" in result.summary
    assert script.read_text(encoding="utf-8") == "echo b\n"
    if shutil.which("git"):
        other = tmp_path / "git-side"
        other.mkdir()
        (other / "run.sh").write_text("echo a\n", encoding="utf-8")
        (other / "run.sh").chmod(0o644)
        (other / "p.diff").write_text(patch, encoding="utf-8")
        subprocess.run(["git", "apply", "p.diff"], cwd=other, check=True)
        assert os.stat(other / "run.sh").st_mode & 0o777 == os.stat(script).st_mode & 0o777
    assert os.stat(script).st_mode & 0o777 == 0o755
    back = "diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n"
    (cleared,) = run_reply(cmd("m2", "fs.patch", path="run.sh", patch_b64=b64(back)))
    assert cleared.ok, cleared.summary
    assert os.stat(script).st_mode & 0o777 == 0o644
    assert script.read_text(encoding="utf-8") == "echo b\n"


def test_new_file_mode_100755_creates_an_executable_file(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    patch = (
        "diff --git a/tool.sh b/tool.sh\nnew file mode 100755\n"
        "--- /dev/null\n+++ b/tool.sh\n@@ -0,0 +1 @@\n+echo hi\n"
    )
    (result,) = run_reply(cmd("n1", "fs.patch", path="tool.sh", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert (workspace / "tool.sh").read_text(encoding="utf-8") == "echo hi\n"
    assert os.stat(workspace / "tool.sh").st_mode & 0o111


def test_mixed_line_breaks_survive_a_patch_next_to_an_identical_line(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    target = workspace / "mixed.txt"
    target.write_bytes(b"same\r\nsame\nother\r\nend\n")
    patch = "@@ -1,3 +1,2 @@\n same\n-same\n other\n"
    (result,) = run_reply(cmd("x1", "fs.patch", path="mixed.txt", patch_b64=b64(patch)))
    assert result.ok, result.summary
    assert target.read_bytes() == b"same\r\nother\r\nend\n"


def test_a_patch_sent_again_is_refused_as_already_applied(
    run_reply: Any, cmd: Any, workspace: Path
) -> None:
    patch = "@@ -5,2 +5,3 @@\n     print('hello')\n     return 0\n+# end\n"
    (first,) = run_reply(cmd("a1", "fs.patch", path="src/main.py", patch_b64=b64(patch)))
    assert first.ok, first.summary
    before = (workspace / "src" / "main.py").read_bytes()
    (again,) = run_reply(cmd("a2", "fs.patch", path="src/main.py", patch_b64=b64(patch)))
    assert not again.ok
    assert again.summary.startswith("fs.patch failed (ERR_PATCH_ALREADY_APPLIED)"), again.summary
    assert "looks already applied at line 5" in again.summary
    assert (workspace / "src" / "main.py").read_bytes() == before
