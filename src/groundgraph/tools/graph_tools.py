"""The graph as agent tools: search it, read a node, list documents, check an answer.

``got_tools(graph)`` gives the read-only set; ``writable=True`` adds adding and removing
documents, and a reasoner adds ``got_reason`` (last). Give ``spec.schema_dict()`` (or
``openai_tools`` / ``anthropic_tools``) to a tool-calling model and run what it asks for
with ``execute_tools``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from groundgraph.errors import InputError, NotFoundError
from groundgraph.graph import DocumentGraph
from groundgraph.reason.relations.tool import verify_relation as verify_with_facts
from groundgraph.reason.thought import GroundedGraphOfThought
from groundgraph.tools.spec import ToolParam, ToolSpec

SNIPPET_CHARS = 300
MAX_SEARCH_RESULTS = 50


def _search(graph: DocumentGraph, query: str, max_results: int = 8) -> list[dict[str, Any]]:
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


def _read_tools(graph: DocumentGraph) -> list[ToolSpec]:
    return [
        ToolSpec(
            "got_search",
            "Search the documents. Returns the best matching sections with their node ids, "
            "a score, how each was reached (a direct match or a link from another section) "
            "and the start of its text. Read a whole section with got_read_node.",
            [
                ToolParam("query", "string", "What to look for, in a few words."),
                ToolParam(
                    "max_results",
                    "integer",
                    f"How many sections to return, 1 to {MAX_SEARCH_RESULTS} (default 8).",
                    required=False,
                ),
            ],
            lambda query, max_results=8: _search(graph, query, max_results),
        ),
        ToolSpec(
            "got_read_node",
            "Read one section in full: its text, its parent, its children and the sections "
            "it links to.",
            [ToolParam("node_id", "string", "A node id from got_search or got_outline.")],
            lambda node_id: _read_node(graph, node_id),
        ),
        ToolSpec(
            "got_outline",
            "A document's table of contents, one '- [nodeId] title' line per section.",
            [ToolParam("doc_id", "string", "A document id from got_list_documents.")],
            lambda doc_id: graph.outline(doc_id),
        ),
        ToolSpec(
            "got_list_documents",
            "Every document: its id, title and number of nodes.",
            [],
            lambda: _list_documents(graph),
        ),
        ToolSpec(
            "ground_answer",
            "Check an answer against the documents before giving it: each sentence comes "
            "back with its support (0 to 1), whether it is supported, and the sections and "
            "sentences that back it. Rewrite or drop unsupported sentences. Costs no tokens.",
            [
                ToolParam("answer", "string", "The text to check."),
                ToolParam(
                    "query",
                    "string",
                    "The question it answers, to find sections when node_ids is not given.",
                    required=False,
                ),
                ToolParam(
                    "node_ids",
                    "array",
                    "Check against these sections only.",
                    required=False,
                    items={"type": "string"},
                ),
            ],
            lambda answer, query=None, node_ids=None: _ground_answer(
                graph, answer, query, node_ids
            ),
        ),
        ToolSpec(
            "verify_relation",
            "Check a relation claim, 'object is the relation of subject', by a chain of "
            "relation facts: the graph's own facts (each proof hop cites its section), or the "
            "facts given as [subject, relation, object] triples. Grounded claims come with "
            "their proof; do not state ungrounded ones. Costs no tokens.",
            [
                ToolParam("subject", "string", "Where the chain starts."),
                ToolParam("relation", "string", "The relation to follow: 'parent', 'is_a'."),
                ToolParam("object", "string", "Where the chain must end."),
                ToolParam(
                    "facts",
                    "array",
                    "Facts to use instead of the graph's: [subject, relation, object] each.",
                    required=False,
                    items={"type": "array", "items": {"type": "string"}},
                ),
            ],
            lambda subject, relation, object, facts=None: _verify_relation(
                graph, subject, relation, object, facts
            ),
        ),
    ]


def _write_tools(graph: DocumentGraph) -> list[ToolSpec]:
    return [
        ToolSpec(
            "got_add_document",
            "Add a markdown document (a document with the same title replaces it). "
            "Returns its document id.",
            [
                ToolParam("content", "string", "The document's markdown text."),
                ToolParam("title", "string", "The document's title."),
            ],
            lambda content, title: graph.add_document(content, title).doc_id,
        ),
        ToolSpec(
            "got_remove_document",
            "Remove a document and everything in it. Returns true if it was there.",
            [ToolParam("doc_id", "string", "A document id from got_list_documents.")],
            lambda doc_id: graph.remove_document(doc_id) is not None,
        ),
    ]


def got_tools(
    graph: DocumentGraph,
    reasoner: GroundedGraphOfThought | None = None,
    writable: bool = False,
) -> list[ToolSpec]:
    """Tool specs over ``graph``: read tools, write tools if ``writable``, then ``got_reason``
    if a reasoner is given."""
    tools = _read_tools(graph)
    if writable:
        tools += _write_tools(graph)
    if reasoner is not None:
        tools.append(
            ToolSpec(
                "got_reason",
                "Answer a question from the documents with a language model; every sentence "
                "is checked. Returns the answer, the sections cited and the sentences the "
                "documents do not support.",
                [ToolParam("question", "string", "The question to answer.")],
                lambda question: _reason(reasoner, question),
            )
        )
    return tools
