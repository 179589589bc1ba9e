"""The window's run: a review's changed words are worked out in the worker that planned it,
so painting the review never diffs (the command line never works them out at all)."""

from __future__ import annotations

import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from llm_operator.core.plan.session import REJECT, Decision, Pending, Session
from llm_operator.core.store.workspace import Workspace
from llm_operator.gui.run_flow import RunFlow
from support.actions import b64
from support.fixtures import cmd, reply

PATCH = (
    "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n"
    "-total = price * count\n+total = price * amount\n print(total)\n"
)


def test_the_review_gets_its_changed_words_from_the_worker(qtbot: QtBot, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "app.py").write_text("total = price * count\nprint(total)\n", encoding="utf-8")
    session = Session(Workspace(ws), tmp_path / "state")
    marked: list[bool] = []

    def decide(pending: list[Pending]) -> dict[int, Decision]:
        assert threading.current_thread() is threading.main_thread()
        for item in pending:
            for preview in item.previews:
                marked.append("lines" in preview.__dict__)  # worked out before it got here
                words = [row.text[a:b] for row in preview.lines for a, b in row.spans]
                assert words == ["count", "amount"]
        return {item.index: REJECT for item in pending}

    flow = RunFlow(decide)
    with qtbot.waitSignal(flow.finished, timeout=20_000):
        flow.run(session, reply(cmd("p1", "fs.patch", path="app.py", patch_b64=b64(PATCH))))
    assert marked == [True]
    assert (ws / "app.py").read_text(encoding="utf-8") == "total = price * count\nprint(total)\n"
