"""CLUTRR benchmark: composition-table solver, coverage and accuracy per hop count.

    python benchmarks/clutrr.py PATH/TO/clutrr [--misses]

PATH is a folder holding ``gen_train234_test2to10/{validation,test}.csv`` (the Hugging Face
CSV mirror) and, if present, the EMNLP test folders ``data_089907f8`` and ``data_db9b8f04``
(and ``data_089907f8_with_train.zip``). CLUTRR is CC BY-NC 4.0: it is read from the given
path for evaluation only, and nothing learned from it is saved. Prints markdown.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

from groundgraph.eval.clutrr import ClutrrReport, evaluate_rows, learn_clutrr_table
from groundgraph.eval.clutrr_data import ClutrrRow, load_clutrr
from groundgraph.reason.relations import CompositionTable, kinship_table, kinship_word

HF = "gen_train234_test2to10"
EMNLP = ("data_089907f8", "data_db9b8f04")


def per_hop_table(columns: dict[str, ClutrrReport]) -> str:
    """One row per hop count; each column 'correct/n (accuracy)' for one configuration."""
    hops = sorted({h.hops for report in columns.values() for h in report.per_hop})
    lines = [
        "| k | " + " | ".join(columns) + " |",
        "|---:|" + "---:|" * len(columns),
    ]
    for k in [*hops, 0]:
        cells = []
        for report in columns.values():
            stats = {h.hops: h for h in report.per_hop}.get(k) if k else report.total
            cells.append(f"{stats.correct}/{stats.n} ({stats.accuracy_all:.3f})" if stats else "–")
        lines.append(f"| {k or 'all'} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary_line(label: str, report: ClutrrReport) -> str:
    total = report.total
    return (
        f"| {label} | {total.n} | {total.covered} ({total.coverage:.2%}) "
        f"| {total.correct} ({total.accuracy:.2%} of covered, {total.accuracy_all:.2%} of all) |"
    )


def misses_by_kind(report: ClutrrReport) -> str:
    counts = collections.Counter((m.hops, m.expected, m.got) for m in report.misses)
    return ", ".join(
        f"k={k} {expected}→{got or 'no answer'} ×{n}"
        for (k, expected, got), n in sorted(counts.items(), key=lambda item: (item[0][0], -item[1]))
    )


def run(root: Path, show_misses: bool) -> None:
    started = time.perf_counter()
    validation = load_clutrr(root / HF / "validation.csv")
    learned, conflicts, passes = learn_clutrr_table(validation)
    builtin = kinship_table()
    words = {key: kinship_word(relation) for key, relation in builtin.items()}
    print(f"# CLUTRR: composition-table solver (data: {root})\n")
    print(
        f"Table learned from {HF}/validation.csv clean chains "
        f"({sum(r.clean for r in validation)} of {len(validation)} rows): {len(learned)} rules, "
        f"{passes} passes, {len(conflicts)} validation chains it folds differently from their "
        f"label. Built-in kinship table: {len(builtin)} rules (derived from parent, child, "
        f"spouse and sibling links; {sum(words.get(k) == v for k, v in learned.items())} of "
        f"the learned rules agree with it, "
        f"{sum(k in words and words[k] != v for k, v in learned.items())} disagree, "
        f"{sum(k not in words for k in learned)} it leaves out).\n"
    )
    test = load_clutrr(root / HF / "test.csv")
    runs = {
        "clean, learned": evaluate_rows(test, learned, True, "learned"),
        "clean, built-in": evaluate_rows(test, builtin, True, "built-in"),
        "all stories, learned": evaluate_rows(test, learned, False, "learned"),
        "all stories, built-in": evaluate_rows(test, builtin, False, "built-in"),
    }
    print(f"## {HF} test ({len(test)} rows, {sum(r.clean for r in test)} clean chains)\n")
    print("| run | n | covered | correct |\n|---|---:|---:|---:|")
    for label, report in runs.items():
        print(summary_line(label, report))
    print("\nPer hop count, correct/n (accuracy over all n):\n")
    print(per_hop_table(runs))
    if show_misses:
        for label, report in runs.items():
            print(f"\nMisses, {label}: {misses_by_kind(report)}")

    train_zip = root / "data_089907f8_with_train.zip"
    own_train: CompositionTable | None = None
    if train_zip.is_file():
        own_train = learn_clutrr_table(load_clutrr(train_zip, "*train.csv"))[0]
    for name in EMNLP:
        if not (root / name).is_dir():
            print(f"\n({name} not found under {root}; skipped)")
            continue
        rows: list[ClutrrRow] = load_clutrr(root / name)
        columns = {
            "all, learned (validation)": evaluate_rows(rows, learned, False, name),
            "clean, learned (validation)": evaluate_rows(rows, learned, True, name),
            "clean, built-in": evaluate_rows(rows, builtin, True, name),
            "all, built-in": evaluate_rows(rows, builtin, False, name),
        }
        if own_train is not None:
            columns["all, learned (089907f8 train)"] = evaluate_rows(rows, own_train, False, name)
        print(f"\n## {name} ({len(rows)} rows, {sum(r.clean for r in rows)} clean chains)\n")
        print(per_hop_table(columns))
        if show_misses:
            for label, report in columns.items():
                print(f"\nMisses, {label}: {misses_by_kind(report)}")
    print(f"\n({time.perf_counter() - started:.1f} s)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("path", type=Path, help="folder with the CLUTRR CSVs")
    parser.add_argument("--misses", action="store_true", help="list the misses by kind")
    args = parser.parse_args(argv)
    run(args.path, args.misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
