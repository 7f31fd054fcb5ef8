"""The old value named as gone: a replacement that says what it replaced.

"We finished migrating off Teams to Mattermost" against "The company chat is Microsoft
Teams"; "the old Mailchimp account was closed" against "We use Mailchimp for
newsletters"; "the old oil furnace hauled away" against "The house is heated with an oil
furnace"; "Datadog got too expensive so we moved to Grafana Cloud" against "The
monitoring stack is Datadog". The new fact names the old fact's *value* (what follows its
copula, its verb of use or its preposition: "is Microsoft Teams", "use Mailchimp",
"heated with an oil furnace"), not its subject, and says that value is left: the object
of a leaving ("off", "away from", "ditched"), "the old / former / previous …", or the
subject of a clause whose sentence moves to another named value ("… so we moved to Y").
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.phrases import Change

_NAME = r"(?-i:[A-Z])[\w.&'’-]*(?:\s+(?-i:[A-Z])[\w.&'’-]*){0,2}"
_LEFT = re.compile(
    r"\b(?:off|away from|ditched|ditching|dumped|got rid of|stopped using|quit using"
    r"|switched from|moved from|migrated from|migrating from|moving from|switching from)\s+"
    rf"(?:the\s+|our\s+|my\s+)?(?P<value>{_NAME})",
    re.IGNORECASE,
)
_OLD_ONE = re.compile(
    r"\b(?:the|our|my|their)\s+(?:old|former|previous)\s+(?P<value>[\w.&'’-]+(?:\s+[\w.&'’-]+){0,2})",
    re.IGNORECASE,
)
_GIVEN_UP = re.compile(
    rf"^(?:the\s+|our\s+)?(?P<value>{_NAME})(?:\s+[a-z]+)?\s+(?:got|became|was|were|is|are)\s+(?:too\s+\w+"
    r"|gone|unusable|unreliable|discontinued)\b",
    re.IGNORECASE,
)
_MOVED_ON = re.compile(
    r"\b(?:(?:moved|switched|migrated|went)\s+(?:over\s+)?to|standardi[sz]ed\s+on"
    rf"|went\s+with)\s+{_NAME}",
    re.IGNORECASE,
)

_NEW_ONE = re.compile(
    r"\b(?:new|now|instead|installed|bought|got|switched|moved|replaced)\b", re.IGNORECASE
)
# the patterns the rule needs in the new fact's clause: none matches, the rule cannot fire
REPLACED_CUES = (_LEFT, _OLD_ONE, _GIVEN_UP)

# where an old fact states its value: after a copula, a verb of use, or a preposition
_VALUE_AFTER = (
    r"\b(?:is|are|uses?|using|runs?\s+on|on|with|through|via|by|from|in)\s+"
    r"(?:(?:the|an?|our|my|their)\s+)?(?:[\w.&'’-]+\s+){0,2}?"
)
_STOP_WORDS = frozenset(["the", "a", "an", "our", "my", "their", "account", "plan"])


def value_of(value: str, old: str) -> bool:
    """``old`` states ``value`` as its value: "is Microsoft Teams", "use Mailchimp",
    "heated with an oil furnace"; not as its subject ("Teams meets on Monday")."""
    words = [w for w in value.split() if w.lower() not in _STOP_WORDS]
    if not words:
        return False
    phrase = r"\s+".join(re.escape(w) for w in words)
    return re.search(rf"{_VALUE_AFTER}{phrase}\b", old, re.IGNORECASE) is not None


def _left_value(found: str, old: str) -> str:
    """The longest start of ``found`` that ``old`` states as its value ("Mailchimp" of
    "Mailchimp account was closed"), or ""."""
    words = found.split()
    for n in range(len(words), 0, -1):
        if value_of(" ".join(words[:n]), old):
            return " ".join(words[:n])
    return ""


def replaced(clause: str, sentence: str, old: str) -> Change | None:
    """The change when ``clause`` says the old fact's value is left, or None."""
    for pattern in REPLACED_CUES:
        m = pattern.search(clause)
        if m is None:
            continue
        if pattern is _GIVEN_UP and _MOVED_ON.search(sentence) is None:
            continue  # "Datadog got too expensive" alone: a complaint, not a replacement
        if pattern is _OLD_ONE and _NEW_ONE.search(sentence) is None:
            continue  # "the old furnace" needs a new one in the same sentence
        value = _left_value(m["value"], old)
        if value:
            return Change("instead", f"no longer {value!r}")
    return None
