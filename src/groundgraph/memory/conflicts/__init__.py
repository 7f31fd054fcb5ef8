"""Contradictions between memory facts: which earlier facts does a new one retire?

``resolvers`` holds the ``ConflictResolver`` protocol and the two that ship (rules, LLM),
``nli`` an adapter for an NLI cross-encoder (``pip install sentence-transformers``);
the rule resolver reads claims (``rules``, with ``patterns``, ``lexicon``, ``values`` and
``negation``) and, for updates announced by their shape, changes (``changes``: the rules in
``ended``, ``moved``, ``holders``, ``handover``, ``appointed`` and ``replaced``, over
``phrases``, ``anchors``, ``words`` and ``typed``, held back by ``nonchange``);
``candidates`` picks the earlier facts a new fact is checked against and maps the
resolver's answer back to fact ids.
"""

from groundgraph.memory.conflicts.nli import NLIConflictResolver
from groundgraph.memory.conflicts.resolvers import (
    MAX_CANDIDATES,
    MAX_REPLY_CHARS,
    ConflictResolver,
    Contradiction,
    LLMConflictResolver,
    ParseFailure,
    RuleConflictResolver,
    parse_verdict,
)
from groundgraph.memory.conflicts.rules import Claim, parse_claims

__all__ = [
    "MAX_CANDIDATES",
    "MAX_REPLY_CHARS",
    "Claim",
    "ConflictResolver",
    "Contradiction",
    "LLMConflictResolver",
    "NLIConflictResolver",
    "ParseFailure",
    "RuleConflictResolver",
    "parse_claims",
    "parse_verdict",
]
