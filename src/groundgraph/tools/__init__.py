"""Tool specs for function-calling models, and a safe way to run the calls they make.

from groundgraph.tools import got_tools, execute_tools, openai_tools
tools = got_tools(graph)                       # writable=True adds add/remove
schemas = [t.schema_dict() for t in tools]     # or openai_tools(tools), anthropic_tools(tools)
execute_tools([{"name": "got_search", "arguments": {"query": "deploy"}}], tools)
"""

from __future__ import annotations

from groundgraph.tools.execute import (
    MAX_CALLS,
    MAX_STRING_CHARS,
    check_arguments,
    execute_call,
    execute_tools,
)
from groundgraph.tools.graph_tools import got_tools
from groundgraph.tools.spec import ToolParam, ToolSpec, anthropic_tools, openai_tools

__all__ = [
    "MAX_CALLS",
    "MAX_STRING_CHARS",
    "ToolParam",
    "ToolSpec",
    "anthropic_tools",
    "check_arguments",
    "execute_call",
    "execute_tools",
    "got_tools",
    "openai_tools",
]
