"""The graph as agent tools: search it, read a node, list documents, check an answer.

``got_tools(graph)`` gives the read-only set; ``writable=True`` adds adding and removing
documents, and a reasoner adds ``got_reason`` (last). Give ``spec.schema_dict()`` (or
``openai_tools`` / ``anthropic_tools``) to a tool-calling model and run what it asks for
with ``execute_tools``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.graph.verbs import VERBS
from groundgraph.reason.relations.tool import verify_relation as verify_with_facts
from groundgraph.reason.thought import GroundedGraphOfThought
from groundgraph.tools.spec import ToolSpec
from groundgraph.tools.verb_tools import tool_writes, verb_tool

SNIPPET_CHARS = 300
MAX_SEARCH_RESULTS = 50


def _search(
    graph: DocumentGraph,
    query: str,
    max_results: int = VERBS["search"].param("max_results").default,
) -> list[dict[str, Any]]:
    if not 1 <= max_results <= MAX_SEARCH_RESULTS:
        raise InputError(f"max_results must be from 1 to {MAX_SEARCH_RESULTS}, not {max_results}")
    return [
        {
            "nodeId": hit.node_id,
            "title": hit.title,
            "score": round(hit.score, 3),
            "reachedVia": "direct match" if hit.via is None else f"{hit.edge_type} from {hit.via}",
            "snippet": hit.content[:SNIPPET_CHARS],
        }
        for hit in graph.search(query, max_results=max_results)
    ]


def _why_not(
    graph: DocumentGraph,
    query: str,
    target: str,
    max_results: int = VERBS["why_not"].param("max_results").default,
) -> dict[str, Any]:
    if not 1 <= max_results <= MAX_SEARCH_RESULTS:
        raise InputError(f"max_results must be from 1 to {MAX_SEARCH_RESULTS}, not {max_results}")
    return graph.why_not(query, target, max_results=max_results).to_dict()


def _read_node(graph: DocumentGraph, node_id: str) -> dict[str, Any]:
    try:
        view = graph.show(node_id)
    except NotFoundError:
        raise NotFoundError(
            f"Unknown node: {node_id[:200]!r}. Use got_search or got_outline to find node ids."
        ) from None
    return {
        "nodeId": view["nodeId"],
        "title": view["title"],
        "content": view["content"],
        "parentId": view["parentId"],
        "children": [child["nodeId"] for child in view["children"]],
        "links": [
            {"nodeId": link["nodeId"], "title": link["title"], "type": link["type"]}
            for link in view["links"]
        ],
    }


def _list_documents(graph: DocumentGraph) -> list[dict[str, Any]]:
    return [
        {"docId": d["docId"], "title": d["title"], "nodes": d["nodes"]} for d in graph.documents()
    ]


def _ground_answer(
    graph: DocumentGraph,
    answer: str,
    query: str | None = None,
    node_ids: Sequence[str] | None = None,
) -> dict[str, Any]:
    grounding = graph.ground(answer, node_ids=node_ids, query=query)
    return grounding.to_dict()


def _verify_relation(
    graph: DocumentGraph,
    subject: str,
    relation: str,
    object: str,
    facts: Sequence[Any] | None = None,
) -> dict[str, Any]:
    if facts is not None:
        return verify_with_facts(facts, subject, relation, object)
    names = [subject.strip(), relation.strip(), object.strip()]
    if not all(names):
        raise InputError("subject, relation and object must be non-empty")
    return graph.reasoner().verify(names[0], names[2], via=names[1]).as_dict()


def _reason(reasoner: GroundedGraphOfThought, question: str) -> dict[str, Any]:
    result = reasoner.reason(question)
    return {
        "answer": result.answer,
        "citations": [c.to_dict() for c in result.citations],
        "unsupported": list(result.unsupported),
    }


#: The handlers of the graph tools, in the order ``got_tools`` lists them (reads first);
#: each tool's description, parameters and read/write flag are the verb table's.
_HANDLERS: dict[str, Callable[[DocumentGraph], Callable[..., Any]]] = {
    "got_search": lambda graph: partial(_search, graph),
    "got_read_node": lambda graph: partial(_read_node, graph),
    "got_outline": lambda graph: graph.outline,
    "got_list_documents": lambda graph: partial(_list_documents, graph),
    "ground_answer": lambda graph: partial(_ground_answer, graph),
    "verify_relation": lambda graph: partial(_verify_relation, graph),
    "got_why_not": lambda graph: partial(_why_not, graph),
    "got_add_document": lambda graph: (
        lambda content, title: graph.add_document(content, title).doc_id
    ),
    "got_remove_document": lambda graph: lambda doc_id: graph.remove_document(doc_id) is not None,
}


def got_tools(
    graph: DocumentGraph,
    reasoner: GroundedGraphOfThought | None = None,
    writable: bool = False,
) -> list[ToolSpec]:
    """Tool specs over ``graph``: read tools, write tools if ``writable``, then ``got_reason``
    if a reasoner is given."""
    tools = [
        verb_tool(name, handler(graph))
        for name, handler in _HANDLERS.items()
        if writable or not tool_writes(name)
    ]
    if reasoner is not None:
        tools.append(verb_tool("got_reason", partial(_reason, reasoner)))
    return tools
