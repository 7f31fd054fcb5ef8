"""What a causal cue is, and the table of cues and function words for one language.

A cue is a marker (``leads to``, ``because``, ``nedeniyle``) and the role of the text on
its left: for a cause-first cue the left side is the cause and the right side the effect,
for an effect-first cue the other way round. The tables themselves live beside this
module: ``english`` (en), ``german``, ``dutch``, ``french``, ``spanish``, ``italian``,
``portuguese`` and ``turkish``; ``causal.language`` collects them and guesses a text's
language.

A cue's pattern may name groups: ``cue`` (the marker proper, when the pattern also reads
words around it), and ``cause`` or ``effect`` (a span inside the pattern, for split
markers such as German ``hat zu … geführt``); numbered (``cue2``, ``effect2``) in a
second branch of the same pattern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Role = Literal["cause", "effect"]

# Ends a span on either side: sentence-internal punctuation and dashes between spaces.
# Pieces the languages' cue patterns share.
#: One optional word between a verb and its preposition ("led eventually to", "hat auch zu").
ONE_WORD = r"(?:\w+\s+)?"
#: Up to two such words ("ist vor allem auf … zurückzuführen").
TWO_WORDS = r"(?:\w+\s+){0,2}"
#: A span inside a split marker, bounded so matching stays linear.
SPAN = r"[^,;:.!?]{1,120}?"
#: An aside between a verb and its preposition ("led, after years, to").
ASIDE = r",\s[^,;:.!?]{1,60}?,\s+"
#: Where a clause ends: before punctuation or the end of the text.
CLAUSE_END = r"(?=\s*(?:[,;:.!?…]|$))"

BOUNDARY = re.compile(r"[;:()\[\]{}]|,|\s[-–—]\s|—|\.\.\.|…")


@dataclass(frozen=True)
class Cue:
    """One marker of cause and effect, and where its two spans are.

    ``left`` is the role of the text before the marker (the other role is after it).
    ``link``: a connective (``so``, ``çünkü``) whose left side, when it opens a sentence,
    is the previous sentence. ``adverb``: a linking adverb (``therefore``) that may also
    stand inside its clause ("roads were therefore closed"): the clause around it is the
    right-hand role and the clause before it the left-hand one. ``lead``: may open a
    sentence, ``Because X, Y``, with X up to the comma. ``split``: a verb-final marker
    (Turkish ``yol açtı``) whose left side holds both spans; the pattern matches the case
    ending of the word right before the marker, which ends the right-hand role's span.
    ``phrase``: the right side is a noun phrase (``wegen des Regens``), cut before the
    verb that follows it. ``not_before``: words that may not stand right before the
    marker (``the cause``). ``reject``: found anywhere in the sentence, it makes the
    marker non-causal (``this path leads to``, ``has lived here since``).
    """

    name: str
    pattern: re.Pattern[str]
    left: Role
    link: bool = False
    adverb: bool = False
    lead: bool = False
    split: re.Pattern[str] | None = None
    phrase: bool = False
    not_before: frozenset[str] = frozenset()
    reject: re.Pattern[str] | None = None

    @property
    def right(self) -> Role:
        return "effect" if self.left == "cause" else "cause"


@dataclass(frozen=True)
class CueTable:
    """The cues of one language and the function words the extractor needs.

    ``stopwords`` guess the language and are left out of span keys; ``articles`` are
    dropped from a span key's start; ``trailing`` (auxiliaries, hedging adverbs) is
    trimmed from the end of a span that stands right before a marker; ``leading``
    (conjunctions) from a span's start; ``finite`` are verbs that end the noun phrase of
    a sentence-opening preposition; ``subject`` words may open that sentence's subject;
    ``negators`` right before a marker deny it; ``denials`` opening an effect deny it
    (``no damage``); ``unknown`` as a cause means none was given (``is still unknown``);
    ``relatives`` open a relative clause; ``demonstratives`` point back to the clause
    before; ``breakers`` end a clause like a comma (``but``); ``letters`` mark the
    language in a text. For split markers: ``modifiers`` (``büyük``), words that ``attach``
    to the next one (a genitive) and the word before a ``compound`` head (a light verb's
    noun, ``iptal edilmesi``; a compound noun, ``elektrik kesintisi``) belong to the noun
    phrase right before the marker; a ``topic`` particle (Turkish ``da``) ends the subject
    that stands before that noun phrase. ``in_turn`` (``in turn``, ``a su vez``) is an
    adverbial trimmed from the end of a span before a marker, so that "which in turn
    caused" points back like "which caused". ``coordinators`` (``and``, ``or``) join the
    items of a list, which a span after a marker keeps whole: ``floods, landslides and
    outages``. ``light`` predicates (Turkish ``mümkün oldu``) say nothing of their own: a
    postposition followed by one alone takes the sentence's subject as its effect
    (``X, Y sayesinde mümkün oldu``).
    """

    language: str
    stemmer: str
    cues: tuple[Cue, ...]
    stopwords: frozenset[str]
    articles: frozenset[str] = frozenset()
    trailing: frozenset[str] = frozenset()
    leading: frozenset[str] = frozenset()
    finite: frozenset[str] = frozenset()
    subject: frozenset[str] = frozenset()
    negators: frozenset[str] = frozenset()
    denials: frozenset[str] = frozenset()
    unknown: re.Pattern[str] | None = None
    relatives: frozenset[str] = frozenset()
    demonstratives: frozenset[str] = frozenset()
    breakers: frozenset[str] = frozenset()
    letters: str = ""
    verb_second: bool = False
    capital_nouns: bool = False
    modifiers: frozenset[str] = frozenset()
    attach: re.Pattern[str] | None = None
    compound: re.Pattern[str] | None = None
    topic: frozenset[str] = frozenset()
    in_turn: re.Pattern[str] | None = None
    coordinators: frozenset[str] = frozenset()
    light: frozenset[str] = frozenset()


def in_turn(regex: str) -> re.Pattern[str]:
    """An "in turn" adverbial, matched at the end of a span."""
    return re.compile(rf"(?:^|[\s,])(?:{regex})[\s,]*$", re.IGNORECASE)


def participle_opener(participle: str, stative: str) -> Cue:
    """An absolute participle that opens a sentence and is set off by a comma: "Exhausted
    after the shift, the nurse dozed off", "Dimenticato il latte sul fuoco, la cucina …":
    the participle's phrase is the cause, the main clause the effect. ``participle`` is
    the language's past-participle pattern, ``stative`` the participles that describe
    instead (born, located, founded), which give no pair."""
    return Cue(
        name="participle",
        pattern=re.compile(
            rf"^\W*(?P<cause>(?!(?:{stative})\b)(?:{participle})\b[^,;:.!?]{{0,90}}?)(?P<cue>,)",
            re.IGNORECASE,
        ),
        left="cause",
    )


def words(text: str) -> frozenset[str]:
    """A word set from a space-separated string (tables stay short to read)."""
    return frozenset(text.split())


def pattern(regex: str) -> re.Pattern[str]:
    """A case-insensitive pattern that starts and ends on a word boundary (or an elision
    apostrophe: French ``d'``)."""
    return re.compile(rf"(?<![\w'’])(?:{regex})(?:(?<=['’])|(?!\w))", re.IGNORECASE)


def cause_first(
    name: str,
    regex: str | None = None,
    *,
    link: bool = False,
    adverb: bool = False,
    lead: bool = False,
    phrase: bool = False,
    split: str = "",
    not_before: str = "",
    reject: str = "",
) -> Cue:
    """A marker with the cause on its left: ``X leads to Y``, ``X; therefore Y``."""
    flags = (link or adverb, adverb, lead, phrase)
    return _cue(name, regex, "cause", flags, split, not_before, reject)


def effect_first(
    name: str,
    regex: str | None = None,
    *,
    link: bool = False,
    adverb: bool = False,
    lead: bool = False,
    phrase: bool = False,
    split: str = "",
    not_before: str = "",
    reject: str = "",
) -> Cue:
    """A marker with the effect on its left: ``Y because X``, ``Y is caused by X``."""
    flags = (link or adverb, adverb, lead, phrase)
    return _cue(name, regex, "effect", flags, split, not_before, reject)


def _cue(
    name: str,
    regex: str | None,
    left: Role,
    flags: tuple[bool, bool, bool, bool],
    split: str,
    not_before: str,
    reject: str,
) -> Cue:
    link, adverb, lead, phrase = flags
    return Cue(
        name=name,
        pattern=pattern(regex if regex is not None else re.escape(name)),
        left=left,
        link=link,
        adverb=adverb,
        lead=lead,
        phrase=phrase,
        split=re.compile(f"(?:{split})$", re.IGNORECASE) if split else None,
        not_before=words(not_before),
        reject=re.compile(reject, re.IGNORECASE) if reject else None,
    )
