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

.PHONY: demo test serve bench clean system-deps

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

clean:
	rm -rf $(VENV) demo-output benchmarks-output build dist *.egg-info
