"""The verb table: every public verb of :class:`DocumentGraph`, listed once.

Each entry adds to the method's signature only what the signature lacks: a one-line
summary, a one-line doc per parameter, read or write, JSON-schema hints where the code
checks values (enums, bounds) and the CLI commands and agent tools that expose it.
Parameter names, kinds, defaults, annotations and the result type are read from the
method itself (``graph.verb_schema.build_verb``) when the verb is first looked up (so
naming one verb imports only its part), and an entry that disagrees with its method
fails there; the tests build every verb. The CLI reads its help text and defaults here,
the agent tools their descriptions, parameter schemas and read/write flags; the HTTP API
and MCP server are meant to be loops over :data:`VERBS`.

To add a verb: write the method on the facade, then one ``VerbDoc`` in its group's table:
``graph.verbs_documents`` (documents, search, evidence, grounding, saved graphs) or
``graph.verbs_memory`` (facts, recall, causes, lifecycle). This module assembles them.

    from groundgraph.graph.verbs import VERBS
    VERBS["search"].param("max_hops").default       # 2
    VERBS["search"].input_schema()                   # the JSON schema of its arguments
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from groundgraph.graph.verb_schema import (
    Param,
    ToolView,
    Verb,
    VerbDoc,
    VerbTableError,
    build_verb,
)
from groundgraph.graph.verbs_documents import DOCUMENT_VERBS, SAVED_GRAPH_VERBS
from groundgraph.graph.verbs_documents import SEARCH_TOOL as SEARCH_TOOL
from groundgraph.graph.verbs_evidence import EVIDENCE_VERBS
from groundgraph.graph.verbs_memory import MEMORY_VERBS

#: Names the facade and its parts import only for type checking (the relation verifier
#: would load scipy; the views' and why-not records are not needed to search): their
#: annotations stay names.
TYPE_NAMES: Mapping[str, Any] = {
    name: name for name in ("GroundedReasoner", "WhyNot", "NodeView", "DocumentInfo", "GraphStats")
}

#: Public methods that are not verbs, and why.
EXCLUDED: Mapping[str, str] = {
    "close": "ends the graph's life (the context manager calls it), not a verb on its content",
    "from_json": "a constructor: a classmethod that builds a new graph from to_json output",
    "open_searcher": "a constructor: a classmethod that opens a store read-only as a searcher",
    "graph_matrix": "the walkers' sparse matrix, a derived index rather than a verb",
    "searcher": "gives the read half of the graph as an object (graph.searcher), not a verb",
    "index": "the lexical index (a property), for inspection and benchmarks; not a verb",
    "linker": "the semantic-link index (a property); not a verb",
    "memory_settings": "the memory options the graph was made with (a property)",
    "entity_extractor": "the entity extractor the graph was made with (a property)",
    "relation_extractor": "the relation extractor the graph was made with (a property)",
    "plan_index": "index_files's preview over planned files (groundgraph index --dry-run)",
    # The parts the verbs delegate to, made on first use (so they show on the class).
    "writer": "the part that writes documents (its methods are the document write verbs)",
    "saved": "the part that imports and exports saved graphs (load_json_documents, save, load)",
    "grounder": "the part behind support and ground (its methods are the grounding verbs)",
    "memory": "the agent-memory part (its writes, recall, causes, history and lifecycle)",
    "memory_reads": "the memory's reads with the read options flat (query, trace_effects...)",
}

#: Every verb entry, in table order: documents, memory, saved graphs.
TABLE: tuple[VerbDoc, ...] = (*DOCUMENT_VERBS, *EVIDENCE_VERBS, *MEMORY_VERBS, *SAVED_GRAPH_VERBS)


#: Verbs that are not DocumentGraph methods but are exposed as agent tools: the callable
#: named ``module:attribute`` is imported on first use (it may load scipy).
COMPANIONS: Mapping[str, tuple[str, VerbDoc]] = {
    "verify_relation": (
        "groundgraph.reason.relations.tool:verify_relation",
        VerbDoc(
            "verify_relation",
            "Is object the relation of subject? A proof from the facts, or a refusal.",
            writes=False,
            params={
                "facts": Param(
                    "Facts to use instead of the graph's: [subject, relation, object] each.",
                    schema={
                        "type": "array",
                        "items": {"type": "array", "items": {"type": "string"}},
                    },
                ),
                "subject": Param("Where the chain starts.", schema={"type": "string"}),
                "relation": Param(
                    "The relation to follow: 'parent', 'is_a'.", schema={"type": "string"}
                ),
                "object": Param("Where the chain must end.", schema={"type": "string"}),
            },
            cli=("verify",),
            tools=(
                ToolView(
                    "verify_relation",
                    "Check a relation claim, 'object is the relation of subject', by a chain of "
                    "relation facts: the graph's own facts (each proof hop cites its section), or "
                    "the facts given as [subject, relation, object] triples. Grounded claims come "
                    "with their proof; do not state ungrounded ones. Costs no tokens.",
                    ("subject", "relation", "object", "facts"),
                    optional=("facts",),
                ),
            ),
        ),
    ),
    "reason": (
        "groundgraph.reason.thought:GroundedGraphOfThought.reason",
        VerbDoc(
            "reason",
            "Answer a question from the documents with an LLM; every sentence is checked.",
            writes=False,
            params={
                "question": Param("The question to answer."),
                "plan": Param(
                    "The operations to run (default: the default plan).", python_only=True
                ),
            },
            cli=("reason",),
            tools=(
                ToolView(
                    "got_reason",
                    "Answer a question from the documents with a language model; every sentence "
                    "is checked. Returns the answer, the sections cited and the sentences the "
                    "documents do not support.",
                    ("question",),
                ),
            ),
        ),
    ),
}


class _VerbTable(Mapping[str, Verb]):
    """The table's verbs, each built from its method when first looked up: naming a verb
    (the CLI's ``search`` reads its help here) imports only the part that has its method,
    not every part of the facade (issue 12, cold start). Iterating builds them all."""

    def __init__(self, entries: tuple[VerbDoc, ...]) -> None:
        self._entries: dict[str, VerbDoc] = {}
        for entry in entries:
            if entry.name in self._entries or entry.name in EXCLUDED:
                raise VerbTableError(f"verb {entry.name!r} is listed twice")
            self._entries[entry.name] = entry
        self._built: dict[str, Verb] = {}

    def __getitem__(self, name: str) -> Verb:
        found = self._built.get(name)
        if found is None:
            entry = self._entries[name]  # KeyError for a name that is not a verb
            if entry.extends is not None and entry.extends in self._entries:
                self[entry.extends]  # built first: the verb forwards its options
            # The facade (and numpy with its indexes) is imported by the first verb built,
            # not by this module: naming a verb's summary loads neither (issue 12).
            from groundgraph.graph.document_graph import DocumentGraph

            method = getattr(DocumentGraph, name, None)
            if method is None:
                raise VerbTableError(f"DocumentGraph has no verb {name!r}")
            found = self._built[name] = build_verb(entry, method, self._earlier(name), TYPE_NAMES)
        return found

    def _earlier(self, name: str) -> dict[str, Verb]:
        """The verbs listed before ``name`` that are built (what ``extends`` may name)."""
        earlier = {}
        for listed in self._entries:
            if listed == name:
                break
            if listed in self._built:
                earlier[listed] = self._built[listed]
        return earlier

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries


#: Every verb of DocumentGraph, in table order (each built on first lookup).
VERBS: Mapping[str, Verb] = _VerbTable(TABLE)


@cache
def companion(name: str) -> Verb:
    """A companion verb (``COMPANIONS``), built from its callable on first use."""
    if name not in COMPANIONS:
        raise VerbTableError(f"no companion verb {name!r}; they are {', '.join(COMPANIONS)}")
    where, entry = COMPANIONS[name]
    module, _, path = where.partition(":")
    target: Any = importlib.import_module(module)
    for attribute in path.split("."):
        target = getattr(target, attribute)
    return build_verb(entry, target, VERBS, TYPE_NAMES)


def verb(name: str) -> Verb:
    """A verb of the table or a companion, by name."""
    return VERBS[name] if name in VERBS else companion(name)


def verb_summary(name: str) -> str:
    """The one-line summary of a verb of the table or a companion, read from its entry:
    nothing is built, so neither the facade nor numpy is imported."""
    for entry in (*TABLE, *(listed for _, listed in COMPANIONS.values())):
        if entry.name == name:
            return entry.summary
    raise VerbTableError(f"no verb {name!r}")


def tool_view(tool: str) -> tuple[Verb, ToolView]:
    """The verb behind an agent tool, and the tool's view of it."""
    for found in VERBS.values():
        for view in found.tools:
            if view.name == tool:
                return found, view
    for name, (_, entry) in COMPANIONS.items():
        if any(view.name == tool for view in entry.tools):
            found = companion(name)
            return found, found.tool(tool)
    raise VerbTableError(f"no verb exposes the tool {tool!r}")
