"""Deterministic fake LLMs and small documents for the reasoning and tool tests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

from groundgraph import DocumentGraph

GUIDE = """# User Guide
## Installation
Run pip install gpbacay-arcane.
## Configuration
Edit config.json to customize settings.
## Deployment
Push the build to the server.
## Troubleshooting
If config fails, see the Configuration section."""

BAKERY = """# Bakery Handbook
## Bread
Dough rises overnight in the cold room. Bake the loaves at 230 degrees for forty minutes.
## Pantry
Flour, salt and yeast live in the pantry. Order flour when two sacks remain.
## Cleaning
Wipe the ovens after the bread is out. The cold room is cleaned on Mondays.
"""


def make_graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document(GUIDE, "User Guide")
    graph.add_document(BAKERY, "Bakery Handbook")
    return graph


def thoughts(*answers: str | tuple[str, str]) -> str:
    """A generate reply: ``{"thoughts": [{"answer", "missing"}, ...]}``."""
    items = []
    for answer in answers:
        text, missing = (answer, "") if isinstance(answer, str) else answer
        items.append({"answer": text, "missing": missing})
    return json.dumps({"thoughts": items})


def answer(text: str, missing: str = "") -> str:
    """An aggregate or rewrite reply: ``{"answer", "missing"}``."""
    return json.dumps({"answer": text, "missing": missing})


class Scripted:
    """Returns the queued replies in order and records every prompt; fails on an extra call."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self._lock:
            self.prompts.append(prompt)
            if not self.replies:
                raise AssertionError(f"unexpected LLM call #{len(self.prompts)}")
            return self.replies.pop(0)


class Keyed:
    """A thread-safe LLM whose reply depends only on the prompt: the same at any concurrency.

    ``reply(prompt)`` computes the answer; each call sleeps ``delay`` seconds so that calls
    overlap when they can, and ``peak`` records the most calls in flight at once.
    """

    def __init__(self, reply: Callable[[str], str], delay: float = 0.01) -> None:
        self.reply = reply
        self.delay = delay
        self.calls = 0
        self.peak = 0
        self._running = 0
        self._lock = threading.Lock()

    def __call__(self, prompt: str) -> str:
        with self._lock:
            self.calls += 1
            self._running += 1
            self.peak = max(self.peak, self._running)
        try:
            time.sleep(self.delay)
            return self.reply(prompt)
        finally:
            with self._lock:
                self._running -= 1
