"""Regenerate docs/images/main-window.png and the review dialog's pictures
(docs/images/confirm-dialog.png, unified; confirm-dialog-side-by-side.png;
confirm-dialog-search.png, side by side with the search bar open;
confirm-dialog-changed-outside.png and confirm-dialog-changed-outside-overlap.png, files
changed on disk while the review is open: one merged, one overlapping;
confirm-secret-read.png, a read of a secret-looking file showing what would leave;
review-all-changes-WIDTH.png, a batch of 29 writes in one page, and review-edit-WIDTH.png,
a change whose new text the person is editing, at 1280x800 and 1920x1080;
context-builder-selections.png, the context builder with a named selection recalled; and
scripts/command_screenshots.py's command output, checks and environment dialogs).

    /work/venv/bin/python scripts/screenshots.py [OUT_DIR]

Renders the real widgets offscreen with QWidget.grab(), so no display is needed and the
pictures do not depend on a window manager. Settings and the undo journal go to a
temporary folder; a small sample workspace is created there too.
"""

from __future__ import annotations

import base64
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from command_screenshots import NAMES as COMMAND_SHOTS  # noqa: E402
from command_screenshots import command_shots  # noqa: E402
from qt_waiting import settle, wait_for  # noqa: E402

APP_PY = '''import sys


def greet(name: str) -> str:
    """Say hello."""
    return "Hello, " + name  # plain concatenation


def main() -> int:
    print(greet(sys.argv[1] if len(sys.argv) > 1 else "world"))
    return 0
'''

APP_PY_NEW = APP_PY.replace(
    '    return "Hello, " + name  # plain concatenation\n',
    '    if not name:\n        raise ValueError("name is empty")\n    return f"Hello, {name}!"\n',
)


def command(command_id: str, action: str, **fields: str) -> str:
    lines = ["OPERATOR_CMD", "version: 1", f"id: {command_id}", f"action: {action}"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join([*lines, "END_OPERATOR_CMD"])


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def make_workspace(base: Path) -> Path:
    workspace = base / "demo-project"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "app.py").write_text(APP_PY)
    (workspace / "README.md").write_text("# Demo\n\nA tiny project.\n")
    (workspace / "notes.txt").write_text("old notes\n")
    return workspace


def main_window_shot(workspace: Path, out: Path) -> None:
    from llm_operator.core.plan.run import APPROVE
    from llm_operator.core.store.settings import Settings
    from llm_operator.gui.app import app_icon
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog
    from llm_operator.gui.main_window import MainWindow

    approve_all = classmethod(
        lambda cls, parent, pending, outside=(): {item.index: APPROVE for item in pending}
    )
    original = ConfirmDialog.ask
    ConfirmDialog.ask = approve_all  # type: ignore[method-assign, assignment]
    try:
        settings = Settings.load()
        settings.show_history = True
        settings.clipboard_hint_seen = True
        state = Path(os.environ["LLM_OPERATOR_STATE_DIR"])
        window = MainWindow(settings, state_dir=state, workspace=workspace)
        window.setWindowIcon(app_icon())
        window.resize(1280, 800)
        window.show()
        wait_for(lambda: window.session is not None)
        reply = "\n".join(
            [
                "I'll look at the project, then add a changelog.",
                command("list-1", "fs.list", path="."),
                command("read-1", "fs.readSlice", path="src/app.py", start="1", lines="20"),
                command(
                    "write-1",
                    "fs.write",
                    path="CHANGELOG.md",
                    content_b64=b64("# Changelog\n\n- greet() checks its input\n"),
                ),
            ]
        )
        window.paste.set_text(reply)
        window.run_reply()
        wait_for(lambda: not window.flow.busy)
        # The same reply pasted again, with a patch whose context is not in the file: the
        # picture shows repeats counted apart (not run again) and a long error wrapped.
        stale_patch = (
            "--- a/src/app.py\n+++ b/src/app.py\n@@ -4,2 +4,2 @@\n"
            ' def greet(name):\n-    return "Hi " + name\n+    return f"Hi {name}"\n'
        )
        again = "\n".join(
            [reply, command("patch-1", "fs.patch", path="src/app.py", patch_b64=b64(stale_patch))]
        )
        window.paste.set_text(again)
        window.run_reply()
        wait_for(lambda: not window.flow.busy)
        failed = window.paste.rows.get(3)
        if failed is not None:
            window.paste.table.setCurrentItem(failed)
        settle()
        window.grab().save(str(out / "main-window.png"))
        window.close()
    finally:
        ConfirmDialog.ask = original  # type: ignore[method-assign]


def confirm_dialog_shot(workspace: Path, state: Path, out: Path) -> None:
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

    reply = "\n".join(
        [
            command("edit-1", "fs.write", path="src/app.py", content_b64=b64(APP_PY_NEW)),
            command(
                "new-1",
                "fs.write",
                path="docs/usage.md",
                content_b64=b64("# Usage\n\n    python -m app NAME\n"),
            ),
            command("del-1", "fs.delete", path="notes.txt"),
        ]
    )
    session = Session(Workspace(workspace), state / "dialog")
    pending = session.prepare(reply).pending
    dialog = ConfirmDialog(None, pending, changed_outside={"src/app.py"})
    # As a person would leave it: the delete rejected with a reason, the edit approved.
    dialog.listing.setCurrentItem(dialog.file_rows[2])
    dialog.reject_selected()
    dialog.reason.setText("keep the notes for now")
    dialog.reason.textEdited.emit("keep the notes for now")
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.approve_selected()
    dialog.listing.setFocus()
    dialog.resize(1180, 700)
    dialog.show()
    wait_for(lambda: dialog.isVisible())
    settle()
    dialog.grab().save(str(out / "confirm-dialog.png"))
    dialog.side_by_side.setChecked(True)
    settle()
    dialog.grab().save(str(out / "confirm-dialog-side-by-side.png"))
    dialog.search.open_bar()
    dialog.search.field.setText("name")
    dialog.diff.find_next()
    settle()
    dialog.grab().save(str(out / "confirm-dialog-search.png"))
    dialog.close()


def changed_outside_shots(workspace: Path, state: Path, out: Path) -> None:
    """The review after two of its files changed on disk while it was open: the dialog
    gets the comparison the window's worker makes when the watcher reports them."""
    import json

    from llm_operator.core.plan.outside_merge import rebase_pending
    from llm_operator.core.plan.preview import mark_words
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

    def edit(command_id: str, path: str, find: str, text: str) -> str:
        edits = {"version": 1, "edits": [{"op": "replaceFirst", "find": find, "text": text}]}
        return command(command_id, "fs.applyEdits", path=path, edits_json=json.dumps(edits))

    reply = "\n".join(
        [
            edit(
                "edit-1",
                "src/app.py",
                '"Hello, " + name  # plain concatenation',
                'f"Hello, {name}!"',
            ),
            edit("edit-2", "README.md", "A tiny project.", "A tiny demo project."),
        ]
    )
    session = Session(Workspace(workspace), state / "outside")
    pending = session.prepare(reply).pending
    dialog = ConfirmDialog(None, pending)
    app_py = workspace / "src" / "app.py"
    app_py.write_text(APP_PY.replace("def main() -> int:", "def main(argv: list[str]) -> int:"))
    (workspace / "README.md").write_text("# Demo\n\nA tiny project, now with tests.\n")
    found = rebase_pending(session.workspace, pending)
    mark_words(r.preview for rebased in found.values() for r in rebased if r.preview)
    dialog.show_outside(found)
    dialog.resize(1180, 700)
    dialog.show()
    wait_for(lambda: dialog.isVisible())
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.approve_selected()
    dialog.listing.setFocus()
    settle()
    dialog.grab().save(str(out / "confirm-dialog-changed-outside.png"))
    dialog.next_outside()
    settle()
    dialog.grab().save(str(out / "confirm-dialog-changed-outside-overlap.png"))
    dialog.close()


def secret_read_shot(workspace: Path, state: Path, out: Path) -> None:
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

    # A file line that would set a terminal's clipboard (OSC 52) and reverse text: shown
    # as markers, as every text of a file is.
    (workspace / ".env").write_text(
        "DATABASE_URL=postgres://app:hunter2@db.internal/app\n"
        "API_KEY=sk-live-51HbXq2eZvKYlo2C\n"
        "NOTE=\x1b]52;c;aGk=\x07 \u202eeulav\n"
        "DEBUG=0\n"
    )
    session = Session(Workspace(workspace), state / "secret")
    session.shows_secrets = True  # as the window's sessions do
    pending = session.prepare(command("read-env", "fs.read", path=".env")).pending
    dialog = ConfirmDialog(None, pending)
    dialog.listing.setCurrentItem(dialog.file_rows[0])
    dialog.listing.setFocus()
    dialog.resize(1180, 620)
    dialog.show()
    wait_for(lambda: dialog.isVisible())
    settle()
    dialog.grab().save(str(out / "confirm-secret-read.png"))
    dialog.close()


def batch_review_shots(workspace: Path, state: Path, out: Path) -> None:
    """A real batch: 16 generated tests, 12 modules and a changed file, 29 writes."""
    from llm_operator.core.plan.session import Session
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.dialogs.confirm_dialog import ConfirmDialog

    blocks = [
        command(
            f"t{n}",
            "fs.write",
            path=f"tests/generated/test_smoke_{n:02d}.py",
            content_b64=b64(
                f"from app import greet\n\n\ndef test_greet_{n}():\n"
                f"    assert greet('n{n}') == 'Hello, n{n}!'\n"
            ),
        )
        for n in range(16)
    ]
    blocks += [
        command(
            f"m{n}",
            "fs.write",
            path=f"src/app/parts/module_{n:02d}.py",
            content_b64=b64(f'"""Part {n} of the app."""\n\nVALUE_{n} = {n}\n'),
        )
        for n in range(12)
    ]
    blocks.append(command("edit-1", "fs.write", path="src/app.py", content_b64=b64(APP_PY_NEW)))
    session = Session(Workspace(workspace), state / "batch")
    pending = session.prepare("\n".join(blocks)).pending
    for width, height in ((1280, 800), (1920, 1080)):
        dialog = ConfirmDialog(None, pending)
        dialog.resize(width, height)
        dialog.show()
        wait_for(dialog.isVisible)
        dialog.listing.setCurrentItem(dialog.file_rows[0])
        dialog.approve_selected()
        dialog.toggle_view()
        settle()
        dialog.grab().save(str(out / f"review-all-changes-{width}.png"))
        dialog.toggle_view()
        dialog.listing.setCurrentItem(dialog.file_rows[-1])
        dialog.listing.scrollToItem(dialog.file_rows[-1])
        dialog.edit_box.setChecked(True)
        text = dialog.editor.text.toPlainText().replace("name is empty", "the name is empty")
        dialog.editor.text.setPlainText(text)
        dialog.editor.flush()
        settle()
        dialog.grab().save(str(out / f"review-edit-{width}.png"))
        dialog.close()
        dialog.deleteLater()


def context_builder_shot(workspace: Path, out: Path) -> None:
    """The context builder with a named selection recalled (its Selections button)."""
    from PySide6.QtWidgets import QWidget

    from llm_operator.core.store.settings import Settings
    from llm_operator.core.store.workspace import Workspace
    from llm_operator.gui.clipboard import ClipboardBridge
    from llm_operator.gui.dialogs.context_builder import ContextBuilder

    class Window(QWidget):
        def __init__(self) -> None:
            super().__init__()
            self.settings = Settings.load()

        def save_settings(self) -> None:
            self.settings.save()

    (workspace / "src" / "api.py").write_text("def routes():\n    return []\n")
    (workspace / "tests").mkdir()
    (workspace / "tests" / "test_app.py").write_text("def test_greet():\n    pass\n")
    window = Window()
    dialog = ContextBuilder(Workspace(workspace), ClipboardBridge(), lambda: 30_000, window)
    dialog.resize(1280, 800)
    dialog.show()
    wait_for(lambda: dialog.loaded)
    dialog.set_ticked("src/app.py", True)
    dialog.set_ticked("tests/test_app.py", True)
    dialog.selections.save("greeting")
    dialog.tick_only([])
    dialog.selections.recall("greeting")
    dialog.task.setPlainText("Make greet() refuse an empty name, with a test.")
    dialog.refresh()
    wait_for(lambda: not dialog.outline_pending)
    settle()
    dialog.grab().save(str(out / "context-builder-selections.png"))
    dialog.close()
    window.deleteLater()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as temp:
        base = Path(temp)
        os.environ["LLM_OPERATOR_CONFIG_DIR"] = str(base / "config")
        os.environ["LLM_OPERATOR_STATE_DIR"] = str(base / "state")
        app = QApplication(sys.argv[:1])
        app.setApplicationName("LLM Operator")
        workspace = make_workspace(base)
        main_window_shot(workspace, out)
        confirm_dialog_shot(make_workspace(base / "second"), base / "state", out)
        changed_outside_shots(make_workspace(base / "third"), base / "state", out)
        secret_read_shot(make_workspace(base / "fourth"), base / "state", out)
        batch_review_shots(make_workspace(base / "fifth"), base / "state", out)
        context_builder_shot(make_workspace(base / "sixth"), out)
        command_shots(make_workspace(base / "seventh"), base / "state", out)
        app.processEvents()
    for name in (
        "main-window.png",
        "confirm-dialog.png",
        "confirm-dialog-side-by-side.png",
        "confirm-dialog-search.png",
        "confirm-dialog-changed-outside.png",
        "confirm-dialog-changed-outside-overlap.png",
        "confirm-secret-read.png",
        *(f"review-{view}-{w}.png" for view in ("all-changes", "edit") for w in (1280, 1920)),
        "context-builder-selections.png",
        *COMMAND_SHOTS,
    ):
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
