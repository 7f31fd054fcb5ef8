"""The memory verbs of the table: remembering facts, recalling them, tracing causes and
effects, and a fact's life (supersession, conflicts, forgetting).

``graph.verbs`` assembles these with the document verbs (``graph.verbs_documents``) into
:data:`~groundgraph.graph.verbs.VERBS`, in the order listed here.
"""

from __future__ import annotations

from groundgraph.graph.verb_schema import Param, VerbDoc
from groundgraph.memory.limits import DIRECTIONS, MAX_HOPS, MAX_TOP_K, MAX_VISITED
from groundgraph.search.choices import SEARCH_MODES

_DATE_TIME = {"type": ["string", "null"], "format": "date-time"}
#: The read options every memory read takes.
_READS: dict[str, Param] = {
    "scopes": Param("Read as these scopes (a scope also reads its parents)."),
    "isolate": Param("Stay inside the scopes (default: the walk may cross into others)."),
    "include_superseded": Param("Also use retired (superseded) facts."),
    "as_of": Param("Answer as the memory stood then (ISO).", schema=_DATE_TIME),
}
#: The seed options every recall verb takes (docs/embeddings.md).
_SEEDS: dict[str, Param] = {
    "search_mode": Param(
        "Seeds: 'keyword' (BM25), 'embedding' (nearest facts by cosine) or 'hybrid' (both, "
        "fused by reciprocal rank); the last two need an embedder.",
        enum=SEARCH_MODES,
    ),
    "rrf_k": Param("The k of reciprocal-rank fusion: 1/(k + rank).", minimum=1),
}
_VISITED = Param("Most nodes the walk may settle.", minimum=1, maximum=MAX_VISITED)
_DEPTH = Param("Longest chain, in hops.", minimum=1, maximum=MAX_HOPS * 4)
_HOPS = Param("Fact-to-fact hops of the walk.", minimum=0, maximum=MAX_HOPS)
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
    "causal_extractor": Param(
        "Replaces the causal extractor for this call (causal=False still turns it off).",
        python_only=True,
    ),
}

#: Memory writes and reads, causal reads and the memory lifecycle.
MEMORY_VERBS: tuple[VerbDoc, ...] = (
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
            "extractor": Param("Replaces the entity extractor for the new fact.", python_only=True),
            "purge_orphans": Param(
                "Erase the old fact (history, ledger lines, entities only it named) "
                "instead of retiring it."
            ),
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
    VerbDoc(
        "add_nodes",
        "Add ReasonGraph's (content, type) nodes: 'text' a fact, 'entity' a name.",
        writes=True,
        params={
            "nodes": Param(
                "(content, type) pairs; type 'text' or 'entity'.",
                schema={"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
            ),
            "scopes": Param("The new facts' scopes."),
        },
    ),
    VerbDoc(
        "add_edges",
        "Add (from, to[, label]) edges between facts and entities; label None or 'causes'.",
        writes=True,
        params={
            "edges": Param(
                "(from, to) or (from, to, label) triples of contents.",
                schema={"type": "array", "items": {"type": "array"}},
            ),
        },
    ),
    # memory reads
    VerbDoc(
        "get_all_nodes",
        "Every fact readable as the scopes, then the entities they name.",
        writes=False,
        params={"scopes": Param("Read as these scopes (default: all).")},
    ),
    VerbDoc(
        "get_all_edges",
        "Every edge the facts readable as the scopes assert.",
        writes=False,
        params={"scopes": Param("Read as these scopes (default: all).")},
    ),
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
            **_SEEDS,
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
            **_SEEDS,
        },
        cli=("memory query",),
    ),
    VerbDoc(
        "why_not_fact",
        "Why a fact is not among the facts a query recalls, and one option change that "
        "brings it in.",
        writes=False,
        params={
            "query": Param("The query the fact did not come for."),
            "fact": Param("The fact: its id (fact:...) or its text."),
            "top_k": Param("Facts it was expected among.", minimum=1, maximum=MAX_TOP_K),
            "hops": _HOPS,
            **_READS,
            "recency_weight": Param("Weight of recency in [0, 1].", minimum=0, maximum=1),
            "max_visited": _VISITED,
            **_SEEDS,
        },
        cli=("memory why-not",),
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
            **_SEEDS,
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
            **_SEEDS,
            "use_discover": Param(
                "Answer from what discover finds (facts and the entities linking them); "
                "false: from the top_k facts of query."
            ),
            "max_results": Param(
                "Facts to answer from when use_discover is on.", minimum=1, maximum=MAX_TOP_K
            ),
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
            "scopes": Param(
                "Take the fact out of these scopes only; it goes when none of its own is left."
            ),
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
)
