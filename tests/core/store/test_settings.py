"""Settings: one typed object, one JSON file, tolerant of damage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_operator.core.store.settings import (
    MAX_RECENT,
    MIN_PART_SIZE,
    Settings,
    default_settings_path,
)


def test_the_path_follows_the_override(tmp_path: Path) -> None:
    assert default_settings_path() == tmp_path / "config" / "settings.json"


def test_defaults_when_there_is_no_file(tmp_path: Path) -> None:
    settings = Settings.load(tmp_path / "none.json")
    assert settings.auto_copy is True
    assert settings.clipboard_watch is False
    assert settings.part_size == 30000
    assert settings.recent_workspaces == []


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "settings.json"
    settings = Settings.load(path)
    settings.auto_copy = False
    settings.part_size = 12000
    settings.remember_workspace(Path("/one"))
    settings.save()
    again = Settings.load(path)
    assert again == settings
    assert json.loads(path.read_text())["part_size"] == 12000
    assert list(path.parent.iterdir()) == [path]  # no temp file left behind


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", "", '{"auto_copy": "yes", "part_size": "big", "recent_workspaces": 3}'],
)
def test_a_damaged_file_keeps_the_defaults(tmp_path: Path, content: str) -> None:
    path = tmp_path / "settings.json"
    path.write_text(content)
    settings = Settings.load(path)
    assert settings == Settings()
    assert settings.path == path


def test_good_fields_survive_next_to_bad_ones(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"auto_copy": 0, "clipboard_watch": True, "part_size": 10, "x": 1}))
    settings = Settings.load(path)
    assert settings.clipboard_watch is True
    assert settings.auto_copy is True
    assert settings.part_size == MIN_PART_SIZE


def test_recent_workspaces_are_unique_newest_first_and_bounded() -> None:
    settings = Settings()
    for number in range(MAX_RECENT + 3):
        settings.remember_workspace(Path(f"/ws{number}"))
    settings.remember_workspace(Path("/ws5"))
    assert settings.recent_workspaces[0] == "/ws5"
    assert len(settings.recent_workspaces) == MAX_RECENT
    assert settings.recent_workspaces.count("/ws5") == 1
