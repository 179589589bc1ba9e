"""Launch to window shown: `llm-operator gui` against a bare PySide6 window.

Both run in a fresh interpreter. The clock starts in the parent just before the child is
launched and stops in the child at the first paint of its main window; work the app
defers until after that is not counted. Median of several runs. Offscreen platform unless DISPLAY
is set. Run: python benchmarks/bench_gui.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

# The child stops the clock at the first paint of its main window (an application-wide
# event filter sees it), then exits.
FIRST_PAINT = """
import os, time
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QMainWindow
class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and isinstance(obj, QMainWindow):
            print(time.time(), flush=True)
            os._exit(0)
        return False
"""

OURS = (
    FIRST_PAINT
    + """
import sys
from pathlib import Path
import llm_operator.gui.app as app_module
real_make = app_module.make_application
def make_application():
    app = real_make()
    app._first_paint = FirstPaint()
    app.installEventFilter(app._first_paint)
    return app
app_module.make_application = make_application
app_module.run_app(Path(sys.argv[1]))
"""
)

BARE = (
    FIRST_PAINT
    + """
import sys
app = QApplication(sys.argv[:1])
app._first_paint = FirstPaint()
app.installEventFilter(app._first_paint)
window = QMainWindow()
window.setWindowTitle("bare")
window.resize(1000, 700)
window.show()
app.exec()
"""
)


def _time(code: str, args: list[str], env: dict[str, str], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.time()
        done = subprocess.run(
            [sys.executable, "-c", code, *args], env=env, check=True, capture_output=True, text=True
        )
        samples.append(float(done.stdout.split()[-1]) - start)
    return statistics.median(samples)


def run() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        # Bytecode caches may be written, as for an installed app (see bench_core).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        env["LLM_OPERATOR_CONFIG_DIR"] = os.path.join(tmp, "config")
        env["LLM_OPERATOR_STATE_DIR"] = os.path.join(tmp, "state")
        workspace = os.path.join(tmp, "ws")
        os.mkdir(workspace)
        _time(OURS, [workspace], env, 1)  # warm the file and bytecode caches
        _time(BARE, [], env, 1)
        # Interleaved, so drift in the machine's load falls on both sides alike.
        ours_runs, bare_runs = [], []
        for _ in range(11):
            ours_runs.append(_time(OURS, [workspace], env, 1))
            bare_runs.append(_time(BARE, [], env, 1))
        ours, bare = statistics.median(ours_runs), statistics.median(bare_runs)
    platform = env.get("QT_QPA_PLATFORM", "xcb")
    return [
        f"window shown ({platform}): llm-operator gui {ours * 1000:.0f} ms vs bare PySide6 "
        f"window {bare * 1000:.0f} ms -> {ours / bare:.2f}x (target <= 2x)"
    ]


if __name__ == "__main__":
    print("\n".join(run()))
