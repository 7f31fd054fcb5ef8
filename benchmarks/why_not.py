"""why_not on the multi-hop samples: every gold passage missing from the top 5, diagnosed.

    .venv/bin/python benchmarks/why_not.py    # musique-100, musique-train, hotpotqa, 2wiki
    .venv/bin/python benchmarks/why_not.py --sets musique-100 --questions 50

Each set is indexed into a fresh in-memory graph, one plain-text document per passage (as
``benchmarks/quality.py`` does). For every question, the search's top ``k`` (5) is taken;
every gold passage missing from it gets a ``why_not``. The script counts the diagnoses by
stage (the target must get one for 100 % of the pairs), and reruns ``search`` with every
counterfactual the diagnoses name to confirm the rank each states. Data comes from
``--data`` (default ``../shared/data`` next to the repository).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from groundgraph import DocumentGraph
from groundgraph.eval.datasets import Dataset, add_passages, load_multihop, load_musique
from groundgraph.model.why_not import STAGES

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data"


def loaders(data: Path) -> dict[str, Callable[[], Dataset]]:
    mq, hp, tw = data / "musique-kag", data / "hotpotqa-kag", data / "2wiki-hipporag"
    return {
        "musique-100": lambda: load_musique(mq / "musique_qa_100.json", name="musique-100"),
        "musique-train": lambda: load_multihop(
            mq / "qa_train.json", mq / "train_corpus.json", name="musique-train"
        ),
        "hotpotqa": lambda: load_multihop(
            hp / "qa_train.json", hp / "train_corpus.json", joiner="", name="hotpotqa"
        ),
        "2wiki": lambda: load_multihop(
            tw / "kag_2wiki_qa_sub.json",
            tw / "2wikimultihopqa_corpus.json",
            joiner=" ",
            name="2wiki",
        ),
    }


def doc_rank(hits: list, doc_id: str) -> int | None:
    return next((i for i, h in enumerate(hits, 1) if h.doc_id == doc_id), None)


def run_set(name: str, dataset: Dataset, k: int, questions: int | None) -> dict:
    graph = DocumentGraph()
    started = time.perf_counter()
    add_passages(graph, dataset.passages)
    indexed = time.perf_counter() - started
    stages: Counter[str] = Counter()
    limits: Counter[str] = Counter()
    changes: Counter[str] = Counter()
    pairs = diagnosed = confirmed = with_change = 0
    spent = 0.0
    for question in dataset.questions[:questions]:
        hits = graph.search(question.question, max_results=k)
        shown = {h.doc_id for h in hits}
        for gold in question.relevant:
            if gold in shown:
                continue
            pairs += 1
            t0 = time.perf_counter()
            result = graph.why_not(question.question, gold, max_results=k)
            spent += time.perf_counter() - t0
            if result.stage in STAGES and result.stage != "found" and result.reason:
                diagnosed += 1
            stages[result.stage] += 1
            if result.walk is not None:
                limits[result.walk.limit] += 1
            cf = result.counterfactual
            if cf is not None and cf.parameter is not None:
                with_change += 1
                changes[cf.parameter] += 1
                options = {"max_results": k, cf.parameter: cf.value}
                rerun = graph.search(question.question, **options)
                confirmed += doc_rank(rerun, gold) == cf.rank
    return {
        "set": name,
        "passages": len(dataset.passages),
        "questions": len(dataset.questions[:questions]),
        "pairs": pairs,
        "diagnosed": diagnosed,
        "stages": stages,
        "limits": limits,
        "changes": changes,
        "with_change": with_change,
        "confirmed": confirmed,
        "index_s": indexed,
        "why_not_ms": 1000 * spent / max(pairs, 1),
    }


def report(rows: list[dict], k: int) -> str:
    lines = [
        f"| set | passages | questions | gold missing from top {k} | diagnosed | "
        + " | ".join(s for s in STAGES if s != "found")
        + " | with a counterfactual | confirmed by rerun | ms per why_not |",
        "|---" * (8 + len(STAGES) - 1) + "|",
    ]
    for r in rows:
        pct = f"{100 * r['diagnosed'] / r['pairs']:.0f} %" if r["pairs"] else "none missing"
        cells = [str(r["stages"].get(s, 0)) for s in STAGES if s != "found"]
        conf = f"{r['confirmed']}/{r['with_change']}"
        lines.append(
            f"| {r['set']} | {r['passages']:,} | {r['questions']} | {r['pairs']} | "
            f"{r['diagnosed']} ({pct}) | "
            + " | ".join(cells)
            + f" | {r['with_change']} | {conf} | {r['why_not_ms']:.0f} |"
        )
    pairs = sum(r["pairs"] for r in rows)
    diagnosed = sum(r["diagnosed"] for r in rows)
    changes = sum(r["with_change"] for r in rows)
    confirmed = sum(r["confirmed"] for r in rows)
    lines.append(
        f"\nall sets: {diagnosed}/{pairs} pairs diagnosed, {confirmed}/{changes} counterfactuals "
        "confirmed by rerunning search (target: 100 % of both)"
    )
    for r in rows:
        walk = ", ".join(f"{n} {c}" for n, c in r["limits"].most_common()) or "none"
        change = ", ".join(f"{n} {c}" for n, c in r["changes"].most_common()) or "none"
        lines.append(f"\n{r['set']}: walk limits: {walk}; counterfactual options: {change}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--sets", default="musique-100,musique-train,hotpotqa,2wiki")
    parser.add_argument("--questions", type=int, default=None, help="At most this many per set.")
    parser.add_argument("-k", type=int, default=5)
    args = parser.parse_args(argv)
    known = loaders(args.data)
    rows = []
    for name in args.sets.split(","):
        if name not in known:
            parser.error(f"unknown set {name!r}; choose from {', '.join(known)}")
        dataset = known[name]()
        print(dataset.summary(), file=sys.stderr)
        rows.append(run_set(name, dataset, args.k, args.questions))
        print(f"  done {name}", file=sys.stderr)
    print(report(rows, args.k))
    failed = [r for r in rows if r["diagnosed"] < r["pairs"] or r["confirmed"] < r["with_change"]]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
