"""The window's run: a review's changed words are worked out in the worker that planned it,
so painting the review never diffs (the command line never works them out at all)."""

from __future__ import annotations

import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from llm_operator.core.plan.run import REJECT, Decision, Pending
from llm_operator.core.plan.session import Session
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
                marked.append(preview.words_marked)  # worked out before it got here
                words = [row.text[a:b] for row in preview.lines for a, b in row.spans]
                assert words == ["count", "amount"]
        return {item.index: REJECT for item in pending}

    flow = RunFlow(decide)
    with qtbot.waitSignal(flow.finished, timeout=20_000):
        flow.run(session, reply(cmd("p1", "fs.patch", path="app.py", patch_b64=b64(PATCH))))
    assert marked == [True]
    assert (ws / "app.py").read_text(encoding="utf-8") == "total = price * count\nprint(total)\n"


def test_lines_of_repeated_words_cannot_stall_the_review(qtbot: QtBot, tmp_path: Path) -> None:
    # Matching the words of "a a a ..." against "a b a b ..." took difflib 3.5 s a pair of
    # 400-word lines: 60 such pairs kept the review from opening for minutes. Such lines
    # are now matched at their common ends (too little in common: changed whole), and
    # the ordinary line after them still has its changed word marked.
    ws = tmp_path / "ws"
    ws.mkdir()
    old = "".join(f"x{n} = " + "a " * 200 + "# end\n" for n in range(60))
    new = "".join(f"x{n} = " + "a b " * 100 + "# end\n" for n in range(60))
    (ws / "big.txt").write_text(old + "total = price * count\n", encoding="utf-8")
    session = Session(Workspace(ws), tmp_path / "state")
    words: list[str] = []
    rows: list[str] = []

    def decide(pending: list[Pending]) -> dict[int, Decision]:
        for item in pending:
            for preview in item.previews:
                rows.extend(row.kind for row in preview.lines)
                words.extend(row.text[a:b] for row in preview.lines for a, b in row.spans)
        return {item.index: REJECT for item in pending}

    flow = RunFlow(decide)
    text = b64(new + "total = price * amount\n")
    with qtbot.waitSignal(flow.finished, timeout=60_000):
        flow.run(session, reply(cmd("w1", "fs.write", path="big.txt", content_b64=text)))
    assert rows.count("removed") == rows.count("added") == 61
    assert words == ["count", "amount"]
    assert (ws / "big.txt").read_text(encoding="utf-8") == old + "total = price * count\n"
