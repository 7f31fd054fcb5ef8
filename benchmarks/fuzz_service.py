"""Hostile input at the service's doors: HTTP bodies and MCP tool arguments, fuzzed.

    .venv/bin/python benchmarks/fuzz_service.py                      # 200 per route, 400 per tool
    .venv/bin/python benchmarks/fuzz_service.py --http 50 --mcp 100  # a quicker pass

**HTTP.** Schemathesis reads the served OpenAPI schema of a real uvicorn and sends
``--http`` generated requests to every operation (bodies, paths and query strings, valid
and not), once with an admin key and once with a key bound to one session. A 5xx is a
failure: a bad request must be a 4xx that says what to fix.

**MCP.** The MCP SDK's own in-process client calls every tool ``--mcp`` times with
arguments built from the tool's input schema: the right types with hostile values (markdown
soup, long and unencodable text, huge and negative numbers), wrong types, missing and
unknown fields. An answer or an error that says what was wrong passes; the SDK's bare
"Error executing tool NAME" (what it says when a tool raises something other than one of
groundgraph's errors) is an untyped exception, and a failure.

Both run against one small service with documents and two tenants' facts, so a case costs
what the call costs; every case is timed and the slowest is printed per door.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import schemathesis
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from fuzz import json_values, query
from groundgraph import DocumentGraph
from groundgraph.service import ApiKey, KeyRing, MemoryService, hash_key
from groundgraph.service.http_app import create_app
from groundgraph.service.mcp_server import create_mcp

KEYS = {"admin": ("fuzz-admin-0123456789", None), "alice": ("fuzz-alice-0123456789", ("alice",))}


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


def _service() -> MemoryService:
    service = MemoryService(DocumentGraph())
    service.graph.add_document(
        "# Boiler\n\n## Service\n\nAnn Lee services the boiler because the pump failed.\n\n"
        "## Pump\n\nThe pump feeds the radiators. See [Service](#service).",
        "Boiler",
        "boiler",
    )
    for session, text in [
        ("alice", "Heavy rain caused the flood."),
        ("alice", "The flood closed the road."),
        ("bob", "Bob moved the demo to Friday."),
    ]:
        service.push(session, text)
    return service


@contextmanager
def _served(app: Any) -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def fuzz_http(examples: int) -> dict[str, Any]:
    ring = KeyRing(ApiKey(n, hash_key(k), s, True) for n, (k, s) in KEYS.items())
    service = _service()
    tally: dict[str, Any] = {"cases": 0, "5xx": 0, "slowest": 0.0, "first": ""}
    with _served(create_app(service, keys=ring, allowed_hosts=["127.0.0.1"])) as base:
        schema = schemathesis.openapi.from_url(base + "/openapi.json")
        for who, (key, _) in KEYS.items():
            for found in schema.get_all_operations():
                _http_operation(found.ok(), base, who, key, examples, tally)
    service.graph.close()
    return tally


def _http_operation(
    operation: Any, base: str, who: str, key: str, examples: int, tally: dict[str, Any]
) -> None:
    @_settings(examples)
    @given(case=operation.as_strategy())
    def check(case: Any) -> None:
        start = time.perf_counter()
        response = case.call(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=60)
        tally["slowest"] = max(tally["slowest"], time.perf_counter() - start)
        tally["cases"] += 1
        if response.status_code >= 500:
            tally["5xx"] += 1
            tally["first"] = tally["first"] or f"{who} {operation.label}: {response.text[:200]}"

    check()


def _value(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    kinds = {s.get("type") for s in schema.get("anyOf", [schema])}
    right: list[st.SearchStrategy[Any]] = []
    if "string" in kinds:
        right += [query, st.text(min_size=1000, max_size=3000), st.just("a\ud800b")]
    if "integer" in kinds:
        right += [st.integers(), st.sampled_from([0, -1, 10**12])]
    if "number" in kinds:
        right += [st.floats(), st.sampled_from([-1.0, 1e300])]
    if "boolean" in kinds:
        right.append(st.booleans())
    if "array" in kinds:
        right.append(st.lists(query, max_size=5))
    if "null" in kinds:
        right.append(st.none())
    return st.one_of(*right, json_values) if right else json_values


def _arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    fields = {name: _value(prop) for name, prop in properties.items()}
    required = set(schema.get("required", []))
    return st.fixed_dictionaries(
        {n: s for n, s in fields.items() if n in required},
        optional={n: s for n, s in fields.items() if n not in required},
    ).flatmap(
        lambda args: st.one_of(
            st.just(args),
            st.dictionaries(st.text(max_size=10), json_values, max_size=3).map(
                lambda extra: {**extra, **args}
            ),
            st.just({k: v for k, v in list(args.items())[1:]}),  # a field missing
        )
    )


def fuzz_mcp(examples: int) -> dict[str, Any]:
    service = _service()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    client = Client(create_mcp(service, writes=True))

    def call(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=120)

    opened, stop = threading.Event(), asyncio.Event()

    async def hold() -> None:  # the client is entered and left in one task, as anyio asks
        async with client:
            opened.set()
            await stop.wait()

    held = asyncio.run_coroutine_threadsafe(hold(), loop)
    opened.wait(timeout=60)
    tally: dict[str, Any] = {"cases": 0, "untyped": 0, "slowest": 0.0, "first": ""}
    try:
        for tool in call(client.list_tools()).tools:
            _mcp_tool(tool, client, call, examples, tally)
    finally:
        loop.call_soon_threadsafe(stop.set)
        held.result(timeout=60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=20)
        service.graph.close()
    return tally


def _mcp_tool(tool: Any, client: Client, call: Any, examples: int, tally: dict[str, Any]) -> None:
    @_settings(examples)
    @given(arguments=_arguments(tool.input_schema))
    def check(arguments: dict[str, Any]) -> None:
        start = time.perf_counter()
        result = call(client.call_tool(tool.name, arguments))
        tally["slowest"] = max(tally["slowest"], time.perf_counter() - start)
        tally["cases"] += 1
        text = result.content[0].text if result.is_error and result.content else ""
        if text.strip() == f"Error executing tool {tool.name}":
            tally["untyped"] += 1
            shown = json.dumps(arguments, default=repr)[:200]
            tally["first"] = tally["first"] or f"{tool.name} {shown}"

    check()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, default=200, help="cases per operation and key")
    parser.add_argument("--mcp", type=int, default=400, help="cases per tool")
    args = parser.parse_args()
    rows = {"HTTP bodies": fuzz_http(args.http), "MCP arguments": fuzz_mcp(args.mcp)}
    print("| door | cases | failures | slowest case (s) | first failure |")
    print("|---|---:|---:|---:|---|")
    for door, tally in rows.items():
        failures = tally.get("5xx", tally.get("untyped", 0))
        print(
            f"| {door} | {tally['cases']:,} | {failures} | {tally['slowest']:.3f} "
            f"| {tally['first'] or '-'} |"
        )


if __name__ == "__main__":
    main()
