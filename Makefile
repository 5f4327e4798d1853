# The README's two commands: `make demo` (the main job) and `make test`.
# Both create the virtual environment and install what they need when missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Every virtualenv's requirements are installed by uv (pinned in requirements-dev.txt,
# installed into $(VENV) by pip first): it resolves as pip does, downloads in parallel
# and installs from its cache by hard links, in seconds where pip takes minutes.
UV := $(VENV)/bin/uv
UV_REQUIREMENT := $(shell grep -m1 '^uv==' requirements-dev.txt)
# uv, unlike pip, writes no .pyc files at install: Python writes each module's at its first
# import, so only what runs is compiled (about 800 files for a crawl). Compiling every
# installed file ahead (--compile-bytecode: 8,600 files) cost 20 s of CPU per virtualenv.
UV_INSTALL = $(UV) pip install --quiet --python
# A shell that sets PYTHONDONTWRITEBYTECODE would keep Python from writing them, and every
# one of the suite's hundreds of crawl processes would compile Scrapy and Twisted anew
# (0.5 s of CPU each); webrobot's and the tests' go to __pycache__ folders git ignores.
unexport PYTHONDONTWRITEBYTECODE

# Debian packages the tests use, as command=package pairs (installed when missing).
SYSTEM_DEPS ?= chromium=chromium redis-server=redis-server mount=mount prometheus=prometheus promtool=prometheus \
	nginx=nginx /usr/lib/nginx/modules/ngx_http_echo_module.so=libnginx-mod-http-echo
# Options for `make bench`, e.g. BENCH_ARGS=--quick (see python -m benchmarks.run --help).
BENCH_ARGS ?=
# 1: `make lint` also checks formatting (ruff format --check); 0 skips that check.
RUFF_FORMAT ?= 1
DOCS_BUILD := docs/_build/html

# The lowest supported versions (requirements-floor.txt) in a second virtualenv, and
# the part of the suite run against them (components, settings, compat, one crawl).
FLOOR_VENV ?= .venv-floor
FLOOR_PY := $(FLOOR_VENV)/bin/python
FLOOR_STAMP := $(FLOOR_VENV)/.installed
FLOOR_TESTS ?= tests/test_settings_model.py tests/test_compat.py tests/test_robots_middleware.py \
	tests/test_pages_metarobotsmiddleware.py tests/test_urls_middlewares.py tests/test_downloader.py \
	tests/test_crawl_metarobots.py tests/test_downloader_slots.py

# The newest Python the classifiers name (3.13), from pyenv or PATH, in a third
# virtualenv with every pinned requirement, and the part of the suite run on it: the
# floor's list plus the import checks, the settings and a plain crawl.
PY313 ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3.13) $(shell command -v python3.13 2>/dev/null))
PY313_VENV ?= .venv-py313
PY313_PY := $(PY313_VENV)/bin/python
PY313_STAMP := $(PY313_VENV)/.installed
# The floor's crawl of meta robots is left out: on 3.13 a whole crawl is proven by
# test_crawl_basics.py, and what the meta robots crawl adds is the middleware's Scrapy
# glue, which varies with Scrapy (the floor's run), not with Python; the middleware's
# own tests stay in.
PY313_TESTS ?= $(filter-out tests/test_crawl_metarobots.py,$(FLOOR_TESTS)) tests/test_optional.py \
	tests/test_import_graph.py tests/test_settings.py tests/test_crawl_basics.py


# The suite runs in two parts (docs/project/development.md, "Tiers"): every test
# that tolerates company, on TEST_WORKERS pytest-xdist workers (one and a half per
# core: a test keeps about 0.6 of a core busy, the rest of its time it waits for its
# servers and crawls; the heaviest files first, each test handed to the next free
# worker), then the
# `serial` ones (they judge time: gaps, Crawl-delay, backoff, lease TTLs, kill
# timing) alone, one at a time. PYTEST_ARGS go to both (e.g. PYTEST_ARGS=-x).
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n + (n + 1) / 2 )))
PYTEST_ARGS ?=
PARALLEL_ARGS = -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder -m "not serial"
SERIAL_ARGS = -p no:xdist -m serial
# The Python 3.13 and lowest-Scrapy runs' tests that tolerate company, in one process
# each: they run beside the main run's workers, which keep both cores busy, so workers
# of their own would only add their starts and collections (each list's CPU a third
# less in one process). Alone on a machine, CORE_PARALLEL_ARGS='$(PARALLEL_ARGS)'
# spreads them over the cores.
CORE_PARALLEL_ARGS ?= -p no:xdist -m "not serial"
# More targets for the parallel phase of `make test` (.ci/run adds the other
# virtualenvs and the parallel parts of their runs, so that they share the cores).
TEST_ALSO ?=

# pywb (the replay player of the archive tests) and wacz, in their own virtualenv:
# pywb's pins (redis 2.x...) do not fit webrobot's dependencies.
REPLAY_VENV ?= .venv-replay
REPLAY_STAMP := $(REPLAY_VENV)/.installed


.PHONY: demo test serve bench clean system-deps lint docs report-png settings-reference build test-floor test-py313 replay-venv \
	test-parallel test-serial venv-floor venv-py313 test-floor-parallel test-floor-serial \
	test-py313-parallel test-py313-serial

$(UV):
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet $(UV_REQUIREMENT)

$(STAMP): requirements.txt requirements-dev.txt | $(UV)
	$(UV_INSTALL) $(PY) -r requirements-dev.txt
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m webrobot.demo crawl --out demo-output

serve: $(STAMP)
	$(PY) -m webrobot.demo serve

bench: $(STAMP)
	$(PY) -m benchmarks.run $(BENCH_ARGS)

system-deps:
	bash scripts/system-deps.sh $(SYSTEM_DEPS)

$(REPLAY_STAMP): requirements-replay.txt | $(UV)
	test -x $(REPLAY_VENV)/bin/python || $(PYTHON) -m venv $(REPLAY_VENV)
	$(UV_INSTALL) $(REPLAY_VENV)/bin/python -r requirements-replay.txt
	touch $(REPLAY_STAMP)

replay-venv: $(REPLAY_STAMP)

# Lint and type checks, the docs built with warnings as errors, then the test suite.
# The virtualenvs and the Debian packages first, at once; then the checks, the docs and
# the parallel part of the suite run at once (each failure stays fatal: make stops with
# an error once they end); then the serial part, alone.
test:
	$(MAKE) --no-print-directory -j --output-sync=target $(STAMP) replay-venv system-deps
	$(MAKE) --no-print-directory -j --output-sync=target lint docs test-parallel $(TEST_ALSO)
	$(MAKE) --no-print-directory test-serial

test-parallel: $(STAMP)
	$(PY) -m pytest $(PARALLEL_ARGS) $(PYTEST_ARGS)

test-serial: $(STAMP)
	$(PY) -m pytest $(SERIAL_ARGS) $(PYTEST_ARGS) || test $$? -eq 5

$(FLOOR_STAMP): requirements-floor.txt | $(UV)
	test -x $(FLOOR_PY) || $(PYTHON) -m venv $(FLOOR_VENV)
	$(UV_INSTALL) $(FLOOR_PY) -r requirements-floor.txt
	touch $(FLOOR_STAMP)

venv-floor: $(FLOOR_STAMP)

# The suite's core against the lowest supported Scrapy and protego (both parts).
test-floor: test-floor-parallel
	$(MAKE) --no-print-directory test-floor-serial

test-floor-parallel: $(FLOOR_STAMP) system-deps
	$(FLOOR_PY) -m pytest $(CORE_PARALLEL_ARGS) $(PYTEST_ARGS) -q $(FLOOR_TESTS)

test-floor-serial: $(FLOOR_STAMP) system-deps
	$(FLOOR_PY) -m pytest $(SERIAL_ARGS) $(PYTEST_ARGS) -q $(FLOOR_TESTS) || test $$? -eq 5

$(PY313_STAMP): requirements.txt requirements-dev.txt | $(UV)
	@test -n "$(PY313)" || { echo "make test-py313: no Python 3.13 (in ~/.pyenv/versions/3.13.* or on PATH): pass PY313=/path/to/python3.13" >&2; exit 1; }
	test -x $(PY313_PY) || $(PY313) -m venv $(PY313_VENV)
	$(UV_INSTALL) $(PY313_PY) -r requirements-dev.txt
	touch $(PY313_STAMP)

venv-py313: $(PY313_STAMP)

# The suite's core on Python 3.13 (both parts).
test-py313: test-py313-parallel
	$(MAKE) --no-print-directory test-py313-serial

test-py313-parallel: $(PY313_STAMP) system-deps
	$(PY313_PY) -m pytest $(CORE_PARALLEL_ARGS) $(PYTEST_ARGS) -q $(PY313_TESTS)

test-py313-serial: $(PY313_STAMP) system-deps
	$(PY313_PY) -m pytest $(SERIAL_ARGS) $(PYTEST_ARGS) -q $(PY313_TESTS) || test $$? -eq 5

# An sdist and a wheel in dist/ (no build dependency downloaded).
build: $(STAMP)
	$(PY) -m build --no-isolation --outdir dist .

lint: $(STAMP)
	$(PY) -m ruff check .
ifeq ($(RUFF_FORMAT),1)
	$(PY) -m ruff format --check .
endif
	$(PY) -m mypy

docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html docs $(DOCS_BUILD)

# docs/reference/settings.md and components.md from webrobot/settingsmodel/model.py.
settings-reference: $(STAMP)
	$(PY) scripts/settings_reference.py

# docs/report.png from a crawl of the demo web, in headless Chromium.
report-png: $(STAMP) system-deps
	$(PY) scripts/report_png.py

clean:
	rm -rf $(VENV) $(FLOOR_VENV) $(PY313_VENV) $(REPLAY_VENV) demo-output benchmarks-output build dist *.egg-info docs/_build
