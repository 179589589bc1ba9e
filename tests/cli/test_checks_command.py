"""`llm-operator checks` lists, adds and removes checks; `primer --workspace` names them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from support.fixtures import cmd, parse_results


def llm_operator(*args: str | Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.slow
def test_add_list_remove_and_run(workspace: Path, state_dir: Path) -> None:
    where = ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    added = llm_operator("checks", "add", "hello", *where, "--", "echo", "it's", "a b")
    assert added.returncode == 0, added.stderr
    shell = llm_operator("checks", "add", "up", "--shell", *where, "--", "echo hi | tr a-z A-Z")
    assert shell.returncode == 0, shell.stderr
    listed = llm_operator("checks", *where)
    assert listed.stdout.splitlines() == [
        "hello: echo 'it'\"'\"'s' 'a b' [timeout 120 s]",
        "up: echo hi | tr a-z A-Z (shell) [timeout 120 s]",
    ]
    reply = cmd("c1", "run.check", name="hello") + "\n" + cmd("c2", "run.check", name="up")
    ran = llm_operator("exec", *where, stdin=reply)
    first, second = parse_results(ran.stdout)
    assert first.details is not None
    assert "it's a b" in first.details.splitlines()
    assert second.details is not None
    assert "HI" in second.details.splitlines()
    primer = llm_operator("primer", *where)
    assert "CHECKS (run.check name: <name>): hello (" in primer.stdout
    assert llm_operator("checks", "remove", "hello", *where).returncode == 0
    gone = llm_operator("checks", "remove", "hello", *where)
    assert gone.returncode == 1
    assert "no check named hello" in gone.stderr
    assert llm_operator("checks", "list", *where).stdout.splitlines() == [
        "up: echo hi | tr a-z A-Z (shell) [timeout 120 s]"
    ]


@pytest.mark.slow
def test_bad_uses_are_usage_errors_without_a_traceback(workspace: Path, state_dir: Path) -> None:
    where = ["--workspace", str(workspace), "--state-dir", str(state_dir)]
    for args in (
        ["checks", "add", "x", *where],
        ["checks", "add", "bad name", *where, "--", "true"],
        ["checks", "add", "x", "--timeout", "0", *where, "--", "true"],
        ["checks", "frob", *where],
        ["checks", "remove", *where],
        ["checks", "list", *where, "--", "true"],
    ):
        done = llm_operator(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr
    assert llm_operator("checks", *where).stdout == ""


def test_a_workspace_never_used_has_no_checks_and_gets_no_store(
    workspace: Path, tmp_path: Path
) -> None:
    state = tmp_path / "never"
    done = llm_operator("primer", "--workspace", workspace, "--state-dir", state)
    assert "CHECKS" not in done.stdout


def test_the_pack_names_the_checks(
    workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pack keeps its state in the user state folder: a private one here.
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    (workspace / "a.py").write_text("x = 1\n")
    added = llm_operator("checks", "add", "test", "--workspace", workspace, "--", "pytest", "-q")
    assert added.returncode == 0, added.stderr
    packed = llm_operator("pack", "--workspace", workspace, "a.py")
    assert "CHECKS (run.check name: <name>): test (pytest -q)" in packed.stdout
