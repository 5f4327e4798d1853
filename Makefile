# The README's two commands: `make demo` (the main job) and `make test`.
# Both create the virtual environment and install what they need when missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# Debian packages the tests use, as command=package pairs (installed when missing).
SYSTEM_DEPS ?= chromium=chromium redis-server=redis-server
# Options for `make bench`, e.g. BENCH_ARGS=--quick (see python -m benchmarks.run --help).
BENCH_ARGS ?=

# The lowest supported versions (requirements-floor.txt) in a second virtualenv, and
# the part of the suite run against them (components, settings, compat, one crawl).
FLOOR_VENV ?= .venv-floor
FLOOR_PY := $(FLOOR_VENV)/bin/python
FLOOR_STAMP := $(FLOOR_VENV)/.installed
FLOOR_TESTS ?= tests/test_settings_model.py tests/test_compat.py tests/test_robots_middleware.py \
	tests/test_metarobots_middleware.py tests/test_trap_middlewares.py tests/test_downloader.py \
	tests/test_crawl_metarobots.py

.PHONY: demo test serve bench clean system-deps build test-floor settings-reference

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m webrobot.demo crawl --out demo-output

serve: $(STAMP)
	$(PY) -m webrobot.demo serve

bench: $(STAMP)
	$(PY) -m benchmarks.run $(BENCH_ARGS)

system-deps:
	bash scripts/system-deps.sh $(SYSTEM_DEPS)

test: $(STAMP) system-deps
	$(PY) -m pytest

$(FLOOR_STAMP): requirements-floor.txt
	test -x $(FLOOR_PY) || $(PYTHON) -m venv $(FLOOR_VENV)
	$(FLOOR_PY) -m pip install --quiet -r requirements-floor.txt
	touch $(FLOOR_STAMP)

# The suite's core against the lowest supported Scrapy and protego.
test-floor: $(FLOOR_STAMP) system-deps
	$(FLOOR_PY) -m pytest -q $(FLOOR_TESTS)

# An sdist and a wheel in dist/ (no build dependency downloaded).
build: $(STAMP)
	$(PY) -m build --no-isolation --outdir dist .

# docs/reference/settings.md from webrobot/settings_model.py.
settings-reference: $(STAMP)
	$(PY) -m webrobot.settings_model > docs/reference/settings.md

clean:
	rm -rf $(VENV) $(FLOOR_VENV) demo-output benchmarks-output build dist *.egg-info
