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

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from groundgraph.index.all_terms import positions_with_every_term
from groundgraph.index.bm25 import LexicalIndex
from groundgraph.model import Node
from groundgraph.model.ids import FACT_PREFIX
from groundgraph.store import Store

if TYPE_CHECKING:  # a read makes a TitleLog; the extraction it refreshes loads on use
    from groundgraph.graph.evidence import EntityExtractor
    from groundgraph.graph.prepare import PreparedDocument
    from groundgraph.ingest.entities import Mention
    from groundgraph.ingest.entities.titles import TitleMatcher

#: The edges a document's entity mentions give, extracted again when its titles change.
EVIDENCE_TYPES = ("mentions", "co-occurs")

#: The most characters of node text whose untitled mentions a log keeps for the run, so
#: that a stale document's titles are found again without extracting it again.
KEPT_CHARS = 16_000_000

#: The setting that keeps a run's expected titles (``expect_titles``) until its relink.
EXPECTED_SETTING = "expected_titles"


@dataclass(frozen=True)
class KeptMentions:
    """What finding a document's titles again needs: its nodes, their untitled mentions
    (``graph.prepare``) and their sentence spans."""

    nodes: list[Node]
    mentions: list[tuple[list[Mention], str | None]]
    sentences: list[list[tuple[int, int]] | None] | None


@dataclass
class TitleLog:
    """Titles that joined (at which step) or left, and each document's extraction step."""

    step: int = 0
    joined: dict[str, int] = field(default_factory=dict)
    left: set[str] = field(default_factory=set)
    seen: dict[str, int] = field(default_factory=dict)
    prepared: dict[str, KeptMentions] = field(default_factory=dict)
    kept_chars: int = 0
    #: Titles looked for since before the run's first extraction (``expect_titles``).
    expected: set[str] = field(default_factory=set)

    def expect(self, titles: Iterable[str]) -> None:
        """Titles every extraction from now on looks for, as if they had joined before any
        document of the run was extracted."""
        for title in titles:
            self.expected.add(title)
            self.joined[title] = -1

    def extracting(
        self, prepared: PreparedDocument, old_title: str | None, keep: bool = True
    ) -> None:
        """A prepared document (titled ``old_title`` until now, if stored) is about to be
        extracted with every title known, its own included; ``keep``: keep its untitled
        mentions for the run, while they fit in ``KEPT_CHARS``."""
        document = prepared.parsed.document
        if old_title is not None and old_title != document.title:
            self.left.add(old_title)
        if document.title not in self.expected:
            self.joined[document.title] = self.step
        self.step += 1
        self.seen[document.doc_id] = self.step
        size = sum(len(n.content) for n in prepared.parsed.nodes)
        if keep and prepared.mentions is not None and self.kept_chars + size <= KEPT_CHARS:
            nodes, mentions = prepared.parsed.nodes, prepared.mentions
            self.prepared[document.doc_id] = KeptMentions(nodes, mentions, prepared.sentences)
            self.kept_chars += size

    def removing(self, title: str) -> None:
        self.left.add(title)

    def clear(self) -> None:
        self.joined.clear()
        self.left.clear()
        self.seen.clear()
        self.prepared.clear()
        self.kept_chars = 0
        self.expected.clear()


def expect_titles(
    log: TitleLog, store: Store, matcher: TitleMatcher, titles: Iterable[str | None]
) -> None:
    """Look for the titles that the files about to be indexed will bring (those no stored
    document has) from the run's first extraction, so that no document of the run is
    extracted again at relink for naming a title that arrived after it. They are kept in
    the store (``EXPECTED_SETTING``) until relink: a title that does not arrive after all
    (a file that fails, a guess that was wrong, a run that crashed) is then a title that
    left, and the documents that name it are extracted again."""
    known = {d.title for d in store.reads.documents()}
    new = sorted({t for t in titles if t and t not in known} - log.expected)
    if not new:
        return
    kept = _kept_titles(store)
    store.settings.set_setting(EXPECTED_SETTING, json.dumps(sorted(kept.union(new))))
    log.expect(new)
    for title in new:
        matcher.add(title)


def settle_expected(log: TitleLog, store: Store, everything: bool) -> set[str]:
    """At relink: the expected titles no stored document has (those of a run that left
    them in the store too, if ``everything``) join the titles that left; the log expects
    nothing more. Returns them."""
    expected = log.expected | (_kept_titles(store) if everything else set())
    gone = expected - {d.title for d in store.reads.documents()} if expected else set()
    log.left |= gone
    log.expected.clear()
    return gone


def _kept_titles(store: Store) -> set[str]:
    saved = store.settings.get_setting(EXPECTED_SETTING)
    if not saved:
        return set()
    try:
        titles = json.loads(saved)
    except ValueError:
        return set()  # damaged: the full refresh still checks every stored title
    return {t for t in titles if isinstance(t, str)} if isinstance(titles, list) else set()


def stale_namers(log: TitleLog, index: LexicalIndex, store: Store) -> list[str]:
    """Ids of the stored documents that name a title they were extracted without, or a
    title that has left, in id order."""
    stale: set[str] = set()
    seen = log.seen
    for title, step in log.joined.items():
        # A document extracted at step s saw the titles that joined before s.
        def unseen(d: str, s: int = step, found: set[str] = stale) -> bool:
            return d not in found and seen.get(d, -1) <= s

        stale |= namers(title, index, store, unseen)
    for title in log.left:
        stale |= namers(title, index, store, stale.isdisjoint)
    return sorted(stale)


def namers(
    title: str, index: LexicalIndex, store: Store, wanted: Callable[[str], bool]
) -> set[str]:
    """Ids of the ``wanted`` documents with a node whose text names ``title``."""
    from groundgraph.ingest.entities.titles import TitleMatcher

    matcher = TitleMatcher([title])
    if matcher.size == 0:
        return set()
    doc_of = index.doc_of
    nodes = [index.node_ids[p] for p in _holding_every_term(title, index) if wanted(doc_of[p])]
    found = store.reads.get_nodes(nodes) if nodes else {}
    return {n.doc_id for n in found.values() if matcher.find(n.content)}


def _holding_every_term(title: str, index: LexicalIndex) -> Iterable[int]:
    """Positions of the live nodes that hold every term of ``title`` (every node when the
    title has no term of its own, only stop words)."""
    found = positions_with_every_term(index, index.analyzer.terms(title))
    return [] if found is None else found.tolist()


class _Indexes(Protocol):
    """What a refresh needs of ``DerivedIndexes``."""

    index: LexicalIndex

    def caught_up(self, generation: int) -> None: ...


def refresh_stale_mentions(
    log: TitleLog,
    store: Store,
    indexes: _Indexes,
    matcher: TitleMatcher,
    extract: EntityExtractor,
    everything: bool,
) -> None:
    """Extract again the ``mentions`` and ``co-occurs`` of each document that
    :func:`stale_namers` lists (every document that names a title, if ``everything``),
    from its kept untitled mentions or else from its stored nodes; the log is cleared."""
    from groundgraph.graph.evidence import evidence_for

    kept = dict(log.prepared)
    if everything:
        log = TitleLog(joined={d.title: 0 for d in store.reads.documents()}, left=log.left)
    stale = [d for d in stale_namers(log, indexes.index, store) if not d.startswith(FACT_PREFIX)]
    log.clear()
    with store.writes.batch():
        for doc_id in stale:
            prepared = kept.get(doc_id)
            if prepared is None:  # extracted in an earlier run: extract it again
                entities, evidence = evidence_for(store.reads.document_nodes(doc_id), extract, None)
            else:  # its untitled mentions with today's titles
                mentions = titled_mentions(prepared.nodes, prepared.mentions, matcher)
                entities, evidence = evidence_for(
                    prepared.nodes,
                    None,
                    None,
                    mentions=mentions,
                    sentences=prepared.sentences,
                )
            indexes.caught_up(
                store.writes.replace_typed_edges(doc_id, EVIDENCE_TYPES, evidence, entities)
            )
    if store.settings.get_setting(EXPECTED_SETTING):
        store.settings.set_setting(EXPECTED_SETTING, "")


def with_known_titles(prepared: PreparedDocument, matcher: TitleMatcher) -> list[list[Mention]]:
    """The prepared (untitled) mentions of each node with ``matcher``'s titles added."""
    assert prepared.mentions is not None
    return titled_mentions(prepared.parsed.nodes, prepared.mentions, matcher)


def titled_mentions(
    nodes: Sequence[Node],
    mentions: Sequence[tuple[list[Mention], str | None]],
    matcher: TitleMatcher,
) -> list[list[Mention]]:
    """Each node's untitled mentions (``graph.prepare``) with ``matcher``'s titles added."""
    from groundgraph.graph.evidence import has_prose
    from groundgraph.ingest.entities.extract import with_titles

    return [
        with_titles(node.content, found, masked, matcher) if has_prose(node) else []
        for node, (found, masked) in zip(nodes, mentions, strict=True)
    ]
