"""Every source folder installs as a package, and the resources install with the code."""

from __future__ import annotations

from importlib import resources

from support.paths import ROOT


def test_every_source_folder_is_a_package_that_setuptools_finds() -> None:
    """setuptools finds packages by their __init__.py: a folder without one would not install."""
    package_root = ROOT / "src" / "llm_operator"
    folders = {path.parent for path in package_root.rglob("*.py")} | {package_root / "resources"}
    missing = sorted(
        str(folder.relative_to(ROOT)) for folder in folders if not (folder / "__init__.py").exists()
    )
    assert missing == []


def test_resources_are_importable_with_the_spec_icon_and_desktop_file() -> None:
    folder = resources.files("llm_operator.resources")
    names = {entry.name for entry in folder.iterdir()}
    assert {"interface-spec.txt", "icon.svg", "llm-operator.desktop"} <= names
    desktop = (folder / "llm-operator.desktop").read_text("utf-8")
    assert "Exec=llm-operator" in desktop


def test_the_version_is_one_and_the_changelog_names_it() -> None:
    """pyproject's version, ``__version__`` and the newest CHANGELOG heading agree."""
    import re

    from llm_operator import __version__

    declared = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert declared is not None
    newest = re.search(r"^## (\S+) - ", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert newest is not None
    assert declared.group(1) == __version__ == newest.group(1)
