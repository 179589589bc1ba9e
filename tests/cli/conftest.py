"""The core fixtures: a workspace, a state dir and a reply runner; and for the tests that
run ``exec`` under limits, an empty workspace ``ws`` and a state folder ``state`` (a test
module may define its own)."""

from pathlib import Path

import pytest

from support.fixtures import *  # noqa: F403


@pytest.fixture
def state(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root
