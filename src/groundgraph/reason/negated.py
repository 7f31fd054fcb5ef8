"""Negation in scope: a claim and its closest evidence sentence must agree on what is denied.

``negation_mismatch_verifier`` (:mod:`.verifiers`) compares whole sentences: a "never"
anywhere in the evidence sentence, in a clause the claim does not state ("Lin, who never
married, was born in Ulm"), makes a plain claim about Lin's birth disagree with it. Here
the claim is set word by word against each statement's closest sentence (as in
:mod:`.slots`), and a negation cue counts only where it is not shared and its *head*, the
first content word after it (at most ``REACH`` tokens on), is a word both sides write in
the same place: the claim denies what the sentence affirms ("was not born in Ulm" against
"was born in Ulm"), or the reverse. A cue both sides write in the same place, or one whose
head only its own side writes, is out of scope. English cues only (``not``, ``never``,
``no``, ``-n't``, ...); a negation said another way ("failed to", "lacks") is not seen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from groundgraph.reason.anchors import Token
from groundgraph.reason.slots import closest_sentence, key
from groundgraph.reason.verifiers import NEGATION_CUES

REACH = 3  # tokens after a cue looked at for its head

_NOT_SUFFIX = re.compile(r"[^\W\d_]n[’']t$", re.IGNORECASE)


def is_cue(token: Token) -> bool:
    """Whether a token negates: a cue word, or a word ending in ``n't``."""
    text = token.text.lower()
    return text in NEGATION_CUES or bool(_NOT_SUFFIX.search(text))


def _shared(ops: Sequence[tuple[str, int, int, int, int]], side: int, n: int) -> list[bool]:
    out = [False] * n
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            lo, hi = (i1, i2) if side == 0 else (j1, j2)
            for k in range(lo, hi):
                out[k] = True
    return out


def _denies(tokens: Sequence[Token], shared: Sequence[bool]) -> bool:
    """Whether a cue of ``tokens`` outside the shared words heads a shared content word."""
    for k, token in enumerate(tokens):
        if shared[k] or not is_cue(token):
            continue
        for h in range(k + 1, min(len(tokens), k + 1 + REACH)):
            if (tokens[h].term is not None or tokens[h].is_number) and not is_cue(tokens[h]):
                if shared[h]:
                    return True
                break
    return False


def negation_in_scope(part: Sequence[Token], sentence: Sequence[Token]) -> bool:
    """Whether exactly one of the statement and its sentence denies a shared word."""
    a = [key(t) for t in part]
    b = [key(t) for t in sentence]
    ops = SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    mine = _denies(part, _shared(ops, 0, len(a)))
    theirs = _denies(sentence, _shared(ops, 1, len(b)))
    return mine != theirs


def negation_mismatches(
    claim: str,
    parts: Sequence[Sequence[Token]],
    sentences: Sequence[list[Token]],
    need: Mapping[str, float],
) -> tuple[str, ...]:
    """The statements of ``claim`` whose closest sentence denies what they affirm, or the
    reverse, in claim order."""
    found = []
    for part in parts:
        sentence = closest_sentence(part, sentences, need)
        if sentence is not None and negation_in_scope(part, sentence):
            found.append(claim[part[0].start : part[-1].end])
    return tuple(found)
