"""The message for a name a DocumentGraph lacks, saying the new name where the name is
another tool's for one of our verbs.

ReasonGraph's verbs are async, each with a ``_sync`` twin (``query_sync``,
``add_text_sync``, ``what_if_sync``); its lifecycle is ``initialize()`` and ``close()``.
Our verbs are plain methods (``AsyncDocumentGraph`` awaits them) and a graph is open once
built, so ``graph.query_sync(...)`` is ``graph.query(...)``: the ``AttributeError`` says
so, rather than adding a second name for every verb. docs/coming-from.md has the table.
"""

from __future__ import annotations

SYNC_SUFFIX = "_sync"
#: ReasonGraph's lifecycle verbs that a DocumentGraph has no need of.
NOT_NEEDED = {
    "initialize": "a DocumentGraph is open once it is built: drop the call",
}


def missing_attribute(owner: type, name: str) -> str:
    """The ``AttributeError`` message for ``owner().name``."""
    plain = name.removesuffix(SYNC_SUFFIX)
    standard = f"{owner.__name__!r} object has no attribute {name!r}"
    if plain in NOT_NEEDED:
        return f"{standard}; ReasonGraph's {name}(): {NOT_NEEDED[plain]}"
    if plain != name and plain and callable(getattr(owner, plain, None)):
        return (
            f"{standard}; ReasonGraph's {name}(...) is {plain}(...) here: groundgraph's verbs "
            "are plain methods (await them on AsyncDocumentGraph)"
        )
    return standard
