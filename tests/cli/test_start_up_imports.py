"""Every family's exec loads only the machinery it uses (start-up time counts).

One real ``exec`` per family (read, searchTree, outline, write, patch, applyEdits, structure
edit, delete), with ``-X importtime`` listing every module it imported. Only the simple
read loads no command model (a quick check reads it, read_values.py): every other exec
loads pydantic and its action's model. No exec loads Qt, the file watcher, the MCP SDK,
networkx, argparse (a plain exec line is read without it), RE2 (none of these commands has
a regex), platformdirs (a plain Linux account's folders are worked out without it), OpenSSL
(small data is hashed by the built-in SHA-256) or the undo code;
only outline and structure actions load tree-sitter, and then only the grammar they parse
(never the language pack's package, which loads three grammars of its own); an outline
loads no structure editing code, an edit no moving code, and a text replacement in a
structure none of the code that re-indents content or fixes list separators or JSON
commas, nor the write family's module; reads load no diff, journal or apply code; only a
delete loads send2trash; each engine loads with its action only.
docs/architecture.md says the same in prose, and benchmarks/bench_startup.py measures what
this leaves.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

PY_TEXT = "".join(f"def f{n}(x):\n    return x * {n}\n\n\n" for n in range(30))
NEVER = {
    "PySide6",
    "shiboken6",
    "watchdog",
    "llm_operator.gui",
    "llm_operator.core.store.recovery",
    "llm_operator.core.store.migration",
    "llm_operator.core.store.undoing",
    "llm_operator.core.store.rewinding",
    "mcp",
    "uvicorn",
    "starlette",
    "networkx",
    "re2",
    "argparse",
    "tree_sitter_language_pack",
    # Every write here changes one line or makes or deletes a file: its review diff is
    # matched without difflib (diffing._line_blocks).
    "difflib",
}
MODELS = {"pydantic", "pydantic_core", "llm_operator.core.actions.fields"}
PARSERS = {"tree_sitter", "llm_operator.core.engines.structure"}
STRUCTURE_EDITING = "llm_operator.core.engines.structure.operations"
STRUCTURE_MOVING = "llm_operator.core.engines.structure.moving"  # fs.moveStructure only
# Placing content (insert, replace, move) and deleting a structure only; JSON commas: JSON.
STRUCTURE_PLACING = {
    "llm_operator.core.engines.structure.indentation",
    "llm_operator.core.engines.structure.separators",
    "llm_operator.core.engines.structure.commas",
}
WRITING = {
    "llm_operator.core.changes",
    "llm_operator.core.plan.preview",
    "llm_operator.core.plan.landed",
    "llm_operator.core.engines.diffing",
    "llm_operator.core.store.applying",
    "llm_operator.core.store.journal",
}
# The trash: a delete loads it, a run that only writes does not. These files' deletes need
# neither the mount check (a folder's) nor the refill of a trash that failed half-way.
TRASHING = "llm_operator.core.store.trashing"
DELETES_OF_FOLDERS_OR_FAILURES = {
    "llm_operator.core.store.mounts",
    "llm_operator.core.store.refill",
}
ENGINES = {
    "patch": "llm_operator.core.engines.patching",
    "applyEdits": "llm_operator.core.engines.edits",
    "delete": "send2trash",
}


def _b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def _patch(ws: Path) -> dict[str, str]:
    (ws / "notes.txt").write_text("".join(f"line {n}\n" for n in range(1, 9)))
    diff = "--- a/notes.txt\n+++ b/notes.txt\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+three\n line 4\n"
    return {"action": "fs.patch", "path": "notes.txt", "patch_b64": _b64(diff)}


def _apply_edits(ws: Path) -> dict[str, str]:
    edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": "x * 7", "text": "x * 70"}]}
    return {"action": "fs.applyEdits", "path": "m.py", "edits_b64": _b64(json.dumps(edits))}


def _delete(ws: Path) -> dict[str, str]:
    (ws / "gone.txt").write_text("bye\n")
    return {"action": "fs.delete", "path": "gone.txt"}


FAMILIES: dict[str, Callable[[Path], dict[str, str]]] = {
    "read": lambda ws: {"action": "fs.readSlice", "path": "m.py", "lines": "5"},
    "searchTree": lambda ws: {"action": "fs.searchTree", "path": ".", "query": "x * 3"},
    "outline": lambda ws: {"action": "fs.outline", "path": "m.py"},
    "write": lambda ws: {"action": "fs.write", "path": "new.txt", "content": "hi"},
    "patch": _patch,
    "applyEdits": _apply_edits,
    "structure": lambda ws: {
        "action": "fs.replaceTextInStructure",
        "path": "m.py",
        "symbol": "f7",
        "old_text": "x * 7",
        "new_text": "x * 70",
    },
    "delete": _delete,
}
READS = {"read", "searchTree", "outline"}
WRITE_FAMILY = {"write", "patch", "applyEdits", "delete"}  # core/actions/write.py


def _loaded(tmp_path: Path, family: str) -> set[str]:
    """The modules one exec of ``family``'s command imported (it must succeed)."""
    ws, state = tmp_path / "ws", tmp_path / "state"
    ws.mkdir()
    (ws / "m.py").write_text(PY_TEXT)
    fields = FAMILIES[family](ws)
    block = "".join(f"{key}: {value}\n" for key, value in fields.items())
    reply = f"OPERATOR_CMD\nversion: 1\nid: {family}1\n{block}END_OPERATOR_CMD\n"
    argv = ["-X", "importtime", "-m", "llm_operator.cli", "exec", "--yes", "--workspace"]
    # The settings file where a user's would be: a plain account with its own HOME.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_OPERATOR_", "XDG_"))}
    env["HOME"] = str(tmp_path / "home")
    done = subprocess.run(
        [sys.executable, *argv, str(ws), "--state-dir", str(state), "-"],
        input=reply,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok: true" in done.stdout, done.stdout
    return {
        line.rpartition("|")[2].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "cumulative" not in line
    }


def _found(loaded: set[str], names: set[str]) -> set[str]:
    """The names in ``names`` that were loaded, themselves or any of their submodules."""
    return {name for name in names if any(m == name or m.startswith(f"{name}.") for m in loaded)}


@pytest.mark.slow
@pytest.mark.parametrize("family", list(FAMILIES))
def test_an_exec_loads_only_what_its_family_uses(tmp_path: Path, family: str) -> None:
    loaded = _loaded(tmp_path, family)
    assert "llm_operator.core.store.database" in loaded  # the listing is real
    assert not _found(loaded, NEVER)
    assert _found(loaded, MODELS) == (set() if family == "read" else MODELS)
    parses = family in ("outline", "structure")
    assert _found(loaded, PARSERS) == (PARSERS if parses else set())
    assert (STRUCTURE_EDITING in loaded) == (family == "structure")
    assert STRUCTURE_MOVING not in loaded
    assert not _found(loaded, STRUCTURE_PLACING)
    if family not in WRITE_FAMILY:  # (the action index imports a family by importlib, unlisted)
        assert "llm_operator.core.actions.write" not in loaded
    writes = family not in READS
    assert _found(loaded, WRITING) == (WRITING if writes else set())
    assert (TRASHING in loaded) == (family == "delete")
    assert not _found(loaded, DELETES_OF_FOLDERS_OR_FAILURES)
    engines = {engine for name, engine in ENGINES.items() if name == family}
    assert _found(loaded, set(ENGINES.values())) == engines


def test_an_outline_the_state_folder_keeps_loads_no_parser(tmp_path: Path) -> None:
    ws, state = tmp_path / "ws", tmp_path / "state"
    ws.mkdir()
    (ws / "m.py").write_text(PY_TEXT)
    argv = ["-X", "importtime", "-m", "llm_operator.cli", "exec", "--yes", "--workspace"]
    loaded = []
    for n in range(2):
        reply = f"OPERATOR_CMD\nversion: 1\nid: o{n}\naction: fs.outline\npath: m.py\n"
        done = subprocess.run(
            [sys.executable, *argv, str(ws), "--state-dir", str(state), "-"],
            input=reply + "END_OPERATOR_CMD\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert "ok: true" in done.stdout, done.stdout + done.stderr
        assert "def f7(x):" in done.stdout
        loaded.append(
            {
                line.rpartition("|")[2].strip()
                for line in done.stderr.splitlines()
                if line.startswith("import time:")
            }
        )
    parsing = {"tree_sitter", "llm_operator.core.engines.structure.outline"}
    assert _found(loaded[0], parsing) == parsing
    assert not _found(loaded[1], parsing)
