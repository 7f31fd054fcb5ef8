"""Causal spans that name the same thing, found when they are read.

Two facts chain when one's effect span is the other's cause span. Spans with the same
normalised form share a node already; spans that differ a little ("power outages",
"the power outages in town") are linked here, by ``ingest.causal.same_span`` on their
normalised forms. The links are worked out at read time from the spans that exist, not
stored: a link needs both spans to be asserted by facts the reader may see, and that
depends on the reader's scopes and ``as_of``, not on which fact happened to come first.

``same_span`` guesses a language and stems, so it is not cheap; it is asked only about
pairs whose words (of three letters or more, cut to their first five) overlap with a
Dice coefficient of at least ``PREFILTER_DICE``, and each answer is kept. A span's links
are kept too as spans are added: one that still weighs every span sharing a word with it
weighs only the new ones when next asked; one whose candidates were cut at
``MAX_CANDIDATES`` is worked out again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from groundgraph.model.ids import ENTITY_PREFIX

SameSpan = Callable[[str, str], bool]
MAX_CANDIDATES = 200
PREFILTER_DICE = 0.55
_PREFIX = 5


def default_same_span() -> SameSpan:
    from groundgraph.ingest.causal import same_span

    return same_span


class SpanIndex:
    """Every span node by the words of its normalised form; links between similar ones."""

    def __init__(self, same_span: SameSpan | None = None) -> None:
        self._same_span = same_span
        self.spans: set[str] = set()
        self._words: dict[str, frozenset[str]] = {}
        self._by_word: dict[str, set[str]] = {}
        self._links: dict[str, tuple[str, ...]] = {}
        # Spans added since a span's links were found, to weigh when it is asked again.
        self._pending: dict[str, set[str]] = {}
        self._pairs: dict[tuple[str, str], bool] = {}

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.spans

    def add(self, node_ids: Iterable[str]) -> None:
        for node_id in node_ids:
            if node_id in self.spans or not node_id.startswith(ENTITY_PREFIX):
                continue
            self.spans.add(node_id)
            found = _words(_key(node_id))
            self._words[node_id] = found
            touched: set[str] = set()
            for word in found:
                bucket = self._by_word.setdefault(word, set())
                touched.update(bucket)
                bucket.add(node_id)
            for other in touched & self._links.keys():
                if self._all_candidates(other):
                    # It still weighs every span sharing a word: the new one is its
                    # only new candidate, weighed when it is next asked for.
                    self._pending.setdefault(other, set()).add(node_id)
                else:  # the new span may change which candidates it weighs
                    del self._links[other]
                    self._pending.pop(other, None)

    def _all_candidates(self, node_id: str) -> bool:
        """Whether :meth:`similar` takes every span sharing a word with this one: the
        buckets it takes before its largest one hold fewer than ``MAX_CANDIDATES``."""
        sizes = [len(self._by_word[w]) for w in self._words[node_id]]
        return sum(sizes) - max(sizes, default=0) < MAX_CANDIDATES

    def similar(self, node_id: str) -> tuple[str, ...]:
        """Other span nodes whose text names the same thing as this one, sorted."""
        if node_id not in self.spans:
            return ()
        found = self._links.get(node_id)
        if found is not None:
            new = self._pending.pop(node_id, None)
            if new:
                found = tuple(sorted({*found, *(n for n in new if self._same(node_id, n))}))
                self._links[node_id] = found
            return found
        mine = self._words[node_id]
        ranked = sorted(mine, key=lambda w: (len(self._by_word.get(w, ())), w))
        candidates: set[str] = set()
        for word in ranked:
            candidates.update(self._by_word.get(word, ()))
            if len(candidates) >= MAX_CANDIDATES:
                break
        candidates.discard(node_id)
        links = tuple(sorted(c for c in candidates if self._same(node_id, c)))
        self._links[node_id] = links
        return links

    def _same(self, a: str, b: str) -> bool:
        wa, wb = self._words[a], self._words[b]
        if not wa or not wb or 2 * len(wa & wb) / (len(wa) + len(wb)) < PREFILTER_DICE:
            return False
        pair = (a, b) if a < b else (b, a)
        found = self._pairs.get(pair)
        if found is None:
            same = self._same_span or default_same_span()
            self._same_span = same
            found = self._pairs[pair] = bool(same(_key(pair[0]), _key(pair[1])))
        return found


def _key(node_id: str) -> str:
    return node_id[len(ENTITY_PREFIX) :]


def _words(key: str) -> frozenset[str]:
    return frozenset(w[:_PREFIX] for w in key.split() if len(w) >= 3)
