"""The bounds of grounding that the verb table (``graph.verbs_evidence``) states in its
parameter schemas, in a module of their own so that naming them does not load the
grounding rules (issue 12, cold start)."""

from __future__ import annotations

#: Most search hits one claim draws its evidence from.
MAX_CANDIDATES = 100
