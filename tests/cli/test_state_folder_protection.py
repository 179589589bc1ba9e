"""The app's own state folder inside the workspace is protected like .git (real processes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.examples import everyday_share


def _exec(workspace: Path, state: Path, reply: str) -> subprocess.CompletedProcess[str]:
    args = ["exec", "--workspace", str(workspace), "--state-dir", str(state), "--yes"]
    return subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", *args],
        input=reply,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def inner_state(workspace: Path) -> Path:
    """A state folder inside the workspace, as the home folder's .local/state is."""
    return workspace / ".local" / "state" / "llm-operator"


def _state_files(state: Path) -> dict[str, bytes]:
    return {str(p.relative_to(state)): p.read_bytes() for p in state.rglob("*") if p.is_file()}


# Each attack is three runs of the command line: two of them run in the everyday run, all
# of them in the slow stage.
ATTACKS = [
    ("fs.delete", {"path": ".local"}),
    ("fs.delete", {"path": ".local/state/llm-operator"}),
    ("fs.delete", {"path": "./.local/state/../state"}),
    ("fs.delete", {"path": "via-link/llm-operator"}),
    ("fs.write", {"path": ".local/state/llm-operator/notes.txt", "content": "x"}),
    ("fs.write", {"path": "via-link/llm-operator/notes.txt", "content": "x"}),
    ("fs.write", {"path": ".LOCAL/state/llm-operator/x.txt", "content": "x"}),
]


@pytest.mark.parametrize("attack", everyday_share(ATTACKS, lambda a: f"{a[0]} {a[1]['path']}"))
def test_a_write_into_or_above_the_state_folder_is_refused_and_a_repeat_stays_a_repeat(
    attack: tuple[str, dict[str, str]],
    workspace: Path,
    inner_state: Path,
    cmd: Any,
    parse_results: Any,
) -> None:
    action, fields = attack
    (workspace / "via-link").symlink_to(".local/state")
    first = cmd("w-once", "fs.write", path="once.txt", content="first")
    done = _exec(workspace, inner_state, first)
    assert parse_results(done.stdout)[0].ok, done.stdout + done.stderr
    before = _state_files(inner_state)
    assert any(name.endswith("state.sqlite3") for name in before)

    attack = _exec(workspace, inner_state, cmd("bad", action, **fields))
    (result,) = parse_results(attack.stdout)
    assert result.code == "ERR_PATH_PROTECTED", attack.stdout
    assert "state folder" in result.summary
    assert str(workspace) not in attack.stdout
    assert inner_state.is_dir()
    assert (workspace / "README.md").exists()
    after = _state_files(inner_state)
    assert set(before) <= set(after)
    assert not any("notes.txt" in name or "x.txt" in name for name in after)

    (workspace / "once.txt").write_text("changed by hand", encoding="utf-8")
    again = _exec(workspace, inner_state, first)
    assert parse_results(again.stdout)[0].repeat
    assert (workspace / "once.txt").read_text(encoding="utf-8") == "changed by hand"


def test_the_state_folder_is_never_read_listed_or_searched(
    workspace: Path, inner_state: Path, cmd: Any, parse_results: Any
) -> None:
    marker = "secret-bytes-of-an-approved-edit"
    (workspace / "notes.txt").write_text("old\n", encoding="utf-8")
    done = _exec(workspace, inner_state, cmd("e1", "fs.write", path="notes.txt", content=marker))
    assert parse_results(done.stdout)[0].ok, done.stdout
    (inner_state / "plain.txt").write_text(f"{marker}\n", encoding="utf-8")
    (workspace / "link-to-state").symlink_to(".local/state/llm-operator")
    reply = "\n".join(
        [
            cmd("r1", "fs.read", path=".local/state/llm-operator/plain.txt"),
            cmd("r2", "fs.read", path="link-to-state/plain.txt"),
            cmd("r3", "fs.list", path=".local/state/llm-operator"),
            cmd("r4", "fs.list", path=".local/state"),
            cmd("r5", "fs.searchTree", path=".", query=marker),
            cmd("r6", "fs.stat", path=".local/state/llm-operator"),
        ]
    )
    ran = _exec(workspace, inner_state, reply)
    read1, read2, list1, list2, search, stat = parse_results(ran.stdout)
    for refused in (read1, read2, list1, stat):
        assert refused.code == "ERR_PATH_PROTECTED", ran.stdout
    assert list2.ok
    assert "llm-operator" not in (list2.details or "")
    assert "Listed .local/state (0 entries" in list2.summary
    assert search.ok
    assert "matches: 1 " in search.details
    assert "notes.txt:1:" in search.details
    assert "plain.txt" not in search.details


def test_a_pack_of_the_workspace_leaves_the_state_folder_out(workspace: Path) -> None:
    import os

    state = workspace / ".local" / "state" / "llm-operator"
    state.mkdir(parents=True)
    (state / "journal.txt").write_text("marker-of-the-app-records\n", encoding="utf-8")
    env = {**os.environ, "XDG_STATE_HOME": str(workspace / ".local" / "state")}
    done = subprocess.run(
        [sys.executable, "-m", "llm_operator.cli", "pack", "--workspace", str(workspace), "."],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert "README.md" in done.stdout, done.stderr
    assert "marker-of-the-app-records" not in done.stdout
    assert "journal.txt" not in done.stdout + done.stderr
