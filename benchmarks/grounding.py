"""A measured check of the checker: claim-level precision and recall of ``graph.ground``.

    .venv/bin/python benchmarks/grounding.py ../shared/data/hotpotqa-kag
    .venv/bin/python benchmarks/grounding.py ../shared/data/hotpotqa-kag --seed 7 --questions 50
    .venv/bin/python benchmarks/grounding.py ../shared/data/hotpotqa-kag --half odd

The HotpotQA sample's passages (one plain-text document per title, 994) are indexed into
an in-memory DocumentGraph. True claims are the gold supporting sentences, plus one
two-passage claim per question: the first gold sentence of each of its first two gold
passages joined by "; " (it needs both passages). False claims are made from the gold
sentences by four controlled perturbations, deterministic given ``--seed``:

- ``entity``: the longest corpus title (its "(...)" note dropped) written in the sentence,
  else its longest capitalised run after the first word, is replaced by the title of
  another paragraph of the same question (HotpotQA's distractors, so often a passage the
  search also finds; any corpus title if there is none).
- ``negation``: the first "not"/"never" is deleted, else the first "-n't" undone
  ("wasn't" -> "was"), else "not" is put after the first auxiliary (is, was, has, ...).
- ``number``: the first whole number changes: a year (1000-2100) by ±1..9, a number below
  10 by +1..3, any other by ±10-50 %.
- ``drop-hop``: in a bridge question whose gold sentence from passage A names passage B's
  title, a gold sentence of B that names B (and not A) gets A's name instead: it states
  B's fact of A directly, skipping the hop through B.

A perturbation that cannot apply to a sentence makes no claim. Each claim is grounded with
evidence from a search for the question (``query=question``, the top 8 hits) and from the
gold passages (oracle). A claim counts as supported when every sentence ``ground`` finds in
it is. Positive class = supported. A perturbation's row holds its false claims and the true
sentences they were made from, so it is balanced; the "all" row holds every claim.

``--half even`` or ``--half odd`` keeps the questions of even or odd position only, so a
rule can be studied on one half and scored on the other.

``ground`` runs once per claim and setting with ``min_support=0``, its rules off and
the verifier on, and each rule set is read off the result (share, missing numbers, missing
names, unlinked sections, misplaced anchors, substitutions, negations, veto); a check at
the end compares these decisions with direct runs at the defaults. Rule sets: the seed's
(share ≥ min_support only), each rule of ``groundgraph.reason.claims``, ``.anchors``,
``.slots`` (substitutions) and ``.negated`` alone and together (the default), the four
defaults before issue 19, and the default with ``negation_mismatch_verifier`` in the
``verify`` slot, where an NLI model would go.

Prints markdown tables to stdout (progress to stderr); about 10 s on one core.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundgraph import DocumentGraph
from groundgraph.eval.datasets import add_passages, load_multihop, read_json
from groundgraph.reason.verifiers import negation_mismatch_verifier

KINDS = ("entity", "negation", "number", "drop-hop")
RULE_CHECKS = {
    "seed": frozenset(),
    "numbers": frozenset({"numbers"}),
    "names": frozenset({"names"}),
    "links": frozenset({"links"}),
    "numbers+names": frozenset({"numbers", "names"}),
    "numbers+names+links": frozenset({"numbers", "names", "links"}),
    "anchors": frozenset({"anchors"}),
    "substitutions": frozenset({"substitutions"}),
    "negation": frozenset({"negation"}),
    "before": frozenset({"numbers", "names", "links", "anchors"}),
    "default": frozenset({"numbers", "names", "links", "anchors", "substitutions", "negation"}),
    "+negation": frozenset(
        {"numbers", "names", "links", "anchors", "substitutions", "negation", "verify"}
    ),
    "seed+negation": frozenset({"verify"}),
}
RULES = tuple(RULE_CHECKS)
THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
DEFAULT_THRESHOLD = 0.5
SETTINGS = ("search", "oracle")

_NOTE = re.compile(r"\s*\([^)]*\)\s*$")
_CAPITALISED = re.compile(r"[A-Z][\w'’.-]*(?:\s+(?:of|the|de|von|van|and)?\s*[A-Z][\w'’.-]*)*")
_NEGATION = re.compile(r"\b(?:not|never)\s+")
_CONTRACTED = re.compile(r"\b(is|was|are|were|does|do|did|has|have|had|could|would)n['’]t\b")
_IRREGULAR = {"won't": "will", "can't": "can", "won’t": "will", "can’t": "can"}
_AUXILIARY = re.compile(
    r"\b(is|was|are|were|has|have|had|can|could|will|would|should|may|might|must|does|did)\s"
)
_WHOLE_NUMBER = re.compile(r"(?<![\d.,])\d+(?![\d]|[.,]\d)")


def name_of(title: str) -> str:
    """A title as it is written in running text: "Lilu (mythology)" -> "Lilu"."""
    return _NOTE.sub("", title).strip()


@dataclass(frozen=True)
class Claim:
    text: str
    kind: str  # "true" or a perturbation
    question: str
    gold_nodes: tuple[str, ...]
    source: int  # index of the true claim it comes from (its own index for a true one)
    compound: bool = False  # two gold sentences of two passages joined by "; "

    @property
    def truth(self) -> bool:
        return self.kind == "true"


@dataclass(frozen=True)
class Outcome:
    share: float  # the lowest share among the claim's sentences
    flags: frozenset[str]  # checks passed by every sentence: numbers, names, links, verify

    def supported(self, rule: str, threshold: float) -> bool:
        return self.share >= threshold and RULE_CHECKS[rule] <= self.flags


# ----------------------------------------------------------------------------- perturbations
def name_patterns(names: Sequence[str]) -> list[re.Pattern[str]]:
    """One pattern per name, matching it as whole words."""
    return [re.compile(rf"(?<!\w){re.escape(name)}(?!\w)") for name in names]


def swap_entity(
    sentence: str, names: Sequence[re.Pattern[str]], others: Sequence[str], rng: random.Random
) -> str | None:
    found = [(m.start(), m.end()) for name in names for m in name.finditer(sentence)]
    if not found:
        found = [(m.start(), m.end()) for m in _CAPITALISED.finditer(sentence) if m.start() > 0]
    if not found:
        return None
    start, end = max(found, key=lambda s: (s[1] - s[0], -s[0]))
    old = sentence[start:end]
    choices = sorted({o for o in others if o and old not in o and o not in old})
    if not choices:
        return None
    return sentence[:start] + rng.choice(choices) + sentence[end:]


def negate(sentence: str) -> str | None:
    match = _NEGATION.search(sentence)
    if match:
        return sentence[: match.start()] + sentence[match.end() :]
    for word, plain in _IRREGULAR.items():
        if word in sentence:
            return sentence.replace(word, plain, 1)
    match = _CONTRACTED.search(sentence)
    if match:
        return sentence[: match.start()] + match.group(1) + sentence[match.end() :]
    match = _AUXILIARY.search(sentence)
    if match:
        return sentence[: match.end()] + "not " + sentence[match.end() :]
    return None


def change_number(sentence: str, rng: random.Random) -> str | None:
    match = _WHOLE_NUMBER.search(sentence)
    if not match:
        return None
    n = int(match.group())
    if 1000 <= n <= 2100:
        new = n + rng.choice([-1, 1]) * rng.randint(1, 9)
    elif n < 10:
        new = n + rng.randint(1, 3)
    else:
        step = max(1, round(n * rng.choice([0.1, 0.2, 0.3, 0.5])))
        new = n + step if rng.random() < 0.5 or n - step <= 0 else n - step
    return sentence[: match.start()] + str(new) + sentence[match.end() :]


def drop_hop(facts: dict[str, list[str]]) -> tuple[str, str] | None:
    """(gold sentence of the bridge paragraph B, that sentence with B's name replaced by A's)."""
    titles = list(facts)
    for a in titles:
        for b in titles:
            if a == b:
                continue
            bridge, start = name_of(b), name_of(a)
            if not any(bridge in s for s in facts[a]):
                continue
            for sentence in facts[b]:
                if bridge in sentence and start not in sentence:
                    return sentence, sentence.replace(bridge, start, 1)
    return None


# ----------------------------------------------------------------------------- claims
def build_claims(
    path: Path, graph: DocumentGraph, seed: int, limit: int | None, half: str | None = None
) -> list[Claim]:
    dataset = load_multihop(path / "qa_train.json", path / "train_corpus.json", joiner="")
    print(dataset.summary(), file=sys.stderr)
    started = time.perf_counter()
    add_passages(graph, dataset.passages)
    print(f"indexed in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    by_title: dict[str, list[str]] = {}
    for p in dataset.passages:
        by_title.setdefault(p.title, []).append(p.doc_id)
    corpus_names = sorted({name_of(p.title) for p in dataset.passages if len(name_of(p.title)) > 3})
    patterns = name_patterns(corpus_names)
    rng = random.Random(seed)
    claims: list[Claim] = []
    records = read_json(path / "qa_train.json")[:limit]
    for n, record in enumerate(records):
        if half is not None and n % 2 != (0 if half == "even" else 1):
            continue
        context = {t: s for t, s in record["context"]}
        facts: dict[str, list[str]] = {}
        for title, i in record["supporting_facts"]:
            if title in context and i < len(context[title]):
                facts.setdefault(title, []).append(context[title][i].strip())
        gold = tuple(n for t in facts for d in by_title.get(t, []) for n in _nodes(graph, d))
        others = [name_of(t) for t in context if t not in facts] or corpus_names
        question = record["question"]
        first = len(claims)
        for sentence in (s for ss in facts.values() for s in ss):
            index = len(claims)
            claims.append(Claim(sentence, "true", question, gold, index))
            made = {
                "entity": swap_entity(sentence, patterns, others, rng),
                "negation": negate(sentence),
                "number": change_number(sentence, rng),
            }
            for kind, text in made.items():
                if text is not None and text != sentence:
                    claims.append(Claim(text, kind, question, gold, index))
        if len(facts) >= 2:
            first_a, first_b = (ss[0] for ss in list(facts.values())[:2])
            joined = first_a.rstrip(" .") + "; " + first_b
            claims.append(Claim(joined, "true", question, gold, len(claims), compound=True))
        hop = drop_hop(facts) if record.get("type") == "bridge" else None
        if hop is not None:
            source = next(i for i in range(first, len(claims)) if claims[i].text == hop[0])
            claims.append(Claim(hop[1], "drop-hop", question, gold, source))
    return claims


def _nodes(graph: DocumentGraph, doc_id: str) -> list[str]:
    return [n.node_id for n in graph.store.reads.document_nodes(doc_id) if n.content.strip()]


def outcome(graph: DocumentGraph, claim: Claim, setting: str) -> Outcome | None:
    where: dict[str, Any] = (
        {"query": claim.question} if setting == "search" else {"node_ids": claim.gold_nodes}
    )
    found = graph.ground(
        claim.text,
        min_support=0.0,
        verify=negation_mismatch_verifier,
        check_numbers=False,
        check_names=False,
        check_links=False,
        check_anchors=False,
        check_substitutions=False,
        check_negation=False,
        **where,
    )
    if not found.claims:
        return None
    checks = {
        "numbers": all(not c.missing_numbers for c in found.claims),
        "names": all(not c.missing_names for c in found.claims),
        "links": all(not c.unlinked for c in found.claims),
        "anchors": all(not c.misplaced for c in found.claims),
        "substitutions": all(not c.substituted for c in found.claims),
        "negation": all(not c.negated for c in found.claims),
        "verify": all(not c.vetoed for c in found.claims),
    }
    return Outcome(min(c.share for c in found.claims), frozenset(k for k, v in checks.items() if v))


def check_against_direct_runs(
    graph: DocumentGraph, claims: list[Claim], got: dict[int, Outcome]
) -> int:
    """Decisions read off the min_support=0 runs equal those of default runs; returns how many."""
    checked = 0
    for i, claim in list(enumerate(claims))[:60]:
        if i not in got:
            continue
        for rule, verify in (("default", None), ("+negation", negation_mismatch_verifier)):
            direct = graph.ground(claim.text, query=claim.question, verify=verify)
            expected = bool(direct.claims) and all(c.supported for c in direct.claims)
            if expected != got[i].supported(rule, DEFAULT_THRESHOLD):
                raise AssertionError(
                    f"claim {i} ({rule}): derived decision differs from a direct run"
                )
            checked += 1
    return checked


# ----------------------------------------------------------------------------- scoring
@dataclass(frozen=True)
class Score:
    precision: float
    recall: float
    false_accept: float
    positives: int
    negatives: int


def score(pairs: Sequence[tuple[bool, bool]]) -> Score:
    """Precision and recall of 'supported' over (truth, predicted) pairs."""
    tp = sum(1 for t, p in pairs if t and p)
    fp = sum(1 for t, p in pairs if not t and p)
    pos = sum(1 for t, _ in pairs if t)
    neg = len(pairs) - pos
    return Score(
        tp / (tp + fp) if tp + fp else 1.0,
        tp / pos if pos else 0.0,
        fp / neg if neg else 0.0,
        pos,
        neg,
    )


def rows_for(claims: list[Claim], got: dict[int, Outcome], kind: str | None) -> list[int]:
    """The claims of one row: a perturbation's claims and the true ones they come from."""
    if kind is None:
        return list(got)
    if kind == "compound":
        return [i for i in got if claims[i].compound]
    false = [i for i, c in enumerate(claims) if c.kind == kind and i in got and c.source in got]
    return sorted({*false, *(claims[i].source for i in false)})


def decide(
    claims: list[Claim], got: dict[int, Outcome], ids: list[int], rule: str, threshold: float
) -> Score:
    return score([(claims[i].truth, got[i].supported(rule, threshold)) for i in ids])


def pct(x: float) -> str:
    return f"{x * 100:.1f}"


SHOWN = {
    "seed": "seed rule",
    "default": "default rules",
    "+negation": "default + negation verifier",
}
ABLATION = {
    "seed": "share only (the seed)",
    "numbers": "share + numbers",
    "names": "share + names",
    "links": "share + links",
    "numbers+names": "share + numbers + names",
    "numbers+names+links": "share + numbers + names + links",
    "anchors": "share + anchors",
    "substitutions": "share + substitutions",
    "negation": "share + negation",
    "before": "share + numbers + names + links + anchors (the defaults before issue 19)",
    "default": "all six rules (default): + substitutions + negation",
    "+negation": "default + negation_mismatch_verifier",
    "seed+negation": "share + negation_mismatch_verifier",
}
WHERE = {"search": "search for the question (top 8)", "oracle": "gold passages"}


def cell(s: Score, fa: bool = True) -> str:
    text = f"{pct(s.precision)} / {pct(s.recall)}"
    return f"{text} / {pct(s.false_accept)}" if fa else text


def tables(claims: list[Claim], results: dict[str, dict[int, Outcome]]) -> list[str]:
    """The three markdown tables: per claim type, the ablation of rules, the threshold curve."""
    out = [
        "Precision / recall / false-accept rate (%), positive class = supported, min_support 0.5:",
        "",
        "| evidence | claims | true | false | " + " | ".join(SHOWN.values()) + " |",
        "|---|---|---:|---:|" + "---:|" * len(SHOWN),
    ]
    for setting, got in results.items():
        for kind in (*KINDS, "compound", None):
            ids = rows_for(claims, got, kind)
            first = decide(claims, got, ids, "seed", DEFAULT_THRESHOLD)
            cells = [cell(decide(claims, got, ids, r, DEFAULT_THRESHOLD)) for r in SHOWN]
            name = {None: "**all**", "compound": "two-passage (true only)"}.get(kind, kind)
            out.append(
                f"| {WHERE[setting]} | {name} | {first.positives} | {first.negatives} | "
                + " | ".join(cells)
                + " |"
            )
    out += [
        "",
        "Each rule alone and together, all claims (P / R / false-accept %, min_support 0.5):",
        "",
        "| rules | " + " | ".join(WHERE[s] for s in results) + " |",
        "|---|" + "---:|" * len(results),
    ]
    for rule, label in ABLATION.items():
        cells = [
            cell(decide(claims, got, rows_for(claims, got, None), rule, DEFAULT_THRESHOLD))
            for got in results.values()
        ]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    curve_rules = ("seed", "default", "+negation")
    out += [
        "",
        "Threshold curve, all claims (P / R %):",
        "",
        "| min_support | "
        + " | ".join(f"{s}: {SHOWN[r]}" for s in results for r in curve_rules)
        + " |",
        "|---:|" + "---:|" * (len(curve_rules) * len(results)),
    ]
    for t in THRESHOLDS:
        cells = [
            cell(decide(claims, got, rows_for(claims, got, None), rule, t), fa=False)
            for got in results.values()
            for rule in curve_rules
        ]
        out.append(f"| {t:.1f} | " + " | ".join(cells) + " |")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="folder with qa_train.json and train_corpus.json")
    parser.add_argument("--seed", type=int, default=13, help="seed of the perturbations")
    parser.add_argument("--questions", type=int, default=None, help="only the first N questions")
    parser.add_argument(
        "--half",
        choices=("even", "odd"),
        default=None,
        help="only the questions of even or odd position (to tune on one, report the other)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    graph = DocumentGraph()
    claims = build_claims(args.path, graph, args.seed, args.questions, args.half)
    counts = {k: sum(1 for c in claims if c.kind == k) for k in ("true", *KINDS)}
    print(f"claims: {counts}", file=sys.stderr)
    results: dict[str, dict[int, Outcome]] = {}
    for setting in SETTINGS:
        began = time.perf_counter()
        got: dict[int, Outcome] = {}
        for i, claim in enumerate(claims):
            found = outcome(graph, claim, setting)
            if found is not None:
                got[i] = found
        results[setting] = got
        print(
            f"{setting}: {len(got)} claims grounded in {time.perf_counter() - began:.1f} s",
            file=sys.stderr,
        )
    checked = check_against_direct_runs(graph, claims, results["search"])
    print(f"checked {checked} derived decisions against direct runs", file=sys.stderr)
    compound = sum(1 for c in claims if c.compound)
    lines = [
        f"HotpotQA sample ({args.path.name}): {counts['true'] - compound} gold sentences and "
        f"{compound} two-passage claims true, {len(claims) - counts['true']} perturbed; "
        f"seed {args.seed}; {args.half or 'all'} questions; {time.perf_counter() - started:.0f} s.",
        "",
        *tables(claims, results),
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
