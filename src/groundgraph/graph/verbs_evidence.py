"""The evidence verbs of the table: relation facts, support and grounding of claims, and
the index's own views (candidates, idf, terms, sections).

``graph.verbs`` puts them after the document verbs (``graph.verbs_documents``) in
:data:`~groundgraph.graph.verbs.VERBS`, in the order listed here.
"""

from __future__ import annotations

from groundgraph.graph.verb_schema import Param, ToolView, VerbDoc
from groundgraph.graph.verbs_documents import READ_AS
from groundgraph.reason.limits import MAX_CANDIDATES

EVIDENCE_VERBS: tuple[VerbDoc, ...] = (
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
            "check_anchors": Param(
                "Reject a claim whose numbers or names its sections hold only out of place."
            ),
            "check_substitutions": Param(
                "Reject a claim whose closest evidence sentence writes another number or name "
                "in its place."
            ),
            "check_negation": Param(
                "Reject a claim that denies what its closest evidence sentence affirms, or "
                "the reverse."
            ),
            "max_candidates": Param(
                "Search hits each claim draws evidence from.", minimum=1, maximum=MAX_CANDIDATES
            ),
            "scopes": READ_AS,
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
        "why_unsupported",
        "Why a section does not support a sentence: the rare-word weight it lacks or the "
        "rule that refused it, and the change that lets it pass.",
        writes=False,
        params={
            "sentence": Param("The sentence (one claim) to check."),
            "node_id": Param("The section expected to support it."),
            "min_support": Param(
                "Share of the claim's rare-word weight the section must cover.",
                minimum=0,
                maximum=1,
            ),
            "check_numbers": Param("Reject a claim whose numbers are not in the section."),
            "check_names": Param("Reject a claim whose names are not in the section."),
            "check_links": Param("Reject a section that adds only a name."),
            "check_code": Param("Reject a claim whose code is not written in the section."),
            "check_anchors": Param(
                "Reject a claim whose numbers or names the section holds only out of place."
            ),
            "check_substitutions": Param(
                "Reject a claim whose closest sentence writes another number or name in its place."
            ),
            "check_negation": Param(
                "Reject a claim that denies what its closest sentence affirms, or the reverse."
            ),
        },
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
)
