"""Reference edges inside a document: a section's title named in a node's text, or an anchor link.

A section is named when its title (at least 4 characters and one word) appears in a node's
content as a whole sequence of ``text.words``. Titles are kept in a word trie, so each
node's words are scanned once however many sections there are: the cost is linear in the
text, times at most ``MAX_TITLE_WORDS`` steps per word.

When several sections share the named title, the reference goes to the one nearest the
naming node in document order (linking to all of them, as the seed system did, grows edges
quadratically in documents such as API references with a "Parameters" section per
function). A node that carries the title itself, or whose parent does, is talking about
that section, so the title gives it no reference.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from groundgraph.ingest.edges import EdgeSet
from groundgraph.ingest.links import anchor_of, anchor_table, is_anchor, link_targets
from groundgraph.model import REFERENCE, Node
from groundgraph.text import words

MIN_TITLE_CHARS = 4
#: Titles longer than this many words are not looked for in text.
MAX_TITLE_WORDS = 16
#: A node names at most this many sections (the first it mentions); a table of contents
#: naming every section is covered by parent-child edges for its top level anyway.
MAX_NAMED_PER_NODE = 32


class TitleNode:
    """A node of the title trie; ``sections`` are those whose title ends here."""

    __slots__ = ("children", "positions", "sections")

    def __init__(self) -> None:
        self.children: dict[str, TitleNode] = {}
        self.positions: list[int] = []  # of the sections in the document's node list, ascending
        self.sections: list[str] = []

    def nearest(self, position: int) -> str:
        """The section nearest ``position`` in document order; the earlier one on a tie."""
        at = bisect.bisect_left(self.positions, position)
        if at == len(self.positions) or (
            at > 0 and position - self.positions[at - 1] <= self.positions[at] - position
        ):
            at -= 1
        return self.sections[at]


class TitleIndex:
    """Section titles by word sequence: finds the titles a text names, in one pass."""

    def __init__(self, sections: Iterable[tuple[int, str, str]]) -> None:
        """Index (position, node id, title) triples given in document order.

        Titles shorter than ``MIN_TITLE_CHARS`` or longer than ``MAX_TITLE_WORDS`` words
        are left out.
        """
        self._root = TitleNode()
        self._title_of: dict[str, TitleNode] = {}
        for position, node_id, title in sections:
            if len(title.strip()) < MIN_TITLE_CHARS:
                continue
            title_words = words(title)
            if not title_words or len(title_words) > MAX_TITLE_WORDS:
                continue
            node = self._root
            for word in title_words:
                node = node.children.setdefault(word, TitleNode())
            node.positions.append(position)
            node.sections.append(node_id)
            self._title_of[node_id] = node

    def named_in(self, text: str, limit: int) -> list[TitleNode]:
        """The first ``limit`` titles ``text`` names, in order of first mention."""
        found: dict[int, TitleNode] = {}
        sequence = words(text)
        root = self._root.children
        for i, word in enumerate(sequence):
            node = root.get(word)
            j = i + 1
            while node is not None:
                if node.sections:
                    found.setdefault(id(node), node)
                    if len(found) == limit:
                        return list(found.values())
                if j == len(sequence):
                    break
                node = node.children.get(sequence[j])
                j += 1
        return list(found.values())

    def title_of(self, node_id: str | None) -> TitleNode | None:
        """The indexed title of section ``node_id``, if it is indexed."""
        return self._title_of.get(node_id) if node_id is not None else None


def link_references(
    edges: EdgeSet,
    nodes: Sequence[Node],
    source: str,
    headings: Sequence[tuple[str, str]],
    fences: Sequence[tuple[int, int]],
) -> None:
    """Add a reference edge from each node to the sections it names or links to by anchor.

    ``headings`` are the (node id, title) pairs whose anchors links may name, in document
    order. A node never references itself or its own parent.
    """
    index: TitleIndex | None = None
    anchors: dict[str, str] | None = None
    for position, node in enumerate(nodes):
        if not node.content:
            continue
        if index is None:  # built on first need: a document of bare headings needs none
            sections = enumerate(nodes)
            index = TitleIndex((i, n.node_id, n.title) for i, n in sections if n.kind == "section")
        own = (node.node_id, node.parent_id)
        named = index.named_in(node.content, MAX_NAMED_PER_NODE + len(own))
        own_titles = [index.title_of(node_id) for node_id in own] if named else []
        targets = [t.nearest(position) for t in named if t not in own_titles]
        del targets[MAX_NAMED_PER_NODE:]
        start, end = node.span
        if start < end:
            found = link_targets(source, start, end, fences)
        else:  # a root holding the description, which is not in the source
            found = link_targets(node.content, 0, len(node.content))
        for target in found:
            if is_anchor(target):
                if anchors is None:
                    anchors = anchor_table(headings)
                section = anchors.get(anchor_of(target))
                if section is not None and section not in own:
                    targets.append(section)
        for target_id in targets:
            edges.link(node.node_id, target_id, REFERENCE)
