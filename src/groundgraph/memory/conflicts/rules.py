"""What a fact says about single-valued attributes: ``(subject, attribute, value)`` claims.

``parse_claims(text)`` reads each sentence, split into clauses at ";", "and", "but", with
anchored patterns, English first (locations also in German, French, Spanish and Dutch):

- **location**: "X is based/located/headquartered in Y", "X lives in Y", "X moved to Y";
  "X is in Y" is a thing's location, or a person's whereabouts when X is one capitalised
  word (being in Paris this week does not contradict living in Berlin);
- **employer**, **workplace**, **department**: "X works at/for Y", "X is an engineer at
  Y", "X joined Y"; "X works in Berlin" (capitalised) or "X works in sales";
- **role:…**: "X's manager is Y", "Y manages X", "X reports to Y", "Y is the CEO of X",
  "X is owned by Y", "X was acquired by Y", "X is married to Y";
- **status:…**: lifecycle (active, done, cancelled, paused, retired), approval,
  availability (up, down), schedule (on track, delayed);
- **date:…**: "X is scheduled for / moved to / due <date>", "X starts on <date>";
- **numbers**: "X costs N", "X has N <things>", "X's budget is N", "X is N years old",
  "X rose to N".

What is deliberately not a claim: multi-valued relations ("likes", "visited", "has an
office in"), past states ("lived in", "was based in": history, not an update),
statements marked additive ("also", "too", "as well"), negated clauses (the negation
rule in ``memory.conflicts.negation`` handles them), bounds ("more than 5"), indefinite
subjects or values ("a manager", "two teams") and pronoun subjects with no name to stand
for. "X left Y" is a negative claim (X's employer or location is no longer Y).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from groundgraph.ingest.literals import LiteralGroup
from groundgraph.memory.conflicts.lexicon import (
    ATTRIBUTES,
    AUX_END,
    DATE_VERBS,
    EMPLOYEE_UNITS,
    EVENT_WORDS,
    INDEFINITE,
    NOT_SUBJECT,
    PRONOUNS,
    ROLE_VERBS,
    ROLES,
)
from groundgraph.memory.conflicts.negation import is_additive, is_negated
from groundgraph.memory.conflicts.patterns import claim_rules
from groundgraph.memory.conflicts.values import (
    STATUS,
    ValueKind,
    looks_like_date,
    parse_number,
    value_key,
)
from groundgraph.text import sentences

MAX_CLAIM_TEXT = 4_000  # characters of a fact that are read for claims (facts are short)
_MAX_CLAUSE = 300


@dataclass(frozen=True, slots=True)
class Claim:
    """One statement about a single-valued attribute of a subject."""

    subject: str  # normalised key
    attribute: str  # "location", "role:manager", "status:lifecycle", "count:employee", ...
    value: str  # as written, trimmed (a canonical name for statuses)
    kind: ValueKind
    positive: bool = True
    additive: bool = False


# ---- from a match to a claim -----------------------------------------------------------

_CUT = re.compile(
    r"\s+(?:where|which|who|whose|that|because|while|when|with|near|although|if|unless)\b.*",
    re.IGNORECASE,
)
_OWNED_PLACE = re.compile(r"(?:'s|’s)\s+(?:headquarters|hq|offices?|base|home)$", re.IGNORECASE)
_LEAD = re.compile(
    r"^(?:(?:on|in|at|as of|since|from|after|starting|effective|by|today|yesterday|recently"
    r"|meanwhile|however|now|also|then|last|this|next|earlier|later|so)\b[^,]{0,40},\s+)",
    re.IGNORECASE,
)
_POSSESSIVE_PRONOUN = re.compile(r"^(?:his|her|their|its)\s+", re.IGNORECASE)
_CLAUSES = re.compile(r"\s*;\s*|:\s+|,?\s+(?:and|but|while|whereas|so)\s+", re.IGNORECASE)


def _subject_ok(raw: str, role: bool) -> bool:
    """A noun phrase of one to eight words; "a …" only for generic facts, never for roles
    ("Alice owns a car" says nothing about who owns cars)."""
    parts = raw.split()
    if not 0 < len(parts) <= 8 or raw.lower() in PRONOUNS:
        return False
    first = parts[0].lower()
    if first in ("a", "an"):
        return not role and len(parts) > 1
    return first not in NOT_SUBJECT and not first[0].isdigit() and parts[-1].lower() not in AUX_END


def _clean_value(raw: str, kind: ValueKind) -> str:
    value = _CUT.sub("", raw.strip())
    if kind == "name":
        value = value.split(",")[0]
    value = value.strip(" \t\"'“”‘’()[]")
    parts = value.split()
    if not parts or len(parts) > 8 or parts[0].lower() in INDEFINITE:
        return ""
    return value


def _event_like(status: str) -> bool:
    first = status.split()[0].lower()
    return first.endswith("ed") or first in EVENT_WORDS


def _unit(word: str) -> str:
    unit = value_key(word)
    return "employee" if unit in EMPLOYEE_UNITS else unit


def _claims_for(rule: str, m: re.Match[str]) -> list[tuple[str, str, ValueKind, bool]]:
    """``(attribute, value, kind, positive)`` for one rule's match; empty when it is not one."""
    groups = m.groupdict()
    raw = groups.get("val") or ""
    if rule == "possessive":
        word = groups["attr"].lower()
        if word in ROLES:
            return [("role:" + ROLES[word], _clean_value(raw, "name"), "name", True)]
        attribute, kind = ATTRIBUTES[word]
        if kind == "status":
            status = STATUS.get(_clean_value(raw, "name").lower())
            return [(f"status:{status.split('/')[0]}", status, kind, True)] if status else []
        if kind == "place":
            raw = re.sub(r"^(?:in|at)\s+", "", raw.strip(), flags=re.IGNORECASE)
        return [(attribute, _clean_value(raw, kind), kind, True)]
    if rule == "measure":  # "The marketing budget is $80,000": the subject names the attribute
        subject = m["subj"].lower().split()
        word = " ".join(subject[-2:]) if " ".join(subject[-2:]) in ATTRIBUTES else subject[-1]
        attribute, kind = ATTRIBUTES.get(word, ("", "name"))
        value = _clean_value(raw, kind)
        if (kind == "number" and parse_number(value)) or (
            kind == "date" and looks_like_date(value)
        ):
            return [(attribute, value, kind, True)]
        return []
    if rule == "role-of":
        return [("role:" + ROLES[groups["role"].lower()], _clean_value(raw, "name"), "name", True)]
    if rule in ("role-verb", "role-passive"):
        verb = (groups.get("verb") or groups.get("event") or "").lower()
        return [("role:" + ROLE_VERBS[verb], _clean_value(raw, "name"), "name", True)]
    if rule == "date":
        which = (groups.get("which") or "").lower()
        how = (groups.get("how") or "").lower()
        attribute = "date:" + (DATE_VERBS.get(which) or ("deadline" if how == "due" else "event"))
        value = _clean_value(raw, "date")
        return [(attribute, value, "date", True)] if looks_like_date(value) else []
    if rule == "location":
        value = _clean_value(raw, "place")
        if looks_like_date(value):
            return [("date:event", value, "date", True)]
        return [("location", value, "place", True)]
    if rule == "left":
        value = _clean_value(raw, "name")
        return [("employer", value, "name", False), ("location", value, "place", False)]
    if rule == "employer" or (rule == "joined" and raw[:1].isupper()):
        return [("employer", _clean_value(raw, "name"), "name", True)]
    if rule == "works-in":
        if raw[:1].isupper():
            return [("workplace", _clean_value(raw, "place"), "place", True)]
        return [("department", _clean_value(raw, "name"), "name", True)]
    if rule == "status":
        status = groups["status"].lower()
        aux = (groups.get("aux") or "").lower()
        if aux in ("", "was", "were", "has", "have") and not _event_like(status):
            return []  # "was active" is history; "has closed" and "closed" are events
        group = STATUS[status]
        return [(f"status:{group.split('/')[0]}", group, "status", True)]
    if rule in ("price", "weight", "value"):
        attribute = "price" if rule == "price" else rule
        value = _clean_value(raw, "number")
        return [(attribute, value, "number", True)] if parse_number(value) else []
    if rule == "count":
        unit = _unit(groups["unit"])
        if groups["verb"].lower().startswith("employ") and unit != "employee":
            return []
        value = raw.strip()
        return [("count:" + unit, value, "number", True)] if parse_number(value) else []
    if rule == "age":
        return [("age", raw, "number", True)]
    if rule == "presence":
        value = _clean_value(raw, "place")
        if looks_like_date(value):
            return [("date:event", value, "date", True)]
        bare = re.sub(r"^the\s+", "", value, flags=re.IGNORECASE)
        if groups["prep"].lower() == "on" or (not bare[:1].isupper() and not bare[:1].isdigit()):
            return []
        return [("presence" if _is_name(m["subj"]) else "location", value, "place", True)]
    return []


def _is_name(subject: str) -> bool:
    """A single capitalised word that is not an article: most likely a person."""
    parts = subject.split()
    return len(parts) == 1 and parts[0][:1].isupper() and parts[0].lower() != "the"


def _age_ok(m: re.Match[str], clause: str) -> bool:
    return bool(m["old"]) or " turn" in clause.lower() or _is_name(m["subj"])


def _clause_claims(
    clause: str, previous: str | None, prefilter: bool = True
) -> tuple[list[Claim], str | None]:
    """Claims of one clause, and the subject it names (for a following pronoun).
    ``prefilter``: a pattern is tried only on a text holding one of its literal words."""
    if len(clause) > _MAX_CLAUSE or is_negated(clause):
        return [], previous
    attempts = [clause]
    if previous and clause[:1].islower():
        attempts.append(f"{previous} {clause}")  # "… and now works at Acme"
    if previous and (owner := _POSSESSIVE_PRONOUN.match(clause)):
        attempts.append(f"{previous}'s {clause[owner.end() :]}")  # "Her manager is Bas."
    for attempt in attempts:
        possible = _claim_literals().candidates(attempt) if prefilter else None
        for index, (rule, pattern) in enumerate(claim_rules()):
            if possible is not None and index not in possible:
                continue
            m = pattern.match(attempt)
            if m is None:
                continue
            subject = m["subj"].strip()
            if subject.lower() in PRONOUNS and previous:
                subject = previous
            if rule == "location":
                subject = _OWNED_PLACE.sub("", subject)
            if not _subject_ok(subject, role=rule.startswith("role")):
                continue
            if rule == "age" and not _age_ok(m, attempt):
                continue
            key = value_key(subject)
            additive = is_additive(attempt)
            found = [
                Claim(key, attribute, value, kind, positive, additive)
                for attribute, value, kind, positive in _claims_for(rule, m)
                if value and key
            ]
            if found:
                return found, subject
    return [], _leading_name(clause) or previous


@functools.cache
def _claim_literals() -> LiteralGroup:
    return LiteralGroup([pattern for _, pattern in claim_rules()])


_NOT_NAMES = frozenset(
    ["the", "this", "that", "these", "those", "on", "in", "at", "by", "for", "from", "with"]
)


def _leading_name(clause: str) -> str | None:
    """The capitalised words a clause opens with ("Ilse sold her flat" → "Ilse"), if any."""
    words = []
    for word in clause.split()[:4]:
        if not word[:1].isupper() or word.lower() in NOT_SUBJECT | PRONOUNS | INDEFINITE:
            break
        words.append(word.strip(",.;:!?"))
    if not words or words[0].lower() in _NOT_NAMES:
        return None
    return " ".join(words)


_FIRST_PERSON = (
    (re.compile(r"\b(?:I['’]m|I am)\b"), "The user is"),
    (re.compile(r"\bI['’]ve\b"), "The user has"),
    (re.compile(r"\bI\b"), "The user"),
    (re.compile(r"\b(?:my|My|the user['’]s|The user['’]s)\b"), "The user's"),
)
# "PAY-812 status changed In Progress -> Done": the new value, stated plainly
_ARROW = re.compile(
    r"^(?:[\w ]{1,30}:\s+)?(?P<subj>[^:]+?)\s+(?:status\s+)?(?:changed|moved|went|set)\s+"
    r"(?:from\s+)?[^:]{1,60}?\s*(?:->|→|=>)\s*(?P<to>[^:]+?)\.?$"
)
# "After the reorg my manager is …", "Since April the rent has been …": a lead phrase
_LEAD_PHRASE = re.compile(
    r"^(?:after|following|since|from|starting|as of|during|before|with)\s+(?:the\s+|this\s+"
    r"|last\s+|next\s+|a\s+)?[\w-]+\s+(?=(?-i:[A-Z])|the\b)",
    re.IGNORECASE,
)


def _plain(sentence: str) -> str:
    """The sentence with the speaker as "The user", an arrow restated as "X is Y"."""
    for pattern, replacement in _FIRST_PERSON:
        sentence = pattern.sub(replacement, sentence)
    arrow = _ARROW.match(sentence)
    if arrow is not None:
        sentence = f"{arrow['subj']} is {arrow['to']}."
    return sentence


def parse_claims(text: str, *, prefilter: bool = True) -> tuple[Claim, ...]:
    """The single-valued claims ``text`` makes (its first ``MAX_CLAIM_TEXT`` characters).
    ``prefilter=False`` tries every pattern on every clause: the reference the literal
    prefilter (``ingest.literals``) is tested against, with the same answer."""
    return _parse(text[:MAX_CLAIM_TEXT], prefilter)


@functools.lru_cache(maxsize=4096)  # the memory compares the same candidates again and again
def _parse(text: str, prefilter: bool = True) -> tuple[Claim, ...]:
    claims: list[Claim] = []
    subject: str | None = None
    for sentence in sentences(text):
        for clause in _CLAUSES.split(_LEAD.sub("", _plain(sentence.strip()))):
            found, subject = _clause_claims(clause.strip(), subject, prefilter)
            if not found and (lead := _LEAD_PHRASE.match(clause.strip())) is not None:
                found, subject = _clause_claims(clause.strip()[lead.end() :], subject, prefilter)
            if not found and "," in clause:  # "Redis cluster degraded, one node down"
                for part in clause.split(","):
                    more, subject = _clause_claims(part.strip(), subject, prefilter)
                    found.extend(more)
            claims.extend(found)
    return tuple(claims)
