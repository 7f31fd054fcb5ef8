"""Title mentions that do not depend on the order documents came in.

The default entity extractor also finds the documents' titles named in a text (an entity
per title). A document extracted before a title's document arrived missed that title, and
one extracted while a since-removed title was there still has it. :class:`TitleLog`
records, for this process's writes since the last relink, when each title joined or left
the set and when each document's mentions were extracted; at relink,
:func:`stale_namers` lists the documents that name a title they did not see (or saw and
is gone), whose mentions and co-occurrences the writer then extracts again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from groundgraph.index.bm25 import LexicalIndex
from groundgraph.ingest.entities import TitleMatcher
from groundgraph.store import Store


@dataclass
class TitleLog:
    """Titles that joined (at which step) or left, and each document's extraction step."""

    step: int = 0
    joined: dict[str, int] = field(default_factory=dict)
    left: set[str] = field(default_factory=set)
    seen: dict[str, int] = field(default_factory=dict)

    def extracting(self, doc_id: str, title: str, old_title: str | None) -> None:
        """Document ``doc_id`` (titled ``old_title`` until now, if stored) is about to be
        extracted with every title known, its own ``title`` included."""
        if old_title is not None and old_title != title:
            self.left.add(old_title)
        self.joined[title] = self.step
        self.step += 1
        self.seen[doc_id] = self.step

    def removing(self, title: str) -> None:
        self.left.add(title)

    def clear(self) -> None:
        self.joined.clear()
        self.left.clear()
        self.seen.clear()


def stale_namers(log: TitleLog, index: LexicalIndex, store: Store) -> list[str]:
    """Ids of the stored documents that name a title they were extracted without, or a
    title that has left, in id order."""
    stale: set[str] = set()
    for title, step in log.joined.items():
        # A document extracted at step s saw the titles that joined before s.
        stale.update(d for d in namers(title, index, store) if log.seen.get(d, -1) <= step)
    for title in log.left:
        stale.update(namers(title, index, store))
    return sorted(stale)


def namers(title: str, index: LexicalIndex, store: Store) -> set[str]:
    """Ids of the documents with a node whose text names ``title``."""
    matcher = TitleMatcher([title])
    if matcher.size == 0:
        return set()
    found = store.get_nodes([index.node_ids[p] for p in _holding_every_term(title, index)])
    return {n.doc_id for n in found.values() if matcher.find(n.content)}


def _holding_every_term(title: str, index: LexicalIndex) -> Iterable[int]:
    """Positions of the live nodes that hold every term of ``title`` (every node when the
    title has no term of its own, only stop words)."""
    terms = list(dict.fromkeys(index.analyzer.terms(title)))
    if not terms:
        return [p for p in index.position.values() if index.is_alive(p)]
    common = None
    for term in terms:
        tid = index.vocab.get(term)
        if tid is None:
            return []
        positions = np.unique(index.postings(tid)[0])
        common = positions if common is None else np.intersect1d(common, positions, True)
    assert common is not None
    return [p for p in common.tolist() if index.is_alive(p)]
