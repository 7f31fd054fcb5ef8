"""Run several retrieval configurations over one graph and one question set.

A configuration is either a set of keyword arguments for :meth:`DocumentGraph.search`
(``{"max_hops": 0}`` is BM25 alone, ``{}`` the default walk; any option ``search`` takes
passes straight through) or a plain callable ``(graph, question) -> ranked ids``.
Hits are reduced to the ids the question's labels are judged by (document ids, or
section and chunk ids when it labels those: ``eval.labels``), each at its first rank,
before scoring.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from groundgraph.errors import InputError
from groundgraph.eval.labels import Lineage, judge
from groundgraph.eval.metrics import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    METRICS,
    Interval,
    Latency,
    bootstrap_interval,
    distinct,
    latency_summary,
)
from groundgraph.eval.questions import Question
from groundgraph.graph import DocumentGraph

#: Keyword arguments for ``DocumentGraph.search`` (``max_results`` is set by the runner).
SearchConfig = Mapping[str, Any]
#: A retriever of its own: the ranked document ids for a question.
Retriever = Callable[[DocumentGraph, str], list[str]]
#: A ranking for a question, in the ids its labels are judged by (``eval.labels``).
Ranker = Callable[[DocumentGraph, Question], list[str]]
Progress = Callable[[int, int], None]

DEFAULT_K = (2, 5, 10)
#: BM25 alone, the bounded walk, personalized PageRank and linear fusion.
STANDARD_CONFIGS: dict[str, SearchConfig] = {
    "bm25": {"max_hops": 0},
    "walk": {},
    "ppr": {"walker": "ppr"},
    "linear": {"fusion": "linear"},
}
MAX_WIDENING = 16  # ask for at most 16 × depth hits when chunks crowd out documents


def unsupported_options(graph: DocumentGraph, config: SearchConfig) -> list[str]:
    """The options of ``config`` that ``graph.search`` does not take (empty if all are)."""
    parameters = inspect.signature(graph.search).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return []
    return sorted(set(config) - set(parameters))


def accepts(graph: DocumentGraph, config: SearchConfig) -> bool:
    """Whether ``graph.search`` takes every option of ``config``."""
    return not unsupported_options(graph, config)


def supported_configs(
    graph: DocumentGraph, configs: Mapping[str, SearchConfig] = STANDARD_CONFIGS
) -> dict[str, SearchConfig]:
    """The configurations whose every option ``graph.search`` takes, in their order."""
    return {name: config for name, config in configs.items() if accepts(graph, config)}


def search_ranker(config: SearchConfig, depth: int) -> Ranker:
    """A ranker that calls ``graph.search(question, **config)`` for ``depth`` units: the
    ids the question's labels are judged by (documents, or sections and chunks when it
    labels those; ``eval.labels``).

    Long passages become several nodes of one document, so when the hits hold fewer than
    ``depth`` distinct units it asks again for twice as many hits.
    """
    options = dict(config)
    if "max_results" in options or "top_k" in options:
        raise InputError("leave max_results out of a configuration: the runner sets it from k")
    lineages: dict[int, Lineage] = {}

    def rank(graph: DocumentGraph, question: Question) -> list[str]:
        lineage = lineages.setdefault(id(graph), Lineage(graph))
        unit = judge(question.relevant, lineage)
        wanted = depth
        while True:
            hits = graph.search(question.question, max_results=wanted, **options)
            ranking = distinct(unit(h) for h in hits)
            if len(ranking) >= depth or len(hits) < wanted or wanted >= depth * MAX_WIDENING:
                return ranking[:depth]
            wanted *= 2

    return rank


def search_retriever(config: SearchConfig, depth: int) -> Retriever:
    """A retriever that calls ``graph.search(question, **config)`` for ``depth`` documents."""
    rank = search_ranker(config, depth)
    return lambda graph, question: rank(graph, Question("", question, ()))


@dataclass(frozen=True)
class ConfigResult:
    """One configuration's rankings, timings and scores."""

    name: str
    options: dict[str, Any] | None  # None for a callable retriever
    rankings: tuple[tuple[str, ...], ...]
    seconds: tuple[float, ...]
    per_question: dict[str, tuple[float, ...]]  # "recall@5" → one value per question
    scores: dict[str, Interval]
    latency: Latency


@dataclass(frozen=True)
class EvalReport:
    """Scores of every configuration on one question set; ``results`` keeps their order."""

    dataset: str
    questions: tuple[Question, ...]
    k_values: tuple[int, ...]
    results: dict[str, ConfigResult]
    resamples: int = BOOTSTRAP_RESAMPLES
    seed: int = BOOTSTRAP_SEED

    def columns(self) -> list[str]:
        """Every score name, metric by metric: ``precision@2``, …, ``ndcg@10``."""
        return [f"{m}@{k}" for m in METRICS for k in self.k_values]

    def difference(self, a: str, b: str, score: str) -> Interval:
        """Mean of per-question ``a − b`` on ``score``, with a paired bootstrap interval."""
        left, right = self.results[a].per_question[score], self.results[b].per_question[score]
        diffs = [x - y for x, y in zip(left, right, strict=True)]
        return bootstrap_interval(diffs, resamples=self.resamples, seed=self.seed)

    def changed(self, a: str, b: str, score: str) -> list[tuple[Question, float, float]]:
        """Questions where ``a`` and ``b`` score differently: (question, a's, b's)."""
        left, right = self.results[a].per_question[score], self.results[b].per_question[score]
        return [(q, x, y) for q, x, y in zip(self.questions, left, right, strict=True) if x != y]

    def to_markdown(self, columns: Sequence[str] | None = None, intervals: bool = True) -> str:
        """One table: a row per configuration, a column per score, then latency."""
        return markdown_table([self], columns, intervals)

    def to_dict(self, rankings: bool = False) -> dict[str, Any]:
        """The JSON form; ``rankings=True`` adds each question's ranked document ids."""
        configs: dict[str, Any] = {}
        for name, result in self.results.items():
            entry: dict[str, Any] = {
                "options": result.options,
                "scores": {s: i.to_dict() for s, i in result.scores.items()},
                "latency": result.latency.to_dict(),
            }
            if rankings:
                entry["rankings"] = {
                    q.id: list(r) for q, r in zip(self.questions, result.rankings, strict=True)
                }
            configs[name] = entry
        return {
            "dataset": self.dataset,
            "questions": len(self.questions),
            "kValues": list(self.k_values),
            "bootstrap": {"resamples": self.resamples, "seed": self.seed, "level": 0.95},
            "configs": configs,
        }

    def to_json(self, rankings: bool = False) -> str:
        return json.dumps(self.to_dict(rankings), indent=2, ensure_ascii=False, default=str)


def markdown_table(
    reports: Sequence[EvalReport], columns: Sequence[str] | None = None, intervals: bool = True
) -> str:
    """Several reports in one table, a row per (dataset, configuration)."""
    if not reports:
        raise InputError("no reports to tabulate")
    names = list(columns or reports[0].columns())
    head = ["dataset", "config", *names, "p50 ms", "p95 ms"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(names) + 2)]
    for report in reports:
        for name, result in report.results.items():
            cells = [report.dataset, name]
            for score in names:
                i = result.scores[score]
                cells.append(
                    f"{i.mean:.3f} ({i.low:.3f}–{i.high:.3f})" if intervals else f"{i.mean:.3f}"
                )
            cells += [f"{result.latency.p50_ms:.1f}", f"{result.latency.p95_ms:.1f}"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _rankers(
    graph: DocumentGraph, configs: Mapping[str, Retriever | SearchConfig], depth: int
) -> dict[str, tuple[Ranker, dict[str, Any] | None]]:
    found: dict[str, tuple[Ranker, dict[str, Any] | None]] = {}
    for name, config in configs.items():
        if callable(config):
            found[name] = (_asking(config), None)
            continue
        if not isinstance(config, Mapping):
            raise InputError(f"configuration {name!r} must be search options or a callable")
        missing = unsupported_options(graph, config)
        if missing:
            raise InputError(
                f"configuration {name!r} sets {', '.join(missing)}, which this version of "
                "DocumentGraph.search does not take"
            )
        found[name] = (search_ranker(config, depth), dict(config))
    return found


def _asking(retrieve: Retriever) -> Ranker:
    return lambda graph, question: retrieve(graph, question.question)


def evaluate(
    graph: DocumentGraph,
    questions: Sequence[Question],
    configs: Mapping[str, Retriever | SearchConfig],
    k_values: Sequence[int] = DEFAULT_K,
    *,
    dataset: str = "questions",
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    progress: Progress | None = None,
) -> EvalReport:
    """Ask every question with every configuration and score the rankings.

    Configurations take turns on each question (so a load spike hits them alike), after
    one untimed warm-up query each. Every score gets a bootstrap interval with the same
    resamples, so configurations compare question for question.
    """
    ks = tuple(sorted(set(k_values)))
    if not ks or ks[0] < 1:
        raise InputError("k_values must hold at least one k >= 1")
    if not questions:
        raise InputError("no questions to evaluate")
    if not configs:
        raise InputError("no configurations to run")
    retrievers = _rankers(graph, configs, ks[-1])
    rankings: dict[str, list[tuple[str, ...]]] = {n: [] for n in retrievers}
    seconds: dict[str, list[float]] = {n: [] for n in retrievers}
    for retrieve, _ in retrievers.values():
        retrieve(graph, questions[0])
    for done, question in enumerate(questions, start=1):
        for name, (retrieve, _) in retrievers.items():
            start = time.perf_counter()
            ranking = retrieve(graph, question)
            seconds[name].append(time.perf_counter() - start)
            rankings[name].append(tuple(distinct(ranking))[: ks[-1]])
        if progress is not None:
            progress(done, len(questions))
    results = {
        name: _score(name, options, rankings[name], seconds[name], questions, ks, resamples, seed)
        for name, (_, options) in retrievers.items()
    }
    return EvalReport(dataset, tuple(questions), ks, results, resamples, seed)


def _score(
    name: str,
    options: dict[str, Any] | None,
    rankings: list[tuple[str, ...]],
    seconds: list[float],
    questions: Sequence[Question],
    ks: tuple[int, ...],
    resamples: int,
    seed: int,
) -> ConfigResult:
    per_question: dict[str, tuple[float, ...]] = {}
    scores: dict[str, Interval] = {}
    for metric_name, metric in METRICS.items():
        for k in ks:
            values = tuple(
                metric(r, q.relevant, k) for r, q in zip(rankings, questions, strict=True)
            )
            key = f"{metric_name}@{k}"
            per_question[key] = values
            scores[key] = bootstrap_interval(values, resamples=resamples, seed=seed)
    return ConfigResult(
        name,
        options,
        tuple(rankings),
        tuple(seconds),
        per_question,
        scores,
        latency_summary(seconds),
    )
