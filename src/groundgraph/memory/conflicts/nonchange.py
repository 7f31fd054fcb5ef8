"""The marks of a non-change: what stops the change rules from reading an update.

A plan, wish or hedge ("thinking about selling", "will probably", "trialling"), an
addition ("also", "added"), a fact kept alongside ("kept the main subscription"), an old
fact that is already history ("used to"), a one-off ("this Monday's stand-up moves"), a
cause ("reduced blood flow leads to …") and a change word describing a noun ("a raised
bed") are not updates.
"""

from __future__ import annotations

import re

HEDGE = re.compile(
    r"\b(?:thinking (?:about|of)|considering|consider|hoping|hopes? to|(?:plans|planning) to"
    r"|might|could|would|probably|possibly|possible|maybe|perhaps|trialling|trialing"
    r"|piloting|evaluating|testing|offered|offers|proposed|suggested|wants? to|wish"
    r"|if|unless|whether|should|likely|(?-i:may))\b",
    re.IGNORECASE,
)
KEPT = re.compile(r"\b(?:kept|keep|keeps|keeping)\b", re.IGNORECASE)
# "Saw Dr. Mirza at the walk-in clinic": an event told in the past, not a state to change
PAST_EVENT = re.compile(
    r"^(?:saw|went|had|met|got|ran|did|took|bought|visited|called|spent|tried|ate|watched"
    r"|[a-z]+ed)\b|\b(?:today|yesterday|this morning|last night)\b.*\b(?:was|were|had)\b"
    r"|\b(?:was|were|had)\b.*\b(?:today|yesterday|this morning|last night)\b",
    re.IGNORECASE,
)
PAST_STATE = re.compile(
    r"\b(?:used to|formerly|previously|once was|lived in|grew up|was based in)\b", re.IGNORECASE
)
ONE_OFF = re.compile(
    r"\b(?:this|next|tomorrow's|today's)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|week"
    r"|month)['’]s\b"
    r"|\bjust (?:this|once)\b|\bfor once\b|\bone[- ]off\b|\bthis time\b",
    re.IGNORECASE,
)

# "This month book club is on Wednesday": a period that makes the subject one occasion
THIS_PERIOD = re.compile(
    r"^(?:this|next)\s+(?:week|month|weekend)\s+(?!(?:we|i|they|you|he|she|it)\b)"
    r"[\w'’ -]{1,40}?\s+(?:is|are|will be)\b",
    re.IGNORECASE,
)

ALSO = re.compile(
    r"\b(?:also|as well|in addition|additionally|another|a second|added|adding|adds)\b"
    r"|\btoo[.!]?$",
    re.IGNORECASE,
)

CAUSAL = re.compile(
    r"\b(?:causes?|caused|leads? to|led to|results? in|resulted in|triggers?|contributes? to)\b",
    re.IGNORECASE,
)
_MODIFIER_BEFORE = frozenset(
    ["a", "an", "the", "cause", "causes", "caused", "of", "with", "by", "from", "in", "for"]
)


def a_modifier(clause: str, start: int) -> bool:
    """True when the change word at ``start`` describes a noun ("cause reduced blood
    flow", "a raised bed") instead of reporting a change."""
    before = clause[:start].split()[-1:]
    return bool(before) and before[0].lower() in _MODIFIER_BEFORE


# the time frame a fact holds in: "at night" and "daytime", "on weekdays" and "at weekends"
_SCOPES = {
    "day": r"day(?:time)?|during the day",
    "night": r"nights?|night-?time|overnight",
    "morning": r"mornings?",
    "evening": r"evenings?",
    "weekday": r"week-?days?",
    "weekend": r"week-?ends?",
    "summer": r"summers?",
    "winter": r"winters?",
}
_SCOPE = {name: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for name, words in _SCOPES.items()}


def scopes_differ(new: str, old: str) -> bool:
    """Both facts are said of a time frame and the frames differ: "At night the
    thermostat drops to 17°C" is not changed by "I turned the daytime thermostat down"."""
    said_new = {name for name, pattern in _SCOPE.items() if pattern.search(new)}
    said_old = {name for name, pattern in _SCOPE.items() if pattern.search(old)}
    return bool(said_new and said_old and not said_new & said_old)


def scope_terms(text: str) -> frozenset[str]:
    """The words of ``text`` that name a time frame ("daytime", "weekends"), lowercased."""
    found: set[str] = set()
    for pattern in _SCOPE.values():
        found |= {w.lower() for w in pattern.findall(text)}
    return frozenset(found)


def scope_moved(new: str, old: str) -> bool:
    """The time frame is where the change goes: "moved its distribution to Friday
    evenings", "switched to running in the evenings", against an old fact with a day or
    a time of its own ("on Saturday mornings", "at 6:30 every morning")."""
    if not re.search(r"\d|day\b|days\b", old, re.IGNORECASE):
        return False
    for pattern in _SCOPE.values():
        for m in pattern.finditer(new):
            if re.search(r"\b(?:to|into|onto)\b", new[: m.start()]):
                return True
    return False
