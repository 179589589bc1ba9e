"""The core's floors: the layers contract covers every module of core/, and none imports up.

import-linter checks the contract in pyproject.toml; these tests keep that contract whole
(a module added directly in core/ must be placed on a floor) and keep
scripts/import_layers.py, the drawing of the floors, telling the truth.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from types import ModuleType

import grimp
import tomllib

from support.paths import ROOT

CORE = ROOT / "src" / "llm_operator" / "core"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "import_layers", ROOT / "scripts" / "import_layers.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _core_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (core,) = [c for c in contracts if c.get("containers") == ["llm_operator.core"]]
    assert core["type"] == "layers"
    return list(core["layers"])


def test_the_contract_has_the_floors_of_the_drawing_and_every_module_of_core() -> None:
    layers = _core_layers()
    ground = {name.strip() for name in layers[-1].split(":")}
    script = _script()
    assert ["ground", *reversed(layers[:-1])] == list(script.FLOORS)
    modules = {path.stem for path in CORE.glob("*.py")} - {"__init__"}
    folders = {path.name for path in CORE.iterdir() if (path / "__init__.py").is_file()}
    assert folders | {"changes"} == set(layers[:-1])
    assert ground == modules - {"changes"}, "place each module of core/ on a floor"


def test_the_drawing_counts_an_import_that_runs_up() -> None:
    script = _script()
    core = "llm_operator.core."
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("plan.session", "store.journal"),  # down
        ("protocol.encoder", "outcome"),  # down, to the ground floor
        ("store.journal", "protocol.encoder"),  # up
    ]:
        graph.add_import(importer=core + importer, imported=core + imported)
    found = script.edges(graph)
    assert set(found) == {("plan", "store"), ("protocol", "ground"), ("store", "protocol")}
    assert script.upward(found) == 1


def test_no_import_inside_the_core_runs_up() -> None:
    drawn = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "import_layers.py"), "--modules"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert drawn.returncode == 0, drawn.stdout + drawn.stderr
    assert drawn.stdout.rstrip().endswith("running up: 0")
    assert " -> " in drawn.stdout
