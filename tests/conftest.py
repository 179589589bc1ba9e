"""Settings and fixtures for every test.

In tests an OperatorError must carry a registered ERR_ code. At run time an unknown code
is reported like any other (a typo must never become a traceback); in tests it fails the
test that raised it, so the typo is found here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

# The no-Qt stage of .ci/run sets this, so that every process of the run (pytest-xdist's
# workers are new processes) has PySide6 unimportable before any test module is imported:
# the core, the command line and the MCP server must work without it.
WITHOUT_QT = os.environ.get("LLM_OPERATOR_TESTS_WITHOUT_QT") == "1"
if WITHOUT_QT:
    sys.modules["PySide6"] = None  # type: ignore[assignment]

from llm_operator.core.error_codes import ERROR_CODES  # noqa: E402
from llm_operator.core.errors import OperatorError  # noqa: E402
from support.examples import examples  # noqa: E402

# Property tests that do not name their count try hypothesis's 100, scaled as the ones that
# do (support/examples.py): a quarter in the everyday run, all of them in .ci/run's.
hypothesis_settings.register_profile("llm-operator", max_examples=examples(100))
hypothesis_settings.load_profile("llm-operator")

# Windows opened by tests start no outline warmer (see gui/outline_warming.py): hundreds of
# windows would start hundreds of child processes. The warmer's own tests turn it back on.
os.environ["LLM_OPERATOR_NO_OUTLINE_WARMING"] = "1"

# The suite starts hundreds of the app's processes. Where PYTHONDONTWRITEBYTECODE is set
# (some machines set it for every process), a fresh clone never gets bytecode, and each of
# those processes compiles the whole package from source again: about 0.85 s of CPU each,
# minutes a run. The suite's processes write bytecode as Python does by default (into
# __pycache__, which git ignores); the tests that must not, say so to their own child.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# pytest-qt's settings in pyproject.toml; declared here when the plugin is not loaded (the
# core run of .ci/run, with PySide6 unimportable) so that --strict-config still holds.
QT_SETTINGS = ("qt_api", "qt_log_level_fail", "qt_log_ignore")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers a core (at most four more than the cores).

    About a fifth of a run is spent waiting, on child processes (every command-line test
    starts one), fsync and sockets; a second worker per core keeps the cores busy then, and
    on a machine busy with other work the run keeps its share of it.
    """
    cores = os.cpu_count() or 1
    return max(2, min(2 * cores, cores + 4))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """A private temp root for this run, unless ``--basetemp`` names one.

    pytest's default root, /tmp/pytest-of-<user>, is shared by every pytest process of the
    user, and each one removes the others' old folders at start: two runs at once race, and
    the loser's clean-up warning fails it under ``filterwarnings = error``. A root of its own
    is removed when the run passes and kept (and named) when it fails.
    """
    if config.option.basetemp is None:
        config.option.basetemp = tempfile.mkdtemp(prefix="llm-operator-tests-")
        config.stash[_PRIVATE_BASETEMP] = config.option.basetemp


_PRIVATE_BASETEMP = pytest.StashKey[str]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    root = session.config.stash.get(_PRIVATE_BASETEMP, None)
    if root is None:
        return
    if exitstatus == 0:
        # ``rm -rf``, not shutil.rmtree, which recurses once per folder level and raises
        # RecursionError on the 5,000-deep trees some tests make.
        subprocess.run(["rm", "-rf", "--", root], check=False)
    else:
        print(f"\nthe failed run's temp folders are kept in {root}")


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if not pluginmanager.hasplugin("pytest-qt"):
        for name in QT_SETTINGS:
            parser.addini(name, "a pytest-qt setting (pytest-qt is not loaded in this run)")


@pytest.fixture(autouse=True, scope="session")
def _registered_error_codes_only() -> Iterator[None]:
    original = OperatorError.__init__

    def checked(
        self: OperatorError,
        code: str,
        message: str,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        assert code in ERROR_CODES, f"{code} is not in core/error_codes.py"
        original(self, code, message, details)

    OperatorError.__init__ = checked  # type: ignore[method-assign]
    yield
    OperatorError.__init__ = original  # type: ignore[method-assign]
