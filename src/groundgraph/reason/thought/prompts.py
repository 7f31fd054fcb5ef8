"""What the reasoner asks the LLM, and how it reads the replies.

Every prompt starts with the question and the evidence the thought rests on
(``[nodeId] title`` then the section's text). Replies are asked for as JSON and read
strictly: the first JSON object in the reply is decoded with ``json`` (never evaluated);
a reply with no object of the expected shape counts as one plain-text answer.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

MAX_EVIDENCE_CHARS = 1500
MAX_REPLY_CHARS = 100_000  # characters of a reply read for JSON
MAX_ANSWER_CHARS = 20_000  # characters kept of one answer
MAX_FOLLOW_UP_CHARS = 500  # characters kept of what the model says is missing
MAX_CANDIDATE_CHARS = 4_000
MAX_JSON_ATTEMPTS = 20

NO_EVIDENCE = "(no evidence found)"


@dataclass(frozen=True, slots=True)
class EvidenceText:
    """One evidence section as the prompt shows it."""

    node_id: str
    title: str
    content: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """An answer read from a reply; ``missing`` is what the model said the evidence lacks."""

    answer: str
    missing: str = ""


def header(question: str, evidence: Sequence[EvidenceText]) -> str:
    """``Question: …`` and the evidence blocks (or a note that there is none)."""
    if evidence:
        blocks = "\n\n".join(
            f"[{e.node_id}] {e.title}\n{e.content[:MAX_EVIDENCE_CHARS]}" for e in evidence
        )
    else:
        blocks = NO_EVIDENCE
    return f"Question: {question}\n\nEvidence:\n{blocks}"


def generate_prompt(
    question: str, evidence: Sequence[EvidenceText], k: int, previous: str = ""
) -> str:
    """Ask for ``k`` different candidate answers, each with what is still missing;
    ``previous`` is an earlier answer to improve on."""
    plural = "one answer" if k == 1 else f"{k} different candidate answers"
    earlier = f"An earlier answer, to improve on:\n{previous[:MAX_CANDIDATE_CHARS]}\n\n"
    return (
        f"{header(question, evidence)}\n\n{earlier if previous else ''}"
        f"Write {plural} to the question, using only facts stated in the evidence. "
        "Keep each answer to a few short sentences. If the evidence is not enough, say what "
        "is missing as a short search query.\n"
        'Reply with JSON only: {"thoughts": [{"answer": "...", "missing": "..."}]} '
        '(use "" for missing when nothing is).'
    )


def aggregate_prompt(
    question: str, evidence: Sequence[EvidenceText], candidates: Sequence[str]
) -> str:
    """Ask for one answer that merges the candidates, keeping what the evidence supports."""
    listed = "\n\n".join(
        f"Candidate {i}:\n{text[:MAX_CANDIDATE_CHARS]}" for i, text in enumerate(candidates, 1)
    )
    return (
        f"{header(question, evidence)}\n\n{listed}\n\n"
        "Merge the candidates into one answer. Keep every statement the evidence supports, "
        "drop the ones it does not, and add nothing else.\n"
        'Reply with JSON only: {"answer": "...", "missing": "..."}.'
    )


def rewrite_prompt(
    question: str, evidence: Sequence[EvidenceText], answer: str, unsupported: Sequence[str]
) -> str:
    """Ask for the answer again with the listed sentences fixed or removed."""
    listed = "\n".join(f"- {sentence[:MAX_CANDIDATE_CHARS]}" for sentence in unsupported)
    return (
        f"{header(question, evidence)}\n\n"
        f"Answer:\n{answer[:MAX_CANDIDATE_CHARS]}\n\n"
        f"These sentences of the answer are not supported by the evidence:\n{listed}\n\n"
        "Rewrite the answer so that every sentence states only what the evidence says: "
        "correct those sentences from the evidence or remove them, and keep the rest.\n"
        'Reply with JSON only: {"answer": "..."}.'
    )


def first_json_object(reply: str) -> object | None:
    """The first JSON object in ``reply`` (decoded, never evaluated), or None."""
    decoder = json.JSONDecoder()
    text = reply[:MAX_REPLY_CHARS]
    start = text.find("{")
    attempts = 0
    while start != -1 and attempts < MAX_JSON_ATTEMPTS:
        attempts += 1
        try:
            value: object = decoder.raw_decode(text, start)[0]
        except (ValueError, RecursionError):
            start = text.find("{", start + 1)
            continue
        return value
    return None


def _plain(reply: str) -> list[Candidate]:
    text = reply[:MAX_ANSWER_CHARS].strip()
    return [Candidate(text)] if text else []


def _candidate(item: object) -> Candidate | None:
    if not isinstance(item, dict):
        return None
    answer, missing = item.get("answer"), item.get("missing", "")
    if not isinstance(answer, str):
        return None
    follow_up = missing.strip()[:MAX_FOLLOW_UP_CHARS] if isinstance(missing, str) else ""
    return Candidate(answer.strip()[:MAX_ANSWER_CHARS], follow_up)


def parse_candidates(reply: str, k: int) -> list[Candidate]:
    """Up to ``k`` candidates from a ``{"thoughts": [...]}`` reply.

    A lone ``{"answer": …}`` object is read as one candidate; anything else (no JSON, a
    different shape, no usable item) makes the whole reply one candidate. Empty answers
    are left out.
    """
    value = first_json_object(reply)
    found: list[Candidate] = []
    if isinstance(value, dict) and isinstance(value.get("thoughts"), list):
        found = [c for c in map(_candidate, value["thoughts"]) if c is not None]
    elif isinstance(value, dict):
        single = _candidate(value)
        found = [single] if single is not None else []
    if not found:
        return _plain(reply)
    return [c for c in found if c.answer][:k]


def parse_answer(reply: str) -> Candidate | None:
    """One candidate from a ``{"answer": …}`` reply, else the whole reply; None if empty."""
    single = _candidate(first_json_object(reply))
    if single is None:
        plain = _plain(reply)
        return plain[0] if plain else None
    return single if single.answer else None
