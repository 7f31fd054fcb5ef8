"""A corpus written for the PostgreSQL tests: deterministic markdown files about a made-up
workshop, with sections, shared names (entities) and links between files, and queries
over its words."""

from __future__ import annotations

import random
from pathlib import Path

_TOPICS = [
    "boiler",
    "pump",
    "valve",
    "filter",
    "gasket",
    "thermostat",
    "radiator",
    "pipe",
    "fitting",
    "flange",
    "bearing",
    "shaft",
    "motor",
    "belt",
    "pulley",
    "gear",
    "chain",
    "sprocket",
    "spindle",
    "lathe",
    "drill",
    "press",
    "grinder",
    "saw",
    "router",
    "clamp",
    "vise",
    "bench",
    "anvil",
    "forge",
    "hammer",
    "chisel",
    "file",
    "rasp",
    "plane",
    "sander",
    "brush",
    "roller",
    "spray",
    "paint",
    "primer",
    "varnish",
    "lacquer",
    "stain",
    "glue",
    "epoxy",
    "resin",
    "solder",
    "flux",
    "wire",
    "cable",
    "fuse",
    "relay",
    "switch",
    "socket",
    "plug",
    "lamp",
    "bulb",
    "ballast",
    "transformer",
    "inverter",
    "battery",
    "charger",
    "meter",
    "gauge",
]
_VERBS = [
    "check",
    "clean",
    "replace",
    "tighten",
    "loosen",
    "oil",
    "grease",
    "inspect",
    "measure",
    "calibrate",
    "adjust",
    "align",
    "sharpen",
    "polish",
    "seal",
    "drain",
    "flush",
    "refill",
    "test",
    "record",
    "order",
    "store",
    "label",
    "mount",
]
_WORDS = [
    "weekly",
    "monthly",
    "before",
    "after",
    "each",
    "every",
    "warm",
    "cold",
    "dry",
    "damp",
    "quiet",
    "loud",
    "slowly",
    "carefully",
    "first",
    "last",
    "spare",
    "new",
    "worn",
    "cracked",
    "loose",
    "tight",
    "bright",
    "dark",
    "heavy",
    "light",
    "small",
    "large",
]
_NAMES = ("Harrow Works", "Milton Supply", "Ostrava Tools", "Quill Electric", "Brenner Pumps")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_VERBS), "the", rng.choice(_TOPICS)]
    words += [*rng.sample(_WORDS, 2), rng.choice(_TOPICS)]
    if rng.random() < 0.3:
        words += ["from", rng.choice(_NAMES)]
    return " ".join(words).capitalize() + "."


def write_corpus(folder: Path, files: int = 60, seed: int = 7) -> Path:
    """Write ``files`` markdown files into ``folder`` (made); the folder."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        topic = _TOPICS[i % len(_TOPICS)]
        lines = [f"# The {topic} ({i})", "", _sentence(rng), ""]
        for j in range(rng.randint(2, 5)):
            lines += [f"## {rng.choice(_VERBS).title()} the {rng.choice(_TOPICS)} {j}", ""]
            lines += [" ".join(_sentence(rng) for _ in range(rng.randint(2, 6))), ""]
            if rng.random() < 0.4:
                other = rng.randrange(files)
                lines += [f"See [the other notes](note-{other:03d}.md).", ""]
        (folder / f"note-{i:03d}.md").write_text("\n".join(lines), encoding="utf-8")
    return folder


def queries(count: int = 200, seed: int = 11) -> list[str]:
    """``count`` queries of one to three words of the corpus (some names)."""
    rng = random.Random(seed)
    vocabulary = _TOPICS + _VERBS + _WORDS
    out = []
    for i in range(count):
        if i % 10 == 0:
            out.append(rng.choice(_NAMES))
            continue
        out.append(" ".join(rng.sample(vocabulary, rng.randint(1, 3))))
    return out
