# Stakes: `make run` serves the API on the embedded SQLite store; `make test` runs the whole suite.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run test bench clean

$(BIN)/stakes: pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	@touch $@

$(VENV)/.test-extras: $(BIN)/stakes
	$(BIN)/pip install --quiet -e '.[test]'
	@touch $@

run: $(BIN)/stakes
	$(BIN)/stakes serve

test: $(VENV)/.test-extras
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(VENV)/.test-extras
	$(BIN)/python -m pytest tests/benchmarks --benchmark-enable --benchmark-only -p no:randomly $(PYTEST_ARGS)

clean:
	rm -rf $(VENV)
