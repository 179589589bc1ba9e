# ruff: noqa: E402
"""Run ``llm-operator exec`` in this process and say where its time went (bench_startup).

    python benchmarks/startup_probe.py OUT.json exec --workspace DIR --state-dir DIR FILE

Time is charged to the innermost of three ledgers, so nothing is counted twice:
- imports: every ``import`` statement and ``importlib.import_module`` (module bodies, class
  creation in them, and the imports they start);
- store: the state folder's database (``StateStore``: opening it, each transaction and read);
- action: the command's executor (``ActionSpec.execute``) and the applying of approved
  changes (``apply_changeset``: temp files, fsync, rename), minus the store work inside.
The rest of the run (argument parsing, scanning and checking the reply, writing the
results) is ``other``. The probe's own cost is a few wrapped calls; it is a breakdown, not
the timed run (bench_startup times plain processes).
"""

from __future__ import annotations

import time

_clock = time.perf_counter
_started = _clock()

# The imports below come after the clock starts: their time is charged to imports.
import builtins
import contextlib
import dataclasses
import importlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

# The probe's own imports are modules the run imports anyway (dataclasses, json...).
_spent: dict[str, float] = {"imports": _clock() - _started, "store": 0.0, "action": 0.0}
_spent["other"] = 0.0
_stack: list[str] = ["other"]
_mark = [_clock()]


def _switch(to: str | None) -> None:
    """Charge the time since the last switch to the current ledger; push ``to`` or pop."""
    now = _clock()
    _spent[_stack[-1]] += now - _mark[0]
    _mark[0] = now
    if to is None:
        _stack.pop()
    else:
        _stack.append(to)


def _charged(ledger: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        _switch(ledger)
        try:
            return function(*args, **kwargs)
        finally:
            _switch(None)

    return run


def _charged_context(ledger: str, factory: Callable[..., Any]) -> Callable[..., Any]:
    @contextlib.contextmanager
    def run(*args: Any, **kwargs: Any) -> Iterator[Any]:
        _switch(ledger)
        try:
            with factory(*args, **kwargs) as value:
                _switch("other")  # the body is the caller's, not the store's
                try:
                    yield value
                finally:
                    _switch(None)
        finally:
            _switch(None)

    return run


_patched: set[str] = set()


def _patch_loaded() -> None:
    """Wrap the ledgers' functions in every module that has been imported by now."""
    # A module still being imported may lack the names: it is wrapped after a later import.
    database = sys.modules.get("llm_operator.core.store.database")
    if hasattr(database, "StateStore") and "database" not in _patched:
        _patched.add("database")
        store = database.StateStore
        store.__init__ = _charged("store", store.__init__)
        for name in ("transaction", "reading"):
            inner = getattr(store, name)
            setattr(store, name, _charged_context("store", inner))
    applying = sys.modules.get("llm_operator.core.store.applying")
    if hasattr(applying, "apply_changeset") and "applying" not in _patched:
        _patched.add("applying")
        applying.apply_changeset = _charged("action", applying.apply_changeset)
    actions = sys.modules.get("llm_operator.core.actions")
    if hasattr(actions, "get_spec") and "actions" not in _patched:
        _patched.add("actions")
        get_spec = actions.get_spec
        timed: dict[str, Any] = {}

        def get_timed_spec(name: str) -> Any:
            if name not in timed:
                spec = get_spec(name)
                timed[name] = dataclasses.replace(spec, execute=_charged("action", spec.execute))
            return timed[name]

        actions.get_spec = get_timed_spec


_import = builtins.__import__
_import_module = importlib.import_module


def _timed_import(*args: Any, **kwargs: Any) -> Any:
    _switch("imports")
    try:
        return _import(*args, **kwargs)
    finally:
        _switch(None)
        _patch_loaded()


def _timed_import_module(*args: Any, **kwargs: Any) -> Any:
    _switch("imports")
    try:
        return _import_module(*args, **kwargs)
    finally:
        _switch(None)
        _patch_loaded()


def main() -> int:
    out, argv = sys.argv[1], sys.argv[2:]
    builtins.__import__ = _timed_import
    importlib.import_module = _timed_import_module
    from llm_operator import cli

    code = cli.main(argv)
    _switch(None)
    builtins.__import__ = _import
    with open(out, "w", encoding="utf-8") as handle:
        json.dump({"code": code, "modules": len(sys.modules), **_spent}, handle)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
