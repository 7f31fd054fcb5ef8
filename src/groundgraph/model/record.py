"""The base of every result record: one JSON form, and a read-only Mapping over it.

A record is a frozen dataclass. Its JSON form is generated from its fields: camelCase
keys (the saved-graph format's), nested records as their own JSON form, tuples as lists.
A record names the exceptions in class attributes (``json_names`` for a key that is not
the camelCase of its field, ``json_extra`` for properties that belong in the JSON,
``json_omit`` for fields that do not). Users of the seeds index results as dicts
(``result["answer"]``, ``"claims" in result``), so every record also reads as an
immutable Mapping of its JSON form: ``in``, ``get``, ``keys``, ``dict(record)``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any, ClassVar


@cache
def camel(name: str) -> str:
    """``lexical_score`` → ``lexicalScore``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def to_json(value: Any) -> Any:
    """A value in its JSON form: records by ``to_dict``, tuples and lists as lists."""
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    return value


@cache
def _layout(cls: type[Record]) -> tuple[tuple[str, str], ...]:
    """(attribute, JSON key) pairs of a record class, in JSON order."""
    names = cls.json_names
    omit = set(cls.json_omit)
    pairs = [
        (f.name, names.get(f.name, camel(f.name)))
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.name not in omit
    ]
    pairs += [(p, names.get(p, camel(p))) for p in cls.json_extra]
    order = cls.json_order
    if order:
        rank = {key: i for i, key in enumerate(order)}
        pairs.sort(key=lambda pair: rank.get(pair[1], len(rank)))
    return tuple(pairs)


class Record(Mapping[str, Any]):
    """Mixin of result records: ``to_dict()`` and the Mapping reads over it."""

    __slots__ = ()
    json_names: ClassVar[Mapping[str, str]] = {}
    json_extra: ClassVar[tuple[str, ...]] = ()
    json_omit: ClassVar[tuple[str, ...]] = ()
    json_order: ClassVar[tuple[str, ...]] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: camelCase keys, nested records and tuples converted."""
        return {key: to_json(getattr(self, attr)) for attr, key in _layout(type(self))}

    # The Mapping reads go through to_dict(), so a record that writes its own JSON form
    # reads as that form too.
    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())

    def __contains__(self, key: object) -> bool:
        return key in self.to_dict()
