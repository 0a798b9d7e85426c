# Two commands: `make run` (set up and start the server) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint types pytest clean bench system

# setup.py compiles the modules listed in mypyc.ini in place (mypyc); an edit must
# compile them again
COMPILED := $(shell sed -n 's|^ *\(src/.*\.py\),\?$$|\1|p' mypyc.ini)

$(STAMP): pyproject.toml setup.py mypyc.ini $(COMPILED)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/gladiatorium serve

test: lint types pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

system:
	scripts/system-packages

pytest: $(STAMP) system
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	find src -name "*.so" -delete
