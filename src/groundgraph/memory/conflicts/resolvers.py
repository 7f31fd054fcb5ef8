"""Contradiction resolvers: which earlier facts does a new fact contradict?

A ``ConflictResolver`` is anything with ``contradictions(new, candidates)`` returning the
candidates the new fact contradicts, as ``Contradiction`` records (or plain strings, which
the memory wraps with the resolver's class name as the rule). Two ship here:

- ``RuleConflictResolver``: no model. A single-valued attribute of one subject given a
  different value ("Acme is based in Munich" → "Acme moved to Berlin"), "X left Y"
  against "X works at Y", and explicit negation ("Alice no longer lives in Paris").
  Additive statements ("Acme also has an office in Paris") and multi-valued relations
  ("Alice visited Rome" → "Alice visited Oslo") never conflict.
- ``LLMConflictResolver``: any ``llm(prompt) -> str``; the reply must be strict JSON
  ``{"contradicted": [numbers], "reason": "…"}``. A reply that is not is recorded in
  ``failures`` (and logged) and counts as "no contradiction": a model's bad output never
  retires a fact. It is parsed with ``json.loads`` only, never evaluated.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from groundgraph.errors import FormatError, InputError, InputTooLargeError
from groundgraph.memory.conflicts.changes import change_conflict
from groundgraph.memory.conflicts.negation import negates, proposition
from groundgraph.memory.conflicts.nonchange import THIS_PERIOD
from groundgraph.memory.conflicts.phrases import sentences
from groundgraph.memory.conflicts.rules import MAX_CLAIM_TEXT, Claim, parse_claims
from groundgraph.memory.conflicts.values import value_key, values_differ
from groundgraph.model.record import Record

__all__ = [
    "MAX_CANDIDATES",
    "ConflictResolver",
    "Contradiction",
    "LLMConflictResolver",
    "ParseFailure",
    "RuleConflictResolver",
    "parse_verdict",
]

logger = logging.getLogger(__name__)

MAX_CANDIDATES = 10_000  # one call compares a fact with at most this many others
MAX_REPLY_CHARS = 20_000  # a longer model reply is a parse failure, not parsed
_PROMPT_NEW_CHARS = 2_000
_PROMPT_CANDIDATE_CHARS = 600
_KEPT_FAILURES = 100


@dataclass(frozen=True, slots=True)
class Contradiction(Record):
    """An earlier fact (``candidate``) that a new fact contradicts, and why."""

    candidate: str
    rule: str
    detail: str


@runtime_checkable
class ConflictResolver(Protocol):
    """Decides which candidates a new fact contradicts."""

    def contradictions(
        self, new: str, candidates: Sequence[str]
    ) -> Sequence[Contradiction | str]: ...


def _checked(new: object, candidates: object) -> tuple[str, list[str]]:
    if not isinstance(new, str):
        raise InputError(f"the new fact must be a string, not {type(new).__name__}")
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence):
        raise InputError(f"candidates must be a list of strings, not {type(candidates).__name__}")
    if len(candidates) > MAX_CANDIDATES:
        raise InputTooLargeError(
            "the candidate list", len(candidates), MAX_CANDIDATES, "pass the nearest facts only"
        )
    for index, candidate in enumerate(candidates):
        if not isinstance(candidate, str):
            raise InputError(f"candidate {index} is a {type(candidate).__name__}, not a string")
    return new, list(candidates)


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


# ---- the rule resolver -----------------------------------------------------------------


def _same_value(a: Claim, b: Claim) -> bool:
    ka, kb = value_key(a.value), value_key(b.value)
    if not ka or not kb:
        return False
    return ka == kb or set(ka.split()) <= set(kb.split()) or set(kb.split()) <= set(ka.split())


def _same_subject(a: str, b: str, attribute: str) -> bool:
    """One subject, perhaps named more fully once: "rent" and "monthly rent" (the same
    head word), and for a status "dark mode" and "dark mode feature flag"; never "kitchen
    renovation" and "bathroom renovation", nor "data team" and "data team hiring effort"."""
    if a == b:
        return True
    light = ("team", "group", "squad", "department", "unit", "crew")
    a_words = [w for i, w in enumerate(a.split()) if i == 0 or w not in light]
    b_words = [w for i, w in enumerate(b.split()) if i == 0 or w not in light]
    short, long = sorted((a_words, b_words), key=len)
    if short and set(short) <= set(long):
        return short[-1] == long[-1] or (len(short) >= 2 and attribute.startswith("status:"))
    # "the Cebu agents" and "our call-centre agents in Cebu": one head, the rest named too
    heads = [_before_preposition(w) for w in (a_words, b_words)]
    if not all(heads) or heads[0][-1] != heads[1][-1]:
        return False
    return set(heads[0]) <= set(b_words) or set(heads[1]) <= set(a_words)


def _before_preposition(words: list[str]) -> list[str]:
    for i, word in enumerate(words):
        if i and word in ("in", "at", "of", "for", "on", "from"):
            return words[:i]
    return words


def _claim_conflict(new: Claim, old: Claim) -> Contradiction | None:
    if (new.attribute, new.kind) != (old.attribute, old.kind):
        return None
    if not _same_subject(new.subject, old.subject, new.attribute):
        return None
    if new.additive or old.additive:
        return None
    what = f"{new.attribute} of {new.subject!r}"
    if new.positive and old.positive:
        if values_differ(new.kind, old.value, new.value):
            detail = f"{what} was {old.value!r}, now {new.value!r}"
            return Contradiction("", f"single-valued:{new.attribute}", detail)
        return None
    if new.positive != old.positive and _same_value(new, old):
        negative = new if not new.positive else old
        detail = f"{what}: {'no longer' if negative is new else 'again'} {negative.value!r}"
        return Contradiction("", f"no-longer:{new.attribute}", detail)
    return None


class RuleConflictResolver:
    """Contradictions found by rules, with no model: single-valued attributes, negation and
    the changes a fact announces (``changes=False`` turns those off).

    Only the first ``MAX_CLAIM_TEXT`` characters of each fact are read (facts are short;
    the rest of a long text is not compared). ``explain(new, old)`` gives the reason for
    one pair, or None.
    """

    def __init__(
        self, *, single_valued: bool = True, negation: bool = True, changes: bool = True
    ) -> None:
        self.single_valued = single_valued
        self.negation = negation
        self.changes = changes

    def explain(self, new: str, old: str) -> Contradiction | None:
        """Why ``new`` contradicts ``old`` (the first rule that fires), or None."""
        new_text, _ = _checked(new, [])
        old_text, _ = _checked(old, [])
        new_text, old_text = new_text[:MAX_CLAIM_TEXT], old_text[:MAX_CLAIM_TEXT]
        if not new_text.strip() or not old_text.strip() or _same_text(new_text, old_text):
            return None
        if self.single_valued:
            occasion = THIS_PERIOD.match(new_text) is not None  # a date of one occasion
            for new_claim in parse_claims(new_text):
                if occasion and new_claim.attribute.startswith("date"):
                    continue
                for old_claim in parse_claims(old_text):
                    found = _claim_conflict(new_claim, old_claim)
                    if found is not None:
                        return Contradiction(old, found.rule, found.detail)
        if self.negation:
            for new_sentence in sentences(new_text):
                a = proposition(new_sentence)
                for old_sentence in sentences(old_text):
                    b = proposition(old_sentence)
                    if negates(a, b):
                        side = "the new fact" if a.negated else "the earlier fact"
                        detail = f"{side} negates {' '.join((b if a.negated else a).words)!r}"
                        return Contradiction(old, "negation", detail)
        if self.changes and (change := change_conflict(new_text, old_text)) is not None:
            return Contradiction(old, f"change:{change.kind}", change.detail)
        return None

    def contradictions(self, new: str, candidates: Sequence[str]) -> list[Contradiction]:
        """The candidates ``new`` contradicts, in candidate order, each once."""
        new, listed = _checked(new, candidates)
        found: list[Contradiction] = []
        seen: set[str] = set()
        for candidate in listed:
            if candidate in seen:
                continue
            seen.add(candidate)
            contradiction = self.explain(new, candidate)
            if contradiction is not None:
                found.append(contradiction)
        return found


# ---- the LLM resolver ------------------------------------------------------------------

_PROMPT = """You keep a memory of facts consistent.

New fact: {new}

Earlier facts:
{numbered}

Which earlier facts can no longer be true if the new fact is true? An earlier fact that the
new one only adds to, or that is about another subject or another attribute, is not
contradicted. Reply with one JSON object and nothing else:
{{"contradicted": [numbers of the contradicted earlier facts], "reason": "one short sentence"}}
Use an empty list when no earlier fact is contradicted."""

_FENCE = re.compile(r"^```(?:json)?\s*\n?(.*?)\n?```$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class ParseFailure:
    """A model reply that was not the JSON asked for: its start and what was wrong."""

    reply: str
    error: str


def parse_verdict(reply: object, count: int) -> tuple[list[int], str]:
    """The 1-based candidate numbers and the reason in a reply; FormatError if malformed."""
    if not isinstance(reply, str):
        raise FormatError(f"the reply is a {type(reply).__name__}, not text")
    if len(reply) > MAX_REPLY_CHARS:
        raise FormatError(f"the reply is {len(reply):,} characters, over {MAX_REPLY_CHARS:,}")
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise FormatError(f"the reply is not JSON: {str(error)[:120]}") from None
    if not isinstance(data, dict) or "contradicted" not in data:
        raise FormatError('the reply is not an object with a "contradicted" list')
    extra = set(data) - {"contradicted", "reason"}
    if extra:
        raise FormatError(f"the reply has unexpected keys: {sorted(extra)}")
    numbers, reason = data["contradicted"], data.get("reason", "")
    if not isinstance(reason, str):
        raise FormatError('"reason" is not a string')
    if not isinstance(numbers, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in numbers
    ):
        raise FormatError('"contradicted" is not a list of whole numbers')
    if any(not 1 <= n <= count for n in numbers):
        raise FormatError(f'"contradicted" holds a number outside 1..{count}: {numbers}')
    return sorted(set(numbers)), reason


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class LLMConflictResolver:
    """Contradictions judged by a language model, over any ``llm(prompt) -> str``.

    Only the first ``max_candidates`` non-empty candidates are shown to the model (pass the
    nearest first). A reply that is not the JSON asked for is recorded in ``failures`` and
    means "no contradiction"; errors raised by ``llm`` itself propagate.
    """

    def __init__(self, llm: Callable[[str], str], max_candidates: int = 10) -> None:
        if not callable(llm):
            raise InputError(f"llm must be a callable prompt -> text, not {type(llm).__name__}")
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int):
            raise InputError("max_candidates must be a whole number")
        if not 1 <= max_candidates <= 100:
            raise InputError(f"max_candidates must be between 1 and 100, not {max_candidates}")
        self.llm = llm
        self.max_candidates = max_candidates
        self.calls = 0
        self._failures: deque[ParseFailure] = deque(maxlen=_KEPT_FAILURES)
        self._lock = threading.Lock()

    @property
    def failures(self) -> tuple[ParseFailure, ...]:
        """The most recent replies that could not be parsed (at most 100)."""
        with self._lock:
            return tuple(self._failures)

    def prompt(self, new: str, candidates: Sequence[str]) -> str:
        """The prompt for ``new`` and these candidates (already cut to ``max_candidates``)."""
        numbered = "\n".join(
            f"{i}. {_one_line(c, _PROMPT_CANDIDATE_CHARS)}" for i, c in enumerate(candidates, 1)
        )
        return _PROMPT.format(new=_one_line(new, _PROMPT_NEW_CHARS), numbered=numbered)

    def contradictions(self, new: str, candidates: Sequence[str]) -> list[Contradiction]:
        """The candidates the model says ``new`` contradicts; none when its reply is bad."""
        new, listed = _checked(new, candidates)
        shown = [c for c in dict.fromkeys(listed) if c.strip()][: self.max_candidates]
        if not new.strip() or not shown:
            return []
        reply = self.llm(self.prompt(new, shown))
        with self._lock:
            self.calls += 1
        try:
            numbers, reason = parse_verdict(reply, len(shown))
        except FormatError as error:
            start = reply[:200] if isinstance(reply, str) else repr(type(reply))
            with self._lock:
                self._failures.append(ParseFailure(start, str(error)))
            logger.warning("conflict resolver: unusable model reply (%s)", error)
            return []
        return [Contradiction(shown[n - 1], "llm", reason) for n in numbers]
