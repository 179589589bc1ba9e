from __future__ import annotations

from collections.abc import Callable

import pytest

from support.paths import DATA as TEST_DATA

DATA = TEST_DATA / "structure"


@pytest.fixture
def sample() -> Callable[[str], bytes]:
    def load(name: str) -> bytes:
        return (DATA / name).read_bytes()

    return load
