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
rule in ``memory.conflict_negation`` handles them), bounds ("more than 5"), indefinite
subjects or values ("a manager", "two teams") and pronoun subjects with no name to stand
for. "X left Y" is a negative claim (X's employer or location is no longer Y).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from groundgraph.memory.conflict_lexicon import (
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
from groundgraph.memory.conflict_negation import is_additive, is_negated
from groundgraph.memory.conflict_values import (
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


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# ---- pattern pieces --------------------------------------------------------------------

_S = r"(?P<subj>[^,;:]+?)"
_V = r"(?P<val>[^;:]+?)"
_NOW = r"(?:(?:now|still|currently|recently|just|finally|officially|already|also)\s+)*"
_IS = r"(?:is|are|has been|have been|will be|remains?|stays?)"
_MODS = r"(?:(?:new|current|acting|interim|latest|updated|revised)\s+)?"
_POSS = r"(?:'s|’s|s'|s’)"
_TIMES = "week|month|year|quarter|spring|summer|autumn|fall|winter|weekend"
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
# What may follow a value and is not part of it: "since May", "now", "last week", "in 2024".
_TRAIL = (
    r"(?P<trail>(?:,?\s+(?:since|as of|from|until|till|starting|effective|following|after"
    r"|because|due to|according to)\b.*|,?\s+(?:now|again|today|yesterday|currently"
    r"|indefinitely|permanently|temporarily|for now|for good|until further notice|anymore"
    rf"|already|too|as well|instead|(?:this|last|next|earlier this) (?:{_TIMES}))"
    rf"|\s+(?:in|on|during|by)\s+(?:early |late |mid-)?(?:{_MONTHS}|\d{{4}})\b.*)*)"
    r"\s*[.!]?\s*$"
)
_CHANGE = r"(?:rose|fell|increased|decreased|dropped|grew|climbed|jumped|went up|went down)"
_SET = r"(?:raised|cut|increased|reduced|lowered|set|changed|moved|updated)"
_ATTR_VERB = (
    rf"(?:{_IS}(?:\s+now)?|is now|stands at|{_CHANGE} to|(?:was|has been|have been) {_SET} to"
    r"|became|has become)"
)
_ROLE_WORDS = _alternation(ROLES)
_ATTR_WORDS = _alternation([*ATTRIBUTES, *ROLES])
_STATUS_WORDS = _alternation(STATUS)
_MOVED = (
    r"(?:(?:has|have|was|were|has been|have been|will be)\s+)?(?:moved|relocated)"
    r"(?:\s+(?:its|their|his|her)\s+(?:headquarters|offices?|base|home|operations))?"
    r"(?:\s+from\s+[^,;]+?)?\s+to"
)
_LOCATION_VERBS = (
    rf"(?:{_IS}\s+{_NOW}(?:based|located|headquartered|situated|registered|stationed|settled)"
    rf"\s+(?:in|at|out of)|(?:lives?|resides?)\s+in|(?:is|are)\s+(?:living|residing)\s+in"
    rf"|{_MOVED}|(?:is|are|will be)\s+(?:moving|relocating)\s+to|(?:is|are)\s+now\s+(?:in|at)"
    # German, French, Spanish, Dutch
    r"|(?:wohnt|wohnen|lebt|leben|sitzt)(?:\s+(?:jetzt|nun|inzwischen|mittlerweile))?\s+in"
    r"|zog\s+nach|(?:habite|habitent|vit|vivent|réside)(?:\s+(?:maintenant|désormais"
    r"|actuellement))?\s+(?:à|en|au)|(?:a|ont)\s+(?:déménagé|emménagé)\s+(?:à|en|au)"
    r"|s'est\s+installée?\s+(?:à|en|au)|(?:est|sont)\s+(?:basée?s?|située?s?)\s+(?:à|en|au)"
    r"|(?:vive|viven|reside|residen)(?:\s+(?:ahora|actualmente))?\s+en|se\s+mud(?:ó|aron)\s+a"
    r"|(?:tiene|tienen)\s+su\s+sede\s+en|(?:woont|wonen)(?:\s+(?:nu|inmiddels))?\s+in"
    r"|(?:is|zijn)\s+verhuisd\s+naar|verhuisde\s+naar|(?:is|zijn)\s+gevestigd\s+in)"
)
_ROLE_VERB = (
    r"(?P<verb>manages|manage|supervises|supervise|leads|lead|heads|head|owns|own|chairs"
    r"|chair|coaches|coach|managing|leading|heading)"
)
# "leads to", "heads for": a cause or a direction, not a role
_OBJECT = r"(?!(?:to|for|into|towards|toward|up|off|out|back|home)\b)(?P<subj>[^,;:]+?)"
_PASSIVE = (
    rf"(?:(?:is|are|has been|have been|will be)\s+{_NOW}(?P<verb>managed|led|headed|owned"
    r"|supervised|chaired|coached|run)|(?:is|are|was|were|has been|have been)\s+"
    rf"{_NOW}(?P<event>acquired|bought|purchased))"
)
_APPOINTED = (
    rf"(?:{_IS}|became|has become|is now|(?:was|has been|is)\s+(?:named|appointed|elected"
    r"|made|promoted to))"
)
_EMPLOYED = (
    r"(?:(?:works|work|is working|are working)\s+(?:at|for)|(?:is|are)\s+(?:now\s+)?"
    r"(?:employed|hired)\s+(?:by|at)|(?:is|are)\s+(?:now\s+)?(?:an?|the)\s+[\w-]+"
    r"(?:\s+[\w-]+)?\s+at)"
)
_SCHEDULED = (
    r"(?P<how>scheduled|planned|set|slated|booked|expected|due|moved|rescheduled|postponed"
    r"|delayed|pushed back|pushed|brought forward|fixed|confirmed)"
)
_HAPPENS = (
    r"(?:takes place|take place|will take place|happens|will happen|occurs|is held|are held"
    r"|will be held|falls)"
)
_COUNT = (
    r"(?P<val>(?:(?:about|around|roughly|approximately|nearly|almost) )?[$€£]?[\d.,]+"
    r"(?:\s+(?:thousand|million|billion))?|no|zero|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|a dozen|a hundred)"
)


def _p(pattern: str) -> re.Pattern[str]:
    return re.compile("^" + pattern + _TRAIL, re.IGNORECASE)


# (rule, pattern) in the order they are tried; ``_claims_for`` reads each rule's groups.
# ``subj`` is the subject of the attribute and ``val`` its value, whatever the word order.
_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("possessive", _p(rf"{_S}{_POSS}\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+{_ATTR_VERB}\s+{_V}")),
    (
        "possessive",
        _p(rf"the\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+(?:of|for)\s+{_S}\s+{_ATTR_VERB}\s+{_V}"),
    ),
    ("possessive", _p(rf"{_S}\s+(?:has|have)\s+an?\s+{_MODS}(?P<attr>{_ATTR_WORDS})\s+of\s+{_V}")),
    ("measure", _p(rf"{_S}\s+{_ATTR_VERB}\s+{_V}")),
    (
        "role-of",
        _p(
            rf"(?P<val>[^,;:]+?)\s+{_APPOINTED}\s+(?:now\s+)?(?:as\s+)?(?:the\s+)?{_MODS}"
            rf"(?P<role>{_ROLE_WORDS})\s+(?:of|for|at)\s+(?P<subj>[^,;:]+?)"
        ),
    ),
    (
        "role-verb",
        _p(rf"(?P<val>[^,;:]+?)\s+{_NOW}(?:is\s+|are\s+)?{_ROLE_VERB}\s+{_OBJECT}"),
    ),
    ("role-passive", _p(rf"{_S}\s+{_PASSIVE}\s+by\s+{_V}")),
    ("role-verb", _p(rf"{_S}\s+{_NOW}(?P<verb>reports|report)\s+(?:directly\s+)?to\s+{_V}")),
    ("role-verb", _p(rf"{_S}\s+{_NOW}works\s+(?P<verb>under)\s+{_V}")),
    ("role-verb", _p(rf"{_S}\s+(?:(?:is|are|got)\s+{_NOW})?(?P<verb>married)\s+(?:to\s+)?{_V}")),
    (
        "date",
        _p(
            rf"{_S}\s+(?:{_IS}|was|were|got)\s+{_NOW}{_SCHEDULED}\s+(?:for|on|to|until|till|at|in|by)\s+{_V}"
        ),
    ),
    ("date", _p(rf"{_S}\s+(?:is|are)\s+{_NOW}(?P<how>due)\s+{_V}")),
    ("date", _p(rf"{_S}\s+{_NOW}{_HAPPENS}\s+(?:on|in|at)?\s*{_V}")),
    ("date", _p(rf"{_S}\s+{_NOW}(?P<which>{_alternation(DATE_VERBS)})\s+(?:on|in|at)?\s*{_V}")),
    ("location", _p(rf"{_S}\s+{_NOW}{_LOCATION_VERBS}\s+{_V}")),
    ("location", _p(rf"{_S}\s+(?:ist|sind)\s+(?:jetzt\s+|nun\s+)?nach\s+{_V}\s+(?:um)?gezogen")),
    ("location", _p(rf"{_S}\s+(?:is|zijn)\s+(?:nu\s+)?naar\s+{_V}\s+verhuisd")),
    ("left", _p(rf"{_S}\s+{_NOW}(?:has\s+|have\s+)?(?:left|quit|resigned from)\s+{_V}")),
    ("employer", _p(rf"{_S}\s+{_NOW}{_EMPLOYED}\s+{_V}")),
    ("joined", _p(rf"{_S}\s+{_NOW}(?:has\s+|have\s+)?joined\s+{_V}")),
    ("works-in", _p(rf"{_S}\s+{_NOW}(?:works|work|is working|are working)\s+in\s+{_V}")),
    (
        "status",
        _p(
            rf"{_S}\s+(?P<aux>is|are|was|were|has been|have been|will be|got|remains?|stays?"
            rf"|has|have)?\s*{_NOW}(?P<status>{_STATUS_WORDS})"
        ),
    ),
    ("price", _p(rf"{_S}\s+{_NOW}(?:costs?|(?:is|are) priced at|sells? for|retails? for)\s+{_V}")),
    (
        "count",
        _p(
            rf"{_S}\s+{_NOW}(?P<verb>has|have|employs|employ)\s+{_COUNT}\s+(?P<unit>[^\W\d_][\w-]*)"
        ),
    ),
    (
        "age",
        _p(
            rf"{_S}\s+(?:is|turned|has turned|will turn)\s+{_NOW}(?P<val>\d{{1,3}})"
            r"(?P<old>\s+years?\s+old|-year-old)?"
        ),
    ),
    ("weight", _p(rf"{_S}\s+{_NOW}(?:weighs|weigh)\s+{_V}")),
    (
        "value",
        _p(
            rf"{_S}\s+(?:(?:has|have)\s+)?{_NOW}(?:{_CHANGE}|risen|fallen|stands|is)\s+(?:at|to)\s+{_V}"
        ),
    ),
    ("presence", _p(rf"{_S}\s+(?:is|are|will be)\s+{_NOW}(?P<prep>in|at|on)\s+{_V}")),
]


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
_CLAUSES = re.compile(r"\s*;\s*|,?\s+(?:and|but|while|whereas|so)\s+", re.IGNORECASE)


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


def _clause_claims(clause: str, previous: str | None) -> tuple[list[Claim], str | None]:
    """Claims of one clause, and the subject it names (for a following pronoun)."""
    if len(clause) > _MAX_CLAUSE or is_negated(clause):
        return [], previous
    attempts = [clause]
    if previous and clause[:1].islower():
        attempts.append(f"{previous} {clause}")  # "… and now works at Acme"
    if previous and (owner := _POSSESSIVE_PRONOUN.match(clause)):
        attempts.append(f"{previous}'s {clause[owner.end() :]}")  # "Her manager is Bas."
    for attempt in attempts:
        for rule, pattern in _RULES:
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


def parse_claims(text: str) -> tuple[Claim, ...]:
    """The single-valued claims ``text`` makes (its first ``MAX_CLAIM_TEXT`` characters)."""
    return _parse(text[:MAX_CLAIM_TEXT])


@functools.lru_cache(maxsize=4096)  # the memory compares the same candidates again and again
def _parse(text: str) -> tuple[Claim, ...]:
    claims: list[Claim] = []
    subject: str | None = None
    for sentence in sentences(text):
        for clause in _CLAUSES.split(_LEAD.sub("", sentence.strip())):
            found, subject = _clause_claims(clause.strip(), subject)
            claims.extend(found)
    return tuple(claims)
