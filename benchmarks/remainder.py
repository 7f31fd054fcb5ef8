"""A synthetic remainder for a benchmark at a size beyond the real corpus: markdown files
made of the real corpus's own sentences and headings, recombined.

    .venv/bin/python benchmarks/remainder.py DOCS_FOLDER OUT_FOLDER --sections 900000

The cpp-docs corpus holds about 100k sections; issue 14 measures PostgreSQL next to SQLite
at 1M. Pseudo-words (``benchmarks/corpus.py``) would make a corpus unlike the real one
(no names, no code words, few entities), so the remainder reuses the real text: every
sentence and heading of the markdown under DOCS_FOLDER is read once, then each new file
(seeded, deterministic) takes a title of three real heading words and a number, and about
ten sections, each a real heading and two to five real sentences drawn at random. Term
statistics, entity names and sentence lengths are the corpus's; which sentences share a
section is not (so the walk's co-occurrences are noisier than real ones). Files go to
OUT_FOLDER/remainder/NNN/ (1,000 a folder); the real files are not copied.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+#-]{2,}")
SECTIONS_PER_FILE = 10
FILES_PER_FOLDER = 1000


def read_corpus(folder: Path) -> tuple[list[str], list[str]]:
    """Every prose sentence (outside code fences and front matter) and every heading of the
    markdown files under ``folder``, in sorted path order."""
    sentences: list[str] = []
    headings: list[str] = []
    for path in sorted(folder.rglob("*.md")):
        fenced = front = False
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        paragraph: list[str] = []
        for k, line in enumerate(lines):
            if k == 0 and line.strip() == "---":
                front = True
                continue
            if front:
                front = line.strip() != "---"
                continue
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            found = HEADING.match(line)
            if found:
                headings.append(found.group(1))
            if found or not line.strip():
                text = " ".join(paragraph).strip()
                paragraph = []
                sentences += [s for s in SENTENCE_END.split(text) if len(s) >= 20]
                continue
            if not line.lstrip().startswith(("|", ">", "<", "!", "[")):
                paragraph.append(line.strip())
    return sentences, headings


def write_remainder(
    sentences: list[str], headings: list[str], out: Path, sections: int, seed: int
) -> int:
    """Write files holding ``sections`` sections in all; how many files."""
    rng = random.Random(seed)
    words = sorted({w for h in headings for w in WORD.findall(h)})
    files = -(-sections // SECTIONS_PER_FILE)
    left = sections
    for n in range(files):
        folder = out / "remainder" / f"{n // FILES_PER_FOLDER:03d}"
        if n % FILES_PER_FOLDER == 0:
            folder.mkdir(parents=True, exist_ok=True)
        title = " ".join(rng.sample(words, 3)).title() + f" {n}"
        parts = [f"# {title}\n", " ".join(rng.sample(sentences, 2)) + "\n"]
        for _ in range(min(SECTIONS_PER_FILE, left)):
            parts.append(f"## {rng.choice(headings)}\n")
            parts.append(" ".join(rng.sample(sentences, rng.randint(2, 5))) + "\n")
        left -= SECTIONS_PER_FILE
        (folder / f"r{n:06d}.md").write_text("\n".join(parts), encoding="utf-8")
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("docs", type=Path, help="the folder of real markdown to draw from")
    parser.add_argument("out", type=Path, help="where to write remainder/")
    parser.add_argument("--sections", type=int, default=900_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    sentences, headings = read_corpus(args.docs)
    files = write_remainder(sentences, headings, args.out, args.sections, args.seed)
    print(f"{files} files, {args.sections} sections from {len(sentences)} sentences")


if __name__ == "__main__":
    main()
