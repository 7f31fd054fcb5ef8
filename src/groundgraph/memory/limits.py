"""The bounds of the memory's reads and the directions of its causal walks, in a module
of their own: the verb table (``graph.verbs_memory``) states them in its parameter
schemas, and naming them must not load the readers (issue 12, cold start)."""

from __future__ import annotations

#: Most facts one recall returns.
MAX_TOP_K = 1000
#: Most fact-to-fact hops of a recall's walk.
MAX_HOPS = 16
#: Most nodes one recall's walk may settle.
MAX_VISITED = 100_000

EFFECTS, CAUSES = "effects", "causes"
#: The ways a causal walk goes: from causes to their effects, or back.
DIRECTIONS = (EFFECTS, CAUSES)
