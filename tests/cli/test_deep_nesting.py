"""Text nested deeper than a grammar survives is refused, never parsed.

The markdown and YAML grammars keep their open blocks in a fixed-size scanner state: past
about 250 nested quotes, list items or indentation levels, parsing it crashes the process
(a segfault), and every result of the reply is lost, or the window closes. A file in the
workspace, or content a reply sends, can be nested that deep. Each command that would
parse it fails on its own with ERR_PARSER_FAILED; folder outlines and ``pack`` count or
leave it out; the other commands of the reply still run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support.actions import cli
from support.fixtures import parse_results

QUOTES = "".join(">" * level + " q\n" for level in range(1, 300))
LISTS = "".join("  " * level + "- q\n" for level in range(300))
YAML = "".join(" " * level + "k:\n" for level in range(300)) + " " * 300 + "v\n"


def block(cmd_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {cmd_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


@pytest.mark.slow
def test_deeply_nested_markdown_and_yaml_fail_alone(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    (workspace / "docs").mkdir(parents=True)
    (workspace / "docs" / "quotes.md").write_text(QUOTES, encoding="utf-8")
    (workspace / "docs" / "lists.md").write_text(LISTS, encoding="utf-8")
    (workspace / "conf.yaml").write_text(YAML, encoding="utf-8")
    (workspace / "README.md").write_text("# Title\n\nText.\n", encoding="utf-8")
    (workspace / "app.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    reply = "\n\n".join(
        [
            block("o1", "fs.outline", path="docs/quotes.md", depth="8"),
            block("o2", "fs.outline", path="docs/lists.md"),
            block("o3", "fs.outline", path="conf.yaml"),
            block("s1", "fs.readStructure", path="conf.yaml", symbol="k"),
            block(
                "i1",
                "fs.insertAfterStructure",
                path="README.md",
                target="# Title",
                content_json=json.dumps(QUOTES),
            ),
            block("tree", "fs.outline", path="."),
            block("r1", "fs.read", path="app.py"),
        ]
    )
    done = cli(
        "exec", "--workspace", workspace, "--state-dir", tmp_path / "state", "--no", stdin=reply
    )
    assert done.returncode == 1, done.stderr  # not killed by a signal
    results = {result.id: result for result in parse_results(done.stdout)}
    assert list(results) == ["o1", "o2", "o3", "s1", "i1", "tree", "r1"]
    for cmd_id in ("o1", "o2", "o3", "s1", "i1"):
        assert results[cmd_id].code == "ERR_PARSER_FAILED", results[cmd_id].summary
        assert "would crash it" in results[cmd_id].summary
    tree = results["tree"]
    assert tree.ok
    assert tree.details is not None
    assert "README.md (markdown, 3 lines)" in tree.details
    assert "3 unreadable" in tree.details
    assert results["r1"].ok
    assert (workspace / "README.md").read_text(encoding="utf-8") == "# Title\n\nText.\n"
    packed = cli("pack", "--workspace", workspace, "--task", "t", "app.py")
    assert packed.returncode == 0, packed.stderr
    assert "def f():" in packed.stdout


SLOW_SWIFT = "/*" * 3000  # 6 KB that the Swift grammar parses for minutes
KOTLIN = "val a = " + '"${' * 1100 + '}"' * 1100 + "\n"  # its scanner aborts the process


@pytest.mark.slow  # one of the slowest: run by .ci/run
def test_a_parse_that_would_take_minutes_or_abort_fails_alone(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "slow.swift").write_text(SLOW_SWIFT, encoding="utf-8")
    (workspace / "deep.kt").write_text(KOTLIN, encoding="utf-8")
    (workspace / "app.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    reply = "\n\n".join(
        [
            block("o1", "fs.outline", path="slow.swift"),
            block("o2", "fs.outline", path="deep.kt"),
            block("tree", "fs.outline", path="."),
            block("r1", "fs.read", path="app.py"),
        ]
    )
    done = cli(
        "exec", "--workspace", workspace, "--state-dir", tmp_path / "state", "--no", stdin=reply
    )
    assert done.returncode == 1, done.stderr
    results = {result.id: result for result in parse_results(done.stdout)}
    assert results["o1"].code == "ERR_PARSER_FAILED"
    assert "was stopped after 2 s" in results["o1"].summary
    assert results["o2"].code == "ERR_PARSER_FAILED"
    assert "1100 string templates" in results["o2"].summary
    assert results["tree"].ok
    assert results["tree"].details is not None
    assert "app.py (python, 2 lines)" in results["tree"].details
    assert "2 unreadable" in results["tree"].details
    assert results["r1"].ok


def test_a_slow_parse_stops_when_the_reply_budget_is_spent(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "slow.swift").write_text(SLOW_SWIFT, encoding="utf-8")
    env = {**os.environ, "LLM_OPERATOR_WORK_BUDGET": "0.3:1000000000"}
    done = cli(
        "exec",
        "--workspace",
        workspace,
        "--state-dir",
        tmp_path / "state",
        "--no",
        stdin=block("o1", "fs.outline", path="slow.swift"),
        env=env,
    )
    (result,) = parse_results(done.stdout)
    assert result.code == "ERR_WORK_BUDGET_EXCEEDED", result.summary
    assert result.summary.startswith("fs.outline failed (ERR_WORK_BUDGET_EXCEEDED): stopped: ")
