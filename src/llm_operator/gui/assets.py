"""Files shipped in ``llm_operator.resources`` (the top-level resources/ folder)."""

from __future__ import annotations

from importlib import resources

ICON = "icon.svg"
ICON_PNG = "icon.png"  # the same icon rendered at 256 px, for desktops without SVG icons
DESKTOP_FILE = "llm-operator.desktop"


def asset_bytes(name: str) -> bytes:
    return (resources.files("llm_operator.resources") / name).read_bytes()


def primer_text(form: str = "readable") -> str:
    """What "Copy LLM primer" copies: the same text ``llm-operator primer`` prints (with
    ``--results base64`` when the window sends strict v3 results)."""
    from ..core.protocol.encoder import ResultForm
    from ..core.protocol.primer import primer_text as core_primer_text

    return core_primer_text(ResultForm(form))
