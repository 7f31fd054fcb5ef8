"""The bounds of ``bridge`` that the verb table (``graph.verbs_documents``) states in its
parameter schemas, in a module of their own so that naming them does not load the path
search and the index (issue 12, cold start)."""

from __future__ import annotations

#: Most hops of one bridge path.
MAX_BRIDGE_HOPS = 6
#: Most bridge paths one call returns.
MAX_BRIDGES = 20
