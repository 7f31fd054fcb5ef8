"""Run the tool calls a model asked for, without ever raising.

A model's tool calls are untrusted input. Each call is read in any of the common shapes
(``{"name", "arguments"}``, OpenAI's ``{"function": {"name", "arguments": "<json>"}}``,
Anthropic's ``{"name", "input"}``), its arguments are checked against the tool's
parameters (names, required ones, types, enums) and size caps, and only then is the
handler run. Every problem, and any exception the handler raises, becomes
``{"ok": False, "error": "…"}`` in that call's place, so an agent loop can show the model
its mistake and go on.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from groundgraph.errors import GroundgraphError, InputError, InputTooLargeError
from groundgraph.tools.spec import ToolParam, ToolSpec

MAX_CALLS = 64  # calls in one batch
MAX_STRING_CHARS = 1_000_000  # characters of any one string in the arguments
MAX_ARGUMENTS_CHARS = 5_000_000  # characters of arguments given as JSON text
MAX_DEPTH = 20  # nesting of lists and objects in the arguments
MAX_VALUES = 200_000  # values (of any kind) in the arguments of one call

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
}


def failure(message: str) -> dict[str, Any]:
    """The result of a call that did not run, or that failed."""
    return {"ok": False, "error": message}


def _parse_json_arguments(text: str | bytes) -> object:
    if len(text) > MAX_ARGUMENTS_CHARS:
        raise InputTooLargeError(
            "the arguments", len(text), MAX_ARGUMENTS_CHARS, "send less text in one call"
        )
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(f"the arguments nest deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise InputError(f"the arguments are not valid JSON: {error}") from None


def read_call(call: object) -> tuple[str, object]:
    """The tool name and raw arguments of a call in any of the supported shapes."""
    if not isinstance(call, Mapping):
        raise InputError(f"a tool call must be an object, not {type(call).__name__}")
    body = call.get("function", call)
    if not isinstance(body, Mapping):
        raise InputError("a tool call's 'function' must be an object")
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise InputError("a tool call needs a 'name' (the tool to run)")
    if len(name) > 200:
        raise InputTooLargeError("the tool name", len(name), 200, "use a listed tool's name")
    arguments = body.get("arguments", body.get("input", {}))
    if isinstance(arguments, (str, bytes)):
        arguments = _parse_json_arguments(arguments)
    return name, arguments


def _check_size(value: object) -> None:
    """Reject arguments nested too deep, with too many values, or with huge strings."""
    stack: list[tuple[object, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise InputTooLargeError("the arguments", seen, MAX_VALUES, "send fewer values")
        if depth > MAX_DEPTH:
            raise InputError(f"the arguments nest deeper than {MAX_DEPTH} levels")
        if isinstance(item, str) and len(item) > MAX_STRING_CHARS:
            raise InputTooLargeError("a string argument", len(item), MAX_STRING_CHARS)
        if isinstance(item, Mapping):
            stack.extend((v, depth + 1) for v in item.values())
            stack.extend((k, depth + 1) for k in item)
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)


def _check_value(tool: str, param: ToolParam, value: object) -> None:
    wanted = _PY_TYPES[param.type]
    is_bool = isinstance(value, bool)
    if not isinstance(value, wanted) or (is_bool and param.type != "boolean"):
        raise InputError(
            f"{tool}: argument {param.name!r} must be {param.type}, not {type(value).__name__}"
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(f"{tool}: argument {param.name!r} must be a finite number")
    if param.enum is not None and value not in list(param.enum):
        choices = ", ".join(repr(v) for v in param.enum)
        raise InputError(f"{tool}: argument {param.name!r} must be one of {choices}")


def check_arguments(spec: ToolSpec, arguments: object) -> dict[str, Any]:
    """The arguments as keyword arguments for the handler, after every check."""
    if not isinstance(arguments, Mapping):
        raise InputError(
            f"{spec.name}: the arguments must be an object, not {type(arguments).__name__}"
        )
    _check_size(arguments)
    params = {p.name: p for p in spec.parameters}
    takes = ", ".join(params) or "no arguments"
    extra = sorted(str(k) for k in arguments if k not in params)
    if extra:
        shown = ", ".join(repr(k[:80]) for k in extra[:5])
        raise InputError(f"{spec.name}: unexpected argument {shown}; it takes {takes}")
    missing = [p.name for p in spec.parameters if p.required and p.name not in arguments]
    if missing:
        raise InputError(f"{spec.name}: missing argument {', '.join(missing)}; it takes {takes}")
    for name, value in arguments.items():
        _check_value(spec.name, params[name], value)
    return dict(arguments)


def _error_text(error: Exception) -> str:
    if isinstance(error, GroundgraphError):
        return str(error)
    return f"{type(error).__name__}: {error}"


def execute_call(call: object, tools: Mapping[str, ToolSpec]) -> Any:
    """One call's result: the handler's return value, or a failure object."""
    try:
        name, raw = read_call(call)
        spec = tools.get(name)
        if spec is None:
            known = ", ".join(tools) or "none"
            return failure(f"no handler for tool {name[:80]!r}: the tools are {known}")
        arguments = check_arguments(spec, raw)
        return spec.handler(**arguments)
    except Exception as error:  # a tool call never raises: the model reads the error
        return failure(_error_text(error))


def execute_tools(calls: object, tools: Iterable[ToolSpec] | Mapping[str, ToolSpec]) -> list[Any]:
    """Run each call with the tool of its name; results in the order of the calls.

    A call that cannot run (unknown tool, bad arguments, over a cap) or whose handler
    raises gives ``{"ok": False, "error": …}``; nothing is raised. At most ``MAX_CALLS``
    calls run per batch; the rest get an error saying so.
    """
    table = dict(tools) if isinstance(tools, Mapping) else {t.name: t for t in tools}
    if isinstance(calls, Mapping):
        calls = [calls]
    if isinstance(calls, (str, bytes)) or not isinstance(calls, Sequence):
        return [failure(f"calls must be a list of tool calls, not {type(calls).__name__}")]
    results = [execute_call(call, table) for call in calls[:MAX_CALLS]]
    if len(calls) > MAX_CALLS:
        skipped = failure(
            f"not run: a batch holds at most {MAX_CALLS} tool calls and this one had "
            f"{len(calls):,}; send the rest in another batch"
        )
        results.extend([skipped] * (len(calls) - MAX_CALLS))
    return results
