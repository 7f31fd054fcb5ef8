"""The values search's options take, in a module of their own: the verb table
(``graph.verbs_documents``, ``graph.verbs_memory``) states them as enums in its parameter
schemas, and naming them must not load the search pipeline and numpy (issue 12, cold
start)."""

from __future__ import annotations

#: The walks from the seeds (``walker=``).
WALKERS = ("bounded", "ppr")
#: How the lexical and graph scores combine (``fusion=``).
FUSIONS = ("noisy-or", "linear")
#: What seeds the walk (``search_mode=``): BM25, the embedder's cosine, or both fused.
SEARCH_MODES = ("keyword", "embedding", "hybrid")
