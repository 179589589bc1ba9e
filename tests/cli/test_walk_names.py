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

from support.actions import b64
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


def _more_line(details: str) -> str:
    (line,) = [line for line in details.splitlines() if line.startswith("# more: ")]
    return line.removeprefix("# more: ")


def _non_ascii_tree(ws: Path) -> None:
    for name in ("a.txt", "z.txt", "\u00e9.txt", "\u00fc.txt"):
        (ws / name).write_text("needle\n" * 150)


def test_search_resumes_after_a_non_ascii_name_with_the_cursor_it_gives(
    ws: Path, state: Path
) -> None:
    _non_ascii_tree(ws)
    first = reply(cmd("s1", "fs.searchTree", path=".", query="needle", after="z.txt"))
    (result,) = run_limited(ws, state, first)
    assert result.ok, result.summary
    cursor = _more_line(result.details)
    assert cursor == 'after_json: "\\u00e9.txt"', cursor
    assert cursor in result.summary, result.summary
    assert cursor.isascii()
    key, _, value = cursor.partition(": ")
    second = reply(cmd("s2", "fs.searchTree", path=".", query="needle", **{key: value}))
    (resumed,) = run_limited(ws, state, second)
    assert resumed.ok, resumed.summary
    assert resumed.details.count("\u00fc.txt:") == 150, resumed.summary
    assert "\u00e9.txt:" not in resumed.details
    assert "# more:" not in resumed.details


def test_after_b64_resumes_a_search_too(ws: Path, state: Path) -> None:
    _non_ascii_tree(ws)
    text = reply(cmd("s1", "fs.searchTree", path=".", query="needle", after_b64=b64("\u00e9.txt")))
    (result,) = run_limited(ws, state, text)
    assert result.ok, result.summary
    assert result.details.count("\u00fc.txt:") == 150


def test_outline_resumes_after_a_non_ascii_name_with_the_cursor_it_gives(
    ws: Path, state: Path
) -> None:
    for name in ("a.py", "\u00e9.py", "\u00fc.py"):
        (ws / name).write_text("def f():\n    return 1\n" * 5)
    first = reply(cmd("o1", "fs.outline", path="."))
    (result,) = run_limited(ws, state, first, env={"LLM_OPERATOR_WORK_BUDGET": "30:150"})
    assert result.ok, result.summary
    cursor = _more_line(result.details)
    assert cursor.startswith("after_json: "), cursor
    assert cursor in result.summary, result.summary
    key, _, value = cursor.partition(": ")
    second = reply(cmd("o2", "fs.outline", path=".", **{key: value}))
    (resumed,) = run_limited(ws, state, second)
    assert resumed.ok, resumed.summary
    assert "\u00fc.py (" in resumed.details, resumed.details
    assert "# complete" in resumed.details
