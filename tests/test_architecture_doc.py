"""docs/architecture.md names real files, every stage folder, and the README links it."""

from __future__ import annotations

import re

from support.paths import ROOT

DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "llm_operator"
STAGES = ["core/protocol", "core/actions", "core/engines", "core/plan", "core/store"]


def test_every_file_the_architecture_names_exists() -> None:
    text = DOC.read_text("utf-8")
    named = set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+\.(?:py|txt))`", text))
    assert len(named) > 20, "the walk through the stages should name its files"
    missing = sorted(
        path for path in named if not (PACKAGE / path).is_file() and not (ROOT / path).is_file()
    )
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"


def test_the_tree_names_each_stage_folder_on_its_own_line() -> None:
    lines = DOC.read_text("utf-8").splitlines()
    for stage in STAGES:
        folder = stage.split("/")[1] + "/"
        assert any(line.strip().startswith(folder) for line in lines), stage
        assert (PACKAGE / stage).is_dir(), stage


def test_the_walk_follows_the_pipeline_in_order() -> None:
    text = DOC.read_text("utf-8")
    steps = ["Scan", "Validate", "Plan / preview", "Decide", "Apply", "Journal", "Encode"]
    found = [text.find(f"**{step}**") for step in steps]
    assert -1 not in found
    assert found == sorted(found)


def test_the_readme_links_the_architecture() -> None:
    assert "docs/architecture.md" in (ROOT / "README.md").read_text("utf-8")
