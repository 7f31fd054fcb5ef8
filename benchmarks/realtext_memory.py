"""Agent memory on real sentences: facts added per second and ``query`` latency.

    .venv/bin/python benchmarks/realtext_memory.py                 # 10,000 facts
    .venv/bin/python benchmarks/realtext_memory.py --facts 2000    # a quicker run

The facts are sentences of the Microsoft C++ docs (markdown, CC BY 4.0, from ``--tar``):
files in sorted path order, front matter, code fences, tables and headings left out, split
with groundgraph's own sentence splitter, kept when they hold 6 to 40 words and no markup,
each sentence once. A fresh process adds them with ``add_texts`` to a new SQLite file (the
default memory: entities, causal cues, conflict rules and near-duplicate checks on) in
batches of ``--batch``, then times ``query`` for questions made of 2-4 words of random
facts (frequent words kept) and for the facts' own subjects (their first three words).
Prints a markdown table; raw figures go to stderr as JSON. ``--dump FILE`` also writes
each fact's status and the conflict ledger (rule, detail, both fact ids) as JSON, to
compare two codes' answers (run each with its own ``PYTHONPATH``, then ``cmp`` the files).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from speed import THREADS_ENV, machine, peak_rss_mb, percentiles, timed_each

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TAR = ROOT.parent / "shared" / "data" / "cpp-docs" / "cpp-docs-md.tar.gz"
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]+")
MARKUP = re.compile(r"[`|<>\[\]{}*#=\\]|::|->|\(\)")
TARGETS = {"add_per_s": 2000.0, "query_p50_ms": 10.0}


def markdown_texts(path: Path) -> Iterator[str]:
    """The markdown files of ``path`` (a ``.tar.gz`` of them, or a folder), in sorted path
    order, read only."""
    if path.is_dir():
        for file in sorted(path.rglob("*.md")):
            yield file.read_text(encoding="utf-8", errors="replace")
        return
    with tarfile.open(path) as tar:
        members = sorted(
            (m for m in tar.getmembers() if m.isfile() and m.name.endswith(".md")),
            key=lambda m: m.name,
        )
        for member in members:
            handle = tar.extractfile(member)
            if handle is not None:
                yield handle.read().decode("utf-8", "replace")


def sentences(path: Path, count: int) -> list[str]:
    """``count`` distinct prose sentences of the docs (``markdown_texts``), in file order."""
    from groundgraph.ingest.front_matter import blank_front_matter, read_front_matter
    from groundgraph.text import sentence_spans

    seen: dict[str, None] = {}
    for text in markdown_texts(path):
        front = read_front_matter(text)
        if front is not None:
            text = blank_front_matter(text, front)
        for line in _prose(text):
            for start, end in sentence_spans(line):
                sentence = line[start:end].strip()
                if 6 <= len(sentence.split()) <= 40 and not MARKUP.search(sentence):
                    seen.setdefault(sentence)
        if len(seen) >= count:
            break
    return list(seen)[:count]


def _prose(text: str) -> Iterator[str]:
    """The paragraphs of a markdown text outside code fences, tables and headings."""
    fenced = False
    paragraph: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not stripped or stripped.startswith(("#", "|", ">", "-", "*", ":::")):
            if paragraph:
                yield " ".join(paragraph)
                paragraph = []
            continue
        paragraph.append(stripped)
    if paragraph:
        yield " ".join(paragraph)


def make_queries(facts: list[str], count: int, seed: int) -> dict[str, list[str]]:
    from groundgraph.text import Analyzer

    analyzer = Analyzer("english")
    rng = random.Random(seed)
    words_of = [
        [w.lower() for w in WORD.findall(f) if analyzer.terms(w)] for f in rng.sample(facts, count)
    ]
    text = []
    for words in words_of:
        distinct = list(dict.fromkeys(rng.sample(words, len(words))))
        if len(distinct) >= 2:
            text.append(" ".join(distinct[: rng.randint(2, 4)]))
    subjects = [" ".join(f.split()[:3]) for f in rng.sample(facts, count // 2)]
    return {"words": text, "subjects": subjects}


def run_memory(
    facts_path: Path, db: Path, batch: int, queries: int, seed: int, dump: Path | None = None
) -> dict[str, Any]:
    """In this fresh process: add the facts, then time queries (``dump``: write what the
    adds answered and the ledger there)."""
    from groundgraph import DocumentGraph

    facts = json.loads(facts_path.read_text(encoding="utf-8"))
    graph = DocumentGraph(db)
    start = time.perf_counter()
    statuses: dict[str, int] = {}
    answered: list[list[Any]] = []
    for i in range(0, len(facts), batch):
        for fact in graph.add_texts(facts[i : i + batch]):
            statuses[fact.status] = statuses.get(fact.status, 0) + 1
            answered.append([fact.fact_id, fact.status, list(fact.superseded)])
    added = time.perf_counter() - start
    if dump is not None:
        ledger = [
            [c.rule, c.detail, c.resolver, c.new.fact_id, c.old.fact_id] for c in graph.conflicts()
        ]
        dump.write_text(json.dumps({"facts": answered, "conflicts": ledger}, indent=0))
    asked = make_queries(facts, queries, seed)
    out: dict[str, Any] = {
        "facts": len(facts),
        "add_s": added,
        "add_per_s": len(facts) / added,
        "statuses": statuses,
    }
    for q in asked["words"][:20]:
        graph.query(q)
    for kind, qs in asked.items():
        times, results = timed_each(qs, graph.query)
        out[f"query_{kind}_ms"] = percentiles(times)
        out[f"empty_{kind}"] = sum(not r for r in results)
    out["peak_rss_mb"] = peak_rss_mb()
    graph.close()
    out["store_mb"] = db.stat().st_size / 1e6
    return out


def report(result: dict[str, Any], command: str, info: dict[str, str]) -> str:
    words, subjects = result["query_words_ms"], result["query_subjects_ms"]
    rate, p50 = result["add_per_s"], words["p50"]
    add_ok = "✓" if rate >= TARGETS["add_per_s"] else "✗"
    query_ok = "✓" if p50 <= TARGETS["query_p50_ms"] else "✗"
    return "\n".join(
        [
            f"Agent memory on {result['facts']:,} real sentences (cpp-docs), `{command}`; "
            f"{info['nproc']} cores, code {info['code']}, {info['platform']}, load {info['load']}.",
            "",
            "| measure | groundgraph | target |",
            "|---|---:|---:|",
            f"| `add_texts` facts/s | {rate:,.0f} | ≥ {TARGETS['add_per_s']:,.0f} {add_ok} |",
            f"| `query` p50 / p95, words of a fact (ms) | {p50:.1f} / {words['p95']:.1f} | "
            f"p50 ≤ {TARGETS['query_p50_ms']:.0f} {query_ok} |",
            f"| `query` p50 / p95, a fact's first words (ms) | {subjects['p50']:.1f} / "
            f"{subjects['p95']:.1f} | |",
            f"| statuses | {result['statuses']} | |",
            f"| peak RSS (MB) / store (MB) | {result['peak_rss_mb']:.0f} / "
            f"{result['store_mb']:.1f} | |",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=10_000)
    parser.add_argument("--batch", type=int, default=500, help="facts per add_texts call")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tar", type=Path, default=DEFAULT_TAR)
    parser.add_argument("--dump", type=Path, help="write statuses and the ledger here (JSON)")
    parser.add_argument("--worker", nargs=2, metavar=("FACTS", "DB"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        facts_path, db = map(Path, args.worker)
        result = run_memory(facts_path, db, args.batch, args.queries, args.seed, args.dump)
        print(json.dumps(result))
        return
    info = machine()
    with tempfile.TemporaryDirectory() as tmp:
        facts = sentences(args.tar, args.facts)
        facts_path = Path(tmp) / "facts.json"
        facts_path.write_text(json.dumps(facts), encoding="utf-8")
        command = [sys.executable, __file__, "--worker", str(facts_path), str(Path(tmp) / "m.db")]
        command += ["--batch", str(args.batch), "--queries", str(args.queries)]
        command += ["--seed", str(args.seed)]
        if args.dump is not None:
            command += ["--dump", str(args.dump.resolve())]
        env = os.environ | THREADS_ENV
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(result), file=sys.stderr)
    hidden = ("--tar", "--dump")  # paths of this machine
    argv = sys.argv[1:]
    shown = " ".join(
        a
        for i, a in enumerate(argv)
        if not a.startswith(hidden) and not (i and argv[i - 1] in hidden)
    )
    print(report(result, f"benchmarks/realtext_memory.py {shown}".strip(), info))


if __name__ == "__main__":
    main()
