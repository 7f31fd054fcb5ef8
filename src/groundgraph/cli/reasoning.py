"""``groundgraph reason``: answer a question with an LLM and check every sentence."""

from __future__ import annotations

import json

import click

from groundgraph.cli.app import fail, friendly, main, open_graph
from groundgraph.cli.verb_help import example_epilog
from groundgraph.errors import LLMError
from groundgraph.llm import OpenAICompatibleLLM
from groundgraph.reason.thought import GroundedGraphOfThought, ReasoningResult

#: Exit code when the LLM server fails (unreachable, error status, unreadable reply).
LLM_FAILED = 5


def _print_result(result: ReasoningResult, max_llm_calls: int) -> None:
    click.echo(result.answer or "(no answer: the LLM produced none within the budget)")
    if result.claims:
        click.echo("\nclaims:")
        for claim in result.claims:
            mark = "supported  " if claim.supported else "UNSUPPORTED"
            nodes = f"  [{', '.join(claim.nodes)}]" if claim.nodes else ""
            vetoed = "  (vetoed by verify)" if claim.vetoed else ""
            click.echo(f"  {mark} {claim.support:.2f}  {claim.text}{nodes}{vetoed}")
    if result.citations:
        click.echo("\ncitations:")
        for cited in result.citations:
            click.echo(f"  [{cited.node_id}] {cited.title}")
    tokens = result.tokens
    how = " (estimated)" if tokens.estimated else ""
    click.echo(
        f"\nLLM calls: {result.llm_calls} of {max_llm_calls}; tokens: {tokens.total_tokens:,}"
        f" (prompt {tokens.prompt_tokens:,}, completion {tokens.completion_tokens:,}){how}"
    )
    if result.budget_exhausted:
        click.echo("budget exhausted: some steps were skipped; raise --max-llm-calls")


@main.command(
    epilog=example_epilog(
        'groundgraph reason "Why does config fail?" --llm-url http://localhost:11434 --model qwen3'
    )
)
@click.argument("question")
@click.option(
    "--llm-url",
    required=True,
    envvar="GROUNDGRAPH_LLM_URL",
    help="OpenAI-compatible server, e.g. http://localhost:11434 (also GROUNDGRAPH_LLM_URL).",
)
@click.option(
    "--model",
    required=True,
    envvar="GROUNDGRAPH_LLM_MODEL",
    help="Model name the server knows (also GROUNDGRAPH_LLM_MODEL).",
)
@click.option(
    "--api-key-env",
    default=None,
    metavar="VAR",
    help="Environment variable holding the API key, if the server needs one.",
)
@click.option(
    "--max-llm-calls",
    default=16,
    show_default=True,
    type=click.IntRange(0, 10_000),
    help="Hard cap on LLM calls for this question.",
)
@click.option(
    "--min-support",
    default=0.5,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="Share of a sentence's rare-word weight its sections must cover.",
)
@click.option(
    "--max-workers",
    default=4,
    show_default=True,
    type=click.IntRange(1, 64),
    help="LLM calls that may run at the same time.",
)
@click.option(
    "--timeout",
    default=120.0,
    show_default=True,
    type=click.FloatRange(0.001),
    help="Seconds one LLM request may take.",
)
@click.option(
    "--max-tokens",
    default=512,
    show_default=True,
    type=click.IntRange(1, 1_000_000),
    help="Longest reply one LLM call may write (small models can ramble until the "
    "context is full without a cap).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON.")
@click.pass_context
@friendly
def reason(
    ctx: click.Context,
    question: str,
    llm_url: str,
    model: str,
    api_key_env: str | None,
    max_llm_calls: int,
    min_support: float,
    max_workers: int,
    timeout: float,
    max_tokens: int,
    as_json: bool,
) -> None:
    """Answer QUESTION from the documents with an LLM; every sentence is checked.

    Prints the answer, each sentence with its support and sections, the sections cited
    and the LLM calls and tokens used. Exit code 5 when the LLM server fails.
    """
    llm = OpenAICompatibleLLM(
        llm_url, model, api_key_env=api_key_env, timeout=timeout, max_tokens=max_tokens
    )
    try:
        with open_graph(ctx) as graph:
            reasoner = GroundedGraphOfThought(
                graph,
                llm,
                max_llm_calls=max_llm_calls,
                min_support=min_support,
                max_workers=max_workers,
            )
            result = reasoner.reason(question)
    except LLMError as exc:
        fail(f"the LLM at {llm_url} failed: {exc}", LLM_FAILED)
        return
    finally:
        llm.close()
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print_result(result, max_llm_calls)
