"""Record what the entity extractor finds today, for ``test_entities_golden`` to hold it to.

    PYTHONPATH=src python tests/ingest/entities/make_golden.py

writes ``golden/entities.jsonl`` (text, titles, options → mentions) and
``golden/parts.jsonl`` (text → what masking, the words, the name runs, the key phrases and
the title matcher make of it). The inputs are a fixed, seeded set of generated texts (the
pieces below, joined by the gaps; random Unicode; random ASCII), the hand cases, and a
seeded sample of the docs' paragraphs as they were when the file was written. Rerun it
when the rules change on purpose, and review the diff: every changed line is a mention
found or lost.
"""

from __future__ import annotations

import json
import random
import string
import sys
from pathlib import Path
from typing import Any

from groundgraph.ingest.entities import (
    Mention,
    extract_entities,
    keyphrases,
    masking,
    names,
    titles,
    words,
)

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
ROOT = HERE.parents[2]
SEED = 11

# Pieces that trip one rule or another: capitals at and after sentence starts, quotes of
# every kind, backticks and fences, addresses, e-mails, tags, links, possessives, initials,
# abbreviations, connectors, shouting, German, CJK, letters whose case is special, and
# repeated lower-case pairs.
PIECES = [
    *("Marie Curie", "Aurora", "aurora", "Aurora's", "Aurora was built", "The Hague"),
    *("the Bank of England", "Bank of the West", "van der Berg", "Los Angeles"),
    *("St. Louis", "Dr. Curie", "J. R. R. Tolkien", "U.S. Army", "AT&T", "Jean-Luc"),
    *("O'Brien", "McDonald", "GraphRack", "NASA", "APIs", "THE BIG NEWS TODAY", "XIV"),
    *("COVID-19", "e.g.", "U.S.", "Der Hund und die Katze", "ist nicht", "the", "is"),
    *("cold", "room", "rooms", "cold room", "cold rooms", "cold  room", "cold\troom"),
    *("quickly done", "glass boxes", "glass box", "snake_case", "_private", "os.path"),
    *("index.json", "camelCase", "ended.Then", "--db", "a--b", "`build_graph`", "` x `"),
    *("```\ncode Here\n```", "~~~\nTilde Fence\n~~~", "`", '"Blue Lantern"', '"is it?"'),
    *("“Blue Lantern”", "„Blaue Laterne“", "«Lanterne Bleue»", "「東京」", "『本』"),
    *("‘Blue’", "'Blue Lantern'", "don't", "'", '"', "https://example.org/A_B"),
    *("HTTP://X.Y/Z", "www.Example.com", "WWW.EXAMPLE.COM", "mailto:Ann@example.org"),
    *("MAİLTO:x", "ann.lee@Example.org", "@", "<b>Bold</b>", "<", "](", "東京タワー"),
    *("[Link Text](https://example.org/(A))", "東京", "İstanbul", "ß", "ǅemal", "K"),
    *("\u0301", "\u00a0", "🚀", "\x00", "|", "#", "…"),
]
GAPS = [" ", " ", " ", ". ", ", ", "\n", "\n\n", "\t", "  ", " & ", ": ", "; ", "? ", "-", ""]
TITLE_PIECES = [
    *("Marie Curie", "Aurora", "Bank of England", "cold room", "the", "NASA", "東京タワー"),
    *("Blue Lantern", "Der Hund", "Los Angeles", "os.path", "St. Louis", "Kelvin"),
    *("İstanbul", "Snake Case", "a", "Glass Boxes", "England", "Curie"),
]
# Letters whose case, width or script is special, for the random Unicode texts.
ODD_LETTERS = "ÀéßİıǅǆΣσςΩКкK東京タワーの本한글ﬁ\u0301\u00a0\u2028🚀\x00"

# The hand cases: titles that overlap or nest, case folding, line breaks inside a title.
OVERLAPPING_TITLES = [
    ("the Bank of England, England", ["Bank of England", "England"]),
    ("Marie Curie Curie Labs", ["Marie Curie", "Curie Labs", "Curie"]),
    ("Los\nAngeles and Los\n\nAngeles", ["Los Angeles"]),
    ("os.path and os path", ["os.path", "os path"]),
    ("the KELVIN scale", ["\u212aelvin"]),
    ("東京タワーの東京", ["東京タワー", "東京"]),
]
REMEMBERED = "Aurora was built. The cold room, the cold rooms. Aurora's Dr. Curie visited Aurora."
DOCS_TITLES = ["Marie Curie", "Aurora", "Bank of England", "Document Graph", "BM25"]


def random_text(rng: random.Random) -> str:
    """One text drawn as the property tests drew them: pieces, Unicode, or ASCII."""
    kind = rng.randrange(3)
    if kind == 0:
        pairs = [(rng.choice(PIECES), rng.choice(GAPS)) for _ in range(rng.randint(0, 30))]
        return "".join(piece + gap for piece, gap in pairs)
    if kind == 1:
        pool = string.printable + ODD_LETTERS
        chars = [
            rng.choice(pool) if rng.random() < 0.7 else _random_char(rng)
            for _ in range(rng.randint(0, 60))
        ]
        return "".join(chars)
    return "".join(
        rng.choice(string.ascii_letters + " .,'-_`\"\n") for _ in range(rng.randint(0, 80))
    )


def _random_char(rng: random.Random) -> str:
    while True:
        point = rng.randrange(0x3100)
        if not 0xD800 <= point <= 0xDFFF:
            return chr(point)


def random_titles(rng: random.Random) -> list[str]:
    ascii_title = string.ascii_letters + " .-'"
    return [
        rng.choice(TITLE_PIECES)
        if rng.random() < 0.6
        else "".join(rng.choice(ascii_title) for _ in range(rng.randint(0, 20)))
        for _ in range(rng.randint(0, 6))
    ]


def mentions(found: list[Mention]) -> list[list[Any]]:
    return [[m.start, m.end, m.text, m.key, m.kind] for m in found]


def extraction(text: str, title_list: list[str], language: str | None, relaxed: bool) -> Any:
    found = extract_entities(text, title_list, language, relaxed)
    return {
        "text": text,
        "titles": title_list,
        "language": language,
        "relaxed": relaxed,
        "mentions": mentions(found),
    }


def parts(text: str, title_list: list[str]) -> dict[str, Any]:
    """What each part of the extractor makes of ``text`` (and the matcher of the titles)."""
    masked, code = masking.mask(text)
    found = words.Words(masked)
    matcher = titles.TitleMatcher(title_list)
    return {
        "text": text,
        "titles": title_list,
        "masked": masked,
        "code": [list(span) for span in code],
        "words": {
            "start": found.start,
            "end": found.end,
            "words": found.words,
            "lower": found.lower,
            "cap": found.cap,
            "possessive": sorted(found.possessive),
            "lower_seen": sorted(found.lower_seen),
            "capitalised_mid": sorted(found.capitalised_mid),
            # worked out for capitalised words, the only ones any rule asks about
            "initial": [found.initial[k] for k in range(len(found)) if found.cap[k]],
            "german": found.looks_german(),
        },
        "runs": {
            str(german): [
                [r.first, r.last, r.start, r.end, r.capitals]
                for r in names.capitalised_runs(found, german)
            ]
            for german in (False, True)
        },
        "keyphrases": [list(span) for span in keyphrases.keyphrase_spans(found)],
        "find": [list(hit) for hit in matcher.find(text)],
        "find_masked": [list(hit) for hit in matcher.find(text, masked)],
        "size": matcher.size,
    }


def docs_paragraphs(rng: random.Random, count: int) -> list[str]:
    pages = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
    texts = [page.read_text(encoding="utf-8") for page in pages if page.exists()]
    paragraphs = [p for text in texts for p in text.split("\n\n") if p.strip()]
    return rng.sample(paragraphs, min(count, len(paragraphs)))


def build() -> tuple[list[Any], list[Any]]:
    rng = random.Random(SEED)
    cases = []
    for _ in range(300):
        text, title_list = random_text(rng), random_titles(rng)
        language = rng.choice([None, "german", "English"])
        cases.append(extraction(text, title_list, language, rng.random() < 0.5))
    cases += [extraction(text, title_list, None, False) for text, title_list in OVERLAPPING_TITLES]
    cases += [extraction(REMEMBERED, [], language, False) for language in (None, "german")]
    for paragraph in docs_paragraphs(rng, 100):
        cases.append(extraction(paragraph, DOCS_TITLES, None, False))
        cases.append(extraction(paragraph, [], None, True))
    part_cases = [parts(random_text(rng), random_titles(rng)) for _ in range(300)]
    part_cases += [parts(text, title_list) for text, title_list in OVERLAPPING_TITLES]
    return cases, part_cases


def write(path: Path, rows: list[Any]) -> None:
    lines = [json.dumps(row, ensure_ascii=False, sort_keys=True) for row in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    cases, part_cases = build()
    write(GOLDEN / "entities.jsonl", cases)
    write(GOLDEN / "parts.jsonl", part_cases)
    print(f"{len(cases)} extraction cases, {len(part_cases)} part cases in {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
