"""One normaliser for entity names: spellings of the same entity share one key.

``normalise_entity("The Atlas Benchmarks") == normalise_entity("atlas benchmark")``, and
the key becomes the node id ``"entity:" + key``. The steps, in order:

1. Unicode NFKC and case folding, as Unicode's compatibility caseless match does it.
2. Dots of an initialism go ("U.S.A." → "usa"), a leading French "l'" goes, an apostrophe
   inside a word goes ("O'Brien" → "obrien") and so does a possessive "'s".
3. Every other run of characters that are not letters, digits or combining marks
   (punctuation, symbols, emoji, underscores, white space) becomes one space.
4. One leading definite article goes when more words follow and the next word is not an
   article too: English "the", and le/la/les, el/los/las, il/lo/gli, der/die/das (so "The
   Hague" and "Hague", "Los Angeles" at a sentence start and mid-sentence, share a key).
5. At most ``MAX_KEY_CHARS`` characters, cut at a word boundary.
6. The last word (the head of an English noun phrase) loses a simple English plural:
   -ies → -y, -sses/-xes/-shes/-ches/-oes → drop "es", other -s → drop "s". Words of
   fewer than four letters, words with a digit, endings -ss, -us, -is, -as, -os, -ics, a few
   invariant words ("news", "series") and an all-capital word (an acronym: "CORS") keep
   their s; an acronym's own plural loses it ("APIs" → "api").

A key holds only letters, digits, combining marks and single spaces, so never ``#``; it
is empty only when the surface has no letter or digit. Normalising a key gives the key
back, with one exception owed to the acronym rule: "HTTPS" keeps its s, but its key
"https", seen again in lower case, becomes "http".
"""

from __future__ import annotations

import functools
import re
import unicodedata

MAX_KEY_CHARS = 100
_CACHED_CHARS = 200  # longer spellings are not remembered (see the end of the module)

# Combining marks are not \w in Python's re, but they belong to the word they sit on
# (Devanagari vowel signs, Thai tone marks, Hebrew points); these ranges keep them in.
_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670"
    "\u06d6-\u06ed\u0900-\u0dff\u0e00-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff"
    "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
)
_SEPARATORS = re.compile(rf"(?:[^\w{_MARKS}]|_)+")
_INITIALISM = re.compile(r"(?<![\w.])[^\W\d_](?:\.[^\W\d_])+\.?(?!\w)")
_ELISION = re.compile(r"^l['’ʼ](?=\w)", re.IGNORECASE)
_POSSESSIVE = re.compile(r"(?<=\w)['’ʼ]s(?!\w)")
_INNER_APOSTROPHE = re.compile(r"(?<=\w)['’ʼ](?=\w)")

_ARTICLES = frozenset(
    {"the", "le", "la", "les", "el", "los", "las", "il", "lo", "gli", "der", "die", "das"}
)
# Plural-looking words that are singular (or the same in both numbers).
_INVARIANT = frozenset(
    {"news", "series", "species", "means", "lens", "thanks", "always", "perhaps", "yes"}
    | {"sometimes", "towards", "besides", "whereas", "various", "previous"}
)
# Words whose singular ends in -ie or -che: dropping "ies"/"es" would cut too much.
_IRREGULAR = {
    "movies": "movie",
    "cookies": "cookie",
    "zombies": "zombie",
    "calories": "calorie",
    "caches": "cache",
    "niches": "niche",
    "aches": "ache",
    "headaches": "headache",
    "avalanches": "avalanche",
}
_KEEP_ENDINGS = ("ss", "us", "is", "as", "os", "ics")


def singular(word: str) -> str:
    """The English singular of a lower-case word by simple rules; other words unchanged."""
    if len(word) < 4 or not word.isalpha() or word[-1] != "s":
        return word
    if word in _INVARIANT or word.endswith(_KEEP_ENDINGS):
        return word
    irregular = _IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    if word.endswith("ies") and len(word) >= 5 and word[-4] not in "aeiou":
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zzes", "shes", "ches")) or (
        word.endswith("oes") and len(word) >= 6
    ):
        return word[:-2]
    return word[:-1]


def _fold(text: str) -> str:
    # Unicode's compatibility caseless match (D146): NFKD(fold(NFKD(fold(NFD(x))))), so
    # that "ῇ" and its title case "ῌ͂" fold alike; then composed again (NFKC).
    for _ in range(4):
        folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", text).casefold())
        folded = unicodedata.normalize("NFKC", folded.casefold())
        if folded == text:
            break
        text = folded
    return text


def _is_acronym(word: str) -> bool:
    return 2 <= len(word) <= 6 and word.isupper() and word.isalpha()


def normalise_entity(surface: str) -> str:
    """The key of an entity name: folded, punctuation collapsed, article and plural dropped."""
    if len(surface) > _CACHED_CHARS:
        return _normalise(surface)
    return _normalise_cached(surface)


def _normalise(surface: str) -> str:
    text = unicodedata.normalize("NFKC", surface)
    text = _INITIALISM.sub(lambda m: m.group().replace(".", ""), text)
    text = _POSSESSIVE.sub("", text)
    text = _INNER_APOSTROPHE.sub("", _ELISION.sub("", text.lstrip()))
    original = _SEPARATORS.split(text)
    last = next((w for w in reversed(original) if w), "")
    parts = _SEPARATORS.sub(" ", _fold(text)).split()
    if len(parts) > 1 and parts[0] in _ARTICLES and parts[1] not in _ARTICLES:
        del parts[0]
    key = " ".join(parts)
    truncated = len(key) > MAX_KEY_CHARS
    if truncated:
        cut = key.rfind(" ", 0, MAX_KEY_CHARS + 1)
        key = key[:cut] if cut > 0 else key[:MAX_KEY_CHARS].rstrip()
    if not key or (_is_acronym(last) and not truncated):
        return key
    head, _, tail = key.rpartition(" ")
    # "APIs": the plural of an acronym. Not when the capitals came from a ligature's NFKC
    # form ("Ĳs" is the title case of "ĳs", not an acronym "IJ" and its plural).
    composed = unicodedata.normalize("NFC", surface)
    if _is_acronym(last[:-1]) and last[-1] == "s" and tail.endswith("s") and last in composed:
        tail = tail[:-1]
    else:
        tail = singular(tail)
    return f"{head} {tail}" if head else tail


# Names repeat (a text names its entities many times), so short spellings are remembered.
_normalise_cached = functools.lru_cache(maxsize=1 << 16)(_normalise)
