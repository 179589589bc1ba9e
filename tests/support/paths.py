"""Where the repository's files are, for tests at any depth."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
DATA = TESTS / "data"
SPEC_FILE = ROOT / "src" / "llm_operator" / "resources" / "interface-spec.txt"
