"""pyproject.toml lists every package, and the resources install with the code."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib is in the stdlib from 3.11")
def test_every_package_under_src_is_listed() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT / "src").parts)
        for init in (ROOT / "src").rglob("__init__.py")
    }
    assert listed == found | {"llm_operator.resources"}


def test_resources_are_importable_with_the_spec_icon_and_desktop_file() -> None:
    folder = resources.files("llm_operator.resources")
    names = {entry.name for entry in folder.iterdir()}
    assert {"interface-spec.txt", "icon.svg", "llm-operator.desktop"} <= names
    desktop = (folder / "llm-operator.desktop").read_text("utf-8")
    assert "Exec=llm-operator" in desktop
