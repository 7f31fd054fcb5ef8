"""Agent memory: multi-hop recall across scopes, and the contradiction resolver.

    .venv/bin/python benchmarks/memory.py                   # both parts, tables on stdout
    .venv/bin/python benchmarks/memory.py --part cases -v   # the recall cases, misses listed
    .venv/bin/python benchmarks/memory.py --part contradictions --end-to-end
    .venv/bin/python benchmarks/memory.py --json out.json --markdown table.md
    .venv/bin/python benchmarks/memory.py --part cases --embedder multilingual --mode hybrid

**Recall cases** (``data/memory_cases.jsonl``, written for groundgraph): each case spreads
a chain of 2-4 facts over two or three scopes (agents), with a distractor that names an
entity of the chain and a few unrelated facts. Every case gets a fresh in-memory
``DocumentGraph()``; each scope's facts go in with ``add_texts(facts, scopes=[scope])``,
then ``query(question, top_k=5)`` is asked three ways:

- unscoped: chain completeness = gold facts in the top 5 / gold facts (the mean of this is
  also R@5, since the query returns five), full chains = cases with every gold fact in
  the top 5, P@5 = gold facts in the top 5 / facts returned, distractor rate = distractors
  in the top 5 / distractors;
- ``scopes=[first scope]``: seeds only from the first agent's facts, the walk crosses into
  the others; cross-scope discovery = gold facts of other scopes found / such gold facts;
- ``scopes=[first scope], isolate=True``: any fact of another scope in the answer is a
  leak (must be 0).

The cases are in six languages (32 English, 3 German, 3 French, 2 Spanish, 2 Dutch, 2
Turkish): ``--embedder minilm`` or ``multilingual`` gives every case's graph that embedder
and ``--mode`` the ``search_mode`` of the three queries (keyword by default). Chain
completeness, unscoped and scoped, gets a 95% bootstrap interval over the cases, for all
of them and for those not in English. A case's query returns five of its 5-7 facts, so
unscoped completeness is near 1 whatever ranks them: ``--part pooled`` puts every case's
facts in one memory (195 facts; each scope named after its case) and asks each question
there, unscoped: recall@5 of its chain, by language, with intervals.

No LLM is configured. Calls are counted anyway: every ``OpenAICompatibleLLM`` call and
every outgoing socket connection during the run (the benchmark fails if any happen).

**Contradictions** (``data/contradictions.jsonl``, written for groundgraph; ``--pairs`` names
another file: ``data/contradictions_blind_dev.jsonl`` and ``_test.jsonl``, 130 pairs each,
were written blind, by a writer who had not read the rules, for issue 19): pairs
``{new, old, label, kind}``, ``label`` true when ``new`` updates ``old`` (they cannot both
hold), false for complements and look-alikes. ``RuleConflictResolver`` decides each pair;
precision, recall and F1 of "contradicts". ``--end-to-end`` also adds each pair to a fresh
graph (old, then new) and counts the pairs whose old fact the memory retired.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from groundgraph import DocumentGraph
from groundgraph.index.embedder import TextEmbedder
from groundgraph.index.embedders import EMBEDDER_NAMES, embedder_named
from groundgraph.memory import RuleConflictResolver

DATA = Path(__file__).resolve().parent / "data"
CASES = DATA / "memory_cases.jsonl"
CONTRADICTIONS = DATA / "contradictions.jsonl"
TARGET_COMPLETENESS = 0.9
TARGET_PRECISION = 0.9
TOP_K = 5


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def read_pairs(path: Path) -> list[dict[str, Any]]:
    """Contradiction pairs as ``{new, old, label, kind}``; a blind writer's own form
    ``{first, second, contradicts, category}`` (first is the earlier fact) is read too."""
    pairs = read_jsonl(path)
    return [
        {"new": p["second"], "old": p["first"], "label": p["contradicts"], "kind": p["category"]}
        | {"id": p.get("id", "")}
        if "first" in p
        else p
        for p in pairs
    ]


# ---- counting LLM calls ----------------------------------------------------------------


class CallCounter:
    """Counts LLM client calls and socket connections while installed."""

    def __init__(self) -> None:
        self.llm_calls = 0
        self.connections = 0

    @contextmanager
    def installed(self) -> Iterator[CallCounter]:
        patches: list[tuple[Any, str, Any]] = []

        def patch(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
            original = getattr(owner, name)
            patches.append((owner, name, original))
            setattr(owner, name, make(original))

        def counting_call(original: Any) -> Any:
            def call(client: Any, prompt: str) -> Any:
                self.llm_calls += 1
                return original(client, prompt)

            return call

        def counting_connect(original: Any) -> Any:
            def connect(sock: Any, address: Any) -> Any:
                self.connections += 1
                return original(sock, address)

            return connect

        try:
            from groundgraph.llm import OpenAICompatibleLLM
        except ImportError:  # an older checkout without the client
            pass
        else:
            patch(OpenAICompatibleLLM, "__call__", counting_call)
        patch(socket.socket, "connect", counting_connect)
        try:
            yield self
        finally:
            for owner, name, original in reversed(patches):
                setattr(owner, name, original)


# ---- recall cases ----------------------------------------------------------------------


def run_case(
    case: dict[str, Any],
    embed: TextEmbedder | None = None,
    mode: str = "keyword",
    dedup: float | None = 0.9,
) -> dict[str, Any]:
    """One case in a fresh graph: the three queries and their figures."""
    graph = DocumentGraph(embed=embed, dedup_threshold=dedup)
    scopes: dict[str, list[str]] = case["scopes"]
    owner = {fact: scope for scope, facts in scopes.items() for fact in facts}
    started = time.perf_counter()
    for scope, facts in scopes.items():
        graph.add_texts(facts, scopes=[scope])
    added = time.perf_counter() - started
    gold, distractors = case["gold_chain"], case["distractors"]
    first = next(iter(scopes))

    started = time.perf_counter()
    top = graph.query(case["question"], top_k=TOP_K, search_mode=mode)
    asked = time.perf_counter() - started
    scoped = graph.query(case["question"], top_k=TOP_K, scopes=[first], search_mode=mode)
    isolated = graph.query(
        case["question"], top_k=TOP_K, scopes=[first], isolate=True, search_mode=mode
    )

    found = [f for f in gold if f in top]
    elsewhere = [f for f in gold if owner[f] != first]
    return {
        "id": case["id"],
        "lang": case["lang"],
        "hops": len(gold),
        "completeness": len(found) / len(gold),
        "full": len(found) == len(gold),
        "precision": len(found) / len(top) if top else 0.0,
        "distractors": sum(d in top for d in distractors) / len(distractors),
        "scoped_completeness": sum(f in scoped for f in gold) / len(gold),
        "cross_found": sum(f in scoped for f in elsewhere),
        "cross_total": len(elsewhere),
        "leaks": sum(owner.get(f) != first for f in isolated),
        "missed": [f for f in gold if f not in top],
        "top": top,
        "add_ms": added * 1000,
        "query_ms": asked * 1000,
    }


def interval(values: list[float], rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% bootstrap interval of the mean of ``values``."""
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(values, k=len(values))) for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def summarise_cases(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(key: str, subset: list[dict[str, Any]]) -> float:
        return statistics.fmean(float(r[key]) for r in subset)

    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        groups["all"].append(row)
        groups[f"lang={row['lang']}"].append(row)
        groups[f"chain={row['hops']}"].append(row)
    table = {}
    for name, subset in groups.items():
        cross_total = sum(r["cross_total"] for r in subset)
        table[name] = {
            "cases": len(subset),
            "completeness": mean("completeness", subset),
            "full_chains": mean("full", subset),
            "recall@5": mean("completeness", subset),
            "precision@5": mean("precision", subset),
            "distractor_rate": mean("distractors", subset),
            "scoped_completeness": mean("scoped_completeness", subset),
            "cross_scope_discovery": (
                sum(r["cross_found"] for r in subset) / cross_total if cross_total else 0.0
            ),
            "leaks": sum(r["leaks"] for r in subset),
        }
    for name, subset in (("all", rows), ("not English", [r for r in rows if r["lang"] != "en"])):
        for key in ("completeness", "scoped_completeness"):
            if subset:
                low, high = interval([float(r[key]) for r in subset])
                table["all"][f"{key} interval ({name})"] = [low, high]
    table["all"]["add_ms_p50"] = statistics.median(r["add_ms"] for r in rows)
    table["all"]["query_ms_p50"] = statistics.median(r["query_ms"] for r in rows)
    return table


def cases_markdown(table: dict[str, Any], counter: CallCounter) -> str:
    head = (
        "| cases | n | chain completeness@5 | full chains | P@5 | distractor rate "
        "| scoped to 1st agent: completeness | cross-scope discovery | isolation leaks |"
    )
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    chains = sorted(k for k in table if k.startswith("chain="))
    order = ["all", *chains, *sorted(k for k in table if k.startswith("lang="))]
    for name in order:
        t = table[name]
        lines.append(
            f"| {name} | {t['cases']} | {t['completeness']:.3f} | {t['full_chains']:.3f} "
            f"| {t['precision@5']:.3f} | {t['distractor_rate']:.3f} "
            f"| {t['scoped_completeness']:.3f} | {t['cross_scope_discovery']:.3f} "
            f"| {t['leaks']} |"
        )
    total = table["all"]
    lines.append("")
    spans = [
        f"{key.replace('_', ' ').replace(' interval', '')} [{value[0]:.3f}, {value[1]:.3f}]"
        for key, value in total.items()
        if " interval (" in key
    ]
    lines.append("95% bootstrap intervals over the cases: " + "; ".join(spans) + ".")
    lines.append("")
    lines.append(
        f"LLM calls: {counter.llm_calls}, outgoing connections: {counter.connections}; "
        f"p50 per case: adding the facts {total['add_ms_p50']:.0f} ms, "
        f"one query {total['query_ms_p50']:.0f} ms."
    )
    return "\n".join(lines)


# ---- contradictions --------------------------------------------------------------------


def retired_end_to_end(new: str, old: str, changes: bool = True) -> bool:
    """Add ``old`` then ``new`` to a fresh graph: did the memory retire ``old``?"""
    graph = DocumentGraph(conflict_resolver=RuleConflictResolver(changes=changes))
    graph.add_text(old)
    graph.add_text(new)
    return any(line["old"]["content"].strip() == old.strip() for line in graph.conflicts())


def run_mixed(path: Path, changes: bool) -> dict[str, Any]:
    """Every fact of a set in one memory, the old ones first, then the new ones, in file
    order: the labelled updates retired, and the other retirements (facts no labelled
    update touches, or a pair's fact retired by another pair's)."""
    pairs = read_pairs(path)
    graph = DocumentGraph(conflict_resolver=RuleConflictResolver(changes=changes))
    for key in ("old", "new"):
        graph.add_texts([pair[key] for pair in pairs])
    labelled = {(p["old"].strip(), p["new"].strip()) for p in pairs if p["label"]}
    retired = [
        (c["old"]["content"].strip(), c["new"]["content"].strip()) for c in graph.conflicts()
    ]
    others = [pair for pair in retired if pair not in labelled]
    bound = (len(retired) - len(others)) / len(retired) if retired else 1.0
    return {
        "precision_bound": bound,
        "facts": 2 * len(pairs),
        "updates": len(labelled),
        "labelled_retired": len(retired) - len(others),
        "other_retired": len(others),
        "others": others,
    }


def run_pooled(embed: TextEmbedder | None, mode: str, dedup: float | None) -> list[dict[str, Any]]:
    """Every case's facts in one memory (each scope named after its case), each question
    asked unscoped: the other cases' facts are the distractors, so the top 5 is no longer
    nearly all there is."""
    cases = read_jsonl(CASES)
    graph = DocumentGraph(embed=embed, dedup_threshold=dedup)
    for case in cases:
        for scope, facts in case["scopes"].items():
            graph.add_texts(facts, scopes=[f"{case['id']}-{scope}"])
    rows = []
    for case in cases:
        top = graph.query(case["question"], top_k=TOP_K, search_mode=mode)
        gold = case["gold_chain"]
        found = sum(f in top for f in gold)
        rows.append(
            {"id": case["id"], "lang": case["lang"], "recall": found / len(gold), "top": top}
        )
    return rows


def pooled_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| cases | n | recall@5 [95% interval] |", "|---|---:|---:|"]
    groups = {"all": rows, "not English": [r for r in rows if r["lang"] != "en"]}
    for lang in sorted({r["lang"] for r in rows}):
        groups[f"lang={lang}"] = [r for r in rows if r["lang"] == lang]
    for name, subset in groups.items():
        values = [r["recall"] for r in subset]
        low, high = interval(values)
        lines.append(
            f"| {name} | {len(subset)} | {statistics.fmean(values):.3f} [{low:.3f}, {high:.3f}] |"
        )
    return "\n".join(lines)


def run_contradictions(
    end_to_end: bool, path: Path = CONTRADICTIONS, changes: bool = True
) -> dict[str, Any]:
    resolver = RuleConflictResolver(changes=changes)
    rows = []
    for pair in read_pairs(path):
        verdict = resolver.explain(pair["new"], pair["old"])
        row = {**pair, "predicted": verdict is not None}
        row["rule"] = verdict.rule if verdict else ""
        if end_to_end:
            row["retired"] = retired_end_to_end(pair["new"], pair["old"], changes)
        rows.append(row)
    out: dict[str, Any] = {"pairs": len(rows), "rows": rows}
    keys = ["predicted", "retired"] if end_to_end else ["predicted"]
    for key in keys:
        tp = sum(r[key] and r["label"] for r in rows)
        fp = sum(r[key] and not r["label"] for r in rows)
        fn = sum(not r[key] and r["label"] for r in rows)
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        out[key] = {"tp": tp, "fp": fp, "fn": fn, "precision": precision, "recall": recall}
        out[key]["f1"] = f1
    out["updates"] = sum(r["label"] for r in rows)
    return out


def contradictions_markdown(result: dict[str, Any]) -> str:
    lines = [
        "| resolver | pairs (updates / complements) | precision | recall | F1 | FP | FN |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    split = f"{result['pairs']} ({result['updates']} / {result['pairs'] - result['updates']})"
    names = {"predicted": "RuleConflictResolver", "retired": "memory end to end (add_text)"}
    for key, name in names.items():
        if key in result:
            m = result[key]
            lines.append(
                f"| {name} | {split} | {m['precision']:.3f} | {m['recall']:.3f} "
                f"| {m['f1']:.3f} | {m['fp']} | {m['fn']} |"
            )
    return "\n".join(lines)


# ---- main ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--part", choices=["all", "cases", "pooled", "contradictions"], default="all"
    )
    parser.add_argument("--end-to-end", action="store_true", help="contradictions via add_text")
    parser.add_argument(
        "--pairs",
        type=Path,
        default=CONTRADICTIONS,
        help="the contradiction pairs (default data/contradictions.jsonl; the blind sets are "
        "data/contradictions_blind_dev.jsonl and data/contradictions_blind_test.jsonl)",
    )
    parser.add_argument(
        "--changes",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the change rules (on by default since issue 19; --no-changes for the rules "
        "before them)",
    )
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="also every fact of --pairs in one memory: labelled and other retirements",
    )
    parser.add_argument("--json", type=Path, help="write every figure and row here")
    parser.add_argument("--markdown", type=Path, help="write the tables here")
    parser.add_argument("-v", "--verbose", action="store_true", help="list misses")
    parser.add_argument(
        "--embedder", choices=EMBEDDER_NAMES, default="none", help="the cases' embedder"
    )
    parser.add_argument(
        "--mode",
        choices=["keyword", "embedding", "hybrid"],
        default="keyword",
        help="search_mode of the cases' queries (embedding and hybrid need --embedder)",
    )
    parser.add_argument(
        "--dedup",
        default="0.9",
        help="the memory's near-duplicate threshold (dedup_threshold; 'none': off)",
    )
    args = parser.parse_args(argv)
    dedup = None if args.dedup == "none" else float(args.dedup)

    report: dict[str, Any] = {}
    markdown: list[str] = []
    failed = False
    if args.part in ("all", "cases"):
        counter = CallCounter()
        with counter.installed():
            embed = embedder_named(args.embedder)
            rows = [run_case(case, embed, args.mode, dedup) for case in read_jsonl(CASES)]
        table = summarise_cases(rows)
        report["cases"] = {"summary": table, "rows": rows, "llm_calls": counter.llm_calls}
        report["cases"]["connections"] = counter.connections
        title = f"### Multi-hop memory cases (embedder {args.embedder}, {args.mode} mode"
        title += f", dedup {args.dedup})"
        markdown += [title, "", cases_markdown(table, counter), ""]
        if args.verbose:
            for row in rows:
                if row["missed"]:
                    print(f"{row['id']} missed {row['missed']}\n    top: {row['top']}")
        failed |= counter.llm_calls > 0 or counter.connections > 0 or table["all"]["leaks"] > 0
        failed |= table["all"]["completeness"] < TARGET_COMPLETENESS
    if args.part == "pooled":
        pooled = run_pooled(embedder_named(args.embedder), args.mode, dedup)
        report["pooled"] = pooled
        title = f"### Memory cases in one memory (embedder {args.embedder}, {args.mode} mode"
        markdown += [title + f", dedup {args.dedup})", "", pooled_markdown(pooled), ""]
    if args.part in ("all", "contradictions"):
        result = run_contradictions(args.end_to_end, args.pairs, args.changes)
        report["contradictions"] = result
        markdown += ["### Contradiction resolver", "", contradictions_markdown(result), ""]
        if args.mixed:
            mixed = run_mixed(args.pairs, args.changes)
            report["mixed"] = mixed
            markdown += [
                f"One memory of all {mixed['facts']} facts: {mixed['labelled_retired']} of"
                f" {mixed['updates']} labelled updates retired, {mixed['other_retired']}"
                " other retirements (precision at least"
                f" {mixed['precision_bound']:.3f}:"
                " some other retirements are real updates across pairs)",
                "",
            ]
            if args.verbose:
                for old, new in mixed["others"]:
                    print(f"other retirement: {new!r} retired {old!r}")
        if args.verbose:
            for row in result["rows"]:
                if row["predicted"] != row["label"]:
                    kind = "missed" if row["label"] else "false alarm"
                    print(f"{kind} [{row['kind']}] {row['new']!r} vs {row['old']!r}")
        failed |= result["predicted"]["precision"] < TARGET_PRECISION

    text = "\n".join(markdown)
    print(text)
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    if failed:
        print("below target (see above)", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
