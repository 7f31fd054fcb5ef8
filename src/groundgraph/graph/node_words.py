"""The words of the nodes this process wrote, kept to find titles in them without a read.

A document added after others links the earlier nodes that name its title
(``graph.linking.title_edges``): the nodes that hold every term of the title are
candidates, and each is checked for the title's words in a row. The check needs a node's
``text.words``; for a node this process has just written they are at hand (the worker
made them), so they are kept here, up to ``KEPT_CHARS`` characters, instead of reading the
node back from the store and splitting its text again. A document's words go when the
lexical index drops it (replaced, removed, or changed by another process).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: The most characters of words kept (about that many bytes for ASCII text).
KEPT_CHARS = 64_000_000


class NodeWords:
    """Each kept node's ``text.words``, joined by spaces, by node id."""

    def __init__(self, limit: int = KEPT_CHARS) -> None:
        self.limit = limit
        self.chars = 0
        self._words: dict[str, str] = {}
        self._of_document: dict[str, list[str]] = {}

    def keep(self, doc_id: str, node_ids: Sequence[str], words: Sequence[str]) -> None:
        """Keep the words of a document's nodes (those of its earlier version go first)."""
        self.forget(doc_id)
        size = sum(map(len, words))
        if self.chars + size > self.limit:
            return
        self._words.update(zip(node_ids, words, strict=True))
        self._of_document[doc_id] = list(node_ids)
        self.chars += size

    def forget(self, doc_id: str) -> None:
        for node_id in self._of_document.pop(doc_id, ()):
            self.chars -= len(self._words.pop(node_id))

    def clear(self) -> None:
        self._words.clear()
        self._of_document.clear()
        self.chars = 0

    def get(self, node_id: str) -> str | None:
        """The node's words joined by spaces, if kept."""
        return self._words.get(node_id)


def holds_words(joined: str, seq: Iterable[str]) -> bool:
    """Whether words joined by spaces hold the words ``seq`` one after the other (as
    ``linking.contains_sequence`` tells of the text they came from)."""
    words = " ".join(seq)
    return not words or f" {words} " in f" {joined} "
