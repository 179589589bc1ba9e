"""Turn a scanned block into a typed command, or say exactly what to fix.

Checks run in a fixed order and the first failure wins, so an LLM fixing one problem
is not shown a different one for the same line next time:
duplicate keys, required fields, version, action, workspace fields (rule 11), path
presence (rule 10), aliases, unknown keys, then the action's own field model.

An action may declare a quick check (``ActionSpec.quick``) that accepts simple commands
without building the fields model, for start-up time; it takes only what the model would
accept with the same values, and leaves everything else, every refusal included, to the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import actions
from ..errors import InvalidCommand
from .scanner import CommandBlock

if TYPE_CHECKING:
    from ..actions.base import ActionSpec, FieldValues
    from ..actions.fields import Fields

REQUIRED = ("version", "id", "action")
_WORKSPACE_KEYS = frozenset({"root", "cwd", "projectroot", "project_root", "basedir", "base_dir"})


@dataclass(frozen=True)
class Command:
    """A valid command: its id, its action's declaration, its field values, its block."""

    id: str
    spec: ActionSpec
    fields: FieldValues  # the model, or the values of a quick check (ActionSpec.quick)
    block: CommandBlock

    @property
    def action(self) -> str:
        return self.spec.name

    @property
    def path(self) -> str | None:
        value = getattr(self.fields, "path", None)
        return value if isinstance(value, str) else None


@dataclass(frozen=True)
class Invalid:
    """A block the validator refused: the error code and message, its id if known, its line."""

    code: str
    message: str
    id: str | None
    line: int


def _is_workspace_key(key: str) -> bool:
    folded = key.casefold()
    return folded.startswith("workspace") or folded in _WORKSPACE_KEYS


def validate(block: CommandBlock) -> Command | Invalid:
    try:
        return _validate(block)
    except InvalidCommand as problem:
        block_id = block.get("id") or _loose_id(block)
        return Invalid(problem.code, problem.message, block_id, block.line)


def _loose_id(block: CommandBlock) -> str | None:
    """The id of a block that wrote its key in the wrong case (``ID: x``)."""
    for key, value in block.fields:
        if key.lower() == "id" and value:
            return value
    return None


def _check_key_case(block: CommandBlock, values: dict[str, str]) -> None:
    """Refuse keys written in the wrong case (``Path:``), naming the right spelling."""
    known = {key.lower(): key for key in REQUIRED}
    action = values.get("action") or next(
        (value for key, value in values.items() if key.lower() == "action"), None
    )
    if action is not None and action in actions.ACTION_FAMILIES:
        spec = actions.get_spec(action)
        for key in _declared_keys(spec):
            known.setdefault(key.lower(), key)
    wrong = [
        (key, known[key.lower()])
        for key in values
        if key.lower() in known and key != known[key.lower()] and known[key.lower()] not in values
    ]
    if not wrong:
        return
    fixes = ", ".join(f"{right} (not {key}, line {block.line_of(key)})" for key, right in wrong)
    required = [right for _, right in wrong if right in REQUIRED]
    missing = f"missing {', '.join(required)}: " if required else ""
    raise InvalidCommand(
        "ERR_MISSING_REQUIRED_FIELDS" if required else "ERR_UNKNOWN_KEY",
        f"{missing}keys are case-sensitive: write {fixes}",
    )


def _declared_keys(spec: ActionSpec) -> frozenset[str]:
    """Every key the action takes, aliases included; from the quick check when there is
    one, so that a simple command never loads the model."""
    if spec.quick is not None:
        return spec.quick.keys
    return frozenset((*spec.fields.model_fields, *_aliases(spec)))


def _validate(block: CommandBlock) -> Command:
    seen: set[str] = set()
    for key, _ in block.fields:
        if key in seen:
            raise InvalidCommand(
                "ERR_DUPLICATE_KEY",
                f"the key {key!r} appears more than once (first on line {block.line_of(key)}); "
                "give it once",
            )
        seen.add(key)
    values = dict(block.fields)
    _check_key_case(block, values)
    missing = [key for key in REQUIRED if not values.get(key)]
    if missing:
        raise InvalidCommand(
            "ERR_MISSING_REQUIRED_FIELDS",
            f"missing {', '.join(missing)}; every OPERATOR_CMD needs version: 1, id: <string> "
            "and action: <string>",
        )
    if values["version"] != "1":
        raise InvalidCommand(
            "ERR_UNSUPPORTED_VERSION",
            f"version is {values['version']!r} (line {block.line_of('version')}); the only "
            "supported version is 1 (version: 1)",
        )
    spec = _spec_for(values["action"])
    for key in values:
        # run.* takes a workspace-relative folder as cwd (it goes through the jail).
        if _is_workspace_key(key) and not (key == "cwd" and "cwd" in spec.fields.model_fields):
            raise InvalidCommand(
                "ERR_UNKNOWN_KEY",
                f"line {block.line_of(key)}: {key} is not a command field (rule 11): the "
                "workspace is chosen in the app, and paths are relative to it; remove the line",
            )
    if spec.needs_path and not values.get("path"):
        raise InvalidCommand(
            "ERR_ACTION_REQUIRES_PATH",
            f"{spec.name} needs a path relative to the workspace root (path: . for the root)",
        )
    if not spec.needs_path and "path" in values:
        raise InvalidCommand(
            "ERR_ACTION_FORBIDS_PATH",
            f"{spec.name} takes no path (only fs.* actions do); remove the path line "
            f"(line {block.line_of('path')})",
        )
    given = {k: v for k, v in values.items() if k not in REQUIRED}
    quick = spec.quick.check(given) if spec.quick is not None else None
    if quick is not None:  # accepted as the model would accept it, without the model
        return Command(values["id"], spec, quick, block)
    fields = _build(spec, _canonical(spec, given, block))
    return Command(values["id"], spec, fields, block)


def _spec_for(action: str) -> ActionSpec:
    if action in actions.RESERVED_ACTIONS:
        raise InvalidCommand(
            "ERR_RESERVED_ACTION",
            f"{action} is generated by the app only and cannot be sent as a command",
        )
    try:
        return actions.get_spec(action)
    except KeyError:
        names = actions.action_names()
        import difflib  # lazy: only a refusal needs it, and start-up counts

        close = difflib.get_close_matches(action, names, n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise InvalidCommand(
            "ERR_UNKNOWN_ACTION",
            f"unknown action {action!r}; {hint}supported actions: {', '.join(names)}",
        ) from None


def _json_twins(spec: ActionSpec) -> dict[str, str]:
    """``content_json`` -> ``content_b64`` for every ``*_b64`` field of the action."""
    from ..actions.fields import B64_SUFFIX, json_twin

    return {json_twin(name): name for name in spec.fields.model_fields if name.endswith(B64_SUFFIX)}


def allowed_keys(spec: ActionSpec) -> list[str]:
    names: list[str] = []
    twins = {b64: twin for twin, b64 in _json_twins(spec).items()}
    for name in spec.fields.model_fields:
        names += [twins[name], name] if name in twins else [name]
    aliases = [f"{alias} (= {target})" for alias, target in _aliases(spec).items()]
    return [*REQUIRED, *names, *aliases]


def _aliases(spec: ActionSpec) -> dict[str, str]:
    return spec.fields.ALIASES


def _canonical(spec: ActionSpec, params: dict[str, str], block: CommandBlock) -> dict[str, str]:
    from ..actions.fields import B64_SUFFIX, JSON_SUFFIX, decode_json_value

    aliases = _aliases(spec)
    twins = _json_twins(spec)
    known = set(spec.fields.model_fields)
    out: dict[str, str] = {}
    for key, value in params.items():
        target = aliases.get(key, key)
        if target in twins:
            plain = target.removesuffix(JSON_SUFFIX)
            for other in (twins[target], plain):
                if other in params and (other in known or other.endswith(B64_SUFFIX)):
                    raise InvalidCommand(
                        "ERR_CONFLICTING_FIELDS",
                        f"give either {target} or {other}, not both (two forms of one field)",
                    )
            out[twins[target]] = decode_json_value(value, target)
            continue
        if target in out:
            raise InvalidCommand(
                "ERR_DUPLICATE_KEY",
                f"{key} is another name for {target}, which is already given; give one of them",
            )
        if target not in known:
            options = [*known, *aliases, *twins]
            import difflib

            close = difflib.get_close_matches(key, options, n=1)
            hint = f"did you mean {close[0]}? " if close else ""
            raise InvalidCommand(
                "ERR_UNKNOWN_KEY",
                f"line {block.line_of(key)}: {spec.name} has no field {key!r}; {hint}allowed keys: "
                f"{', '.join(allowed_keys(spec))}",
            )
        out[target] = value
    return out


def _build(spec: ActionSpec, params: dict[str, Any]) -> Fields:
    from pydantic import ValidationError

    try:
        return spec.fields.model_validate(params)
    except ValidationError as error:
        raise _refusal(spec, error.errors(include_url=False)[0]) from None


def _refusal(spec: ActionSpec, first: Mapping[str, Any]) -> InvalidCommand:
    """The first problem pydantic found, as the spec's ERR_ code and a message naming the
    field as it was sent (a ``*_json`` value is checked before the model sees it)."""
    model = spec.fields
    field = str(first["loc"][0]) if first["loc"] else ""
    kind = first["type"]
    if kind == "missing":
        code = model.MISSING_CODES.get(field, "ERR_MISSING_REQUIRED_FIELDS")
        return InvalidCommand(code, f"{spec.name} needs {field}")
    if kind == "value_error":  # our own parsers' ValueError: its text says what to fix
        message = str(first["ctx"]["error"])
    elif kind == "extra_forbidden":
        message = "not a field of this action"
    elif kind == "string_type":
        message = f"must be text, got {type(first['input']).__name__}"
    else:  # pydantic's own wording (never the value: it may be a secret)
        message = str(first.get("msg", "invalid value"))
    code = model.INVALID_CODES.get(field, "ERR_INVALID_FIELD")
    return InvalidCommand(code, f"{field}: {message}" if field else message)
