"""The chat setting: a preset's part size, or the custom one; a bad value reads as custom."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_operator.core.store.chat_presets import PRESETS
from llm_operator.core.store.settings import Settings


def test_every_preset_is_at_least_the_size_parts_had_before_presets() -> None:
    assert {p.key for p in PRESETS} == {"chatgpt", "claude", "gemini"}
    assert all(p.part_size >= Settings().part_size == 30_000 for p in PRESETS)


@pytest.mark.parametrize(
    ("saved", "chat", "size"),
    [
        ({}, "custom", 30_000),
        ({"chat": "claude", "part_size": 8000}, "claude", 60_000),
        ({"chat": "Gemini", "part_size": 8000}, "gemini", 30_000),
        ({"chat": "bard", "part_size": 8000}, "custom", 8000),
        ({"chat": 3, "part_size": 8000}, "custom", 8000),
        ({"chat": "custom", "part_size": 12_000}, "custom", 12_000),
    ],
)
def test_the_saved_chat_decides_the_part_size(
    tmp_path: Path, saved: dict[str, object], chat: str, size: int
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(saved), "utf-8")
    settings = Settings.load(path)
    assert (settings.chat, settings.chat_part_size) == (chat, size)
    settings.save()
    assert json.loads(path.read_text("utf-8"))["chat"] == chat
