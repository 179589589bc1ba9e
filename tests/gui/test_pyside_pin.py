"""PySide6 6.12.0 under CPython 3.10/3.11 drops a reference to True on every emit of a bool
signal; after a few thousand emits the interpreter aborts (SIGABRT). pyproject.toml excludes
that pair; these tests fail if it is installed or if bool emits abort again."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from importlib.metadata import version
from pathlib import Path

EMITS = 20_000

EMIT_BOOLS = textwrap.dedent(
    f"""
    import sys
    from PySide6.QtCore import QCoreApplication, QObject, Signal

    class Source(QObject):
        flag = Signal(bool)

    app = QCoreApplication(sys.argv[:1])
    source = Source()
    seen = []
    source.flag.connect(lambda value: seen.append(value))
    before = sys.getrefcount(True)
    for n in range({EMITS}):
        source.flag.emit(n % 2 == 0)
    after = sys.getrefcount(True)
    assert len(seen) == {EMITS} and seen[0] is True and seen[1] is False, seen[:4]
    print("emitted", len(seen), "refcount of True", before, after)
    """
)


def test_thousands_of_bool_emits_do_not_abort_the_interpreter(tmp_path: Path) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", EMIT_BOOLS],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # -6 (SIGABRT) is what 6.12.0 on CPython 3.10/3.11 does here.
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert f"emitted {EMITS}" in done.stdout


def _broken(pyside: str, python: tuple[int, int]) -> bool:
    return pyside == "6.12.0" and python < (3, 12)


def test_the_installed_pyside_and_python_are_not_the_excluded_pair() -> None:
    installed = version("PySide6-Essentials")
    assert not _broken(installed, sys.version_info[:2]), (
        f"PySide6-Essentials {installed} on Python {sys.version_info[:2]} aborts on bool "
        "signals; reinstall with the pin in pyproject.toml"
    )
    # The check itself must be able to fail: it knows the broken pair.
    assert _broken("6.12.0", (3, 11))
    assert not _broken("6.12.0", (3, 12))


def test_pyproject_excludes_the_pair_with_environment_markers() -> None:
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    # tomllib is 3.11+: the dependency strings are found by pattern instead.
    pins = re.findall(r'"(PySide6-Essentials[^"]*)"', pyproject.read_text("utf-8"))
    old = [dep for dep in pins if "python_version < '3.12'" in dep]
    new = [dep for dep in pins if "python_version >= '3.12'" in dep]
    assert len(old) == 1, pins
    assert "!=6.12.0" in old[0], pins
    assert len(new) == 1, pins
