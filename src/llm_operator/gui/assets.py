"""Files shipped in ``llm_operator.resources`` (the top-level resources/ folder)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

ICON = "icon.svg"
DESKTOP_FILE = "llm-operator.desktop"


def asset_bytes(name: str) -> bytes:
    try:
        return (resources.files("llm_operator.resources") / name).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        # An editable install made before the resources package was mapped: read the
        # folder next to src/ instead of failing.
        source_tree = Path(__file__).resolve().parents[3] / "resources" / name
        return source_tree.read_bytes()


def served_spec() -> str:
    """The interface spec as the core serves it to the LLM."""
    try:
        from ..core.actions.operator import interface_spec

        return interface_spec()
    except (ModuleNotFoundError, FileNotFoundError):
        return asset_bytes("interface-spec.txt").decode("utf-8")


PRIMER_PREFACE = """\
You are working with LLM Operator, a desktop app on my computer that can read and change \
files in one folder (the workspace) for you, with me approving every change.

How it works: when you need a file operation, write OPERATOR_CMD blocks exactly as the \
specification below describes, as plain text, and then stop and wait. I paste your reply \
into the app: reads run at once, every write is shown to me as a diff and runs only if I \
approve it. I then paste the OPERATOR_RESULT blocks back to you. Never invent results and \
never assume a command ran until you see its OPERATOR_RESULT. Start with a small read to \
see the workspace (for example fs.list with path: .).
"""


def primer_text() -> str:
    return PRIMER_PREFACE + "\n" + served_spec()
