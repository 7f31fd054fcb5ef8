"""Time in memory: timestamps, ``as_of`` and what each fact was at a moment.

A fact's life is its ``created_at`` plus its logged events (``store.FactEvent``): scopes
added or withdrawn, retired, revived. The scopes a fact had at time T are its current
scopes with the scope events after T undone, newest first (an addition taken away, a
withdrawal put back); it was valid at T when the last retire-or-revive event at or before
T was a revival (or there was none). Replaying these
gives ``as_of`` exactly, not from the one ``invalid_at`` a node carries now.

Timestamps are ISO-8601 UTC strings with microseconds, which sort as text.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from groundgraph.errors import InputError
from groundgraph.store.base import FactEvent

SCOPED = "scoped"
WITHDRAWN = "withdrawn"
INVALIDATED = "invalidated"
REVIVED = "revived"
MAX_AS_OF_CHARS = 64


def iso(moment: datetime) -> str:
    """An aware datetime as the store writes times (naive ones are read as local time)."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def parse_as_of(value: object) -> str | None:
    """``as_of`` as a stored-time string: a datetime, or an ISO-8601 date or date-time.

    Naive values are local time, as Python reads them; ``None`` means now.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, str):
        if len(value) > MAX_AS_OF_CHARS:
            raise InputError("as_of is too long for a date-time: use ISO 8601")
        try:
            return iso(datetime.fromisoformat(value.strip()))
        except ValueError:
            raise InputError(
                f"as_of {value[:40]!r} is not an ISO-8601 date or date-time, "
                "e.g. 2025-03-01 or 2025-03-01T09:30:00+00:00"
            ) from None
    raise InputError(f"as_of must be a datetime or ISO-8601 text, not {type(value).__name__}")


class Clock:
    """Stored-time stamps that strictly increase within a process, so that order is kept
    even when two writes fall in the same microsecond."""

    def __init__(self) -> None:
        self._last = ""
        self._lock = threading.Lock()

    def now(self) -> str:
        with self._lock:
            stamp = iso(datetime.now(UTC))
            if stamp <= self._last:
                last = datetime.fromisoformat(self._last)
                stamp = iso(last + timedelta(microseconds=1))
            self._last = stamp
            return stamp


@dataclass
class FactState:
    """A fact as the memory holds it now, with the events that tell its past."""

    fact_id: str
    text: str
    created_at: str
    scopes: tuple[str, ...]
    invalid_at: str | None
    source: str = ""
    events: list[FactEvent] = field(default_factory=list)

    def at(self, moment: str | None) -> tuple[tuple[str, ...], bool] | None:
        """(scopes, valid) at ``moment`` (now when None); None if not yet created."""
        if moment is None:
            return self.scopes, self.invalid_at is None
        if self.created_at > moment:
            return None
        valid = True
        for event in self.events:
            if event.at > moment:
                continue
            if event.kind == INVALIDATED:
                valid = False
            elif event.kind == REVIVED:
                valid = True
        later = [e for e in self.events if e.at > moment and e.kind in (SCOPED, WITHDRAWN)]
        if not later:
            return self.scopes, valid
        scopes = set(self.scopes)
        for event in reversed(later):
            if event.kind == SCOPED:
                scopes.difference_update(event.scopes)
            else:
                scopes.update(event.scopes)
        back = sorted(scopes.difference(self.scopes))
        return (*(s for s in self.scopes if s in scopes), *back), valid


def seen_since(state: FactState, reads: Callable[[tuple[str, ...]], bool]) -> str:
    """When a reader (``reads``: may it read a fact with these scopes?) could first read
    the fact: its ``created_at`` if its first scopes were readable, else the first scope
    addition after which they were. So a tenant who pushes a sentence another tenant
    pushed first sees the time of its own push, not the other's. A fact the reader never
    read (one reached in another scope) keeps its ``created_at``."""
    if not state.events:
        return state.created_at
    for moment in (state.created_at, *(e.at for e in state.events if e.kind == SCOPED)):
        found = state.at(moment)
        if found is not None and reads(found[0]):
            return moment
    return state.created_at


def attach_events(states: dict[str, FactState], events: Iterable[FactEvent]) -> None:
    """Give each state its events, oldest first."""
    for state in states.values():
        state.events = []
    for event in events:
        found = states.get(event.fact_id)
        if found is not None:
            found.events.append(event)
