"""Random tenants for the leak tests (HTTP and MCP): facts in random scopes, some shared
by two, and what each key may not see of them.

    service, scopes, truth = build(random.Random(1))   # truth: fact text -> its scopes
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from groundgraph.graph import DocumentGraph
from groundgraph.model.ids import is_fact_id
from groundgraph.service import Access, MemoryService

PHRASES = ["heavy rain", "the flood", "the outage", "the strike", "the delay", "the fire"]
NAMES = ["Kestrel", "Juniper", "Marlow", "Quenby", "Tamsin", "Oberon", "Wrenna", "Ysolde"]
PLACES = ["Lisbon", "Porto", "Braga", "Faro"]


def make_fact(rng: random.Random, name: str) -> str:
    cause, effect = rng.sample(PHRASES, 2)
    shape = rng.randrange(3)
    if shape == 0:
        return f"{name} said {cause} caused {effect} in {rng.choice(PLACES)}."
    if shape == 1:
        return f"{cause.capitalize()} caused {effect} near {name}'s office."
    return f"{name} met {rng.choice(NAMES)} in {rng.choice(PLACES)} about {effect}."


def build(rng: random.Random) -> tuple[MemoryService, list[str], dict[str, tuple[str, ...]]]:
    scopes = [f"tenant-{i}-{rng.randrange(10**6)}" for i in range(4)]
    service = MemoryService(DocumentGraph())
    own_names = {s: rng.sample(NAMES, 2) for s in scopes}
    for _ in range(28):
        home = rng.choice(scopes)
        text = make_fact(rng, rng.choice(own_names[home]))
        service.push(home, text)
        if rng.random() < 0.2:
            service.push(rng.choice(scopes), text)  # the same fact in a second scope
    truth = {}
    for document in service.graph.store.reads.documents():
        if is_fact_id(document.doc_id):
            fact = service.graph.fact(document.doc_id)
            truth[fact.text] = fact.scopes
    return service, scopes, truth


def near_miss(fact_id: str) -> str:
    """An id one digit off ``fact_id``: a suggestion for it must not name a hidden fact."""
    return fact_id[:-1] + ("0" if fact_id[-1] != "0" else "1")


def asked_texts(body: dict) -> list[str]:
    """What the request itself said: an answer may repeat it."""
    found: list[str] = []
    for value in body.values():
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, list):
            found += [v for v in value if isinstance(v, str)]
    return sorted(found, key=len, reverse=True)


@dataclass(frozen=True)
class Hidden:
    """What a key may not see: fact texts, names only those facts mention, scope names."""

    texts: list[str]
    seen: list[str]
    names: set[str]
    scopes: list[str]


def hidden_from(access: Access, truth: dict[str, tuple[str, ...]], scopes: list[str]) -> Hidden:
    hidden = [t for t, s in truth.items() if not access.sees(s)]
    seen = [t for t, s in truth.items() if access.sees(s)]
    names = {w for t in hidden for w in re.findall(r"[A-Z][a-z]+", t)}
    names -= {w for t in seen for w in re.findall(r"[A-Z][a-z]+", t)}
    names -= {"Heavy", "The", *PLACES}
    return Hidden(hidden, seen, names, [s for s in scopes if not access.sees_scope(s)])
