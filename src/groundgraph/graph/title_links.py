"""Reference edges to named titles that do not depend on the order documents came in.

A node links to at most ``MAX_TITLE_LINKS_PER_NODE`` of the other documents whose titles
its text names: the first ones it names (``TitleIndex.named_in_words``: in text order,
then by document id). A document added links its own nodes that way to the titles known
then, and links the earlier nodes that name its title to it (``linking.title_edges``),
one title at a time: a node that names more titles than the cap would keep the first ones
that arrived, and one that lost a title would not take the next it names. So the writer
notes those nodes (:class:`TitleLinkLog`): the ones an arriving title linked (``gained``)
and the ones that had a link to a document replaced or removed (``lost``); at relink,
:func:`settle_title_links` derives their title links again from the titles as they are
and rewrites the nodes whose links differ (``replace_node_edges``).

Two document roots that name each other keep one edge, from the smaller node id, as one
document's edges do (``ingest.edges.EdgeSet``), so settling a root settles the pair.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

from groundgraph.graph.linking import (
    MAX_TITLE_LINKS_PER_NODE,
    KeyIndex,
    TitleIndex,
    document_keys,
)
from groundgraph.graph.node_words import NodeWords
from groundgraph.index.all_terms import positions_with_every_term
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import EDGE_WEIGHTS, REFERENCE, Edge
from groundgraph.model.ids import FACT_PREFIX
from groundgraph.store import Store
from groundgraph.text import words

#: Nodes read from the store at a time.
_READ_BATCH = 5000
#: The key of the edges into a node from other documents, in ``_reference_edges``.
_INTO = "<-"


@dataclass
class TitleLinkLog:
    """The nodes whose title links a write may have left as the order of writes made
    them, since the last relink: how many titles each node written named then
    (``written``), how many links to arriving titles earlier nodes took (``gained``),
    and the nodes that lost one (``lost``)."""

    written: dict[str, int] = field(default_factory=dict)
    gained: Counter[str] = field(default_factory=Counter)
    lost: set[str] = field(default_factory=set)

    def crowded(self) -> set[str]:
        """The nodes that may name more titles than the cap now: those that gained a
        link, unless written in this run with few enough titles named; and those that
        lost one."""
        cap, written = MAX_TITLE_LINKS_PER_NODE, self.written
        gained = {n for n, k in self.gained.items() if written.get(n, cap) + k > cap}
        return gained | self.lost

    def losing(self, store: Store, doc_id: str) -> None:
        """Before document ``doc_id`` is replaced or removed: the other documents' nodes
        that link to it lose that link."""
        self.lost.update(
            e.source
            for e in store.reads.edges_touching([doc_id], [REFERENCE])
            if e.target == doc_id and _doc_of(e.source) != doc_id
        )

    def clear(self) -> None:
        self.written.clear()
        self.gained.clear()
        self.lost.clear()


def _doc_of(node_id: str) -> str:
    return node_id.split("#", 1)[0]  # a document id holds no '#' (``check_doc_id``)


def settle_title_links(
    log: TitleLinkLog,
    store: Store,
    index: LexicalIndex,
    lookups: tuple[TitleIndex, KeyIndex],
    kept: NodeWords,
    everything: bool,
    written: Callable[[int], None],
) -> None:
    """Rewrite the title links of the noted nodes (of every node, if ``everything``: this
    process missed writes of others) where they differ from the first
    ``MAX_TITLE_LINKS_PER_NODE`` titles each names, telling ``written`` each write's
    generation. The log is cleared."""
    if everything:
        alive = positions_with_every_term(index, [])
        checked = [] if alive is None else [index.node_id_at(p) for p in alive.tolist()]
        lost = set(checked)
    else:
        checked = sorted(n for n in log.crowded() if n in index)
        lost = set(log.lost)
    log.clear()
    checked = [n for n in checked if not n.startswith(FACT_PREFIX)]
    links = _Links(store, *lookups, kept)
    links.read(checked)
    # A node an arriving title linked is right unless it names more titles than the cap;
    # one that lost a link may take the next title it names.
    wrong = [
        n
        for n in checked
        if (named := links.named(n)) and (len(named) > MAX_TITLE_LINKS_PER_NODE or n in lost)
    ]
    if not wrong:
        return
    # Only a root's partners (``_partners``) need the links into it.
    current = _reference_edges(store, wrong, everything, {n for n in wrong if _doc_of(n) == n})
    wanted: dict[str, set[str]] = {}
    for node_id in wrong:
        named = links.named(node_id)
        want = {e.target for e in current[node_id]} - set(named)  # links to the unnamed stay
        want.update(d for d in named if links.wants(node_id, d))
        wanted[node_id] = want
    roots = {n: _partners(n, links, current, wanted) for n in wanted if _doc_of(n) == n}
    others = sorted({p for partners in roots.values() for p in partners} - current.keys())
    links.read(others)
    current.update(_reference_edges(store, others, False, ()))
    for root, partners in roots.items():
        _settle_pairs(root, partners, links, current, wanted)
    weight = EDGE_WEIGHTS[REFERENCE]
    with store.writes.batch():
        for node_id in sorted(wanted):
            edges = current[node_id]
            have = {e.target for e in edges}
            if have == wanted[node_id]:
                continue
            new = [e for e in edges if e.target in wanted[node_id]]
            new += [
                Edge(node_id, target, REFERENCE, weight, (node_id,))
                for target in sorted(wanted[node_id] - have)
            ]
            written(store.writes.replace_node_edges(node_id, REFERENCE, new))


def _partners(
    root: str, links: _Links, current: dict[str, list[Edge]], wanted: dict[str, set[str]]
) -> list[str]:
    """The other roots ``root`` links to, names, or has a link from."""
    partners = wanted[root] | set(links.named(root))
    partners.update(e.source for e in current.get(_INTO + root, ()))
    return sorted(p for p in partners if _doc_of(p) == p and p != root)


def _settle_pairs(
    root: str,
    partners: Sequence[str],
    links: _Links,
    current: dict[str, list[Edge]],
    wanted: dict[str, set[str]],
) -> None:
    """Two roots that link to each other keep one edge, from the smaller id: settle each
    pair of ``root`` and one of its ``partners``, at both ends."""

    def desired(a: str, b: str) -> bool:  # as each end's own links are derived above
        if b in links.named(a):
            return links.wants(a, b)
        return any(e.target == b for e in current[a])

    for other in partners:
        if other not in wanted:
            wanted[other] = {e.target for e in current[other]}
        there, back = desired(root, other), desired(other, root)
        for a, b, want in ((root, other, there), (other, root, back)):
            if want and not (there and back and b < a):
                wanted[a].add(b)
            else:
                wanted[a].discard(b)


def _reference_edges(
    store: Store, nodes: Sequence[str], everything: bool, into: Collection[str]
) -> dict[str, list[Edge]]:
    """The reference edges from each of ``nodes`` (and, under ``_INTO + node``, those to
    each of ``into``, nodes of ``nodes``, from other documents). A popular document's
    root has thousands of links in and few out: only the roots asked for read theirs."""
    wanted, entered = set(nodes), set(into)
    found: dict[str, list[Edge]] = {n: [] for n in nodes}
    if everything:
        edges: Iterable[Edge] = store.reads.iter_edges([REFERENCE])
    else:
        leaving = [n for n in nodes if n not in entered]
        edges = [
            e
            for part, out in ((sorted(entered), False), (leaving, True))
            for start in range(0, len(part), _READ_BATCH)
            for e in store.reads.edges_touching(
                part[start : start + _READ_BATCH], [REFERENCE], leaving=out
            )
        ]
    seen: set[Edge] = set()  # an edge between the two parts is read by both
    for edge in edges:
        if edge.type != REFERENCE or edge in seen:
            continue
        seen.add(edge)
        if edge.source in wanted:
            found[edge.source].append(edge)
        if edge.target in entered and _doc_of(edge.source) != _doc_of(edge.target):
            found.setdefault(_INTO + edge.target, []).append(edge)
    return found


class _Links:
    """What a node names and links to, read once: the titles named in its text, and its
    markdown links to documents."""

    def __init__(self, store: Store, titles: TitleIndex, keys: KeyIndex, kept: NodeWords) -> None:
        self.store = store
        self.titles = titles
        self.keys = keys
        self.kept = kept
        self._named: dict[str, list[str]] = {}
        self._linking: dict[str, set[str]] = {}

    def named(self, node_id: str) -> list[str]:
        """The other documents whose titles the node names, first named first."""
        if node_id not in self._named:
            self._read([node_id])
        return self._named[node_id]

    def read(self, node_ids: Sequence[str]) -> None:
        self._read([n for n in node_ids if n not in self._named])

    def _read(self, node_ids: Sequence[str]) -> None:
        unread = []
        for node_id in node_ids:
            joined = self.kept.get(node_id)
            if joined is None:
                unread.append(node_id)
            else:
                self._name(node_id, joined.split())
        for start in range(0, len(unread), _READ_BATCH):
            found = self.store.reads.get_nodes(unread[start : start + _READ_BATCH])
            for node_id in unread[start : start + _READ_BATCH]:
                node = found.get(node_id)
                self._name(node_id, words(node.content) if node is not None else [])

    def _name(self, node_id: str, seq: Sequence[str]) -> None:
        own = _doc_of(node_id)
        self._named[node_id] = [d for d in self.titles.named_in_words(seq) if d != own]

    def wants(self, node_id: str, doc_id: str) -> bool:
        """Whether the node links to document ``doc_id``: it names its title among the
        first ones, or links to it in markdown."""
        named = self.named(node_id)
        if doc_id in named[:MAX_TITLE_LINKS_PER_NODE]:
            return True
        return node_id in self._linking_to(doc_id)

    def _linking_to(self, doc_id: str) -> set[str]:
        if doc_id not in self._linking:
            document = self.store.reads.get_document(doc_id)
            pending = self.store.reads.pending_links_to(document_keys(document)) if document else []
            resolve = self.keys.resolve
            self._linking[doc_id] = {p.node_id for p in pending if resolve(p.target) == doc_id}
        return self._linking[doc_id]
