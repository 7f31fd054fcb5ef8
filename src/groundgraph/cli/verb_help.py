"""Commands and options whose help text comes from the verb table (``graph.verbs``).

``verb_command(group, "search", verb="search", example=...)`` registers a command whose
one-line help is the verb's summary (the function's docstring, if any, adds the CLI's own
paragraphs) and whose ``--help`` ends with an example; ``verb_option(..., verb=, param=)``
is a ``click.option`` whose help, default and choices are the verb parameter's. A command
that maps to no verb still shows an example (``example_epilog``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import click

from groundgraph.graph.verbs import verb as find_verb
from groundgraph.graph.verbs import verb_summary

F = TypeVar("F", bound=Callable[..., Any])

#: Attribute a verb command carries: the verb whose text it shows.
VERB_ATTRIBUTE = "groundgraph_verb"


def example_epilog(*lines: str) -> str:
    """The ``Example`` block at the end of a command's ``--help`` (click keeps it as is)."""
    return "\b\nExample:\n" + "\n".join(f"  {line}" for line in lines)


def verb_command(
    group: click.Group, name: str, *, verb: str, example: tuple[str, ...] | str, **kwargs: Any
) -> Callable[[Callable[..., Any]], click.Command]:
    """``group.command(name)`` with the verb's summary as its help and an example (the
    summary is read from the table without building the verb)."""
    summary = verb_summary(verb)
    lines = (example,) if isinstance(example, str) else example

    def register(function: Callable[..., Any]) -> click.Command:
        detail = inspect.getdoc(function) or ""
        help_text = f"{summary}\n\n{detail}" if detail else summary
        command = group.command(name, help=help_text, epilog=example_epilog(*lines), **kwargs)(
            function
        )
        setattr(command, VERB_ATTRIBUTE, verb)
        return command

    return register


def verb_option(*decls: str, verb: str, param: str, **kwargs: Any) -> Callable[[F], F]:
    """A ``click.option`` for the verb's parameter: its doc as help; its default and enum
    as the option's default and choices unless given (a flag or repeatable option keeps
    its own)."""
    found = find_verb(verb).param(param)
    if "help" not in kwargs:
        kwargs["help"] = f"{found.doc} Repeat for several." if kwargs.get("multiple") else found.doc
    plain = not kwargs.get("is_flag") and not kwargs.get("multiple")
    if plain and "default" not in kwargs and not found.required:
        kwargs["default"] = found.default
    enum = (found.json_schema or {}).get("enum")
    if plain and enum is not None and "type" not in kwargs:
        kwargs["type"] = click.Choice([value for value in enum if value is not None])
    option: Callable[[F], F] = click.option(*decls, **kwargs)
    return option
