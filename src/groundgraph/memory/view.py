"""What one read of the memory may see: the facts, their scopes then, and the edges.

A read names scopes (or none), ``as_of`` (or now), whether retired facts count and
whether to stay inside its scopes. From those, every fact is either

- **seedable**: it existed then, was valid (or retired facts are asked for), and the
  read's scopes may read it: a search may start from it;
- **walkable** only: it is in another scope, and the read does not isolate: a walk may
  reach it (and flags it ``crossScope``);
- **unseen**: nothing of it may appear anywhere in the answer.

An edge may be walked only when every fact that asserts it (its ``sources``) is visible,
so with isolation even the names of entities come from the reader's own facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from groundgraph.memory.scopes import ScopeReader
from groundgraph.memory.timeline import FactState
from groundgraph.model import Edge


@dataclass(frozen=True)
class ViewOptions:
    """The knobs every memory read shares."""

    scopes: tuple[str, ...] | None = None
    isolate: bool = False
    include_superseded: bool = False
    as_of: str | None = None


class MemoryView:
    """The facts one read may seed from and walk through, with their scopes at the time
    as the read may name them (``ScopeReader.shown``: every record of a read takes a
    fact's scopes from here, so no result names a scope its reader may not read)."""

    def __init__(self, states: Mapping[str, FactState], options: ViewOptions) -> None:
        self.options = options
        reader = ScopeReader(options.scopes)
        isolate = options.isolate and options.scopes is not None
        self.scopes_at: dict[str, tuple[str, ...]] = {}
        self.seedable: set[str] = set()
        self.retired: set[str] = set()
        for fact, state in states.items():
            found = state.at(options.as_of)
            if found is None:
                continue
            scopes, valid = found
            if not valid and not options.include_superseded:
                continue
            readable = reader.reads(scopes)
            if isolate and not readable:
                continue
            self.scopes_at[fact] = reader.shown(scopes)
            if readable:
                self.seedable.add(fact)
            if not valid:
                self.retired.add(fact)

    def sees(self, fact: str) -> bool:
        return fact in self.scopes_at

    def cross_scope(self, fact: str) -> bool:
        """Reached from the read's scopes but living in none of them."""
        return fact not in self.seedable

    def usable(self, edge: Edge) -> bool:
        """Whether every fact asserting the edge is visible (edges of documents are not)."""
        return bool(edge.sources) and all(s in self.scopes_at for s in edge.sources)
