"""The web explorer's speed in Debian's chromium against a real uvicorn on loopback.

    .venv/bin/python benchmarks/explorer.py --files 1000      # about a minute to index

It indexes the first ``--files`` markdown files of the Microsoft C++ docs (``--tar``, CC BY
4.0) into a temporary SQLite store, serves it with ``groundgraph.service`` (no keys, on
127.0.0.1), and for ``--runs`` fresh browser tabs measures: first paint and first
contentful paint of ``/`` (the page's own Paint Timing entries), the page ready (its first
API answers in), a search until its hits are listed, a hit until its path and
neighbourhood are drawn, and the document list. Then it draws a 500-node graph in the
page's cytoscape.js and pans it for 120 frames, reporting the frame times. Figures are
medians over the runs, printed next to the issue's targets.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TAR = ROOT.parent / "shared" / "data" / "cpp-docs" / "cpp-docs-md.tar.gz"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip
QUERY = "lambda capture by reference"

PAN = """async () => {
  const box = document.getElementById('search-graph');
  const elements = [];
  for (let i = 0; i < 500; i++) elements.push({ data: { id: 'n' + i, label: 'node ' + i } });
  for (let i = 1; i < 500; i++) {
    const source = 'n' + Math.floor(i / 3);
    elements.push({ data: { id: 'e' + i, source, target: 'n' + i, type: 'reference' } });
  }
  const start = performance.now();
  const cy = window.cytoscape({ container: box, elements,
    layout: { name: 'concentric', animate: false },
    style: [{ selector: 'node', style: { label: 'data(label)', 'font-size': 8 } }] });
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const drawn = performance.now() - start;
  const frames = [];
  let last = performance.now();
  await new Promise((done) => {
    let left = 120;
    function step(now) {
      frames.push(now - last); last = now;
      cy.panBy({ x: 3, y: 2 });
      if (--left > 0) requestAnimationFrame(step); else done();
    }
    requestAnimationFrame(step);
  });
  cy.destroy();
  frames.sort((a, b) => a - b);
  const at = (share) => frames[Math.floor(frames.length * share)];
  return { drawn, median: at(0.5), p95: at(0.95) };
}"""


def extract(tar_path: Path, count: int, folder: Path) -> int:
    with tarfile.open(tar_path) as tar:
        members = sorted(
            (m for m in tar.getmembers() if m.isfile() and m.name.endswith(".md")),
            key=lambda m: m.name,
        )[:count]
        tar.extractall(folder, members=members, filter="data")
    return len(members)


def build_store(folder: Path, db: Path) -> dict[str, Any]:
    from groundgraph import DocumentGraph
    from groundgraph.ingest import plan_folder

    start = time.perf_counter()
    with DocumentGraph(db) as graph:
        files, _ = plan_folder([folder])
        for _ in graph.index_files(files):
            pass
        graph.save_index()
        stats = graph.stats()
    return {"seconds": time.perf_counter() - start, "documents": stats.documents,
            "nodes": stats.nodes}  # fmt: skip


def serve(db: Path) -> tuple[str, Any]:
    import uvicorn

    from groundgraph.graph import DocumentGraph
    from groundgraph.service import MemoryService
    from groundgraph.service.http_app import create_app

    app = create_app(MemoryService(DocumentGraph(db)), allowed_hosts=["127.0.0.1"])
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server


def one_run(browser: Any, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_function("() => document.getElementById('status').textContent === ''")
    paints = page.evaluate(
        "() => Object.fromEntries(performance.getEntriesByType('paint')"
        ".map(p => [p.name, p.startTime]))"
    )
    timing = page.evaluate(
        "() => [performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,"
        " performance.getEntriesByType('resource').find(r => r.name.endsWith('/sessions'))"
        ".responseEnd]"
    )
    found: dict[str, float] = {
        "first paint": paints.get("first-paint", float("nan")),
        "first contentful paint": paints.get("first-contentful-paint", float("nan")),
        "scripts run (DOMContentLoaded)": timing[0],
        "page ready (its first API answer in)": timing[1],
    }
    page.fill("#search-query", QUERY)
    start = time.perf_counter()
    page.click("#search-form button")
    page.wait_for_selector("#search-hits li.hit")
    found["search: hits listed"] = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    page.locator("#search-hits .hit-title").first.click()
    page.wait_for_function(
        "() => window.groundgraphExplorer.graphs.search && "
        "window.groundgraphExplorer.graphs.search.nodes().length > 0"
    )
    found["hit: path and neighbourhood drawn"] = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    page.click("#tabs button[data-view=outline]")
    page.wait_for_selector("#doc-list li")
    found["document list (paged)"] = (time.perf_counter() - start) * 1000
    page.click("#tabs button[data-view=search]")
    pan = page.evaluate(PAN)
    found["500 nodes: drawn"] = pan["drawn"]
    found["500 nodes: pan frame, median"] = pan["median"]
    found["500 nodes: pan frame, p95"] = pan["p95"]
    context.close()
    return found


TARGETS = {
    "first paint": "≤ 1000 (issue 16)",
    "first contentful paint": "≤ 1000 (issue 16)",
    "500 nodes: pan frame, median": "≤ 33 (30 fps)",
    "500 nodes: pan frame, p95": "≤ 50",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tar", type=Path, default=DEFAULT_TAR)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        count = extract(args.tar, args.files, folder)
        built = build_store(folder, Path(tmp) / "explorer.db")
        print(
            f"store: {count} files, {built['documents']} documents, {built['nodes']} nodes, "
            f"indexed in {built['seconds']:.1f} s",
            file=sys.stderr,
        )
        base, server = serve(Path(tmp) / "explorer.db")
        try:
            with sync_playwright() as driver:
                browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                runs = [one_run(browser, base) for _ in range(args.runs)]
                browser.close()
        finally:
            server.should_exit = True
    print(f"| figure ({args.runs} runs, median) | ms | target |")
    print("|---|---:|---|")
    for name in runs[0]:
        value = statistics.median(r[name] for r in runs)
        print(f"| {name} | {value:.0f} | {TARGETS.get(name, '')} |")


if __name__ == "__main__":
    main()
