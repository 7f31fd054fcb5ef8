"""Grounded Reasoning's offline experiments, run by its package and by ours, side by side.

    python benchmarks/grounded_reasoning.py [--quick] [--only NAME]

Needs ``grounded-reasoning==0.1.8`` (MIT, numpy only; in the ``bench`` and ``dev``
extras). For each experiment its own module runs with its own protocol and seeds, and the
same protocol runs through groundgraph's relation verifier on the same generated graphs
(built by their generators). Prints one markdown table: the figure the seed's README
states, their package's figure on this machine, and ours, then the run time.

NAME is one of: conformal, mondrian, drift, pruning, self-grounding, paths.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

# This file's name is the package's: import the installed package first, with this folder
# off the path, then put the folder back (last) for the gr_* modules beside this file.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
try:
    import grounded_reasoning  # noqa: F401
except ImportError:
    sys.exit("this benchmark needs Grounded Reasoning's package: pip install 'groundgraph[bench]'")

sys.path.append(str(HERE))

from gr_conformal import Row, drift_rows, redundancy_rows, theorem_k_rows  # noqa: E402
from gr_grounding import path_rows, sgdc_rows  # noqa: E402
from gr_pruning import pruning_rows  # noqa: E402

EXPERIMENTS: dict[str, Callable[[bool], list[Row]]] = {
    "conformal": theorem_k_rows,
    "mondrian": redundancy_rows,
    "drift": drift_rows,
    "pruning": pruning_rows,
    "self-grounding": sgdc_rows,
    "paths": path_rows,
}

HEADER = ["experiment", "metric", "seed README", "grounded-reasoning here", "groundgraph here"]


def markdown_table(rows: list[Row]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|---|---|---:|---:|---:|"]
    for row in rows:
        cells = [row.experiment, row.metric, row.seed, row.theirs, row.ours]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds and trials")
    parser.add_argument("--only", choices=sorted(EXPERIMENTS), help="run one experiment")
    args = parser.parse_args(argv)
    names = [args.only] if args.only else list(EXPERIMENTS)
    wall, cpu = time.perf_counter(), time.process_time()
    rows: list[Row] = []
    for name in names:
        rows.extend(EXPERIMENTS[name](args.quick))
    print(markdown_table(rows))
    print(
        f"\n{'quick run' if args.quick else 'full run'} of {', '.join(names)}: "
        f"{time.perf_counter() - wall:.1f} s wall, {time.process_time() - cpu:.1f} s CPU, "
        f"{os.cpu_count()} cores visible"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
