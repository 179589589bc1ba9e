"""The secret-looking environment names are a setting, honoured by run.command and
run.check, in the window's sessions and in ``exec``: real children print what they see."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from llm_operator.core.plan.session import Session
from llm_operator.core.store.checks import Check, add_check
from llm_operator.core.store.settings import Settings
from llm_operator.core.store.workspace import DEFAULT_SECRET_ENVIRONMENT, Workspace
from support.fixtures import cmd, parse_results, reply, run_session

PRINT_ENV = f"{sys.executable} -c 'import os; print(sorted(os.environ))'"


def _seen(details: str | None) -> list[str]:
    assert details is not None
    line = next(line for line in details.splitlines() if line.startswith("["))
    names: list[str] = ast.literal_eval(line)  # the child printed a sorted list of names
    return names


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("API_TOKEN", "t0ken")
    monkeypatch.setenv("DEPLOY_CODE", "c0de")
    monkeypatch.setenv("PLAIN_NAME", "plain")


@pytest.mark.usefixtures("secret_env")
def test_the_default_patterns_remove_tokens_and_keep_the_rest(
    workspace: Path, state_dir: Path
) -> None:
    session = Session(Workspace(workspace), state_dir)
    [result] = run_session(session, reply(cmd("r1", "run.command", command=PRINT_ENV)), True)
    seen = _seen(result.details)
    assert "API_TOKEN" not in seen
    assert "DEPLOY_CODE" in seen
    assert "PLAIN_NAME" in seen


@pytest.mark.usefixtures("secret_env")
def test_a_pattern_of_the_setting_removes_what_it_names_from_both_actions(
    workspace: Path, state_dir: Path
) -> None:
    patterns = (*DEFAULT_SECRET_ENVIRONMENT, "deploy_*")  # any case
    session = Session(Workspace(workspace, secret_environment=patterns), state_dir)
    assert session.state is not None
    assert session.state.store is not None
    add_check(session.state.store, Check("env", PRINT_ENV))
    add_check(session.state.store, Check("keeps", PRINT_ENV, keep=("DEPLOY_CODE",)))
    text = reply(
        cmd("r1", "run.command", command=PRINT_ENV),
        cmd("c1", "run.check", name="env"),
        cmd("c2", "run.check", name="keeps"),
    )
    command, check, keeping = run_session(session, text, True)
    for result in (command, check):
        seen = _seen(result.details)
        assert "DEPLOY_CODE" not in seen
        assert "API_TOKEN" not in seen
        assert "PLAIN_NAME" in seen
    kept = _seen(keeping.details)
    assert "DEPLOY_CODE" in kept  # the check keeps it by name
    assert "API_TOKEN" not in kept


@pytest.mark.usefixtures("secret_env")
def test_an_emptied_setting_removes_nothing(workspace: Path, state_dir: Path) -> None:
    session = Session(Workspace(workspace, secret_environment=()), state_dir)
    [result] = run_session(session, reply(cmd("r1", "run.command", command=PRINT_ENV)), True)
    assert "API_TOKEN" in _seen(result.details)


def test_the_setting_is_saved_and_read_back_clean(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert Settings.load(path).secret_environment == list(DEFAULT_SECRET_ENVIRONMENT)
    path.write_text(json.dumps({"secret_environment": ["  MY_*  ", "", 3, "X_KEY"]}))
    assert Settings.load(path).secret_environment == ["MY_*", "X_KEY"]
    path.write_text(json.dumps({"secret_environment": "MY_*"}))  # the wrong type
    assert Settings.load(path).secret_environment == list(DEFAULT_SECRET_ENVIRONMENT)
    settings = Settings.load(path)
    settings.secret_environment = ["ONLY_*"]
    settings.save()
    assert Settings.load(path).secret_environment == ["ONLY_*"]


def test_exec_reads_the_setting_from_the_settings_file(
    workspace: Path, state_dir: Path, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"secret_environment": ["DEPLOY_*"]}))
    env = dict(os.environ, LLM_OPERATOR_CONFIG_DIR=str(config))
    env.update(API_TOKEN="t0ken", DEPLOY_CODE="c0de")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "llm_operator.cli",
            "exec",
            "--workspace",
            str(workspace),
            "--state-dir",
            str(state_dir),
            "--yes",
        ],
        input=reply(cmd("r1", "run.command", command=PRINT_ENV)),
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    [result] = parse_results(done.stdout)
    seen = _seen(result.details)
    assert "DEPLOY_CODE" not in seen
    assert "API_TOKEN" in seen  # the setting replaced the defaults
