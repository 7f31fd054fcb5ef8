"""The ``ground`` command: check each sentence of an answer against the indexed documents."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from groundgraph.cli.app import friendly, main, open_graph
from groundgraph.cli.verb_help import verb_command, verb_option
from groundgraph.errors import FormatError, InputTooLargeError
from groundgraph.reason.ground import MAX_ANSWER_CHARS, ClaimCheck, Grounding
from groundgraph.reason.verifiers import negation_mismatch_verifier

#: UTF-8 takes at most 4 bytes a character.
MAX_ANSWER_BYTES = 4 * MAX_ANSWER_CHARS


def read_answer(stream: BinaryIO, name: str) -> str:
    """The answer text of a file or stdin: UTF-8, no NUL bytes, at most the size cap."""
    data = stream.read(MAX_ANSWER_BYTES + 1)
    if len(data) > MAX_ANSWER_BYTES:
        raise InputTooLargeError(
            name, len(data), MAX_ANSWER_BYTES, "check a shorter answer (bytes shown)"
        )
    if b"\x00" in data:
        raise FormatError(f"{name} holds NUL bytes: pass the answer as UTF-8 text")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"{name} is not UTF-8 text (byte {exc.start}); save it as UTF-8"
        ) from None


def _why(claim: ClaimCheck, min_support: float) -> str:
    reasons = []
    for rule in claim.rejected_by:
        if rule == "share":
            reasons.append(f"share {claim.share:.2f} < {min_support:.2f}")
        elif rule == "numbers":
            reasons.append("numbers not in its sections: " + ", ".join(claim.missing_numbers))
        elif rule == "code":
            reasons.append("code not written in its sections: " + ", ".join(claim.missing_code))
        elif rule == "names":
            reasons.append("names not in its sections: " + ", ".join(claim.missing_names))
        elif rule == "links":
            reasons.append("sections adding only a name: " + ", ".join(claim.unlinked))
        elif rule == "anchors":
            reasons.append("held only out of place: " + ", ".join(claim.misplaced))
        elif rule == "substitutions":
            reasons.append("its closest sentence writes another value for: "
                           + ", ".join(claim.substituted))  # fmt: skip
        elif rule == "negation":
            reasons.append("negation differs from its closest sentence")
        elif rule == "verify":
            reasons.append(f"vetoed by the verifier (p = {claim.nli:.2f})")
    return "; ".join(reasons)


def _print(grounding: Grounding) -> None:
    if not grounding.claims:
        click.echo("no claims: the answer has no words the documents could support")
        return
    width = len(str(len(grounding.claims)))
    pad = " " * (width + 13)
    for n, claim in enumerate(grounding.claims, start=1):
        verdict = "yes" if claim.supported else "no "
        click.echo(f"{n:>{width}}. {verdict}  {claim.share:.2f}  {claim.text}")
        if not claim.supported:
            click.echo(f"{pad}why: {_why(claim, grounding.min_support)}")
        if claim.node_ids:
            click.echo(f"{pad}sections: {', '.join(claim.node_ids)}")
        for span in claim.evidence:
            start, end = span.start, span.end
            where = "source" if span.source_start is not None else "content"
            if span.source_start is not None and span.source_end is not None:
                start, end = span.source_start, span.source_end
            text = " ".join(span.text.split())  # one line, however the source wraps
            click.echo(f"{pad}evidence [{span.node_id} {where} {start}-{end}]: {text}")
    supported = len(grounding.supported)
    click.echo(
        f"{len(grounding.claims)} claims, {supported} supported; "
        f"grounded share {grounding.share:.2f}"
    )


@verb_command(
    main,
    "ground",
    verb="ground",
    example=(
        "groundgraph ground answer.md",
        "echo 'Edit config.json.' | groundgraph ground - --json",
        "groundgraph ground answer.md --scope acme",
    ),
)
@click.argument("answer_file", type=click.File("rb"))
@verb_option("--query", "-q", verb="ground", param="query")
@verb_option("--node", "node_ids", verb="ground", param="node_ids", multiple=True)
@verb_option(
    "--min-support",
    verb="ground",
    param="min_support",
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
)
@verb_option("--max-nodes", verb="ground", param="max_nodes", show_default=True)
@verb_option("--scope", "scopes", verb="ground", param="scopes", multiple=True)
@click.option(
    "--negation-check",
    is_flag=True,
    help="Veto a claim whose negation differs from its evidence sentence (English).",
)
@click.option(
    "--lenient",
    is_flag=True,
    help="Only the share decides (the seed's rule): none of the number, code, name, link, "
    "anchor, substitution or negation checks.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the grounding as JSON.")
@click.pass_context
@friendly
def ground_command(
    ctx: click.Context,
    answer_file: BinaryIO,
    query: str | None,
    node_ids: tuple[str, ...],
    min_support: float,
    max_nodes: int,
    scopes: tuple[str, ...],
    negation_check: bool,
    lenient: bool,
    as_json: bool,
) -> None:
    """ANSWER_FILE is a file, or '-' for stdin. Prints every claim with its share of
    rare-word weight covered, whether it is supported, the sections that back it and their
    best matching sentences. Exit code 0 when every claim is supported, 1 when one is not.
    """
    name = "stdin" if answer_file is sys.stdin.buffer else answer_file.name
    answer = read_answer(answer_file, str(name))
    with open_graph(ctx) as graph:
        grounding = graph.ground(
            answer,
            node_ids=list(node_ids) or None,
            query=query,
            min_support=min_support,
            verify=negation_mismatch_verifier if negation_check else None,
            max_nodes=max_nodes,
            check_numbers=not lenient,
            check_names=not lenient,
            check_links=not lenient,
            check_code=not lenient,
            check_anchors=not lenient,
            check_substitutions=not lenient,
            check_negation=not lenient,
            scopes=list(scopes) or None,
        )
    if as_json:
        click.echo(json.dumps(grounding.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print(grounding)
    raise SystemExit(0 if len(grounding.supported) == len(grounding.claims) else 1)
