"""Links retargeted while a run reads: a link flips between a secret-looking file and a
harmless one, as fast as a process can rename it. Whatever moment the read falls on,
with the user saying no, no byte of a secret-looking file may reach a result, and no
outline of one may be kept in the state store.

Secrecy is decided on the file actually opened (the walk's target, the path the read
really opened), not on the link looked at again before or after.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from llm_operator.core.actions.outline import clear_outline_cache
from llm_operator.core.store.database import FILE_NAME
from llm_operator.core.store.state import workspace_state_dir

LINKS = 60
SECONDS = 2.0
IDS = itertools.count(1)


@pytest.fixture
def flipping(workspace: Path) -> Iterator[None]:
    """``sub/n<k>.py`` links flipped between ``.env.<k>.py`` and ``ok.py`` in a thread."""
    for k in range(LINKS):
        (workspace / f".env.{k}.py").write_text(f"def leak_secret_{k}():\n    TOKEN = 'x'\n")
    (workspace / "ok.py").write_text("def harmless():\n    pass\n")
    sub = workspace / "sub"
    sub.mkdir()
    for k in range(LINKS):
        (sub / f"n{k}.py").symlink_to("../ok.py")
    stop = threading.Event()

    def flip() -> None:
        for turn in itertools.count():
            if stop.is_set():
                return
            for k in range(LINKS):
                spare = sub / f".flip{k}"
                target = f"../.env.{k}.py" if (turn + k) % 2 else "../ok.py"
                spare.symlink_to(target)
                os.replace(spare, sub / f"n{k}.py")

    flipper = threading.Thread(target=flip)
    flipper.start()
    try:
        yield
    finally:
        stop.set()
        flipper.join(30)


def _texts(results: list[Any]) -> str:
    return "\n".join(f"{r.summary}\n{r.details or ''}" for r in results)


@pytest.mark.usefixtures("flipping")
def test_no_secret_reaches_a_refused_result_while_links_flip(
    run_reply: Any, cmd: Any, workspace: Path, state_dir: Path
) -> None:
    seen: list[Any] = []
    deadline = time.monotonic() + SECONDS
    rounds = 0
    while rounds < 3 or time.monotonic() < deadline:  # a slow machine still gets 3 rounds
        rounds += 1
        clear_outline_cache()
        k = next(IDS) % LINKS
        reply = "\n".join(
            [
                cmd(f"s{next(IDS)}", "fs.searchTree", path="sub", query="def "),
                cmd(f"o{next(IDS)}", "fs.outline", path="sub"),
                cmd(f"f{next(IDS)}", "fs.outline", path=f"sub/n{k}.py"),
                cmd(f"r{next(IDS)}", "fs.read", path=f"sub/n{k}.py"),
            ]
        )
        seen += run_reply(reply, False)  # the user says no to every secret-looking file
    assert len(seen) == 4 * rounds
    assert any("harmless" in (r.details or "") for r in seen)  # the reads really ran
    assert "leak_secret" not in _texts(seen)
    assert "TOKEN" not in _texts(seen)
    database = workspace_state_dir(state_dir, workspace.resolve()) / FILE_NAME
    with sqlite3.connect(database) as db:
        kept = db.execute("SELECT group_concat(lines, '') FROM outlines").fetchone()[0] or ""
    assert "harmless" in kept
    assert "leak_secret" not in kept
