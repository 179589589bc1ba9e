"""The relay's wire format: a reply's title is only a name, so a long one (a page's own
title, for the fallback) is cut, never a reason to refuse the reply."""

from __future__ import annotations

import json

import pytest

from llm_operator.relay import wire


def test_a_long_title_is_cut_and_the_reply_is_read() -> None:
    raw = {"type": "reply", "conversation": "/", "message_id": "m1", "text": "hi"}
    found = wire.read_message(json.dumps({**raw, "title": "T" * 5000}))
    assert isinstance(found, wire.Reply)
    assert found.title == "T" * wire.MAX_NAME
    assert found.text == "hi"
    half = wire.read_message(json.dumps({**raw, "title": "x\ud800"}))
    assert isinstance(half, wire.Reply)
    assert "\ud800" not in half.title
    untitled = wire.read_message(json.dumps({**raw, "title": 7}))
    assert isinstance(untitled, wire.Reply)
    assert untitled.title == ""


def test_a_long_message_id_is_still_refused() -> None:
    raw = {"type": "reply", "conversation": "/", "message_id": "m" * 201, "text": "hi"}
    with pytest.raises(wire.WireError, match="message_id"):
        wire.read_message(json.dumps(raw))
