from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

DATA = Path(__file__).parents[2] / "data" / "structure"


@pytest.fixture
def sample() -> Callable[[str], bytes]:
    def load(name: str) -> bytes:
        return (DATA / name).read_bytes()

    return load
