"""Replies shaped as chat pages hand them over: copy buttons, selection copies, saved files.

Each ``tests/data/scanner/real_pastes/<name>.txt`` (how each was shaped: README.md there)
is scanned and run through a session against a temp workspace, writes approved. The golden
``<name>.expected.json`` holds the scan items (with each refusal's message), the results
(id, ok, code) and the notes about the paste. Regenerate deliberately with

    REGENERATE_SCANNER_GOLDENS=1 pytest tests/core/protocol/test_real_pastes.py

On top of the goldens, the tests below state what each paste must do in words.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.paste_notes import RESULTS_NOT_COMMANDS, paste_notes
from llm_operator.core.protocol.scanner import BlockProblem, CommandBlock, scan
from llm_operator.core.store.workspace import Workspace
from support.fixtures import Decoded, run_session
from support.paths import DATA

PASTES = DATA / "scanner" / "real_pastes"
REGENERATE = os.environ.get("REGENERATE_SCANNER_GOLDENS") == "1"
NAMES = sorted(path.name.removesuffix(".txt") for path in PASTES.glob("*.txt"))

# Copy damage the model cannot see: every block of these runs, and runs as written.
TOLERATED = [
    "chatgpt_copy_button",
    "chatgpt_selection_crlf",
    "claude_copy_button",
    "claude_selection_nbsp",
    "gemini_selection_doubled",
    "gemini_copy_button_zero_width",
    "saved_file_bom_crlf",
]


def read(name: str) -> str:
    return (PASTES / f"{name}.txt").read_bytes().decode("utf-8")


def run(name: str, workspace: Path, state_dir: Path) -> list[Decoded]:
    return run_session(Session(Workspace(workspace), state_dir), read(name), True)


def describe(name: str, results: list[Decoded]) -> dict[str, Any]:
    scanned = scan(read(name))
    items: list[dict[str, Any]] = []
    for item in scanned.items:
        if isinstance(item, CommandBlock):
            fields = [f"{key}: {value}" for key, value in item.fields]
            items.append({"code": None, "id": item.get("id"), "line": item.line, "fields": fields})
        else:
            items.append(
                {"code": item.code, "id": item.id, "line": item.line, "message": item.message}
            )
    return {
        "items": items,
        "results": [{"id": r.id, "ok": r.ok, "code": r.code} for r in results],
        "notes": paste_notes(scanned),
    }


def test_the_set_covers_every_damage_the_readme_names() -> None:
    readme = (PASTES / "README.md").read_text("utf-8")
    for name in NAMES:
        assert f"`{name}.txt`" in readme, f"README.md does not say how {name}.txt was shaped"
    assert set(TOLERATED) <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str, workspace: Path, state_dir: Path) -> None:
    got = describe(name, run(name, workspace, state_dir))
    expected_path = PASTES / f"{name}.expected.json"
    if REGENERATE:
        expected_path.write_text(json.dumps(got, indent=2) + "\n", encoding="utf-8")
        pytest.skip(f"regenerated {expected_path.name}; review the diff")
    assert got == json.loads(expected_path.read_text("utf-8"))


@pytest.mark.parametrize("name", TOLERATED)
def test_copy_damage_is_tolerated(name: str, workspace: Path, state_dir: Path) -> None:
    text = read(name)
    results = run(name, workspace, state_dir)
    starts = sum(1 for line in text.splitlines() if "OPERATOR_CMD" in line and "END" not in line)
    assert len(results) == starts >= 1
    assert all(r.ok for r in results), [(r.id, r.summary) for r in results if not r.ok]
    for item in scan(text).items:
        assert isinstance(item, CommandBlock)
        # Values come out clean: no space-like character survives at an edge.
        for key, value in item.fields:
            assert key.isascii(), key
            assert value.isascii(), value
            assert value == value.strip(), value


def test_the_damaged_paste_reads_as_the_clean_one() -> None:
    doubled = scan(read("gemini_selection_doubled"))
    clean = scan(read("gemini_selection_doubled").replace("\n\n", "\n"))
    assert [i.fields for i in doubled.items] == [  # type: ignore[union-attr]
        i.fields  # type: ignore[union-attr]
        for i in clean.items
    ]


def test_the_writes_of_tolerated_pastes_land(workspace: Path, state_dir: Path) -> None:
    run("chatgpt_selection_crlf", workspace, state_dir)
    assert (workspace / "notes" / "plan.txt").read_bytes() == b"Alpha\nBeta\n"
    run("claude_selection_nbsp", workspace, state_dir)
    assert "A demo project, edited." in (workspace / "README.md").read_text("utf-8")


# (paste, result id, code, fragments the summary must hold: the line and the fix)
REFUSALS = [
    ("strict_values", "stray-gap-1", "ERR_EMPTY_LINE_IN_CMD", ["line 7", "remove empty lines"]),
    (
        "strict_values",
        "accent-2",
        "ERR_NON_ASCII_IN_CMD",
        ["line 15", "column 15", "U+00E9 LATIN SMALL LETTER E WITH ACUTE", "value of path"],
    ),
    (
        "strict_values",
        "nbsp-inside-3",
        "ERR_NON_ASCII_IN_CMD",
        [
            "line 23",
            "column 12",
            "U+00A0 NO-BREAK SPACE",
            "value of query",
            "query_json",
            "\\u00a0",
        ],
    ),
    (
        "wrapped_base64",
        "wrap-write-1",
        "ERR_INVALID_BASE64",
        ["content_b64", "one line, no breaks", "76 characters", "characters in all"],
    ),
    (
        "wrong_case_keys",
        "case-read-1",
        "ERR_MISSING_REQUIRED_FIELDS",
        [
            "version (not Version, line 2)",
            "id (not ID, line 3)",
            "action (not Action, line 4)",
            "path (not Path, line 5)",
        ],
    ),
    (
        "wrong_case_keys",
        "case-read-2",
        "ERR_UNKNOWN_KEY",
        ["path (not Path, line 12)", "case-sensitive"],
    ),
    ("glued_fences", "glued-start-1", "ERR_MARKER_NOT_ALONE", ["line 1", "code fence"]),
    ("glued_fences", "glued-end-2", "ERR_MARKER_NOT_ALONE", ["line 15", "code fence"]),
    ("escaped_markers", "escaped-1", "ERR_ESCAPED_MARKER", ["line 3", "plain text"]),
]


@pytest.mark.parametrize(("name", "result_id", "code", "fragments"), REFUSALS)
def test_refusals_name_the_id_the_line_and_the_fix(
    name: str,
    result_id: str,
    code: str,
    fragments: list[str],
    workspace: Path,
    state_dir: Path,
    snapshot: Any,
) -> None:
    before = snapshot(workspace)
    results = {r.id: r for r in run(name, workspace, state_dir)}
    refused = results[result_id]
    assert not refused.ok
    assert refused.code == code, refused.summary
    for fragment in fragments:
        assert fragment in refused.summary, (fragment, refused.summary)
    assert refused.json()["related_id"] == result_id
    assert snapshot(workspace) == before  # nothing written by a refused command


def test_a_glued_fence_does_not_swallow_the_next_block(workspace: Path, state_dir: Path) -> None:
    results = run("glued_fences", workspace, state_dir)
    assert [(r.id, r.ok) for r in results] == [
        ("glued-start-1", False),
        ("glued-end-2", False),
        ("after-glued-3", True),
    ]


def test_results_pasted_back_are_named_as_results(workspace: Path, state_dir: Path) -> None:
    scanned = scan(read("results_pasted_back"))
    assert scanned.items == ()
    (note,) = paste_notes(scanned)
    assert note.startswith(RESULTS_NOT_COMMANDS)
    assert RESULTS_NOT_COMMANDS == "these are results, not commands: paste the LLM's reply"
    session = Session(Workspace(workspace), state_dir)
    assert session.prepare(read("results_pasted_back")).notices == [note]


def test_escaped_markers_are_explained(workspace: Path, state_dir: Path) -> None:
    scanned = scan(read("escaped_markers"))
    assert scanned.escaped_markers == 2
    assert any("markdown-escaped" in note for note in paste_notes(scanned))
    (item,) = scanned.items
    assert isinstance(item, BlockProblem)
    # The sentence using the escaped word in prose is no block of its own.
    assert item.id == "escaped-1"
