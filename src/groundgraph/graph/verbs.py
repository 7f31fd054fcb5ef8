"""The verb table: every public verb of :class:`DocumentGraph`, listed once.

Each entry adds to the method's signature only what the signature lacks: a one-line
summary, a one-line doc per parameter, read or write, JSON-schema hints where the code
checks values (enums, bounds) and the CLI commands and agent tools that expose it.
Parameter names, kinds, defaults, annotations and the result type are read from the
method itself (``graph.verb_schema.build_verb``), so an entry that disagrees with its
method fails on import. The CLI reads its help text and defaults here, the agent tools
their descriptions, parameter schemas and read/write flags; the HTTP API and MCP server
are meant to be loops over :data:`VERBS`.

To add a verb: write the method on the facade, then one ``VerbDoc`` here.

    from groundgraph.graph.verbs import VERBS
    VERBS["search"].param("max_hops").default       # 2
    VERBS["search"].input_schema()                   # the JSON schema of its arguments
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Any

from groundgraph.graph.bridges import MAX_BRIDGE_HOPS, MAX_BRIDGES
from groundgraph.graph.document_graph import DocumentGraph
from groundgraph.graph.verb_schema import (
    Param,
    ToolView,
    Verb,
    VerbDoc,
    VerbTableError,
    build_verb,
)
from groundgraph.memory.causal_graph import DIRECTIONS
from groundgraph.memory.recall import MAX_HOPS, MAX_TOP_K, MAX_VISITED
from groundgraph.reason.ground import MAX_CANDIDATES
from groundgraph.search import FUSIONS, WALKERS

#: Names the facade imports only for type checking (importing them would load scipy):
#: their annotations stay names.
TYPE_NAMES: Mapping[str, Any] = {"GroundedReasoner": "GroundedReasoner"}

#: Public methods that are not verbs, and why.
EXCLUDED: Mapping[str, str] = {
    "close": "ends the graph's life (the context manager calls it), not a verb on its content",
    "from_json": "a constructor: a classmethod that builds a new graph from to_json output",
    "graph_matrix": "the walkers' sparse matrix, a derived index rather than a verb",
    "index": "the lexical index (a property), for inspection and benchmarks; not a verb",
    "linker": "the semantic-link index (a property); not a verb",
    "entity_extractor": "the entity extractor the graph was made with (a property)",
    "relation_extractor": "the relation extractor the graph was made with (a property)",
}

_DATE_TIME = {"type": ["string", "null"], "format": "date-time"}
#: The read options every memory read takes.
_READS: dict[str, Param] = {
    "scopes": Param("Read as these scopes (a scope also reads its parents)."),
    "isolate": Param("Stay inside the scopes (default: the walk may cross into others)."),
    "include_superseded": Param("Also use retired (superseded) facts."),
    "as_of": Param("Answer as the memory stood then (ISO).", schema=_DATE_TIME),
}
_VISITED = Param("Most nodes the walk may settle.", minimum=1, maximum=MAX_VISITED)
_DEPTH = Param("Longest chain, in hops.", minimum=1, maximum=MAX_HOPS * 4)
_HOPS = Param("Fact-to-fact hops of the walk.", minimum=0, maximum=MAX_HOPS)
_WORKERS = Param(
    "Processes that read and parse files alongside the writer "
    "(default: GROUNDGRAPH_WORKERS, else one per core but one; 0: none).",
    minimum=0,
    maximum=64,
)
_NODE_ID = "A node id from search or outline."
_DOC_ID = "A document id (see documents, or groundgraph stats --docs)."
_FACT = "A fact: its id or its text."
_CAUSE = "A fact (its id or text) or a cause/effect phrase."
_ADD_OPTIONS: dict[str, Param] = {
    "extractor": Param("Replaces the entity extractor (names or Mention spans).", python_only=True),
    "causal": Param(
        "False: do not look for cause -> effect pairs; a callable replaces the extractor.",
        schema={"type": ["boolean", "null"]},
    ),
    "dedup_threshold": Param(
        "Near-duplicate threshold in (0, 1] (default: the graph's).",
        exclusive_minimum=0,
        maximum=1,
    ),
    "resolve_conflicts": Param("False: do not check for contradicted facts."),
    "source": Param("Who or what said it (kept as provenance)."),
}

SEARCH_TOOL = ToolView(
    "got_search",
    "Search the documents. Returns the best matching sections with their node ids, "
    "a score, how each was reached (a direct match or a link from another section) "
    "and the start of its text. Read a whole section with got_read_node.",
    ("query", "max_results"),
    docs={"max_results": "How many sections to return, 1 to 50 (default 8)."},
)

# ----------------------------------------------------------------------------- the table
TABLE: tuple[VerbDoc, ...] = (
    # documents
    VerbDoc(
        "add_document",
        "Add a markdown (or plain text) document; the same id replaces it.",
        writes=True,
        params={
            "content": Param("The document's markdown text."),
            "title": Param("The document's title."),
            "doc_id": Param("Its id (default: made from the title)."),
            "description": Param("A one-line description."),
            "source": Param("Where it came from: a path or URL."),
            "format": Param(
                "'markdown' (headings make sections) or 'text'.", enum=("markdown", "text")
            ),
        },
        tools=(
            ToolView(
                "got_add_document",
                "Add a markdown document (a document with the same title replaces it). "
                "Returns its document id.",
                ("content", "title"),
            ),
        ),
    ),
    VerbDoc(
        "add_documents",
        "Add many parsed documents, one transaction each; yields each as it lands.",
        writes=True,
        params={
            "parsed": Param("Parsed documents (groundgraph.ingest).", python_only=True),
            "workers": _WORKERS,
        },
    ),
    VerbDoc(
        "add_parsed",
        "Store one parsed document and link it into the graph, in one transaction.",
        writes=True,
        params={"parsed": Param("A parsed document (groundgraph.ingest).", python_only=True)},
    ),
    VerbDoc(
        "add_prepared",
        "Store a prepared document (graph.prepare) and link it into the graph.",
        writes=True,
        params={"prepared": Param("A prepared document.", python_only=True)},
    ),
    VerbDoc(
        "index_files",
        "Index files and folders (.md .markdown .txt .jsonl); the same document id replaces.",
        writes=True,
        params={
            "files": Param("Planned files (ingest.plan_folder).", python_only=True),
            "workers": _WORKERS,
        },
        cli=("index",),
    ),
    VerbDoc(
        "remove_document",
        "Remove a document and everything that touches it.",
        writes=True,
        params={"doc_id": Param(_DOC_ID)},
        cli=("remove",),
        tools=(
            ToolView(
                "got_remove_document",
                "Remove a document and everything in it. Returns true if it was there.",
                ("doc_id",),
                docs={"doc_id": "A document id from got_list_documents."},
            ),
        ),
    ),
    VerbDoc(
        "save_index",
        "Keep a snapshot of the lexical index in the store for a fast cold start.",
        writes=True,
    ),
    # reading
    VerbDoc(
        "search",
        "Search: BM25 seeds, a walk along links, and how each hit was reached.",
        writes=False,
        params={
            "query": Param("What to look for, in a few words."),
            "max_results": Param("Hits to return.", minimum=1),
            "max_seeds": Param("BM25 seeds.", minimum=0),
            "max_hops": Param("Walk length.", minimum=0),
            "damping": Param("Score kept per step of the walk.", exclusive_minimum=0, maximum=1),
            "min_score": Param("Paths scoring less stop.", minimum=0, maximum=1),
            "max_activated": Param("Most nodes one walk may reach.", minimum=1),
            "doc_ids": Param("Only these documents."),
            "walker": Param(
                "'bounded' (best-first walk) or 'ppr' (personalized PageRank).", enum=WALKERS
            ),
            "fusion": Param("'noisy-or', or 'linear' (weighted by graph_weight).", enum=FUSIONS),
            "graph_weight": Param("The graph's weight in linear fusion.", minimum=0, maximum=1),
            "scopes": Param(
                "Only what these scopes may read (facts of the scope and its ancestors); "
                "nothing else is walked through."
            ),
        },
        cli=("search",),
        tools=(SEARCH_TOOL,),
    ),
    VerbDoc(
        "retrieve",
        "The hits as '### title [nodeId]' blocks, to hand to a language model.",
        writes=False,
        params={"query": Param("What to look for, in a few words.")},
        cli=("retrieve",),
        extends="search",
    ),
    VerbDoc(
        "outline",
        "A document's table of contents with node ids.",
        writes=False,
        params={"doc_id": Param(_DOC_ID), "max_depth": Param("Deepest heading level shown.")},
        cli=("outline",),
        tools=(
            ToolView(
                "got_outline",
                "A document's table of contents, one '- [nodeId] title' line per section.",
                ("doc_id",),
                docs={"doc_id": "A document id from got_list_documents."},
            ),
        ),
    ),
    VerbDoc(
        "show",
        "A node with its parent, children and links.",
        writes=False,
        params={"node_id": Param(_NODE_ID)},
        cli=("show",),
        tools=(
            ToolView(
                "got_read_node",
                "Read one section in full: its text, its parent, its children and the sections "
                "it links to.",
                ("node_id",),
                docs={"node_id": "A node id from got_search or got_outline."},
            ),
        ),
    ),
    VerbDoc(
        "node", "The node record with this id.", writes=False, params={"node_id": Param(_NODE_ID)}
    ),
    VerbDoc(
        "documents",
        "Every document: id, title, description, source and node count.",
        writes=False,
        cli=("stats",),
        tools=(
            ToolView("got_list_documents", "Every document: its id, title and number of nodes."),
        ),
    ),
    VerbDoc(
        "stats",
        "Counts of documents, nodes, edges by type and terms.",
        writes=False,
        cli=("stats",),
    ),
    # evidence
    VerbDoc(
        "ask",
        "Answer with sentences copied from the documents, cited; or say the evidence is thin.",
        writes=False,
        params={
            "question": Param("The question to answer."),
            "threshold": Param("Least score that answers."),
            "max_sentences": Param("Most sentences in the answer."),
        },
        cli=("ask",),
        extends="search",
    ),
    VerbDoc(
        "bridge",
        "Shortest paths between two entities (by name) or nodes (by id), each hop cited.",
        writes=False,
        params={
            "a": Param("One end: an entity's name or a node id."),
            "b": Param("The other end."),
            "max_hops": Param("Longest path, in hops.", minimum=1, maximum=MAX_BRIDGE_HOPS),
            "k": Param("How many paths.", minimum=1, maximum=MAX_BRIDGES),
        },
        cli=("bridge",),
    ),
    VerbDoc(
        "add_fact",
        "Record 'obj is the relation of subject', asserted by node source if given.",
        writes=True,
        params={
            "subject": Param("Where the relation starts."),
            "relation": Param("The relation: 'parent', 'is_a'."),
            "obj": Param("Where it ends."),
            "source": Param("The node that asserts it."),
        },
    ),
    VerbDoc(
        "reasoner",
        "A relation verifier over the graph's relation facts; proof hops cite sections.",
        writes=False,
        params={"options": Param("GroundedReasoner options.", python_only=True)},
    ),
    # grounding
    VerbDoc(
        "support",
        "How much of a claim's rare-word weight up to max_nodes of the nodes cover.",
        writes=False,
        params={
            "claim": Param("The sentence to check."),
            "node_ids": Param("The nodes that may back it."),
            "max_nodes": Param("Sections that may back one claim."),
        },
    ),
    VerbDoc(
        "ground",
        "Check each sentence of an answer against the documents.",
        writes=False,
        params={
            "answer": Param("The text to check."),
            "node_ids": Param("Check against these sections only (default: search per claim)."),
            "query": Param("The question it answers: searched once for evidence instead."),
            "min_support": Param(
                "Share of a claim's rare-word weight its sections must cover.",
                minimum=0,
                maximum=1,
            ),
            "verify": Param(
                "A (claim, evidence) -> probability check, e.g. an NLI model.", python_only=True
            ),
            "max_nodes": Param("Sections that may back one claim."),
            "check_numbers": Param("Reject a claim whose numbers are not in its sections."),
            "check_names": Param("Reject a claim whose names are not in its sections."),
            "check_links": Param("Reject sections that add only a name."),
            "check_code": Param("Reject a claim whose code is not written in its sections."),
            "max_candidates": Param(
                "Search hits each claim draws evidence from.", minimum=1, maximum=MAX_CANDIDATES
            ),
        },
        cli=("ground",),
        tools=(
            ToolView(
                "ground_answer",
                "Check an answer against the documents before giving it: each sentence comes "
                "back with its support (0 to 1), whether it is supported, and the sections and "
                "sentences that back it. Rewrite or drop unsupported sentences. Costs no tokens.",
                ("answer", "query", "node_ids"),
                docs={
                    "query": "The question it answers, to find sections when node_ids is not "
                    "given.",
                    "node_ids": "Check against these sections only.",
                },
            ),
        ),
    ),
    VerbDoc(
        "candidate_nodes",
        "Ids of the top search hits for a text (entities left out).",
        writes=False,
        params={"text": Param("The text to search for."), "limit": Param("Hits to return.")},
    ),
    VerbDoc(
        "idf",
        "The BM25 idf of an analysed term.",
        writes=False,
        params={"term": Param("An analysed term.")},
    ),
    VerbDoc(
        "node_texts",
        "Title and content of each node the graph holds (others left out).",
        writes=False,
        params={"node_ids": Param("The nodes to read.")},
    ),
    VerbDoc(
        "sections",
        "Title, content and where the content starts in the source, per node held.",
        writes=False,
        params={"node_ids": Param("The nodes to read.")},
    ),
    VerbDoc(
        "terms",
        "The analysed terms of a text, as the index sees them.",
        writes=False,
        params={"text": Param("The text to analyse.")},
    ),
    # memory writes
    VerbDoc(
        "add_text",
        "Remember one fact; returns it as stored (its status says what happened).",
        writes=True,
        params={
            "text": Param("The fact."),
            "scopes": Param("The fact's scopes: who may read it."),
            **_ADD_OPTIONS,
        },
    ),
    VerbDoc(
        "add_texts",
        "Remember facts in order, each as add_text would (one transaction each).",
        writes=True,
        params={
            "texts": Param("The facts, in order."),
            "scopes": Param("The facts' scopes: who may read them."),
            **_ADD_OPTIONS,
        },
        cli=("memory add",),
    ),
    VerbDoc(
        "supersede",
        "Replace a fact by a new one; the old one is retired, its history kept.",
        writes=True,
        params={
            "old": Param("The fact to replace: its id or its text."),
            "new_text": Param("The fact that replaces it."),
            "scopes": Param("The new fact's scopes (default: the old one's)."),
            "source": Param("Who or what said it (kept as provenance)."),
            "rule": Param(
                "Why, as the history records it.",
                schema={"type": "string", "minLength": 1, "maxLength": 100},
            ),
        },
    ),
    VerbDoc(
        "load_dataset",
        "Add a built-in dataset's facts (see groundgraph.memory.dataset_names()).",
        writes=True,
        params={
            "name": Param("The dataset's name."),
            "scopes": Param("Give every fact these scopes instead."),
        },
        cli=("memory load",),
    ),
    # memory reads
    VerbDoc(
        "fact",
        "The fact named by its id or its text, as held now.",
        writes=False,
        params={"content": Param(_FACT)},
    ),
    VerbDoc(
        "query",
        "The texts of the facts best for a query, best first.",
        writes=False,
        params={
            "query": Param("What to recall."),
            "top_k": Param("Facts to return.", minimum=1, maximum=MAX_TOP_K),
            "hops": _HOPS,
            **_READS,
            "recency_weight": Param("Weight of recency in [0, 1].", minimum=0, maximum=1),
            "max_visited": _VISITED,
        },
    ),
    VerbDoc(
        "query_detailed",
        "Recall the facts best for a query, each with how it was found.",
        writes=False,
        params={
            "query": Param("What to recall."),
            "top_k": Param("Facts to return.", minimum=1, maximum=MAX_TOP_K),
            "hops": _HOPS,
            **_READS,
            "recency_weight": Param("Weight of recency in [0, 1].", minimum=0, maximum=1),
            "max_visited": _VISITED,
        },
        cli=("memory query",),
    ),
    VerbDoc(
        "discover",
        "Facts and the paths that connect them, with their cause -> effect pairs.",
        writes=False,
        params={
            "query": Param("What to start from."),
            "top_k": Param("Facts to start from.", minimum=1, maximum=MAX_TOP_K),
            "hops": _HOPS,
            **_READS,
            "max_results": Param("Facts to return.", minimum=1, maximum=MAX_TOP_K),
            "max_visited": _VISITED,
        },
        cli=("memory discover",),
    ),
    VerbDoc(
        "answer",
        "An answer from the recalled facts (no model), each sentence with its fact.",
        writes=False,
        params={
            "query": Param("The question."),
            "top_k": Param("Facts to answer from.", minimum=1, maximum=MAX_TOP_K),
            "hops": _HOPS,
            **_READS,
            "synthesizer": Param(
                "Writes the answer from the facts (default: the graph's, else extractive).",
                python_only=True,
            ),
            "min_support": Param("Share of a sentence its facts must support."),
            "max_visited": _VISITED,
        },
        cli=("memory answer",),
    ),
    # causal reads
    *(
        VerbDoc(
            name,
            summary,
            writes=False,
            params={
                "content": Param(_CAUSE),
                "max_depth": _DEPTH,
                **_READS,
                "max_visited": _VISITED,
            },
            cli=("memory trace",),
        )
        for name, summary in (
            ("trace_effects", "What follows from a fact or a cause phrase, hop by hop, cited."),
            ("trace_causes", "What led to a fact or an effect phrase, hop by hop, cited."),
            ("root_causes", "The causes nothing visible explains further."),
        )
    ),
    VerbDoc(
        "causal_chain",
        "The shortest run of cause -> effect hops from one fact to another, each cited.",
        writes=False,
        params={
            "from_content": Param(_CAUSE),
            "to_content": Param("Find the causal chain to this fact."),
            "max_depth": _DEPTH,
            **_READS,
            "max_visited": _VISITED,
        },
        cli=("memory trace",),
    ),
    VerbDoc(
        "what_if",
        "What would collapse if a fact were false (nothing is changed).",
        writes=False,
        params={
            "content": Param("The fact supposed false: its id or its text."),
            "origin": Param("Measure from this fact (default: the pruned one)."),
            "direction": Param("Which side of the origin to check.", enum=DIRECTIONS),
            "max_depth": _DEPTH,
            **_READS,
            "max_visited": _VISITED,
        },
        cli=("memory what-if",),
    ),
    # memory lifecycle
    VerbDoc(
        "supersession_history",
        "What a fact replaced, what replaced it, and every change in its life.",
        writes=False,
        params={"fact": Param(_FACT), "scopes": Param("Read as these scopes.")},
        cli=("memory history",),
    ),
    VerbDoc(
        "conflicts",
        "The contradiction ledger: both facts, their provenance and the rule that fired.",
        writes=False,
        params={"scopes": Param("Read as these scopes.")},
        cli=("memory conflicts",),
    ),
    VerbDoc(
        "delete",
        "Remove a fact (by id or text) or a document, and report everything that went.",
        writes=True,
        params={
            "fact_or_doc": Param("A fact (its id or text) or a document id."),
            "purge_orphans": Param("Also erase them from the ledger and the indexes."),
        },
        cli=("memory forget",),
    ),
    VerbDoc(
        "delete_stale",
        "Delete every fact not read for forget_after days (the graph's setting).",
        writes=True,
        params={"now": Param("Stands in for the present (ISO).", schema=_DATE_TIME)},
        cli=("memory forget",),
    ),
    VerbDoc(
        "maybe_forget",
        "delete_stale, at most once per forget_every seconds; [] when not due.",
        writes=True,
    ),
    # saved graphs
    VerbDoc(
        "to_json", "Write the graph as graph-of-thought v2 JSON.", writes=False, cli=("export",)
    ),
    VerbDoc(
        "load_json",
        "Load a graph-of-thought v2 JSON graph; documents with the same ids are replaced.",
        writes=True,
        params={"data": Param("A saved graph (to_json output).", schema={"type": "object"})},
        cli=("import",),
    ),
    VerbDoc(
        "load_json_documents",
        "Add saved documents with their edges exactly as saved (no linking).",
        writes=True,
        params={
            "parsed": Param("The saved documents.", python_only=True),
            "extension": Param("The saved graph's extension records.", python_only=True),
        },
    ),
)

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


def _build() -> dict[str, Verb]:
    built: dict[str, Verb] = {}
    for entry in TABLE:
        if entry.name in built or entry.name in EXCLUDED:
            raise VerbTableError(f"verb {entry.name!r} is listed twice")
        method = getattr(DocumentGraph, entry.name, None)
        if method is None:
            raise VerbTableError(f"DocumentGraph has no verb {entry.name!r}")
        built[entry.name] = build_verb(entry, method, built, TYPE_NAMES)
    return built


#: Every verb of DocumentGraph, in table order.
VERBS: Mapping[str, Verb] = _build()


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
