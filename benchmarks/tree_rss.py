"""Peak memory of a command and every process it starts, summed at each moment.

    .venv/bin/python benchmarks/tree_rss.py -- groundgraph --db all.db index docs/

``/usr/bin/time`` and ``ru_maxrss`` give the peak of the largest process only; an index
run that scores semantic links in a worker beside the writer needs both at once. This
samples the resident set size (``VmRSS`` in ``/proc``, Linux only) of the command's whole
process tree every ``--every`` seconds and prints the peak of the sum and the peak of any
one process (pages two processes share are counted in each, so the sum is an upper bound).
"""

from __future__ import annotations

import argparse
import subprocess
import time
from pathlib import Path


def tree(pid: int) -> list[int]:
    """``pid`` and its descendants, as ``/proc`` lists them now."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return [pid, *(p for child in children for p in tree(int(child)))]


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--every", type=float, default=0.1, help="seconds between samples")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("name the command to run after --")
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peak_sum = peak_one = 0
    while process.poll() is None:
        sizes = [rss_kib(pid) for pid in tree(process.pid)]
        peak_sum, peak_one = max(peak_sum, sum(sizes)), max(peak_one, *sizes, 0)
        time.sleep(args.every)
    wall = time.perf_counter() - start
    print(
        f"exit {process.returncode}, wall {wall:.1f} s, peak RSS summed over the process tree"
        f" {peak_sum / 1024:.0f} MiB, of one process {peak_one / 1024:.0f} MiB"
    )


if __name__ == "__main__":
    main()
