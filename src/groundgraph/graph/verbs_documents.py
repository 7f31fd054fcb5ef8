"""The document verbs of the table: writing documents, searching and reading them, and
saving the graph (the evidence verbs are in ``graph.verbs_evidence``).

``graph.verbs`` assembles these with the memory verbs (``graph.verbs_memory``) into
:data:`~groundgraph.graph.verbs.VERBS`, in the order listed here.
"""

from __future__ import annotations

from groundgraph.graph.bridge_limits import MAX_BRIDGE_HOPS, MAX_BRIDGES
from groundgraph.graph.verb_schema import Param, ToolView, VerbDoc
from groundgraph.search.choices import FUSIONS, SEARCH_MODES, WALKERS

_WORKERS = Param(
    "Processes that read and parse files alongside the writer "
    "(default: GROUNDGRAPH_WORKERS, else one per core but one; 0: none).",
    minimum=0,
    maximum=64,
)
_NODE_ID = "A node id from search or outline."
#: ``scopes`` of a view: what it shows of the documents (``graph.document_scope``).
READ_AS = Param(
    "Read as these scopes: only documents they may read (a scope reads its ancestors; a "
    "document without scopes only an unscoped read); another's id is unknown."
)
_DOC_ID = "A document id (see documents, or groundgraph stats --docs)."

#: The options of a search (every verb that runs one takes them).
_SEARCH_OPTIONS: dict[str, Param] = {
    "max_results": Param("Hits to return.", minimum=1),
    "max_seeds": Param("BM25 seeds.", minimum=0),
    "max_hops": Param("Walk length.", minimum=0),
    "damping": Param("Score kept per step of the walk.", exclusive_minimum=0, maximum=1),
    "min_score": Param("Paths scoring less stop.", minimum=0, maximum=1),
    "max_activated": Param("Most nodes one walk may reach.", minimum=1),
    "doc_ids": Param("Only these documents."),
    "walker": Param("'bounded' (best-first walk) or 'ppr' (personalized PageRank).", enum=WALKERS),
    "fusion": Param("'noisy-or', or 'linear' (weighted by graph_weight).", enum=FUSIONS),
    "graph_weight": Param("The graph's weight in linear fusion.", minimum=0, maximum=1),
    "scopes": Param(
        "Only what these scopes may read (facts of the scope and its ancestors); "
        "nothing else is walked through."
    ),
    "search_mode": Param(
        "Seeds: 'keyword' (BM25), 'embedding' (nearest by cosine) or 'hybrid' (both, "
        "fused by reciprocal rank); the last two need an embedder.",
        enum=SEARCH_MODES,
    ),
    "rrf_k": Param("The k of reciprocal-rank fusion: 1/(k + rank).", minimum=1),
    "top_k": Param("Another name for max_results (GraphRack's).", minimum=1),
}

SEARCH_TOOL = ToolView(
    "got_search",
    "Search the documents. Returns the best matching sections with their node ids, "
    "a score, how each was reached (a direct match or a link from another section) "
    "and the start of its text. Read a whole section with got_read_node.",
    ("query", "max_results"),
    docs={"max_results": "How many sections to return, 1 to 50 (default 8)."},
)

#: Documents, reading, evidence and grounding: the first verbs of the table.
DOCUMENT_VERBS: tuple[VerbDoc, ...] = (
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
            "scopes": Param(
                "The scopes that may read it (and the scopes below them); none: only an "
                "unscoped read."
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
        "add_record",
        "Add a plain-text document by id, as a JSON Lines record; returns the graph (chains).",
        writes=True,
        params={
            "doc_id": Param("Its id, also its title."),
            "text": Param("The document's plain text."),
        },
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
            "force": Param("Read and replace every file, changed or not."),
            "scopes": Param(
                "The scopes that read the documents it adds; a file stored for others is "
                "read again."
            ),
            "may_replace": Param(
                "Which stored documents it may replace (default: any).", python_only=True
            ),
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
            **_SEARCH_OPTIONS,
        },
        cli=("search",),
        tools=(SEARCH_TOOL,),
    ),
    VerbDoc(
        "why_not",
        "Why a node or document is not among a search's hits: the stage it fell out at, "
        "and one option change, rerun, that brings it in.",
        writes=False,
        params={
            "query": Param("The query the target did not come for."),
            "target": Param("A node id, or a document id (any of its nodes counts)."),
            **_SEARCH_OPTIONS,
        },
        cli=("why-not",),
        tools=(
            ToolView(
                "got_why_not",
                "Explain why a section did not come up for a query: where it fell out "
                "(no word in common, below the seeds, the walk stopped, outranked, outside "
                "the scopes, retired, or no such id), with the figures of that stage and the "
                "smallest change of one search option that brings it into the results, "
                "checked by running the search again.",
                ("query", "target", "max_results"),
                docs={
                    "target": "A node id (from got_search or got_outline) or a document id.",
                    "max_results": "The number of results it was expected among (default 8).",
                },
            ),
        ),
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
        params={
            "doc_id": Param(_DOC_ID),
            "max_depth": Param("Deepest heading level shown."),
            "scopes": READ_AS,
        },
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
        params={"node_id": Param(_NODE_ID), "scopes": READ_AS},
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
        "node",
        "The node record with this id.",
        writes=False,
        params={"node_id": Param(_NODE_ID), "scopes": READ_AS},
    ),
    VerbDoc(
        "documents",
        "Every document: id, title, description, source and node count.",
        writes=False,
        params={"scopes": READ_AS},
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
        tools=(
            ToolView(
                "got_ask",
                "Answer a question with sentences copied from the documents, each citing its "
                "section; or say the evidence is too thin to answer. No language model.",
                ("question", "max_sentences"),
            ),
        ),
    ),
    VerbDoc(
        "bridge",
        "Shortest paths between two entities (by name), nodes (by id) or words, each hop cited.",
        writes=False,
        params={
            "a": Param("One end: an entity's name, a node id, or a word of the documents."),
            "b": Param("The other end."),
            "max_hops": Param("Longest path, in hops.", minimum=1, maximum=MAX_BRIDGE_HOPS),
            "k": Param("How many paths.", minimum=1, maximum=MAX_BRIDGES),
            "scopes": READ_AS,
        },
        cli=("bridge",),
        tools=(
            ToolView(
                "got_bridge",
                "How two things are connected: the shortest paths between two entities (by "
                "name), sections (by node id) or words, each hop citing the section it uses.",
                ("a", "b", "max_hops", "k"),
            ),
        ),
    ),
)

#: Saving and loading the whole graph: the last verbs of the table.
SAVED_GRAPH_VERBS: tuple[VerbDoc, ...] = (
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
        "save",
        "Write the whole graph to one JSON file (the to_json format); load reads it back.",
        writes=True,
        params={"path": Param("The file to write.", python_only=True)},
        cli=("export",),
    ),
    VerbDoc(
        "load",
        "Import a saved graph file; documents with the same ids are replaced.",
        writes=True,
        params={"path": Param("A file written by save or export.", python_only=True)},
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
