"""Each tool's published input schema is its action's command model, field for field.

The schema is made from the model's fields (``tools.tool_info``); pydantic's own JSON
schema of the same model (``model_json_schema``) is the independent reading it is held
to: the same field names (plus a ``*_json`` twin, a string, for every ``*_b64`` field),
the same JSON type of each value, the same required fields (save those given in one of
several forms, which the description names instead), and the same defaults.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from llm_operator.core import actions
from llm_operator.mcp_server.tools import tool_info


def _pydantic_type(prop: dict[str, Any]) -> str:
    if "type" in prop:
        return str(prop["type"])
    (kind,) = [part["type"] for part in prop["anyOf"] if part["type"] != "null"]
    return str(kind)


@pytest.mark.parametrize("action", actions.action_names())
def test_the_tool_schema_is_the_models_json_schema(action: str) -> None:
    model = actions.get_spec(action).fields
    theirs = model.model_json_schema()
    ours = tool_info(action).input_schema
    assert ours["additionalProperties"] is theirs["additionalProperties"] is False
    fields = theirs["properties"]
    twins = {f"{name.removesuffix('_b64')}_json" for name in fields if name.endswith("_b64")}
    assert set(ours["properties"]) == set(fields) | twins
    for name, prop in ours["properties"].items():
        if name in twins:
            assert prop["type"] == "string"
            continue
        assert prop["type"] == _pydantic_type(fields[name]), name
        default = re.search(r"; default ([^;]+)", prop["description"])
        if fields[name].get("default") is None:
            assert default is None, name
        else:
            assert default is not None, name
            assert json.loads(json.dumps(fields[name]["default"])) == json.loads(
                default.group(1) if prop["type"] != "string" else json.dumps(default.group(1))
            )
    forms = {name.removesuffix("_b64") for name in fields if name.endswith("_b64")}
    single = [name for name in theirs.get("required", ()) if name.removesuffix("_b64") not in forms]
    assert ours.get("required", []) == single


def test_a_required_field_with_twins_is_named_in_its_descriptions() -> None:
    schema = tool_info("fs.replaceRegion").input_schema
    assert (
        "content_b64" in actions.get_spec("fs.replaceRegion").fields.model_json_schema()["required"]
    )
    assert "content_b64" not in schema["required"]
    for name in ("content_json", "content_b64"):
        assert "give one of content_json, content_b64" in schema["properties"][name]["description"]
