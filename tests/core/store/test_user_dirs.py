"""The config and state folders worked out without platformdirs are the ones the installed
platformdirs names, in every case each environment variable can be in."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import platformdirs
import pytest

from llm_operator.core.store import user_dirs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux rules")

HOMES = [None, "/home/ana", "/home/ana/", "//srv/ana", "relative/home", ""]
XDGS = [None, "", "/data/xdg", "/data/xdg/", "relative/xdg", "~/xdg"]


@pytest.mark.parametrize(("home", "xdg"), list(itertools.product(HOMES, XDGS)))
def test_the_folders_are_the_ones_platformdirs_names(
    monkeypatch: pytest.MonkeyPatch, home: str | None, xdg: str | None
) -> None:
    for name, value in (("HOME", home), ("XDG_CONFIG_HOME", xdg), ("XDG_STATE_HOME", xdg)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    for ours, theirs in (
        (user_dirs.user_config_dir, platformdirs.user_config_dir),
        (user_dirs.user_state_dir, platformdirs.user_state_dir),
    ):
        try:
            expected = Path(theirs("llm-operator", appauthor=False))
        except RuntimeError:  # no home directory at all: ours must not invent one
            with pytest.raises(RuntimeError):
                ours()
            continue
        assert ours() == expected, (home, xdg)


def test_a_plain_account_does_not_import_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/ana")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # an import would raise
    assert user_dirs.user_config_dir() == Path("/home/ana/.config/llm-operator")
    assert user_dirs.user_state_dir() == Path("/home/ana/.local/state/llm-operator")


def test_an_android_looking_environment_asks_platformdirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/ana")
    monkeypatch.setenv("ANDROID_DATA", "/data")
    monkeypatch.setenv("ANDROID_ROOT", "/system")
    monkeypatch.setitem(sys.modules, "platformdirs", None)
    with pytest.raises(ImportError):
        user_dirs.user_config_dir()
