"""Memory facts: what a fact is, its id, and the graph records of its causal pairs.

A fact is a one-node document. Its id is ``fact:`` and 16 hex digits of the SHA-256 of
its normalised text (Unicode NFKC, case folded, white space collapsed, end punctuation
dropped), so the same statement always lands on the same fact: adding it again unions
its scopes and revives it. The root node (kind ``document``, empty title) holds the text;
the document records ``source`` (who said it) and ``added_at``.

Causal pairs become shared span nodes, kind ``entity`` and id ``entity:{normalised span}``
(the same namespace as named entities, so a span and an entity of one name are one node);
a ``causes`` edge from the cause span to the effect span, and ``mentions`` edges from the
fact to each span (label ``cause`` or ``effect``), all citing the fact in ``sources`` and
holding the spans' offsets into the fact's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from groundgraph.errors import InputError, InputTooLargeError
from groundgraph.ingest.entities.normalise import normalise_entity
from groundgraph.model import Edge, Node
from groundgraph.model.ids import (
    ENTITY_PREFIX,
    normalise_fact,
)
from groundgraph.model.valid_text import ValidText, valid_text

if TYPE_CHECKING:  # the extractor (and its patterns) loads where mentions are made
    from groundgraph.ingest.entities import Mention

MAX_FACT_CHARS = 20_000
MAX_FACTS_PER_CALL = 10_000
MAX_CAUSAL_PAIRS = 32
MAX_SOURCE_CHARS = 1000
CAUSES_WEIGHT = 0.9
SPAN_WEIGHT = 0.9
SUPERSEDES_WEIGHT = 0.5
CAUSE, EFFECT = "cause", "effect"
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_END_PUNCTUATION = " \t\n.!?;,:"


class CausalPairLike(Protocol):
    """What memory reads of a causal pair (``ingest.causal.CausalPair`` fits)."""

    @property
    def cause(self) -> str: ...
    @property
    def effect(self) -> str: ...
    @property
    def cause_span(self) -> tuple[int, int]: ...
    @property
    def effect_span(self) -> tuple[int, int]: ...
    @property
    def cue(self) -> str: ...


CausalExtractorLike = Callable[[str], Sequence[CausalPairLike]]
EntityCallable = Callable[[str], Sequence[Any]]


def check_fact_text(text: object) -> ValidText:
    """The fact's text, stripped and made valid (a lone surrogate becomes U+FFFD, counted),
    or an InputError that says what is wrong with it."""
    if not isinstance(text, str):
        raise InputError(f"a fact must be text, not {type(text).__name__}")
    if len(text) > MAX_FACT_CHARS:
        raise InputTooLargeError(
            "the fact", len(text), MAX_FACT_CHARS, "store long text with add_document"
        )
    stripped = text.strip()
    if not normalise_fact(stripped):
        raise InputError("a fact needs some text: it is empty or only punctuation")
    if _CONTROL.search(stripped):
        raise InputError("a fact may not hold control characters (is it binary data?)")
    return valid_text(stripped)


def check_source(source: object) -> ValidText:
    """Who said a fact, stripped and made valid like its text."""
    if not isinstance(source, str):
        raise InputError(f"a fact's source must be text, not {type(source).__name__}")
    if len(source) > MAX_SOURCE_CHARS:
        raise InputTooLargeError("the source", len(source), MAX_SOURCE_CHARS)
    return valid_text(source.strip())


def fact_texts(texts: object) -> list[str]:
    """A batch of facts as a list of strings (a single string is refused: it is one fact)."""
    if isinstance(texts, str) or not isinstance(texts, Iterable):
        raise InputError("add_texts takes a list of texts; use add_text for one")
    batch = list(texts)
    if len(batch) > MAX_FACTS_PER_CALL:
        raise InputTooLargeError("the batch of facts", len(batch), MAX_FACTS_PER_CALL)
    return batch


def as_mentions(extractor: EntityCallable) -> Callable[[str], list[Mention]]:
    """An entity extractor that may return plain names as well as ``Mention`` spans.

    A name is placed at its first case-insensitive occurrence in the text, or at (0, 0)
    when the text does not contain it.
    """

    from groundgraph.ingest.entities import Mention

    def extract(text: str) -> list[Mention]:
        found = extractor(text)
        if isinstance(found, str) or not isinstance(found, Iterable):
            raise InputError("an entity extractor must return a list of names or mentions")
        out = []
        lowered = text.casefold()
        for item in found:
            if isinstance(item, Mention):
                out.append(item)
            elif isinstance(item, str) and item.strip():
                key = normalise_entity(item.strip())
                if not key:
                    continue
                start = lowered.find(item.strip().casefold())
                if start >= 0 and len(item.strip().casefold()) == len(item.strip()):
                    end = start + len(item.strip())
                    out.append(Mention(start, end, text[start:end], key, "name"))
                else:
                    out.append(Mention(0, 0, item.strip(), key, "name"))
            else:
                raise InputError(
                    f"an entity extractor returned {type(item).__name__}: use names or Mention"
                )
        return out

    return extract


def causal_records(
    fact: str, text: str, pairs: Sequence[CausalPairLike]
) -> tuple[list[Node], list[Edge], list[tuple[str, str]]]:
    """Span nodes, edges and (cause, effect) texts for the causal pairs of one fact."""
    nodes: dict[str, Node] = {}
    edges: dict[tuple[str, str, str, str | None], Edge] = {}
    shown: list[tuple[str, str]] = []
    for pair in list(pairs)[:MAX_CAUSAL_PAIRS]:
        cause = _span(text, pair.cause_span)
        effect = _span(text, pair.effect_span)
        if cause is None or effect is None:
            continue
        cause_id = ENTITY_PREFIX + normalise_entity(text[cause[0] : cause[1]])
        effect_id = ENTITY_PREFIX + normalise_entity(text[effect[0] : effect[1]])
        if ENTITY_PREFIX in (cause_id, effect_id) or cause_id == effect_id:
            continue
        for node_id, (a, b) in ((cause_id, cause), (effect_id, effect)):
            nodes.setdefault(node_id, Node(node_id, "", "entity", text[a:b], ""))
        key = (cause_id, effect_id, "causes", None)
        if key not in edges:
            edges[key] = Edge(
                cause_id,
                effect_id,
                "causes",
                CAUSES_WEIGHT,
                (fact,),
                pair.cue or None,
                spans=((fact, *cause), (fact, *effect)),
            )
            shown.append((text[cause[0] : cause[1]], text[effect[0] : effect[1]]))
        for node_id, role, (a, b) in ((cause_id, CAUSE, cause), (effect_id, EFFECT, effect)):
            edges.setdefault(
                (fact, node_id, "mentions", role),
                Edge(fact, node_id, "mentions", SPAN_WEIGHT, (fact,), role, spans=((fact, a, b),)),
            )
    return list(nodes.values()), list(edges.values()), shown


def _span(text: str, span: object) -> tuple[int, int] | None:
    """A pair's span trimmed of white space and end punctuation, if it is a real one."""
    if not (isinstance(span, tuple | list) and len(span) == 2):
        return None
    a, b = span
    if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < b <= len(text)):
        return None
    while a < b and text[a] in _END_PUNCTUATION:
        a += 1
    while b > a and text[b - 1] in _END_PUNCTUATION:
        b -= 1
    return (a, b) if a < b else None


def causal_pairs(extractor: CausalExtractorLike | None, text: str) -> Sequence[Any]:
    """The causal pairs ``extractor`` finds in ``text``, checked to be pair records."""
    if extractor is None:
        return []
    found = extractor(text)
    if isinstance(found, str) or not isinstance(found, Iterable):
        raise InputError("a causal extractor must return a list of causal pairs")
    pairs = list(found)
    for pair in pairs:
        if not all(hasattr(pair, a) for a in ("cause_span", "effect_span", "cue")):
            raise InputError(
                f"a causal extractor returned a {type(pair).__name__}: return CausalPair "
                "records (cause, effect, cause_span, effect_span, cue, language)"
            )
    return pairs
