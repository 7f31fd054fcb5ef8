"""What Python's garbage collector costs where groundgraph makes many objects.

    .venv/bin/python benchmarks/collector_cost.py --files DOCS/   # a worker's answers
    .venv/bin/python benchmarks/collector_cost.py --db X.db       # a searching process

``--files``: every ``--step``-th markdown file of the folder (up to ``--count``) prepared
as an indexing worker prepares them (titles told, so with their evidence layer), pickled
as one answer, then unpickled as the writing process does, best of five: with Python's
default thresholds, with ``graph.collector``'s bulk thresholds, and with the collector
off. ``--db``: a process that opened the store and searched once, then ``--searches``
more searches of a fixed list, with the time the collector spent per generation
(``gc.callbacks``) and the objects it tracks. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import time
from pathlib import Path

from groundgraph.graph.collector import BULK_THRESHOLDS

QUERIES = [
    "lambda capture",
    "virtual destructor",
    "template specialization",
    "linker error LNK2019",
    "precompiled header",
    "const member function",
    "move constructor",
    "exception handling",
    "std::vector reserve",
    "compiler warning C4996",
]
DEFAULT_THRESHOLDS = (700, 10, 10)


def unpickle_costs(folder: Path, step: int, count: int) -> None:
    from groundgraph.graph.prepare import Preparer, PrepareSettings, TitleSnapshot
    from groundgraph.ingest.folder import plan_folder

    files = plan_folder([folder]).files[::step][:count]
    preparer = Preparer(PrepareSettings("english", 2, 2000, True, True), TitleSnapshot((0, 0), ()))
    answer = pickle.dumps([preparer.prepare_file(f) for f in files], pickle.HIGHEST_PROTOCOL)
    print(f"{len(files)} files, one answer of {len(answer) / 1e6:.1f} MB\n")
    print("| collector | unpickle, best of 5 (s) |")
    print("|---|---:|")
    saved = gc.get_threshold()
    for name, thresholds in (("default", DEFAULT_THRESHOLDS), ("bulk", BULK_THRESHOLDS)):
        gc.set_threshold(*thresholds)
        print(f"| {name} {thresholds} | {_best(answer):.3f} |")
    gc.set_threshold(*saved)
    gc.disable()
    print(f"| off | {_best(answer):.3f} |")
    gc.enable()


def _best(answer: bytes) -> float:
    times = []
    for _ in range(5):
        start = time.perf_counter()
        pickle.loads(answer)
        times.append(time.perf_counter() - start)
    return min(times)


def search_costs(db: str, searches: int) -> None:
    from groundgraph import DocumentGraph

    graph = DocumentGraph(db)
    graph.search("warm up")
    spent = [0.0, 0.0, 0.0]
    runs = [0, 0, 0]
    started = [0.0]

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        else:
            spent[info["generation"]] += time.perf_counter() - started[0]
            runs[info["generation"]] += 1

    tracked = len(gc.get_objects())
    gc.callbacks.append(watch)
    start = time.perf_counter()
    for i in range(searches):
        graph.search(QUERIES[i % len(QUERIES)] + (" build" if i % 2 else ""))
    wall = time.perf_counter() - start
    gc.callbacks.remove(watch)
    graph.close()
    print(f"{searches} searches, {wall:.2f} s; the process tracks {tracked:,} objects\n")
    print("| generation | collections | time (ms) |")
    print("|---|---:|---:|")
    for generation in range(3):
        print(f"| {generation} | {runs[generation]} | {spent[generation] * 1e3:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=Path, help="a folder of markdown files")
    parser.add_argument("--step", type=int, default=20)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--db", help="a store to search")
    parser.add_argument("--searches", type=int, default=600)
    args = parser.parse_args()
    if args.files is None and args.db is None:
        parser.error("give --files, --db or both")
    if args.files is not None:
        unpickle_costs(args.files, args.step, args.count)
    if args.db is not None:
        search_costs(args.db, args.searches)


if __name__ == "__main__":
    main()
