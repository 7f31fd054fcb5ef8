"""Large single files: `groundgraph index` time and peak RSS against file size.

    .venv/bin/python benchmarks/large_inputs.py                  # 1, 2 and 4 MB of each shape
    .venv/bin/python benchmarks/large_inputs.py --sizes 1 2 4 8  # other sizes (MB)
    .venv/bin/python benchmarks/large_inputs.py --shape headings

Two shapes of generated markdown, written to a temporary folder: ``prose`` (sections of a
few paragraphs under nested headings, with capitalised names, code spans and links, like
documentation) and ``headings`` (a file that is nothing but headings: 0.9 MB holds 100k of
them). Each file is indexed by the real CLI in a fresh process (``--db`` a new SQLite file);
the table gives wall seconds, peak RSS of the process tree, and seconds and MiB per MB, so
linearity shows as a flat last two columns.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from speed import THREADS_ENV

TEXT = (
    "the compiler option sets a value for each build of the project and the linker reads "
    "it when a module imports a header so that every symbol resolves at run time while "
    "templates expand into code for the types named in a declaration"
)
WORDS = TEXT.split(" ")
NAMES = ["Visual Studio", "MSBuild", "CMake", "Windows SDK", "Clang", "Microsoft", "ATL", "MFC"]


def sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    if rng.random() < 0.5:
        words.insert(rng.randrange(len(words)), rng.choice(NAMES))
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words)), f"`/opt{rng.randrange(500)}`")
    if rng.random() < 0.1:
        words.append(f"[see also](topic-{rng.randrange(1_000_000)}.md)")
    return " ".join(words).capitalize() + "."


def prose(size: int, rng: random.Random) -> str:
    """Markdown of about ``size`` characters: nested sections of a few paragraphs."""
    parts: list[str] = []
    total = n = 0
    while total < size:
        n += 1
        level = 2 + n % 3
        heading = f"{'#' * level} {rng.choice(NAMES)} topic {n}\n\n"
        paragraphs = [
            " ".join(sentence(rng) for _ in range(rng.randint(2, 6)))
            for _ in range(rng.randint(1, 4))
        ]
        part = heading + "\n\n".join(paragraphs) + "\n\n"
        parts.append(part)
        total += len(part)
    return "# Large document\n\n" + "".join(parts)


def headings(size: int, rng: random.Random) -> str:
    """About ``size`` characters of nothing but headings (0.9 MB holds 100k)."""
    lines: list[str] = []
    total = n = 0
    while total < size:
        n += 1
        line = f"{'#' * rng.randint(1, 3)} h{n}\n"
        lines.append(line)
        total += len(line)
    return "".join(lines)


SHAPES = {"prose": prose, "headings": headings}


def run(path: Path, db: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB, the process and its workers) of indexing ``path``."""
    env = {**os.environ, **THREADS_ENV}
    command = [sys.executable, "-m", "groundgraph", "--db", str(db), "index", str(path)]
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"indexing {path} failed")
    return wall, usage.ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1.0, 2.0, 4.0])
    parser.add_argument("--shape", choices=[*SHAPES, "all"], default="all")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    shapes = list(SHAPES) if args.shape == "all" else [args.shape]
    print("| shape | MB | headings | wall (s) | peak RSS (MiB) | s per MB | MiB per MB |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="gg-large-") as tmp:
        for shape in shapes:
            for mb in args.sizes:
                text = SHAPES[shape](int(mb * 1_000_000), random.Random(args.seed))
                path = Path(tmp) / f"{shape}-{mb:g}mb.md"
                path.write_text(text, encoding="utf-8")
                db = Path(tmp) / f"{shape}-{mb:g}mb.db"
                wall, rss = run(path, db)
                count = sum(1 for line in text.splitlines() if line.startswith("#"))
                print(
                    f"| {shape} | {mb:g} | {count:,} | {wall:.1f} | {rss:,.0f} | "
                    f"{wall / mb:.1f} | {rss / mb:,.0f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
