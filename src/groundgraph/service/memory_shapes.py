"""ReasonGraph's JSON shapes (its ``service/http.py``, 0.7.40), made from groundgraph's
records, and the redaction every answer goes through.

Keys are snake_case as ReasonGraph's (``created_at``, ``cross_session``); each recalled
fact also carries groundgraph's ``explanation`` (how it was found), which ReasonGraph's
clients ignore. :func:`redact` cuts every ``scopes`` list to the names the caller may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from groundgraph.model.memory import (
    CausalHop,
    CausalTrace,
    Connection,
    Fact,
    MemoryHit,
    SpanReach,
    WhatIf,
)
from groundgraph.service.access import Access


def redact(data: Any, access: Access) -> Any:
    """``data`` with every ``scopes`` list cut to the scope names ``access`` may see."""
    if access.unrestricted:
        return data
    if isinstance(data, Mapping):
        return {
            key: access.shown(value)
            if key in ("scopes", "sessions") and isinstance(value, list)
            else redact(value, access)
            for key, value in data.items()
        }
    if isinstance(data, list | tuple):
        return [redact(item, access) for item in data]
    return data


def redacted(data: dict[str, Any], access: Access) -> dict[str, Any]:
    """An answer object with every ``scopes`` list cut (:func:`redact`)."""
    cut: dict[str, Any] = redact(data, access)
    return cut


def fact_row(text: str, fact: Fact | None, access: Access) -> dict[str, Any]:
    """A row of ``/facts``: is the text stored (where the caller may see it), and with what."""
    if fact is None:
        return {"text": text, "stored": False, "sessions": [], "entities": [], "relations": []}
    return {
        "text": text,
        "stored": True,
        "sessions": access.shown(fact.scopes),
        "entities": list(fact.entities),
        "relations": [{"cause": c, "effect": e} for c, e in fact.causes],
    }


def detailed_fact(hit: MemoryHit) -> dict[str, Any]:
    """A ``detailed`` query fact: ReasonGraph's four keys, the cross flag, the explanation."""
    return {
        "content": hit.content,
        "score": hit.score,
        "created_at": hit.created_at,
        "scopes": list(hit.scopes),
        "cross_session": hit.cross_scope,
        "retired": hit.retired,
        "explanation": hit.explanation.to_dict(),
    }


def _step(step: Mapping[str, Any]) -> dict[str, Any]:
    if "content" in step:
        return {"content": step["content"], "scopes": list(step.get("scopes", ()))}
    return {"entity": step.get("entity", step.get("span", ""))}


def connection(found: Connection) -> dict[str, Any]:
    return {
        "content": found.content,
        "scopes": list(found.scopes),
        "cross_session": found.cross_scope,
        "causes": [{"cause": c.cause, "effect": c.effect} for c in found.causes],
        "path": [_step(step) for step in found.path],
        "score": found.score,
    }


def hop(item: CausalHop) -> dict[str, Any]:
    return {
        "cause": item.cause,
        "effect": item.effect,
        "fact": item.fact,
        "depth": item.depth,
        "scopes": list(item.scopes),
        "cross_session": item.cross_scope,
    }


def trace(found: CausalTrace) -> dict[str, Any]:
    return {
        "origin": found.origin,
        "chain": [hop(item) for item in found.chain],
        "terminals": list(found.terminals),
        "truncated": found.truncated,
    }


def _reach(item: SpanReach) -> dict[str, Any]:
    return {
        "span": item.span,
        "fact": item.fact,
        "depth": item.depth,
        "scopes": list(item.scopes),
        "cross_session": item.cross_scope,
    }


def what_if(found: WhatIf) -> dict[str, Any]:
    return {
        "pruned": found.pruned,
        "origin": found.origin,
        "pruned_edges": [
            {"cause": e.get("cause", ""), "effect": e.get("effect", "")} for e in found.pruned_edges
        ],
        "collapsed": [_reach(item) for item in found.collapsed],
        "survived": [_reach(item) for item in found.survived],
    }
