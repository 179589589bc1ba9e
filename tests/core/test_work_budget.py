"""The reply's work budget counts CPU time, never the wall clock.

A reply that finishes on an idle machine must finish the same way on a busy one, where the
wall clock runs on while other processes hold the cores. Waiting (here: sleeping, which
takes no CPU) spends nothing; work does.
"""

from __future__ import annotations

import threading
import time

import pytest

from llm_operator.core import work_budget


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(work_budget.ENVIRONMENT, "0.2:1000000000")


def _burn_until_spent(limit_seconds: float, budget: work_budget.WorkBudget | None = None) -> bool:
    """Spin (CPU work) until the budget is spent, or give up after ``limit_seconds`` of CPU."""
    started = time.thread_time()
    while time.thread_time() - started < limit_seconds:
        sum(range(10_000))
        if budget.spent() if budget is not None else work_budget.spent():
            return True
    return False


@pytest.mark.usefixtures("small_budget")
def test_waiting_spends_none_of_the_budget() -> None:
    with work_budget.reply_budget():
        time.sleep(0.5)  # 2.5 times the budget of wall time, no CPU
        assert not work_budget.spent()
        assert work_budget.not_run() is None


@pytest.mark.usefixtures("small_budget")
def test_work_spends_the_budget_and_the_refusal_says_cpu() -> None:
    with work_budget.reply_budget():
        assert _burn_until_spent(5.0)
        refusal = work_budget.not_run()
        assert refusal is not None
        assert "(0.2 s of CPU / 1000 MB read / 16 MB of results)" in refusal.message


@pytest.mark.usefixtures("small_budget")
def test_another_threads_look_counts_the_process() -> None:
    # A budget looked at from another thread than the one that opened it counts the CPU
    # of the whole process, so work done there is not free.
    seen: list[bool] = []
    with work_budget.reply_budget() as budget:
        worker = threading.Thread(target=lambda: seen.append(_burn_until_spent(5.0, budget)))
        worker.start()
        worker.join()
    assert seen == [True]
