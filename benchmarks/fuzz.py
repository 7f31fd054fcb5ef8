"""Hostile input at every door: parsers and the verbs that take text, fuzzed by hypothesis.

    .venv/bin/python benchmarks/fuzz.py                    # 100,000 cases over 9 targets
    .venv/bin/python benchmarks/fuzz.py --examples 2000    # per target, a quicker pass

Each target takes generated input (markdown-like soup with headings, fences, tables, links,
front matter and HTML; plain text; JSON Lines, good and broken; queries of every shape)
and must either succeed or raise one of groundgraph's own errors (``GroundgraphError``).
Any other exception stops the target, and hypothesis prints the smallest input that
raises it. Every case is timed, by the clock and by this process's CPU time (which other
jobs on the machine do not inflate): the table gives the slowest case per target, which
must stay under 2 s of CPU for inputs under 100 KB. The verbs run against one small graph built once
(documents and memory facts), so a case costs what the verb costs.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import time
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundgraph import DocumentGraph, GroundgraphError
from groundgraph.ingest import parse_jsonl, parse_markdown, parse_plaintext
from groundgraph.ingest.front_matter import read_front_matter

SLOW_SECONDS = 2.0
#: Peak memory of a whole run: the one small graph grows by every add_document case.
RSS_CAP_MIB = 1024
PIECES = [
    "# ", "## ", "### ", "\n", "\n\n", "```", "```python\n", "~~~", "    ", "| a | b |\n",
    "|---|---|\n", "[link](x.md)", "[[wiki]]", "![img](i.png)", "<div>", "</div>", "<!--",
    "-->", "---\n", "title: T\n", "tags: [a, b]\n", "* ", "1. ", "> ", "`code`", "**b**",
    "Ann Lee", "Visual Studio", "because", "therefore", "not", "$10", "3.5 GB", "2024-01-01",
    "\t", "\r\n", "\u00a0", "é", "日本語", "🙂", "\u200b", "\\", "#", "=", "===\n", "-\n",
]  # fmt: skip
soup = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=30)), max_size=60).map("".join)
scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
jsonl_line = st.one_of(
    st.builds(
        lambda i, t, extra: json.dumps({"id": i, "text": t, **extra}),
        st.text(max_size=12),
        soup,
        st.dictionaries(st.sampled_from(["title", "source", "meta"]), json_values, max_size=2),
    ),
    json_values.map(json.dumps),
    st.text(max_size=60),
)
jsonl = st.lists(jsonl_line, max_size=8).map("\n".join)
query = st.one_of(soup, st.text(max_size=200), st.sampled_from(["", " ", "the", "*", "NOT"]))


def _graph() -> DocumentGraph:
    graph = DocumentGraph()
    graph.add_document(
        "# Boiler\n\n## Service\n\nAnn Lee services the boiler in October because the "
        "pump failed.\n\n## Pump\n\nThe pump feeds the radiators. See [Service](#service).",
        "Boiler",
        "boiler",
    )
    graph.add_document("# Garden\n\nThe valve waters the garden at 6 am.", "Garden", "garden")
    graph.add_texts(
        ["The pump failed because the fuse blew.", "The fuse blew because of a surge."],
        scopes="ops",
    )
    return graph


def targets(graph: DocumentGraph) -> dict[str, tuple[Any, Callable[[Any], object]]]:
    return {
        "parse_markdown": (soup, lambda t: parse_markdown(t, "T")),
        "parse_plaintext": (soup, lambda t: parse_plaintext(t, "T")),
        "parse_jsonl": (jsonl, parse_jsonl),
        "front matter": (soup, read_front_matter),
        "add_document": (soup, lambda t: graph.add_document(t, "Fuzz", "fuzz")),
        "search / ask / retrieve": (
            query,
            lambda q: (graph.search(q), graph.ask(q), graph.retrieve(q)),
        ),
        "bridge / node / outline": (
            query,
            lambda q: (graph.bridge(q, "boiler"), _maybe(graph.node, q), _maybe(graph.outline, q)),
        ),
        "ground / support": (
            query,
            lambda q: (graph.ground(q), graph.support(q, ["boiler#1"])),
        ),
        "memory reads": (
            query,
            lambda q: (
                graph.query(q, scopes="ops"),
                graph.discover(q),
                graph.trace_effects(q),
                graph.what_if(q),
                graph.causal_chain(q, "surge"),
            ),
        ),
    }


def _maybe(verb: Callable[[str], object], arg: str) -> object:
    try:
        return verb(arg)
    except GroundgraphError:
        return None


def fuzz(name: str, strategy: Any, call: Callable[[Any], object], examples: int) -> dict[str, Any]:
    slowest = [0.0, ""]
    cpu = [0.0]
    cases = [0]

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def run(value: Any) -> None:
        cases[0] += 1
        start, start_cpu = time.perf_counter(), time.process_time()
        with contextlib.suppress(GroundgraphError):
            call(value)
        seconds = time.perf_counter() - start
        cpu[0] = max(cpu[0], time.process_time() - start_cpu)
        if seconds > slowest[0]:
            slowest[0], slowest[1] = seconds, repr(value)[:80]

    error = ""
    try:
        run()
    except Exception as exc:  # the smallest failing input is printed by hypothesis
        error = f"{type(exc).__name__}: {exc}"[:300]
    return {"target": name, "cases": cases[0], "slowest": slowest[0], "cpu": cpu[0],
            "input": slowest[1], "error": error}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=11_200, help="cases per target")
    args = parser.parse_args()
    graph = _graph()
    rows = [fuzz(name, s, c, args.examples) for name, (s, c) in targets(graph).items()]
    print("| target | cases | untyped exceptions | slowest case (s) | most CPU in a case (s) |")
    print("|---|---:|---|---:|---:|")
    for r in rows:
        print(
            f"| {r['target']} | {r['cases']:,} | {r['error'] or 0} | {r['slowest']:.3f} "
            f"| {r['cpu']:.3f} |"
        )
    total = sum(r["cases"] for r in rows)
    slow = [r for r in rows if r["cpu"] > SLOW_SECONDS]
    print(f"\n{total:,} cases; {sum(bool(r['error']) for r in rows)} targets with an untyped "
          f"exception; {len(slow)} with a case over {SLOW_SECONDS} s")  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"peak RSS of the run: {peak:,.0f} MiB (cap {RSS_CAP_MIB:,} MiB)")


if __name__ == "__main__":
    main()
