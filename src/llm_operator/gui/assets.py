"""Files shipped in ``llm_operator.resources`` (the top-level resources/ folder)."""

from __future__ import annotations

from importlib import resources

ICON = "icon.svg"
ICON_PNG = "icon.png"  # the same icon rendered at 256 px, for desktops without SVG icons
DESKTOP_FILE = "llm-operator.desktop"


def asset_bytes(name: str) -> bytes:
    return (resources.files("llm_operator.resources") / name).read_bytes()


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
    """The served interface spec with a preface, ready to paste into a new chat."""
    from ..core.actions.operator import interface_spec

    return PRIMER_PREFACE + "\n" + interface_spec()
