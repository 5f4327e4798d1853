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
# 1: `make lint` also checks formatting (ruff format --check). Off until the tree has been
# formatted once with `ruff format`; then set it to 1 here.
RUFF_FORMAT ?= 0
DOCS_BUILD := docs/_build/html

.PHONY: demo test serve bench clean system-deps lint docs report-png settings-reference

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

# Lint and type checks, the docs built with warnings as errors, then the test suite.
test: $(STAMP) system-deps lint docs
	$(PY) -m pytest

lint: $(STAMP)
	$(PY) -m ruff check .
ifeq ($(RUFF_FORMAT),1)
	$(PY) -m ruff format --check .
endif
	$(PY) -m mypy

docs: $(STAMP)
	$(PY) -m sphinx -W --keep-going -q -b html docs $(DOCS_BUILD)

# docs/reference/settings.md from webrobot/settings.py.
settings-reference: $(STAMP)
	$(PY) scripts/settings_reference.py

# docs/report.png from a crawl of the demo web, in headless Chromium.
report-png: $(STAMP) system-deps
	$(PY) scripts/report_png.py

clean:
	rm -rf $(VENV) demo-output benchmarks-output build dist *.egg-info docs/_build
