"""Tool specs made from the verb table: a tool's description, parameters and their JSON
schemas come from the verb it exposes (``groundgraph.graph.verbs``), its handler from here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from groundgraph.graph.verb_schema import ToolView, VerbParam, VerbTableError
from groundgraph.graph.verbs import tool_view
from groundgraph.tools.spec import ToolParam, ToolSpec


def tool_param(param: VerbParam, view: ToolView) -> ToolParam:
    """A verb's parameter as the tool ``view`` takes it."""
    schema = dict(param.json_schema or {})
    kinds = schema.get("type")
    solid = [k for k in kinds if k != "null"] if isinstance(kinds, list) else [kinds]
    if len(solid) != 1 or not isinstance(solid[0], str):
        raise VerbTableError(f"tool {view.name!r}: {param.name!r} needs one JSON type, not {kinds}")
    enum = schema.get("enum")
    return ToolParam(
        param.name,
        solid[0],
        view.docs.get(param.name, param.doc),
        required=param.required and param.name not in view.optional,
        enum=None if enum is None else [value for value in enum if value is not None],
        items=schema.get("items"),
    )


def verb_tool(name: str, handler: Callable[..., Any]) -> ToolSpec:
    """The spec of the tool ``name``, as the verb table describes it, run by ``handler``."""
    verb, view = tool_view(name)
    return ToolSpec(
        name, view.description, [tool_param(verb.param(p), view) for p in view.params], handler
    )


def tool_writes(name: str) -> bool:
    """Whether the tool ``name`` changes the graph (its verb writes)."""
    return tool_view(name)[0].writes
