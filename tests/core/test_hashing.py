"""The digests of core/hashing.py are hashlib's, on either side of the size where they
switch from the built-in code to OpenSSL's."""

from __future__ import annotations

import hashlib
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llm_operator.core import hashing
from llm_operator.core.hashing import LARGE, blake2b_hex, sha256_hex


@pytest.mark.parametrize("size", [0, 1, 63, 64, 1000, LARGE - 1, LARGE, LARGE + 1, 3 * LARGE])
def test_digests_are_hashlibs_at_every_size(size: int) -> None:
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert blake2b_hex(data, 16) == hashlib.blake2b(data, digest_size=16).hexdigest()


@given(st.binary(max_size=2000))
def test_any_bytes_hash_as_hashlib_hashes_them(data: bytes) -> None:
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()


def test_without_the_built_in_module_hashlib_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hashing, "_found", [None])
    assert sha256_hex(b"abc") == hashlib.sha256(b"abc").hexdigest()


def test_without_openssl_big_data_is_hashed_by_hashlib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "_hashlib", None)  # a build without OpenSSL
    data = bytes(range(256)) * (2 * LARGE // 256)
    assert sha256_hex(data) == hashlib.sha256(data).hexdigest()
