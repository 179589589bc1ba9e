"""run.check: a check the person set up runs unasked, after the reply's writes."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from llm_operator.core.actions.reference import render_reference
from llm_operator.core.plan.session import Session
from llm_operator.core.protocol.primer import PRIMER_LIMIT, checks_line, primer_text
from llm_operator.core.store.checks import Check, add_check
from support.fixtures import RunReply, cmd, reply

PY = sys.executable


@pytest.fixture
def with_checks(make_session: Callable[[], Session]) -> Callable[..., None]:
    def add(*checks: Check) -> None:
        session = make_session()
        assert session.state is not None
        assert session.state.store is not None
        for check in checks:
            add_check(session.state.store, check)

    return add


def test_a_check_runs_without_a_question(
    workspace: Path, run_reply: RunReply, with_checks: Callable[..., None]
) -> None:
    (workspace / "test_it.py").write_text("def test_ok():\n    assert True\n")
    with_checks(Check("test", f"{PY} -m pytest -q -p no:cacheprovider test_it.py"))
    # None: nobody answers any question; a check needs none.
    [result] = run_reply(reply(cmd("c1", "run.check", name="test")), None)
    assert result.ok, result.summary
    assert result.summary.startswith("Ran ")
    assert result.details is not None
    assert any("1 passed" in line for line in result.details.splitlines())


def test_a_failing_check_gives_its_assertion(
    workspace: Path, run_reply: RunReply, with_checks: Callable[..., None]
) -> None:
    (workspace / "test_it.py").write_text("def test_sum():\n    assert 2 + 2 == 5\n")
    with_checks(Check("test", f"{PY} -m pytest -q -p no:cacheprovider test_it.py"))
    [result] = run_reply(reply(cmd("c1", "run.check", name="test")), None)
    assert result.code == "ERR_EXIT_STATUS"
    assert result.summary.startswith("run.check failed (ERR_EXIT_STATUS): exit 1 in ")
    assert result.details is not None
    assert "assert 2 + 2 == 5" in result.details


def test_an_unknown_check_lists_the_checks(
    run_reply: RunReply, with_checks: Callable[..., None]
) -> None:
    [none] = run_reply(reply(cmd("c0", "run.check", name="test")), None)
    assert none.code == "ERR_UNKNOWN_CHECK"
    assert "this workspace has none" in none.summary
    with_checks(Check("test", "true"), Check("lint", "true"))
    [result] = run_reply(reply(cmd("c1", "run.check", name="tests")), None)
    assert result.code == "ERR_UNKNOWN_CHECK"
    assert "this workspace's checks are: lint, test" in result.summary


def test_a_check_runs_after_the_writes_before_it_in_the_reply(
    workspace: Path, run_reply: RunReply, with_checks: Callable[..., None]
) -> None:
    with_checks(Check("show", "cat new.txt"))
    results = run_reply(
        reply(
            cmd("w1", "fs.write", path="new.txt", content="written first"),
            cmd("c1", "run.check", name="show"),
        ),
        True,
    )
    assert [r.ok for r in results] == [True, True]
    assert results[1].details is not None
    assert "written first" in results[1].details.splitlines()


def test_a_timeout_above_the_checks_own_is_refused(
    run_reply: RunReply, with_checks: Callable[..., None]
) -> None:
    with_checks(Check("slow", "sleep 30", timeout=60))
    [above] = run_reply(reply(cmd("c1", "run.check", name="slow", timeout=61)), None)
    assert above.code == "ERR_INVALID_FIELD"
    assert "the check's own 60 seconds" in above.summary
    [shorter] = run_reply(reply(cmd("c2", "run.check", name="slow", timeout=1)), None)
    assert shorter.code == "ERR_TIMEOUT"


def test_a_check_keeps_only_the_secret_variables_it_names(
    run_reply: RunReply, with_checks: Callable[..., None], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEPLOY_TOKEN", "d3ploy")
    monkeypatch.setenv("CI_TOKEN", "c1-kept")
    with_checks(Check("env", "env", keep=("CI_TOKEN",)))
    [result] = run_reply(reply(cmd("c1", "run.check", name="env")), None)
    assert result.details is not None
    assert "CI_TOKEN=c1-kept" in result.details
    assert "d3ploy" not in result.details


def test_the_primer_names_the_checks_within_its_limit() -> None:
    plain = primer_text()
    assert "CHECKS" not in plain
    checks = [("test", "python -m pytest -q"), ("lint", "ruff check .")]
    text = primer_text(checks=checks)
    assert "CHECKS (run.check name: <name>): test (python -m pytest -q); lint (ruff check .)" in (
        text
    )
    many = [(f"check{i}", "x" * 100) for i in range(200)]
    crowded = primer_text(checks=many)
    assert len(crowded) <= PRIMER_LIMIT
    assert crowded.isascii()
    assert "check0; check1" in crowded
    assert " more" in crowded


def test_the_checks_line_escapes_and_bounds_commands() -> None:
    line = checks_line([("t", "echo \u00e9\x1b[31m\n" + "y" * 100)], 10_000)
    assert line.isascii()
    assert "\n" not in line
    assert "\x1b" not in line
    assert line.endswith("...)")
    assert checks_line([("a", "x"), ("b", "y")], 10).endswith("(ask the user for their names)")


def test_the_primer_and_the_reference_say_a_check_waits_for_the_writes_before_it() -> None:
    # A model that did not know this sent its edits and the check in two replies
    # (tests/data/turns/inflection_options, turn 3); the reference even said "runs at once".
    [line] = [x for x in primer_text().splitlines() if x.startswith("run.check:")]
    assert "after the writes before it" in line
    section = render_reference().split("## run.check\n", 1)[1].split("\n## ", 1)[0]
    assert "runs at once" not in section
    assert "after the writes before it" in section
