"""The background-task helper: values and errors come back on the main thread."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from llm_operator.gui.tasks import Progress, TaskFailure, TaskRunner, running_task_count


def test_work_runs_off_the_main_thread_and_reports_on_it(qtbot: QtBot) -> None:
    runner = TaskRunner()
    main = threading.get_ident()
    seen: dict[str, object] = {}
    progress: list[tuple[int, int, str, bool]] = []

    def work(report: Progress) -> int:
        seen["worker"] = threading.get_ident()
        report(1, 2, "half")
        return 42

    def done(value: object) -> None:
        seen["value"] = value
        seen["callback"] = threading.get_ident()

    runner.start(
        work,
        done,
        lambda failure: seen.setdefault("failure", failure),
        lambda d, t, label: progress.append((d, t, label, threading.get_ident() == main)),
    )
    assert runner.busy
    qtbot.waitUntil(lambda: "value" in seen)
    assert seen["value"] == 42
    assert seen["worker"] != main
    assert seen["callback"] == main
    assert progress == [(1, 2, "half", True)]
    assert not runner.busy
    assert runner.wait(1000)
    assert running_task_count() == 0


def test_an_error_reaches_the_failure_callback(qtbot: QtBot) -> None:
    runner = TaskRunner()
    failures: list[TaskFailure] = []

    def work(report: Progress) -> None:
        raise ValueError("bad input")

    runner.start(work, lambda value: None, failures.append)
    qtbot.waitUntil(lambda: bool(failures))
    assert isinstance(failures[0].error, ValueError)
    assert str(failures[0]) == "ValueError: bad input"
    assert "bad input" in failures[0].trace
    assert runner.wait(1000)
