"""When to retry an LLM call, and how long to wait first.

Connection errors, 429 (rate limited) and 5xx (server trouble) are worth another try;
any other 4xx is a mistake in the request that a retry would only repeat.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

_jitter = random.Random()  # spreads the retries of concurrent callers apart


def is_retryable_status(status: int) -> bool:
    """True for 429 and every 5xx."""
    return status == 429 or 500 <= status <= 599


def retry_after_seconds(header: str | None, now: datetime | None = None) -> float | None:
    """The wait a Retry-After header asks for (seconds or an HTTP date), or None."""
    if header is None or not header.strip() or len(header) > 100:
        return None
    text = header.strip()
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def retry_delay(attempt: int, retry_after: str | None, backoff: float, cap: float) -> float:
    """Seconds to wait before retry number ``attempt + 1``: the server's Retry-After if it
    gave one, else ``backoff · 2^attempt`` with jitter; never more than ``cap``."""
    asked = retry_after_seconds(retry_after)
    if asked is not None:
        return min(cap, asked)
    exponential = backoff * (2.0**attempt) * (0.5 + 0.5 * _jitter.random())
    return min(cap, exponential)
