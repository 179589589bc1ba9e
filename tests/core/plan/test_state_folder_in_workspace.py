"""A session protects its own state folder when it lies inside the workspace."""

from __future__ import annotations

from pathlib import Path

from llm_operator.core.plan.session import Session
from llm_operator.core.store.workspace import Workspace


def test_the_state_folder_stays_protected_when_the_workspace_is_replaced(
    workspace: Path,
) -> None:
    state = workspace / ".local" / "state" / "llm-operator"
    session = Session(Workspace(workspace), state)
    assert session.workspace.app_state == ".local/state/llm-operator"
    # The window replaces the workspace when the secret patterns change.
    session.workspace = Workspace(workspace, (".env",))
    assert session.workspace.app_state == ".local/state/llm-operator"
    assert session.workspace.holds_app_state(".local")
    assert not session.workspace.is_app_state(".local")


def test_a_state_folder_outside_the_workspace_protects_nothing(
    workspace: Path, state_dir: Path
) -> None:
    session = Session(Workspace(workspace), state_dir)
    assert session.workspace.app_state is None
    assert not session.workspace.holds_app_state("src")


def test_a_state_folder_that_is_the_workspace_protects_its_journals_only(
    workspace: Path,
) -> None:
    session = Session(Workspace(workspace), workspace)
    assert session.workspace.app_state == "workspaces"
    assert not session.workspace.is_app_state("src/main.py")
