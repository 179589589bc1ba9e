"""Outlines kept in the state store: a later run (another exec, the window after a
restart) reads them instead of parsing, yet never shows an outline of bytes that are no
longer in the file, never keeps a secret-looking file's outline, and outlines as well as
ever when the store is damaged, old or closed."""

from __future__ import annotations

import itertools
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions import outline as outline_action
from llm_operator.core.actions.outline import clear_outline_cache, outline_folder
from llm_operator.core.store import outline_cache
from llm_operator.core.store.database import FILE_NAME, StateStore
from llm_operator.core.store.outline_cache import StoredOutlines
from llm_operator.core.store.state import workspace_state_dir
from llm_operator.core.store.workspace import Workspace

FILES = 5
IDS = itertools.count(1)


@pytest.fixture(autouse=True)
def _fresh_process_cache() -> Iterator[None]:
    clear_outline_cache()  # each run below starts as a new process does
    yield
    clear_outline_cache()


def _seed(workspace: Path) -> None:
    (workspace / "mods").mkdir()
    for n in range(FILES):
        (workspace / "mods" / f"m{n}.py").write_text(
            f"class Thing{n}:\n    def alpha_{n}(self):\n        return {n}\n", encoding="utf-8"
        )


def _outline(run_reply: Any, cmd: Any, path: str, approve: bool = True) -> str:
    (result,) = run_reply(cmd(f"outline-{next(IDS)}", "fs.outline", path=path), approve)
    assert result.ok, result.summary
    return str(result.details)


def _db(workspace: Path, state_dir: Path) -> Path:
    return workspace_state_dir(state_dir, workspace.resolve()) / FILE_NAME


def _rows(workspace: Path, state_dir: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(_db(workspace, state_dir)) as db:
        return db.execute("SELECT key, lines FROM outlines ORDER BY key").fetchall()


def test_a_later_run_reads_kept_outlines_instead_of_parsing(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path, outline_parses: list[str]
) -> None:
    _seed(workspace)
    first = _outline(run_reply, cmd, "mods")
    assert sorted(outline_parses) == [f"mods/m{n}.py" for n in range(FILES)]
    assert len(_rows(workspace, state_dir)) == FILES
    clear_outline_cache()
    outline_parses.clear()
    second = _outline(run_reply, cmd, "mods")
    assert second == first
    assert outline_parses == []  # every outline came from the store
    assert "  2-3: def alpha_3(self):" in second


def test_two_exec_processes_share_kept_outlines(
    workspace: Path, state_dir: Path, cmd: Any, parse_results: Any
) -> None:
    _seed(workspace)
    argv = [sys.executable, "-m", "llm_operator.cli", "exec", "--workspace", str(workspace)]
    argv += ["--state-dir", str(state_dir)]
    reply = cmd("o", "fs.outline", path="mods")
    runs = [
        subprocess.run(argv, input=reply, capture_output=True, text=True, check=False, timeout=60)
        for _ in range(2)
    ]
    assert [run.returncode for run in runs] == [0, 0], runs[0].stderr
    first, second = (parse_results(run.stdout)[0] for run in runs)
    assert first.ok
    assert second.ok
    assert first.details == second.details
    assert len(_rows(workspace, state_dir)) == FILES


def test_a_changed_file_is_outlined_anew_even_with_the_same_size_and_times(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    _seed(workspace)
    _outline(run_reply, cmd, "mods")
    target = workspace / "mods" / "m2.py"
    info = target.stat()
    target.write_text(target.read_text().replace("alpha_2", "omega_2"), encoding="utf-8")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert target.stat().st_size == info.st_size
    clear_outline_cache()
    again = _outline(run_reply, cmd, "mods")
    assert "def omega_2(self):" in again
    assert "alpha_2" not in again


def test_an_outline_from_an_earlier_version_is_not_shown(
    run_reply: Any,
    cmd: Any,
    workspace: Path,
    state_dir: Path,
    outline_parses: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _seed(workspace)
    _outline(run_reply, cmd, "mods")
    with sqlite3.connect(_db(workspace, state_dir)) as db:
        db.execute("UPDATE outlines SET lines = '[\"1-1: old rendering\"]'")
    monkeypatch.setattr(outline_action, "OUTLINE_FORMAT", "9.9.9/7")
    clear_outline_cache()
    outline_parses.clear()
    again = _outline(run_reply, cmd, "mods")
    assert "old rendering" not in again
    assert len(outline_parses) == FILES
    assert len(_rows(workspace, state_dir)) == 2 * FILES  # the old keys are not reused


def test_secret_looking_files_are_never_kept(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path, parse_results: Any
) -> None:
    (workspace / "conf").mkdir()
    (workspace / "conf" / ".env.py").write_text("def secret_name_in_folder():\n    pass\n")
    (workspace / "conf" / "app.py").write_text("def public_name():\n    pass\n")
    (workspace / ".env.local.py").write_text("def secret_name_alone():\n    pass\n")
    (refused,) = run_reply(cmd("refused", "fs.outline", path=".env.local.py"), False)
    assert not refused.ok  # secret-looking: it needed the user's approval
    folder = _outline(run_reply, cmd, "conf/.env.py", approve=True)
    alone = _outline(run_reply, cmd, ".env.local.py", approve=True)
    assert "public_name" in _outline(run_reply, cmd, "conf/app.py")
    assert "secret_name_in_folder" in folder
    assert "secret_name_alone" in alone
    kept = "".join(lines for _, lines in _rows(workspace, state_dir))
    assert "public_name" in kept
    with sqlite3.connect(_db(workspace, state_dir)) as db:
        memory = db.execute("SELECT summary || coalesce(details, '') FROM memory").fetchall()
        history = [row[0] for row in db.execute("SELECT results FROM runs")]
    # The history keeps results as copied (details in base64): decode them to look.
    decoded = [f"{r.summary}{r.details or ''}" for text in history for r in parse_results(text)]
    assert "public_name" in "".join(decoded)  # the decoding does show details
    assert len(decoded) == 4
    for text in [*kept, *(row[0] for row in memory), *decoded]:
        assert "secret_name" not in text
    state = workspace_state_dir(state_dir, workspace.resolve())
    for path in state.iterdir():  # the database, its WAL and anything else in the folder
        assert b"secret_name" not in path.read_bytes(), path.name


def test_a_damaged_row_is_parsed_again(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path, outline_parses: list[str]
) -> None:
    _seed(workspace)
    first = _outline(run_reply, cmd, "mods")
    with sqlite3.connect(_db(workspace, state_dir)) as db:
        db.execute("UPDATE outlines SET lines = 'not json'")
    clear_outline_cache()
    outline_parses.clear()
    assert _outline(run_reply, cmd, "mods") == first
    assert len(outline_parses) == FILES


def test_a_store_made_before_outlines_were_kept_gains_the_table(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    _seed(workspace)
    _outline(run_reply, cmd, "mods")
    with sqlite3.connect(_db(workspace, state_dir)) as db:
        db.execute("DROP TABLE outlines")
    clear_outline_cache()
    assert "class Thing0:" in _outline(run_reply, cmd, "mods")
    assert len(_rows(workspace, state_dir)) == FILES


def test_the_table_keeps_the_newest_outlines_up_to_its_limit(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outline_cache, "MAX_ROWS", 3)
    _seed(workspace)
    _outline(run_reply, cmd, "mods")
    assert len(_rows(workspace, state_dir)) == 3


def test_a_store_that_cannot_be_used_still_gives_the_whole_outline(
    workspace: Path, tmp_path: Path, outline_parses: list[str]
) -> None:
    _seed(workspace)
    store = StateStore(tmp_path / "closed")
    memo = StoredOutlines(store)
    store.close()
    folder = outline_folder(Workspace(workspace), "mods", 2, memo=memo)
    text = "\n".join(line for block in folder.blocks for line in block.lines)
    assert text.count("class Thing") == FILES
    assert len(outline_parses) == FILES
