"""Reference edges inside a document: a section's title named in a node's text, or an anchor link.

A section is named when its title (at least 4 characters and one word) appears in a node's
content as a whole sequence of ``text.words``. Titles are kept in a word trie, so each
node's words are scanned once however many sections there are: the cost is linear in the
text, times at most ``MAX_TITLE_WORDS`` steps per word.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.links import anchor_of, is_anchor, link_targets
from groundgraph.records import REFERENCE, Node
from groundgraph.text import words

MIN_TITLE_CHARS = 4
#: Titles longer than this many words are not looked for in text.
MAX_TITLE_WORDS = 16
#: Sections sharing one title: a mention links to at most this many of them (the first ones),
#: so that a document of many same-titled sections does not grow edges quadratically.
MAX_SECTIONS_PER_TITLE = 16


class _TrieNode:
    __slots__ = ("children", "targets")

    def __init__(self) -> None:
        self.children: dict[str, _TrieNode] = {}
        self.targets: list[str] = []


class TitleIndex:
    """Section titles by word sequence: finds the sections a text names, in one pass."""

    def __init__(self, sections: Iterable[tuple[str, str]]) -> None:
        """Index (node id, title) pairs; titles too short or too long are left out."""
        self._root = _TrieNode()
        for node_id, title in sections:
            if len(title.strip()) < MIN_TITLE_CHARS:
                continue
            title_words = words(title)
            if not title_words or len(title_words) > MAX_TITLE_WORDS:
                continue
            node = self._root
            for word in title_words:
                node = node.children.setdefault(word, _TrieNode())
            if len(node.targets) < MAX_SECTIONS_PER_TITLE:
                node.targets.append(node_id)

    def named_in(self, text: str) -> list[str]:
        """Ids of the sections whose titles ``text`` names, in order of first mention."""
        found: dict[str, None] = {}
        seen: set[int] = set()
        sequence = words(text)
        root = self._root.children
        for i, word in enumerate(sequence):
            node = root.get(word)
            j = i + 1
            while node is not None:
                if node.targets and id(node) not in seen:
                    seen.add(id(node))
                    found.update(dict.fromkeys(node.targets))
                if j == len(sequence):
                    break
                node = node.children.get(sequence[j])
                j += 1
        return list(found)


def link_references(
    edges: EdgeSet,
    nodes: Sequence[Node],
    source: str,
    anchors: dict[str, str],
    fences: Sequence[tuple[int, int]],
) -> None:
    """Add a reference edge from each node to every section it names or links to by anchor.

    A node never references itself or its own parent.
    """
    index = TitleIndex((n.node_id, n.title) for n in nodes if n.kind == "section")
    for node in nodes:
        if not node.content:
            continue
        targets = index.named_in(node.content)
        start, end = node.span
        if start < end:
            found = link_targets(source, start, end, fences)
        else:  # a root holding the description, which is not in the source
            found = link_targets(node.content, 0, len(node.content))
        for target in found:
            if is_anchor(target):
                section = anchors.get(anchor_of(target))
                if section is not None:
                    targets.append(section)
        for target_id in targets:
            if target_id != node.parent_id:
                edges.link(node.node_id, target_id, REFERENCE)
