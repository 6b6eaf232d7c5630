# Two commands do everything on a fresh machine:
#   make lab    set up the environment and open JupyterLab on a working copy of notebooks/ (lab/, git-ignored)
#   make test   set up the environment and run every test (ruff, mypy, pytest, notebooks, the browser tests)
# and one serves the classroom:
#   make app    serve the notebooks as pages with Voila on http://127.0.0.1:$(APP_PORT)/ (default 8866)
# and one runs the long soak:
#   make soak   10,000 bot games with every invariant checked after every action (SOAK_GAMES, DASK, WORKERS)
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin
LAB_DIR ?= lab
APP_PORT ?= 8866

.PHONY: lab app test setup chromium bench soak clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

setup: $(BIN)/.installed

# The lab opens copies in $(LAB_DIR)/ (git ignores it): running and saving never dirties notebooks/.
lab: setup
	$(BIN)/python tools/lab_workspace.py $(LAB_DIR)
	$(BIN)/jupyter lab $(LAB_DIR)/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

# The classroom app: every notebook as a page (widgets, no code), a landing page linking them, idle kernels culled.
app: setup
	APP_PORT=$(APP_PORT) $(BIN)/python tools/classroom_app.py

# Debian's Chromium drives the real-browser test (never `playwright install`).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
	  || echo "warning: could not install chromium; the browser test will fail"

test: setup chromium
	$(BIN)/ruff check dunenb tests benchmarks tools
	$(BIN)/python -m mypy dunenb
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
	rm -rf $(VENV) build *.egg-info artifacts  # never $(LAB_DIR)/: the user's saved copies
