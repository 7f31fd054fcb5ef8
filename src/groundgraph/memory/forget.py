"""Forgetting: facts nobody has read for ``forget_after`` days go.

A fact's last use is the later of when it was added and when a read last returned it
(``store.touch``; reads with ``as_of`` and ``what_if`` do not count, they look at the
past or at a hypothesis). ``maybe_forget`` sweeps at most once per ``forget_every``
seconds, remembered in the store so that several processes share one rhythm, and never
when ``forget_every`` is None (ReasonGraph's default).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from groundgraph.errors import InputError
from groundgraph.memory.timeline import FactState, iso

LAST_SWEEP_SETTING = "memory.lastForgetSweep"
DEFAULT_FORGET_EVERY = 3600.0
MAX_DAYS = 365_000.0


def check_days(value: object, name: str = "forget_after") -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{name} must be a number of days, not {type(value).__name__}")
    if not 0 <= value <= MAX_DAYS:
        raise InputError(f"{name} must be between 0 and {MAX_DAYS:,.0f} days, not {value}")
    return float(value)


def check_seconds(value: object) -> float | None:
    """``forget_every`` checked: seconds between sweeps, or None for never."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InputError(
            f"forget_every must be a number of seconds >= 0, or None (never sweep), not {value!r}"
        )
    return float(value)


def cutoff(now: str, days: float) -> str:
    """The stored-time moment ``days`` before ``now``."""
    return iso(datetime.fromisoformat(now) - timedelta(days=days))


def stale(states: Mapping[str, FactState], access: Mapping[str, str], before: str) -> list[str]:
    """Facts last used before ``before``, oldest use first (ties by id)."""
    last = {f: max(s.created_at, access.get(f, "")) for f, s in states.items()}
    return sorted((f for f, t in last.items() if t < before), key=lambda f: (last[f], f))


def sweep_due(last_sweep: str | None, now: str, every: float) -> bool:
    """Whether a throttled sweep may run now."""
    if last_sweep is None:
        return True
    try:
        previous = datetime.fromisoformat(last_sweep)
    except ValueError:
        return True
    return datetime.fromisoformat(now) - previous >= timedelta(seconds=every)
