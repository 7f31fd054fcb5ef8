"""Typed values two facts name: numbers by what they count, dates by their parts.

``typed_difference(new, old)`` is "number" or "date" when both name a value of that kind
and it differs, "same" when it agrees, "" when nothing is comparable. A number is taken
with its unit, currency or the thing it counts ("9 engineers", "seven engineers"); a bound
("over 5 MB") is not a value.
"""

from __future__ import annotations

import re

from groundgraph.memory.conflicts.values import date_parts
from groundgraph.memory.conflicts.words import terms

_UNIT_NUMBER = re.compile(
    r"(?P<cur>[$€£¥])\s*(?P<n>\d[\d,]*(?:\.\d+)?)|(?P<m>\d[\d,]*(?:\.\d+)?)\s*-?\s*"
    r"(?P<unit>%|°\s?[cf]?|[a-z]+\b)",
    re.IGNORECASE,
)


_UNITS = {
    "mb": "mb", "gb": "gb", "kb": "kb", "tb": "tb", "kg": "kg", "kgs": "kg", "lb": "lb",
    "lbs": "lb", "mg": "mg", "g": "g", "km": "km", "miles": "mile", "mile": "mile",
    "minutes": "min", "minute": "min", "min": "min", "mins": "min", "hours": "hour",
    "hour": "hour", "days": "day", "day": "day", "week": "week", "weeks": "week",
    "people": "person", "person": "person",
    "employees": "person", "staff": "person", "members": "member", "degrees": "degree",
    "°": "degree", "°c": "degree", "°f": "degree-f", "%": "%", "percent": "%",
    "req": "request", "requests": "request", "users": "user", "seats": "seat",
}  # fmt: skip


_NUMBER_WORDS = {
    w: float(n)
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {"single": 1.0, "twenty": 20.0, "thirty": 30.0, "forty": 40.0, "fifty": 50.0}


_CURRENCY_WORDS = {"eur": "€", "euro": "€", "euros": "€", "usd": "$", "dollars": "$"} | {
    "bucks": "$", "quid": "£",
    "gbp": "£", "pounds": "£", "chf": "chf", "jpy": "¥", "yen": "¥"
}  # fmt: skip


UNIT_WORDS = frozenset(_UNITS) | frozenset(_CURRENCY_WORDS)  # what a number counts in


_BOUND = re.compile(
    r"\b(?:over|under|more than|less than|fewer than|at least|above|below|upwards of)\s*$",
    re.IGNORECASE,
)


_COUNT = re.compile(
    r"(?<![\w.,#-])(?P<n>\d[\d,]*(?:\.\d+)?|"
    + "|".join(_NUMBER_WORDS)
    + r")\s+(?P<unit>[a-z][a-z-]*)",
    re.IGNORECASE,
)


def _numbers(text: str) -> dict[str, set[float]]:
    """Numbers by unit: a unit of measure or a currency, else the thing counted ("9
    engineers", "seven engineers"); a bound ("over 5 MB") is no value."""
    found: dict[str, set[float]] = {}
    for m in _UNIT_NUMBER.finditer(text):
        if _BOUND.search(text[: m.start()]):
            continue
        if m["cur"]:
            unit, raw = m["cur"], m["n"]
        else:
            word = m["unit"].lower().replace(" ", "")
            unit = _UNITS.get(word) or _CURRENCY_WORDS.get(word, "")
            raw = m["m"]
        if unit:
            found.setdefault(unit, set()).add(float(raw.replace(",", "")))
    for m in _COUNT.finditer(text):
        raw, word = m["n"].lower(), m["unit"].lower()
        if word in _UNITS or word in _CURRENCY_WORDS or _BOUND.search(text[: m.start()]):
            continue
        number = _NUMBER_WORDS.get(raw)
        if number is None and raw[:1].isdigit():
            number = float(raw.replace(",", ""))
        counted = terms(word)
        if number is not None and counted and not date_parts(word):
            found.setdefault("count:" + min(counted), set()).add(number)
    return found


_DAYPART = re.compile(r"\b(morning|afternoon|evening|night)s?\b", re.IGNORECASE)


def dated_parts(text: str) -> dict[str, int | str]:
    parts = date_parts(text)
    daypart = _DAYPART.search(text)
    if daypart is not None:
        parts["daypart"] = daypart[1].lower()
    return parts


_BARE_DEST = re.compile(
    r"^(?:about|around|roughly|approximately|nearly|almost|~)?\s*v?(?P<n>\d+(?:\.\d+)*)$", re.I
)
_BARE_OLD = re.compile(
    r"(?<![\w$€£¥.,:/#-])v?(?P<n>\d+(?:\.\d+)*)(?![\w%°$€£¥:/-]|\.\d|\s*(?:%|°|[a-z]))",
    re.IGNORECASE,
)


def bare_number_difference(dest: str, old: str) -> str:
    """ "number" when ``dest`` is a number alone ("to 50", "to 1.29") and ``old`` states
    numbers alone ("pool size is 20", "runs Kubernetes 1.27"), none of them the same; ""
    otherwise (a number with a unit or a date is compared by ``typed_difference``)."""
    m = _BARE_DEST.match(dest.strip())
    if m is None or date_parts(dest):
        return ""
    said = {n["n"] for n in _BARE_OLD.finditer(old) if not _YEARISH.fullmatch(n["n"])}
    if not said or date_parts(" ".join(said)):
        return ""
    return "same" if m["n"] in said else "number"


_YEARISH = re.compile(r"(?:19|20)\d\d")


def typed_difference(new: str, old: str) -> str:
    """ "date" or "number" when ``new`` and ``old`` name a value of that kind and it
    differs; "same" when they name one and it agrees; "" when nothing is comparable."""
    pn, po = _numbers(new), _numbers(old)
    shared_units = pn.keys() & po.keys()
    if shared_units:
        return "number" if any(not (pn[u] & po[u]) for u in shared_units) else "same"
    dn, do = dated_parts(new), dated_parts(old)
    shared = (dn.keys() & do.keys()) - {"relative", "quarter", "year"}
    if shared:
        return "date" if any(dn[k] != do[k] for k in shared) else "same"
    return ""
