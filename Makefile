# Two commands: `make run` (set up and start the server) and `make test` (the whole suite);
# `make screenshots` saves a picture of every page.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint types pytest pytest-pure clean bench system screenshots

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

test: lint types pytest pytest-pure

# without ruff's cache: a file's import order depends on where other modules live (a
# module moved between tests/ and tests/server/), which a cached result does not see
lint: $(STAMP)
	$(BIN)/ruff check --no-cache src tests benchmarks
	$(BIN)/ruff format --no-cache --check src tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

system:
	scripts/system-packages

# where a C compiler is found, every module of mypyc.ini must be compiled (setup.py marks
# them optional, so a failed compilation would otherwise pass as the pure build):
# tests/conftest.py refuses to run the tests on the wrong build; the files are shared out
# among a worker per core (pytest-xdist), each file's tests on one worker (its live servers
# and PostgreSQL cluster are made once), in the order collected: the longest files first
# (tests/conftest.py, LONGEST_FIRST) rather than xdist's order by number of tests
XDIST := --numprocesses auto --maxprocesses 4 --dist loadfile --no-loadscope-reorder
# the slowest tests, named in every run's output (the suite must stay under ten minutes)
SLOWEST := --durations=25 --durations-min=10

pytest: $(STAMP) system
	expect=$$($(BIN)/python scripts/compiler-found) && GLADIATORIUM_EXPECT_COMPILED=$$expect $(BIN)/pytest $(XDIST) $(SLOWEST)

# the pure Python build, as where no compiler is found: the conformance suite and the
# pins of same plays (golden transcripts, perft, same plays and duels, which play every
# compiled module) on a copy of src/ without the .so files
PURE := build/pure/src
PURE_TESTS := tests/test_conformance.py tests/test_golden.py \
	tests/gladiator_chess/test_perft.py tests/gladiator_chess/test_same_plays.py \
	tests/super_dice_heroes/test_sdh_same_plays.py \
	tests/superhero_gladiators/test_same_duels.py tests/superhero_gladiators/test_sg_same_plays.py \
	tests/core/test_builds.py tests/core/test_kept.py

# these tests start no server: they are shared out one by one (--dist load), not a file per
# worker, so that the conformance suite's hundred and forty tests do not wait on one worker
# (32-33 s before, 23.5-24 s after, two runs of each, interleaved)
PURE_XDIST := --numprocesses auto --maxprocesses 4 --dist load

pytest-pure: $(STAMP)
	$(BIN)/python scripts/pure-source $(PURE)
	GLADIATORIUM_EXPECT_PURE=1 PYTHONPATH=$(CURDIR)/$(PURE) $(BIN)/pytest -p no:cacheprovider $(PURE_XDIST) $(PURE_TESTS)

# a PNG of every page and state of the site at desktop and phone size in out/screenshots/
# ($$GLADIATORIUM_SCREENSHOTS), taken by the site's tour and the browser tests that play
# (the plain test run takes none)
SHOWN := tests/server/test_site_tour.py tests/server/test_pages.py \
	tests/server/test_game_pages.py tests/server/test_talk_pages.py \
	tests/server/test_newcomer_pages.py
screenshots: $(STAMP) system
	GLADIATORIUM_SAVE_SCREENSHOTS=1 $(BIN)/pytest -p no:cacheprovider $(XDIST) $(SHOWN)

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	find src -name "*.so" -delete
