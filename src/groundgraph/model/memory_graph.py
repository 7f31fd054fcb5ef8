"""The memory's nodes and edges as ReasonGraph's graph calls show them.

ReasonGraph keys its graph by content: a node is ``(content, type)`` with type ``"text"``
(a fact) or ``"entity"``, an edge joins two contents with an optional label. These records
say the same, and keep groundgraph's ids and edge types beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from groundgraph.model.record import Record

__all__ = ["MemoryEdge", "MemoryNode"]


@dataclass(frozen=True, slots=True)
class MemoryNode(Record):
    """A fact (``type`` ``"text"``) or an entity or causal span (``"entity"``).

    An entity's ``scopes`` are those of the visible facts that name it, and its
    ``created_at`` the earliest of theirs; ``invalid_at`` is set on retired facts.
    """

    content: str
    type: str
    scopes: tuple[str, ...]
    created_at: str
    invalid_at: str | None
    node_id: str


@dataclass(frozen=True, slots=True)
class MemoryEdge(Record):
    """An edge between two contents. ``label`` is ReasonGraph's: None for a link (a fact
    naming an entity, one fact linked to another), ``"causes"``, ``"supersedes"``, or the
    relation's name; ``type`` is groundgraph's edge type and ``sources`` the facts that
    assert the edge."""

    from_content: str
    to_content: str
    label: str | None
    type: str
    source: str
    target: str
    sources: tuple[str, ...]
