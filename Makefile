# Two commands do everything on a fresh machine:
#   make lab    set up the environment and open JupyterLab on notebooks/
#   make test   set up the environment and run every test (ruff, pytest, notebooks, the browser test)
#   make soak   10,000 bot games with every invariant checked after every action (SOAK_GAMES, DASK, WORKERS)
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: lab test setup chromium bench soak clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/.installed

lab: setup
	$(BIN)/jupyter lab notebooks/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# Debian's Chromium drives the real-browser test (never `playwright install`).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install chromium; the browser test will fail"

test: setup chromium
	$(BIN)/ruff check dunenb tests benchmarks tools
	$(BIN)/pytest

bench: setup
	for script in benchmarks/bench_*.py; do echo "== $$script"; $(BIN)/python $$script; done

# Soak: SOAK_GAMES games (default 10000) into artifacts/soak/ (results/, failing/ saves, summary.json); a rerun
# resumes. DASK=local (WORKERS=N) or DASK=tcp://scheduler:8786 runs the games as Dask tasks.
SOAK_GAMES ?= 10000
SOAK_OUT ?= artifacts/soak
soak: setup
	$(BIN)/python -m dunenb.soak --games $(SOAK_GAMES) --out $(SOAK_OUT) $(if $(DASK),--dask $(DASK)) \
	  $(if $(WORKERS),--workers $(WORKERS))

clean:
	rm -rf $(VENV) build *.egg-info artifacts
