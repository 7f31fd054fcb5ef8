"""The JSON formats a graph is written in and read from, together.

- ``saved``: the graph-of-thought v2 format (``to_json`` / ``from_json``), which other
  tools read; ``saved_extension``: what groundgraph adds to it under one key (entities,
  evidence and memory edges with provenance, fact history, the ledger), ignored by others;
- ``evidence``: the whole graph with provenance, every edge type and span, as
  ``groundgraph graph`` writes it;
- ``saved_export`` and ``saved_import``: the saved format written and read in bounded
  memory (``groundgraph export`` / ``import``), over ``json_stream``, a JSON object read
  in pieces.
"""

from __future__ import annotations

from groundgraph.graph.formats.evidence import evidence_graph
from groundgraph.graph.formats.saved import documents_from_json, graph_to_json, saved_graph
from groundgraph.graph.formats.saved_extension import SavedExtension, fact_updates

__all__ = [
    "SavedExtension",
    "documents_from_json",
    "evidence_graph",
    "fact_updates",
    "graph_to_json",
    "saved_graph",
]
