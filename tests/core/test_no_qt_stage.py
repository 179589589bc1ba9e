"""The no-Qt stage of .ci/run really runs without PySide6.

That stage sets LLM_OPERATOR_TESTS_WITHOUT_QT=1 and runs the core, command-line and MCP
tests in parallel workers; this test, collected in each of them, fails if the block did not
reach the worker. In the ordinary run it checks the other way: the flag is off there.
"""

from __future__ import annotations

import importlib
import importlib.util
import os

import pytest


def test_pyside6_is_unimportable_exactly_when_the_stage_says_so() -> None:
    blocked = os.environ.get("LLM_OPERATOR_TESTS_WITHOUT_QT") == "1"
    if blocked:
        with pytest.raises(ImportError):
            importlib.import_module("PySide6")
    else:
        assert importlib.util.find_spec("PySide6") is not None
