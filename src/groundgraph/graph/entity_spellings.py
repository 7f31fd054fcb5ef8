"""The spelling a scoped read sees of an entity: one its own documents wrote.

The store keeps one title per entity, the shortest spelling of all its mentions, the first
in sort order of those (``model.ids.spelling_order``), whoever wrote it. When two tenants
name the same thing (``Kestrel`` and ``KESTREL`` have one key), that title may be the
other tenant's. A scoped view (``show``, ``node``, ``bridge``) names an entity by the
same rule over the mentions the read may see (``graph.document_scope``):

- the stored title, when one of those mentions spells it so (the common case, one read);
- else the shortest of those mentions' spellings, the first in sort order of those
  (reading at most ``MAX_SPELLING_READS`` sections of that length, in store order);
- an entity the read reaches only along ``relation`` edges: the stored title if the text
  a visible relation cites holds it as written, else its key (``entity:`` stripped), which
  is lower case and no one's spelling.

So a key is never shown a spelling only another tenant's text holds::

    titles = scoped_titles(scope, store.reads.get_nodes(ids))   # {entity id: spelling}
"""

from __future__ import annotations

from collections.abc import Mapping

from groundgraph.graph.document_scope import DocumentScope
from groundgraph.model import Node
from groundgraph.model.ids import entity_key, is_entity_id

#: The most sections read to find the spelling of one entity.
MAX_SPELLING_READS = 256


def scoped_titles(scope: DocumentScope | None, nodes: Mapping[str, Node]) -> dict[str, str]:
    """Each node's title as the read may be shown it: an entity's by the rule above, any
    other node's as stored (every title as stored for a read of everything)."""
    if scope is None:
        return {n: node.title for n, node in nodes.items()}
    return {
        n: scoped_spelling(scope, n, node.title) if is_entity_id(n) else node.title
        for n, node in nodes.items()
    }


def scoped_spelling(scope: DocumentScope, entity: str, stored: str) -> str:
    """The spelling of ``entity`` (stored title ``stored``) the read may be shown."""
    edges = [e for e in scope.store.reads.edges_touching([entity]) if scope.edge(e)]
    spans = sorted(
        {
            (end - start, node, start, end)
            for e in edges
            if e.type == "mentions" and e.target == entity
            for node, start, end in e.spans
            if end > start
        }
    )
    if spans:
        shortest = spans[0][0]
        for length in dict.fromkeys((len(stored), shortest)):
            chosen = [(n, a, b) for size, n, a, b in spans if size == length]
            spelled = _spelled(scope, chosen[:MAX_SPELLING_READS])
            if stored in spelled:
                return stored
            if length == shortest and spelled:
                return min(spelled)
    cited = [(n, a, b) for e in edges if e.type == "relation" for n, a, b in e.spans]
    texts = _texts(scope, {n for n, _, _ in cited[:MAX_SPELLING_READS]})
    if any(stored in texts.get(n, "")[a:b] for n, a, b in cited[:MAX_SPELLING_READS]):
        return stored
    return entity_key(entity)


def _spelled(scope: DocumentScope, spans: list[tuple[str, int, int]]) -> set[str]:
    """The text of each span (node, start, end) whose node the store holds."""
    texts = _texts(scope, {n for n, _, _ in spans})
    return {texts[n][a:b] for n, a, b in spans if n in texts}


def _texts(scope: DocumentScope, node_ids: set[str]) -> dict[str, str]:
    found = scope.store.reads.get_nodes(sorted(node_ids)) if node_ids else {}
    return {n: node.content for n, node in found.items()}
