"""Tool specs: a name, a description, typed parameters and the function that runs the call.

One spec gives the JSON schema any tool-calling model reads (``schema_dict()``) and the
shapes the two common APIs want: OpenAI's ``{"type": "function", "function": …}`` and
Anthropic's ``{"name", "description", "input_schema"}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from groundgraph.errors import InputError

#: JSON schema types a parameter may have, and the Python types that carry them.
PARAM_TYPES = ("string", "integer", "number", "boolean", "array", "object")


@dataclass(frozen=True)
class ToolParam:
    """One parameter of a tool.

    ``enum`` restricts the values (``enum_descriptions`` says what each means, in the
    same order); ``items`` is the JSON schema of an array's elements.
    """

    name: str
    type: str = "string"
    description: str = ""
    required: bool = True
    enum: Sequence[Any] | None = None
    enum_descriptions: Sequence[str] | None = None
    items: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise InputError(f"a tool parameter name must be an identifier, not {self.name!r}")
        if self.type not in PARAM_TYPES:
            raise InputError(
                f"parameter {self.name!r} has type {self.type!r}; use one of {PARAM_TYPES}"
            )
        if self.enum_descriptions is not None and (
            self.enum is None or len(self.enum_descriptions) != len(self.enum)
        ):
            raise InputError(f"parameter {self.name!r}: give one enum description per value")

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON schema."""
        description = self.description
        if self.enum is not None and self.enum_descriptions is not None:
            meanings = "; ".join(
                f"{value}: {text}"
                for value, text in zip(self.enum, self.enum_descriptions, strict=True)
            )
            description = f"{description} ({meanings})" if description else meanings
        schema: dict[str, Any] = {"type": self.type, "description": description}
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        if self.items is not None:
            schema["items"] = dict(self.items)
        return schema


@dataclass(frozen=True)
class ToolSpec:
    """A tool a model can call: ``handler(**arguments)`` runs it."""

    name: str
    description: str
    parameters: Sequence[ToolParam]
    handler: Callable[..., Any] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise InputError(f"a tool name must be an identifier, not {self.name!r}")
        names = [p.name for p in self.parameters]
        if len(set(names)) != len(names):
            raise InputError(f"tool {self.name!r} names a parameter twice: {names}")
        if not callable(self.handler):
            raise InputError(f"tool {self.name!r} needs a callable handler")

    def input_schema(self) -> dict[str, Any]:
        """The JSON schema of the call's arguments object."""
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.parameters},
            "required": [p.name for p in self.parameters if p.required],
        }

    def schema_dict(self) -> dict[str, Any]:
        """``{"name", "description", "parameters"}``: the schema any tool-calling model reads."""
        return {
            "name": self.name,
            "description": self.description,
            "parameters": self.input_schema(),
        }

    def openai(self) -> dict[str, Any]:
        """The OpenAI function-calling form."""
        return {"type": "function", "function": self.schema_dict()}

    def anthropic(self) -> dict[str, Any]:
        """The Anthropic tool-use form."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema(),
        }


def openai_tools(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """The specs in the OpenAI ``tools=[…]`` form."""
    return [spec.openai() for spec in specs]


def anthropic_tools(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    """The specs in the Anthropic ``tools=[…]`` form."""
    return [spec.anthropic() for spec in specs]
