"""Edges that reach across documents: named titles and markdown links.

A new document's nodes link to the rest of the graph at the moment it is added, in both
directions (its text naming other documents, and other documents' text naming it),
through the inverted indexes (never a scan of every node). Every edge made here belongs to
the new document and goes when it goes. Semantic edges are derived from the whole graph
instead (``index.semantic``).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from groundgraph.graph.node_words import NodeWords, holds_words
from groundgraph.index.all_terms import positions_with_every_term
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import (
    EDGE_WEIGHTS,
    REFERENCE,
    Document,
    Edge,
    Node,
)
from groundgraph.store.base import PendingLink, Store
from groundgraph.text import slugify, word_text, words

MIN_TITLE_CHARS = 4
MAX_TITLE_LINKS_PER_NODE = 10
_LINK_SUFFIXES = (".md", ".markdown", ".txt", ".jsonl")


def link_key(target: str, source: str = "") -> str:
    """The key a markdown link target is matched on: a path without suffix, or a slug."""
    target = target.split("#", 1)[0].split("?", 1)[0].strip()
    if not target:
        return ""
    if source and not target.startswith("/"):
        target = posixpath.join(posixpath.dirname(source.replace("\\", "/")), target)
    target = posixpath.normpath(target.replace("\\", "/"))
    for suffix in _LINK_SUFFIXES:
        if target.lower().endswith(suffix):
            target = target[: -len(suffix)]
            break
    return target if "/" in target else slugify(target, 200)


def document_keys(document: Document) -> list[str]:
    """Keys by which markdown links find this document."""
    keys = [slugify(document.doc_id, 200), document.doc_id]
    if document.source:
        keys.append(link_key(posixpath.basename(document.source), document.source))
    return list(dict.fromkeys(k for k in keys if k))


@dataclass
class _TitleWords:
    """One word of a trie of titles: the words that may follow, and the documents whose
    title ends here (doc id -> when its title was added, which orders the matches)."""

    following: dict[str, _TitleWords] = field(default_factory=dict)
    ends: dict[str, int] = field(default_factory=dict)  # doc id -> when its title was added


@dataclass
class TitleIndex:
    """Document titles in a trie of their words, to find titles named in a text in one
    pass: each word of the text is followed down the trie only as far as a title does,
    however many titles begin with that word."""

    first: dict[str, _TitleWords] = field(default_factory=dict)
    words_of: dict[str, tuple[str, ...]] = field(default_factory=dict)  # doc id -> title words
    added: int = 0

    @classmethod
    def build(cls, documents: Iterable[Document]) -> TitleIndex:
        index = cls()
        for document in documents:
            index.add(document)
        return index

    def add(self, document: Document) -> None:
        self.remove(document.doc_id)
        seq = title_words(document.title)
        if not seq:
            return
        node = self.first.setdefault(seq[0], _TitleWords())
        for word in seq[1:]:
            node = node.following.setdefault(word, _TitleWords())
        node.ends[document.doc_id] = self.added
        self.added += 1
        self.words_of[document.doc_id] = seq

    def remove(self, doc_id: str) -> None:
        seq = self.words_of.pop(doc_id, None)
        if seq is None:
            return
        path = [self.first[seq[0]]]
        for word in seq[1:]:
            path.append(path[-1].following[word])
        del path[-1].ends[doc_id]
        for depth in range(len(seq) - 1, -1, -1):  # drop the words no title needs now
            node = path[depth]
            if node.ends or node.following:
                break
            parent = self.first if depth == 0 else path[depth - 1].following
            del parent[seq[depth]]

    def named_in(self, text: str) -> list[str]:
        """Ids of documents whose title appears in ``text`` as a whole word sequence."""
        return self.named_in_words(words(text))

    def named_in_words(self, seq: Sequence[str]) -> list[str]:
        """``named_in`` of a text given as its ``text.words``: in the order of the words
        where each title starts, titles that start at one word by document id (so the
        order does not depend on which came first)."""
        first = self.first
        if first.keys().isdisjoint(seq):
            return []  # the common case, decided without a loop in Python
        found: dict[str, None] = {}
        for i, word in enumerate(seq):
            node = first.get(word)
            if node is None:
                continue
            hits = list(node.ends.items())
            j = i + 1
            while node.following and j < len(seq):
                node = node.following.get(seq[j])
                if node is None:
                    break
                hits.extend(node.ends.items())
                j += 1
            if len(hits) > 1:
                hits.sort()
            for doc_id, _ in hits:
                found.setdefault(doc_id, None)
        return list(found)


@dataclass
class KeyIndex:
    """Document ids by the keys that markdown links use to name them."""

    by_key: dict[str, str]
    keys_of: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, documents: Iterable[Document]) -> KeyIndex:
        index = cls({})
        for document in documents:
            index.add(document)
        return index

    def add(self, document: Document) -> None:
        keys = document_keys(document)
        for key in keys:
            self.by_key[key] = document.doc_id
        self.keys_of[document.doc_id] = keys

    def remove(self, doc_id: str) -> None:
        for key in self.keys_of.pop(doc_id, []):
            if self.by_key.get(key) == doc_id:
                del self.by_key[key]

    def resolve(self, key: str) -> str | None:
        return self.by_key.get(key)


def title_words(title: str) -> tuple[str, ...]:
    seq = tuple(words(title))
    return seq if seq and len(title.strip()) >= MIN_TITLE_CHARS else ()


def contains_sequence(text: str, seq: Sequence[str]) -> bool:
    """Whether ``text.words(text)`` holds the words ``seq`` one after the other.

    One regular-expression search of the text ``words`` reads: the words with only
    separators between them, each whole; no list of the text's words is built.
    """
    if not seq:
        return True
    lowered = text.lower()
    if any(word not in lowered for word in seq):  # each word is a piece of the lowered text
        return False
    return _sequence_pattern(tuple(seq)).search(word_text(text)) is not None


@functools.lru_cache(maxsize=4096)
def _sequence_pattern(seq: tuple[str, ...]) -> re.Pattern[str]:
    # words are runs of [^\W_]; between two of them there is at least one other character
    body = r"[\W_]+".join(re.escape(word) for word in seq)
    return re.compile(rf"(?<![^\W_]){body}(?![^\W_])")


def title_edges(
    document: Document,
    nodes: Sequence[Node],
    titles: TitleIndex,
    index: LexicalIndex,
    store: Store,
    node_words: Sequence[Sequence[str]] | None = None,
    kept: NodeWords | None = None,
    written: dict[str, int] | None = None,
    gained: Counter[str] | None = None,
) -> list[Edge]:
    """Reference edges for document titles named in text, in both directions.

    ``node_words``, if known, are the ``text.words`` of each node's content; ``kept``
    holds those of other nodes, which then need not be read from the store. How many
    titles each node names is set in ``written``; each node of another document that
    names this one's title links to it here and counts one in ``gained``, which may take
    it over the cap (``graph.title_links`` settles those).
    """
    weight = EDGE_WEIGHTS[REFERENCE]
    edges = []
    for i, node in enumerate(nodes):
        seq = words(node.content) if node_words is None else node_words[i]
        named = [d for d in titles.named_in_words(seq) if d != document.doc_id]
        if written is not None:
            written[node.node_id] = len(named)
        for doc_id in named[:MAX_TITLE_LINKS_PER_NODE]:
            edges.append(Edge(node.node_id, doc_id, REFERENCE, weight, (node.node_id,)))
    seq = title_words(document.title)
    if not seq:
        return edges
    # The candidates hold every term of the title: every node when the title has no term
    # (stop words only, as ".WHILE"), which the words of a node may still name.
    terms = list(dict.fromkeys(index.analyzer.terms(" ".join(seq))))
    common = positions_with_every_term(index, terms)
    if common is None:
        return edges
    doc_of, node_ids = index.doc_of, index.node_ids
    candidates = [node_ids[p] for p in common.tolist() if doc_of[p] != document.doc_id]
    naming = set[str]()
    unread = []
    for node_id in candidates:
        joined = None if kept is None else kept.get(node_id)
        if joined is None:
            unread.append(node_id)
        elif holds_words(joined, seq):
            naming.add(node_id)
    found = store.reads.get_nodes(unread) if unread else {}
    naming.update(n for n, node in found.items() if contains_sequence(node.content, seq))
    if gained is not None:
        gained.update(naming)
    for node_id in sorted(naming):
        edges.append(Edge(node_id, document.doc_id, REFERENCE, weight, (node_id,)))
    return edges


def link_edges(
    document: Document,
    nodes: Sequence[Node],
    links: Sequence[str],
    resolve: Callable[[str], str | None],
    store: Store,
) -> tuple[list[Edge], list[PendingLink]]:
    """Edges for markdown links to other documents, and the links to remember for later."""
    weight = EDGE_WEIGHTS[REFERENCE]
    pending = []
    edges = []
    keys = {t: key for t in links if (key := link_key(t, document.source))}
    targets = {}
    for key in set(keys.values()):
        found = resolve(key)
        if found is not None and found != document.doc_id:
            targets[key] = found
    named = list(keys)
    for t, n in _nodes_linking(named, nodes):
        key = keys[named[t]]
        node = nodes[n]
        pending.append(PendingLink(node.node_id, document.doc_id, key))
        if key in targets:
            edges.append(Edge(node.node_id, targets[key], REFERENCE, weight, (node.node_id,)))
    for link in store.reads.pending_links_to(document_keys(document)):
        if link.doc_id != document.doc_id:
            edges.append(Edge(link.node_id, document.doc_id, REFERENCE, weight, (link.node_id,)))
    return edges, pending


def _nodes_linking(targets: Sequence[str], nodes: Sequence[Node]) -> list[tuple[int, int]]:
    """(target index, node index) for each node whose text holds ``](target`` (or
    ``](`` and the target without its fragment), ordered by target, then node.

    One pass over each node's ``](`` openings, each tried at the lengths the targets have,
    so a file of many nodes and many links costs its size, not nodes times links.
    """
    probes: dict[str, list[int]] = {}
    for t, target in enumerate(targets):
        for probe in dict.fromkeys((target, target.split("#", 1)[0])):
            probes.setdefault(probe, []).append(t)
    lengths = sorted({len(p) for p in probes})
    found: set[tuple[int, int]] = set()
    for n, node in enumerate(nodes):
        content = node.content
        at = content.find("](")
        while at >= 0:
            start = at + 2
            for length in lengths:
                for t in probes.get(content[start : start + length], ()):
                    found.add((t, n))
            at = content.find("](", start)
    return sorted(found)
