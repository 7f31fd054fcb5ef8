"""What a claim must show besides its share: its numbers, code, names, and how its sections link.

The share of :mod:`.support` counts every word by its idf, so a claim of ten words with
one wrong name or year still scores about 0.9. Three cheap rules look at the words that
matter most (measured in ``benchmarks/grounding.py``):

- **numbers**: every number the claim writes ("1957", "3.5", "1,250") appears in its
  supporting sections, single digits included (the analyser drops those as words);
- **code**: every span the claim writes in backticks (`harbor.toml`, `--dry-run`)
  appears verbatim in its supporting sections: a renamed file, flag or key is a different
  thing, however many of its words the sections share;
- **names**: every analysed term of a capitalised word of the claim is covered. The first
  word is not a name when the sentence shows it is capitalised only for starting it: a
  determiner or pronoun follows it ("Edit the config", "Open your terminal") or the
  sentence writes it in lower case further on; else it counts when the next word is
  capitalised too ("Christopher Nolan directed") or it is rarer in the documents than the
  claim's average term ("Brazzaville is ...");
- **links**: a section chosen after the first that adds nothing but names must share a
  rare claim word (idf at least the claim's mean) outside those names with a section
  chosen before it. An entity's own article shows that the entity exists, not that the
  rest of the claim is about it: "NASCAR Kart Racing is a racing game developed by
  Studio 33" is not backed by one section on Formula One Arcade (developed by Studio 33)
  and another on NASCAR Kart Racing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from groundgraph.reason.evidence import SectionCache
from groundgraph.reason.support import GroundingCorpus, numbers_in

_CASED_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_CODE_SPAN = re.compile(r"`([^`\n]{1,200})`")

Name = dict[str, str]  # analysed term -> the word it came from

#: Words that open a noun phrase: a capitalised first word right before one is a verb or
#: an adverb ("Edit the config", "Open your terminal", "Then this ..."), not a name.
DETERMINERS: frozenset[str] = frozenset(
    {"the", "a", "an", "this", "that", "these", "those", "your", "my", "our", "their"}
    | {"his", "her", "its", "each", "every", "all", "any", "some", "no", "it", "you", "we"}
    | {"they"}
)


def ordinary_first_word(found: Sequence[str]) -> bool:
    """Whether the sentence's first word is capitalised only because it starts the sentence.

    Learnt from the sentence itself: it is followed by a determiner or a pronoun (an
    imperative, "Edit the config"), or the sentence writes the same word in lower case
    further on ("Release notes ... each release").
    """
    if not found:
        return False
    first = found[0]
    if len(found) > 1 and found[1] in DETERMINERS:
        return True
    return any(w == first.lower() for w in found[1:])


def claim_names(corpus: GroundingCorpus, claim: str, need: Mapping[str, float]) -> list[Name]:
    """The claim's names: runs of capitalised words, each as ``{analysed term: word}``."""
    found = [m.group() for m in _CASED_WORD.finditer(claim)]
    ordinary = ordinary_first_word(found)
    mean = sum(need.values()) / len(need) if need else 0.0
    runs: list[Name] = []
    run: Name = {}
    for k, word in enumerate(found):
        if not word[0].isupper():
            if run:
                runs.append(run)
            run = {}
            continue
        terms = corpus.terms(word)
        if k == 0 and ordinary:
            terms = []
        elif k == 0 and not (len(found) > 1 and found[1][0].isupper()):
            terms = [t for t in terms if need.get(t, 0.0) > mean]
        for term in terms:
            run.setdefault(term, word)
    if run:
        runs.append(run)
    return runs


def missing_numbers(claim: str, sections: SectionCache, node_ids: Sequence[str]) -> tuple[str, ...]:
    """Numbers of the claim that none of the sections holds, in claim order."""
    held = set().union(*(sections.numbers(i) for i in node_ids))
    return tuple(n for n in dict.fromkeys(numbers_in(claim)) if n not in held)


def missing_code(claim: str, sections: SectionCache, node_ids: Sequence[str]) -> tuple[str, ...]:
    """Backticked spans of the claim that none of the sections writes, in claim order."""
    texts = [sections.texts[i] for i in node_ids if i in sections.texts]
    held = "\n".join(f"{t.title}\n{t.content}" for t in texts)
    spans = dict.fromkeys(m.group(1).strip() for m in _CODE_SPAN.finditer(claim))
    return tuple(span for span in spans if span and span not in held)


def missing_names(names: Sequence[Name], uncovered: Mapping[str, float]) -> tuple[str, ...]:
    """Words of the claim's names whose terms no chosen section covers."""
    return tuple(dict.fromkeys(run[t] for run in names for t in run if t in uncovered))


def unlinked_sections(
    sections: SectionCache,
    chosen: Sequence[tuple[str, tuple[str, ...]]],
    names: Sequence[Name],
    need: Mapping[str, float],
) -> tuple[str, ...]:
    """Sections after the first that add only names and share no rare claim word outside
    those names with a section chosen before them."""
    name_terms = {t for run in names for t in run}
    mean = sum(need.values()) / len(need) if need else 0.0
    out = []
    for j in range(1, len(chosen)):
        node_id, credited = chosen[j]
        if not all(t in name_terms for t in credited):
            continue
        own = {t for run in names if run.keys() & set(credited) for t in run}
        links = {t for t, w in need.items() if t not in own and w >= mean}
        links &= sections.terms(node_id)
        if not any(links & sections.terms(chosen[i][0]) for i in range(j)):
            out.append(node_id)
    return tuple(out)
