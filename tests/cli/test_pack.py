"""`llm-operator pack` as a real process: stdout the message, stderr what was left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from llm_operator.core.wording import counted
from support.actions import cli
from support.context_parts import unpack


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "app").mkdir(parents=True)
    (root / "app" / "main.py").write_text("def main():\n    return 0\n")
    (root / "app" / "util.py").write_text("def helper(x):\n    return x\n")
    (root / "app" / ".env").write_text("TOKEN=leak-me-not\n")
    (root / "keys").mkdir()
    (root / "keys" / "server.pem").write_text("-----BEGIN KEY----- leak-me-not\n")
    (root / "README.md").write_text("# Demo\n\n## Usage\nrun it\n")
    return root


def test_pack_prints_the_message_and_leaves_secrets_out(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--task", "Add logging", "app", "keys/server.pem")
    assert done.returncode == 1, done.stderr
    assert "leak-me-not" not in done.stdout
    assert "## Task\nAdd logging" in done.stdout
    assert set(unpack([done.stdout.rstrip("\n")])) == {"app/main.py", "app/util.py"}
    assert "left out app/.env: secret-looking" in done.stderr
    assert "left out keys/server.pem: secret-looking" in done.stderr
    assert "packed 2 files" in done.stderr
    assert "tokens (characters / 4)" in done.stderr


def test_include_secrets_lets_them_in_and_exits_0(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--include-secrets", "app")
    assert done.returncode == 0, done.stderr
    assert "TOKEN=leak-me-not" in done.stdout
    assert "left out" not in done.stderr


def test_outline_adds_the_rest_of_the_tree(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "--outline", "app/main.py")
    assert done.returncode == 0, done.stderr
    outline = done.stdout.split("## Outline of the rest of the workspace\n", 1)[1]
    assert "app/util.py (python, 2 lines)\n  1-2: def helper(x):" in outline
    assert "README.md (markdown, 4 lines)" in outline
    assert "app/main.py (" not in outline  # packed whole, so not outlined again
    assert "leak-me-not" not in done.stdout


def test_a_small_limit_prints_parts_that_each_fit(ws: Path) -> None:
    for n in range(30):
        (ws / "app" / f"mod{n}.py").write_text("".join(f"X{j} = {j}\n" for j in range(60)))
    done = cli("pack", "--workspace", ws, "--limit", "3000", "app")
    assert done.returncode == 1  # app/.env left out
    parts = done.stdout.rstrip("\n").split("\n\nLLM Operator context, part ")
    parts = [parts[0]] + ["LLM Operator context, part " + p for p in parts[1:]]
    assert len(parts) > 5
    assert all(len(part) <= 3000 for part in parts)
    assert len(unpack(parts)) == 32
    assert f"{counted(len(parts), 'part')} of at most 3000 characters" in done.stderr


def test_usage_errors_exit_2(ws: Path, tmp_path: Path) -> None:
    outside = cli("pack", "--workspace", ws, "../elsewhere")
    assert outside.returncode == 2
    assert "ERR_PATH_OUTSIDE_WORKSPACE" in outside.stderr
    assert str(tmp_path) not in outside.stderr
    assert cli("pack", "--workspace", tmp_path / "nope").returncode == 2
    assert cli("pack", "--workspace", ws, "--limit", "10").returncode == 2
    assert cli("pack").returncode == 2
    assert "Traceback" not in outside.stderr


def test_a_missing_path_is_reported_and_exits_1(ws: Path) -> None:
    done = cli("pack", "--workspace", ws, "app/main.py", "app/gone.py")
    assert done.returncode == 1
    assert "left out app/gone.py: not found" in done.stderr
    assert set(unpack([done.stdout.rstrip("\n")])) == {"app/main.py"}
