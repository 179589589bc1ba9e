"""Names met by fs.searchTree / fs.outline / fs.list as the model and the person read them:
a summary never carries a raw invisible or bidi character, a cursor can be sent back as it
is given, a walk always moves forward, and no name reads as something it is not.

Each case runs a real ``llm-operator exec`` process (the work budget set through its
``LLM_OPERATOR_WORK_BUDGET`` seam where a cut is needed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.fixtures import Decoded, cmd, parse_results, reply

RLO = "\u202e"


def run_limited(
    workspace: Path, state: Path, text: str, *flags: str, env: dict[str, str] | None = None
) -> list[Decoded]:
    """``llm-operator exec`` of ``text``; its results (stderr clean of tracebacks)."""
    command = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(workspace)]
    command += ["--state-dir", str(state), *flags, "-"]
    done = subprocess.run(
        command,
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), done.stderr
    return parse_results(done.stdout)


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def test_search_summary_escapes_a_bidi_name_as_the_details_do(ws: Path, state: Path) -> None:
    (ws / f"d{RLO}exe.txt").write_text("needle\n" * 3)
    (ws / "z.txt").write_text("needle\n")
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle"))
    (result,) = run_limited(ws, state, text, env={"LLM_OPERATOR_WORK_BUDGET": "30:10"})
    assert result.ok, result.summary
    assert RLO not in result.summary
    assert "d\\u202eexe.txt" in result.summary, result.summary


def test_outline_summary_escapes_a_bidi_name(ws: Path, state: Path) -> None:
    (ws / f"m{RLO}yp.py").write_text("def f():\n    return 1\n")
    (ws / "z.py").write_text("def g():\n    return 2\n")
    text = reply(cmd("o1", "fs.outline", path="."))
    (result,) = run_limited(ws, state, text, env={"LLM_OPERATOR_WORK_BUDGET": "30:10"})
    assert result.ok, result.summary
    assert RLO not in result.summary, result.summary
    assert "m\\u202eyp.py" in result.summary, result.summary
