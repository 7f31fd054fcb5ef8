"""Commands that check claims and measure: verify, eval."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from groundgraph.cli.aliases import DefaultGroup, index_option
from groundgraph.cli.app import friendly, main
from groundgraph.cli.verb_help import example_epilog
from groundgraph.errors import FormatError, InputTooLargeError

MAX_FACTS_BYTES = 100 << 20


def _read_facts(path: Path) -> list[Any]:
    """Facts from a JSON list of [subject, relation, object] or JSON Lines of them."""
    size = path.stat().st_size
    if size > MAX_FACTS_BYTES:
        raise InputTooLargeError(str(path), size, MAX_FACTS_BYTES, "pass fewer facts")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(f"{path} is not UTF-8 ({exc}); save it as UTF-8 JSON") from exc
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            data = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (json.JSONDecodeError, RecursionError) as exc:
        raise FormatError(
            f"{path} is not a JSON list of [subject, relation, object] facts, nor JSON Lines"
            f" of them ({exc})"
        ) from exc
    if not isinstance(data, list):
        raise FormatError(f"{path} must hold a JSON list of facts")
    return data


@main.command(epilog=example_epilog("groundgraph verify alice parent carol --facts facts.json"))
@click.argument("subject")
@click.argument("relation")
@click.argument("obj", metavar="OBJECT")
@click.option(
    "--facts",
    "facts_file",
    required=True,
    type=click.Path(path_type=Path, exists=True, dir_okay=False),
    help="JSON list (or JSON Lines) of [subject, relation, object] facts.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@friendly
def verify(subject: str, relation: str, obj: str, facts_file: Path, as_json: bool) -> None:
    """Is OBJECT the RELATION of SUBJECT? A proof from the facts, or a refusal.

    A fact [s, r, o] reads "o is the r of s". Exit code 0 when grounded, 1 when not.
    """
    from groundgraph.reason.relations import verify_relation  # scipy: load on use

    verdict = verify_relation(_read_facts(facts_file), subject, relation, obj)
    if as_json:
        click.echo(json.dumps(verdict, indent=2, ensure_ascii=False))
    elif verdict["grounded"]:
        click.echo(
            f"grounded: {' -> '.join(verdict['proof'])} (confidence {verdict['confidence']})"
        )
    else:
        click.echo(f"not grounded: no chain of {relation!r} facts leads from {subject} to {obj}")
    if verdict.get("skipped_facts"):
        click.echo(f"skipped {verdict['skipped_facts']} malformed facts", err=True)
    raise SystemExit(0 if verdict["grounded"] else 1)


@main.group("eval", cls=DefaultGroup, default="retrieval")
def eval_group() -> None:
    """Measure: retrieval quality on labelled questions, relation reasoning on CLUTRR.

    `eval QUESTIONS.jsonl` (no subcommand) is `eval retrieval QUESTIONS.jsonl`."""


@eval_group.command(
    "retrieval",
    epilog=example_epilog("groundgraph eval retrieval questions.jsonl --config bm25 -k 5"),
)
@click.argument("questions_file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option(
    "--config",
    "configs",
    multiple=True,
    type=click.Choice(["bm25", "walk", "ppr", "linear"]),
    help="Configurations to compare (default: all four).",
)
@click.option("-k", "--top-k", "ks", multiple=True, type=int, help="Cut-offs (default: 2, 5, 10).")
@click.option("--json", "as_json", is_flag=True)
@index_option
@click.pass_context
@friendly
def eval_retrieval(
    ctx: click.Context,
    questions_file: Path,
    configs: tuple[str, ...],
    ks: tuple[int, ...],
    as_json: bool,
) -> None:
    """Score retrieval on a JSONL question file ({"id", "question", "relevant": [ids]}); the
    ids are documents, or sections and chunks (`doc#n`) for chunk-level scores.

    Precision@k, recall@k, MRR@k and nDCG@k with bootstrap 95% intervals and latency, for
    BM25 alone, the bounded walk, personalized PageRank and linear fusion, in one table.
    """
    from groundgraph.cli.app import open_graph
    from groundgraph.eval.questions import load_questions
    from groundgraph.eval.runner import DEFAULT_K, STANDARD_CONFIGS, evaluate

    questions = load_questions(questions_file)
    chosen = {name: STANDARD_CONFIGS[name] for name in (configs or STANDARD_CONFIGS)}
    with open_graph(ctx) as graph:
        report = evaluate(graph, questions, chosen, ks or DEFAULT_K, dataset=questions_file.name)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(report.to_markdown())


@eval_group.command("clutrr", epilog=example_epilog("groundgraph eval clutrr data/clutrr/ --json"))
@click.argument("path", type=click.Path(path_type=Path, exists=True))
@click.option(
    "--learn-from",
    type=click.Path(path_type=Path, exists=True),
    help="Learn the composition table from this CLUTRR split (else the built-in table).",
)
@click.option("--all-stories", is_flag=True, help="Score every story, not only clean chains.")
@click.option("--json", "as_json", is_flag=True)
@friendly
def eval_clutrr(path: Path, learn_from: Path | None, all_stories: bool, as_json: bool) -> None:
    """Coverage and accuracy per hop count on a CLUTRR test file or folder.

    CLUTRR is licensed for non-commercial use only; it is read from PATH and nothing
    learned from it is saved.
    """
    from groundgraph.eval.clutrr import evaluate_clutrr, learn_clutrr_table
    from groundgraph.eval.clutrr_data import load_clutrr

    table = None
    if learn_from is not None:
        table = learn_clutrr_table(load_clutrr(learn_from, "*.csv"))[0]
    report = evaluate_clutrr(path, table, clean_only=not all_stories)
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2))
    else:
        click.echo(report.to_table())
