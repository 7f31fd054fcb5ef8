"""ReasonGraph's graph calls on the memory: ``add_nodes``, ``add_edges``, ``get_all_nodes``,
``get_all_edges``.

ReasonGraph keys nodes by content. Here a ``"text"`` node is a fact (added without entity
or causal extraction, as ReasonGraph adds raw nodes) and an ``"entity"`` node is a shared
``entity:{key}`` node. An entity exists through the facts that name it: ``add_nodes``
checks its name and returns it, and it is stored with the first edge that joins it to a
fact. Each edge needs a fact that asserts it, so that scopes, isolation and deletion treat
it as they treat extracted edges:

- fact → fact, no label: a ``reference`` edge (0.75) that the memory walk follows;
- fact ↔ entity, no label: a ``mentions`` edge from the fact to the entity;
- ``"causes"``: a ``causes`` edge between causal spans; a fact end is its whole text as a
  span, so two facts chain as one's effect and the next one's cause;
- two entities: refused (no fact says so; add the sentence that does with ``add_text``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.graph.evidence import MENTION_WEIGHT
from groundgraph.graph.memory_core import MemoryContext, ReadOptions, Scopes
from groundgraph.graph.memory_write import MemoryWriter
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.memory.facts import CAUSE, CAUSES_WEIGHT, EFFECT, SPAN_WEIGHT, check_fact_text
from groundgraph.memory.scopes import check_scopes
from groundgraph.memory.view import MemoryView
from groundgraph.model import EDGE_WEIGHTS, REFERENCE, Edge, Node
from groundgraph.model.ids import ENTITY_PREFIX
from groundgraph.model.memory_graph import MemoryEdge, MemoryNode

__all__ = ["MAX_GRAPH_ITEMS", "MemoryListing", "MemoryNodes"]

#: The most nodes or edges one ``add_nodes`` / ``add_edges`` call takes.
MAX_GRAPH_ITEMS = 10_000
NODE_TYPES = ("text", "entity")
LABELS = (None, "causes")
#: The edge types a memory listing shows (document structure and similarity are not memory).
LISTED_TYPES = frozenset({"mentions", "co-occurs", "causes", "relation", "supersedes", REFERENCE})
EdgeKey = tuple[str, str, str, str | None]
Namer = Callable[[str], str]


def _no_entities(text: str) -> list[str]:
    return []


class MemoryNodes:
    """ReasonGraph's ``add_nodes`` and ``add_edges`` over the memory's facts and entities."""

    def __init__(self, context: MemoryContext, writes: MemoryWriter) -> None:
        self.context = context
        self.writes = writes

    def add_nodes(self, nodes: Iterable[Sequence[str]], scopes: Scopes = None) -> list[MemoryNode]:
        """Add ``(content, type)`` nodes: ``"text"`` a fact (with ``scopes``, no
        extraction), ``"entity"`` a name that edges may join to facts."""
        items = _items(nodes, "node")
        checked = check_scopes(scopes)
        for i, item in enumerate(items):  # every item checked before anything is written
            if isinstance(item, str) or not isinstance(item, Sequence) or len(item) != 2:
                raise InputError(f"node #{i} must be a (content, type) pair, got {item!r:.80}")
            if item[1] not in NODE_TYPES:
                raise InputError(f"node #{i} has type {item[1]!r:.40}: use 'text' or 'entity'")
            if item[1] == "entity":
                _entity_name(item[0], i)
            else:
                check_fact_text(item[0])
        out: list[MemoryNode] = []
        for i, (content, kind) in enumerate(items):
            if kind == "entity":
                name = _entity_name(content, i)
                out.append(MemoryNode(name, "entity", (), "", None, _entity_id(name)))
                continue
            fact = self.writes.add_text(
                content, checked, _no_entities, False, 1.0, False, source="add_nodes"
            )
            out.append(
                MemoryNode(fact.text, "text", fact.scopes, fact.created_at, None, fact.fact_id)
            )
        return out

    def add_edges(self, edges: Iterable[Sequence[Any]]) -> list[MemoryEdge]:
        """Add ``(from, to)`` or ``(from, to, label)`` edges between contents (a fact's text
        or id, or an entity's name); label None or ``"causes"``. An edge already there is
        not added again. Returns the edges as stored."""
        items = _items(edges, "edge")
        states = self.context.memory().states
        planned: dict[str, list[Edge]] = {}
        entities: dict[str, Node] = {}
        for i, item in enumerate(items):
            if isinstance(item, str) or not isinstance(item, Sequence) or len(item) not in (2, 3):
                raise InputError(
                    f"edge #{i} must be (from, to) or (from, to, label), got {item!r:.80}"
                )
            label = item[2] if len(item) == 3 else None
            if label not in LABELS:
                raise InputError(
                    f"edge #{i} has label {label!r:.40}: use None (a link) or 'causes' "
                    "(supersede() replaces a fact)"
                )
            (a, a_fact, a_name), (b, b_fact, b_name) = (self._end(x, i) for x in item[:2])
            if not a_fact and not b_fact:
                raise InputError(
                    f"edge #{i} joins two entities, and no fact says so: add the sentence "
                    "that does with add_text, or join each entity to a fact"
                )
            if a == b:
                raise InputError(f"edge #{i} joins {item[0]!r:.40} to itself")
            names = {
                a: states[a].text if a_fact else a_name,
                b: states[b].text if b_fact else b_name,
            }
            owner = a if a_fact else b
            for edge, nodes in _edges_for((a, a_fact), (b, b_fact), label, names):
                planned.setdefault(owner, []).append(edge)
                entities.update((n.node_id, n) for n in nodes)
        stored: list[Edge] = []
        for owner, wanted in planned.items():
            fresh = self._new_edges(owner, wanted)
            if fresh:
                needed = {e.target for e in fresh} | {e.source for e in fresh}
                nodes = [entities[n] for n in sorted(needed) if n in entities]
                self.context.store.writes.add_edges(owner, fresh, nodes)
            stored += wanted
        self.context.indexes.sync()
        name = MemoryListing(self.context).namer(None)
        return [_edge_record(e, name) for e in stored]

    def _end(self, content: object, i: int) -> tuple[str, bool, str]:
        """The node an edge end names: a fact (by text or id) or else an entity; with the
        name as given."""
        if not isinstance(content, str) or not content.strip():
            raise InputError(f"edge #{i}: each end is a fact's text or id or an entity's name")
        found = self.context.find(content)
        if found is not None:
            return found, True, content
        name = _entity_name(content, i)
        return _entity_id(name), False, name

    def _new_edges(self, owner: str, wanted: list[Edge]) -> list[Edge]:
        """The edges of ``wanted`` not stored yet (once each)."""

        def key(e: Edge) -> EdgeKey:
            return (e.source, e.target, e.type, e.label)

        near = [owner, *(e.source for e in wanted if e.type == "causes")]
        have = {key(e) for e in self.context.store.reads.edges_touching(near)}
        out: dict[EdgeKey, Edge] = {}
        for edge in wanted:
            if key(edge) not in have:
                out.setdefault(key(edge), edge)
        return list(out.values())


class MemoryListing:
    """ReasonGraph's ``get_all_nodes`` and ``get_all_edges``: the memory as content-keyed
    nodes and edges (reads only; a searcher holds it too)."""

    def __init__(self, context: MemoryContext) -> None:
        self.context = context

    def get_all_nodes(self, scopes: Scopes = None) -> list[MemoryNode]:
        """Every fact readable as ``scopes`` (retired ones too, with ``invalid_at``), oldest
        first, then the entities and spans those facts name."""
        view, name = self._read(scopes)
        states = self.context.memory().states
        since = {f: view.since(states[f]) for f in view.scopes_at}  # each reader's own time
        facts = sorted(view.scopes_at, key=lambda f: (since[f], f))
        out = [
            MemoryNode(states[f].text, "text", view.scopes_at[f], since[f], states[f].invalid_at, f)
            for f in facts
        ]
        named: dict[str, tuple[set[str], str]] = {}
        for edge in self.context.store.reads.edges_touching(facts):
            if edge.type == "mentions" and view.usable(edge) and edge.source in view.scopes_at:
                made = since[edge.source]
                seen, first = named.get(edge.target, (set(), made))
                seen.update(view.scopes_at[edge.source])
                named[edge.target] = (seen, min(first, made))
        for node in sorted(named):
            seen, first = named[node]
            out.append(MemoryNode(name(node), "entity", tuple(sorted(seen)), first, None, node))
        return out

    def get_all_edges(self, scopes: Scopes = None) -> list[MemoryEdge]:
        """Every edge the facts readable as ``scopes`` assert, in store order."""
        view, name = self._read(scopes)
        touching = self.context.store.reads.edges_touching(list(view.scopes_at))
        names = sorted({e.target for e in touching if e.type == "mentions"})
        seen: dict[Edge, None] = {}
        for edge in [*touching, *self.context.store.reads.edges_touching(names)]:
            if edge.type in LISTED_TYPES and view.usable(edge):
                seen.setdefault(edge, None)
        return [_edge_record(e, name) for e in seen]

    def _read(self, scopes: Scopes) -> tuple[MemoryView, Namer]:
        view = self._view(scopes)
        return view, self.namer(scopes, view)

    def _view(self, scopes: Scopes) -> MemoryView:
        """The facts readable as ``scopes``, retired ones too; isolated, so that a fact in
        another scope is not listed because a walk could pass through it."""
        return self.context.view(ReadOptions(scopes, True, True, None))

    def namer(self, scopes: Scopes, view: MemoryView | None = None) -> Namer:
        """How a listing names a node: a fact by its text, an entity by the visible facts'
        spelling of it; an entity no fact spells (drawn by ``add_edges`` to a fact whose
        text does not hold its name) by its stored name on an unscoped read, the owner's
        view, else by its key, so a scoped read shows no spelling another scope wrote."""
        if view is None:
            view = self._view(scopes)
        graph = self.context.fact_graph(view)
        titles: dict[str, str] = {}

        def name(node: str) -> str:
            shown = graph.name(node)
            if scopes is not None or shown != node.removeprefix(ENTITY_PREFIX):
                return shown
            if node not in titles:
                found = self.context.store.reads.get_nodes([node]).get(node)
                titles[node] = found.title if found is not None and found.title else shown
            return titles[node]

        return name


def _items(values: object, what: str) -> list[Any]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InputError(f"give the {what}s as a list")
    items: list[Any] = []
    for value in values:
        items.append(value)
        if len(items) > MAX_GRAPH_ITEMS:
            raise InputTooLargeError(f"the {what}s of one call", len(items), MAX_GRAPH_ITEMS)
    return items


def _entity_name(content: object, i: int) -> str:
    if not isinstance(content, str):
        raise InputError(f"item #{i}: an entity's name is text, not {type(content).__name__}")
    if not normalise_entity(content.strip()):
        raise InputError(f"item #{i}: {content!r:.40} has no letters or digits to name an entity")
    return check_fact_text(content).text.strip()


def _entity_id(name: str) -> str:
    return ENTITY_PREFIX + normalise_entity(name)


def _span_of(name: str, text: str) -> tuple[int, int] | None:
    start = text.casefold().find(name.casefold())
    return (start, start + len(name)) if start >= 0 and name else None


def _edges_for(
    a: tuple[str, bool], b: tuple[str, bool], label: str | None, names: dict[str, str]
) -> list[tuple[Edge, list[Node]]]:
    """The stored edges (and entity nodes) of one content edge from ``a`` to ``b``."""
    facts = [node for node, is_fact in (a, b) if is_fact]
    if label is None:
        if len(facts) == 2:
            weight = EDGE_WEIGHTS[REFERENCE]
            return [(Edge(a[0], b[0], REFERENCE, weight, (a[0], b[0])), [])]
        fact, entity = (a[0], b[0]) if a[1] else (b[0], a[0])
        return [_mention(fact, entity, names[fact], names[entity], None)]
    # "causes": a fact end is its whole text as a causal span, which the fact mentions; an
    # entity end is a span that the fact (or facts) at the edge mention in its role.
    out: list[tuple[Edge, list[Node]]] = []
    spans: list[str] = []
    for (node, is_fact), role in ((a, CAUSE), (b, EFFECT)):
        if is_fact:
            span = _entity_id(names[node])
            out.append(_mention(node, span, names[node], names[node], role))
        else:
            span = node
            out += [_mention(f, span, names[f], names[node], role) for f in facts]
        spans.append(span)
    if spans[0] == spans[1]:
        raise InputError("a cause -> effect edge joins two different things")
    causes = Edge(spans[0], spans[1], "causes", CAUSES_WEIGHT, tuple(facts), "add_edges")
    out.append((causes, []))
    return out


def _mention(
    fact: str, entity: str, text: str, name: str, role: str | None
) -> tuple[Edge, list[Node]]:
    """A ``mentions`` edge from a fact to an entity or span, with the span of its name in
    the fact's text when the text holds it."""
    found = _span_of(name, text)
    spans = ((fact, *found),) if found else ()
    shown = text[found[0] : found[1]] if found else name
    weight = SPAN_WEIGHT if role else MENTION_WEIGHT
    node = Node(entity, "", "entity", shown, "")
    return Edge(fact, entity, "mentions", weight, (fact,), role, spans=spans), [node]


def _edge_record(edge: Edge, name: Namer) -> MemoryEdge:
    label: str | None
    if edge.type in ("causes", "supersedes"):
        label = edge.type
    elif edge.type == "relation":
        label = edge.label
    else:
        label = None
    return MemoryEdge(
        name(edge.source),
        name(edge.target),
        label,
        edge.type,
        edge.source,
        edge.target,
        edge.sources,
    )
