# The two commands of the quick start: `make run` and `make test`. Each installs what it needs first.
SHELL := /bin/bash
SWIFT ?= swift
VENV := .venv
DATA ?= saessak-data
HOST ?= 127.0.0.1
PORT ?= 8080

.PHONY: run test bench fuzz deps venv

deps:
	@scripts/install-deps.sh

venv: $(VENV)/.installed

$(VENV)/.installed: blackbox/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r blackbox/requirements.txt
	touch $@

## Build an optimised server and run it on ./saessak-data (created on first run).
run: deps
	$(SWIFT) build -c release --product saessak
	.build/release/saessak serve --data $(DATA) --host $(HOST) --port $(PORT)

## Every test: the Swift test targets, then the black-box tests of the built binary (API, CLI, crash safety), each
## with a throwaway PostgreSQL cluster for the suites that run on both engines.
test: deps venv
	$(SWIFT) build --build-tests
	scripts/with-postgres.sh $(SWIFT) test --skip-build
	SAESSAK_BIN="$$($(SWIFT) build --show-bin-path)/saessak" scripts/with-postgres.sh $(VENV)/bin/python -m pytest -q blackbox

## Benchmarks (never part of `make test`): one table, with ratios against references measured in the same run.
bench: deps venv
	$(SWIFT) build -c release --product saessak
	$(SWIFT) build -c release --product calendar-benchmark
	$(SWIFT) build -c release --product photo-benchmark
	$(SWIFT) build -c release --product search-benchmark
	$(VENV)/bin/python scripts/bench.py --bin .build/release/saessak --calendar-bin .build/release/calendar-benchmark \
		--photo-bin .build/release/photo-benchmark --search-bin .build/release/search-benchmark

## Coverage-guided fuzzing (never part of `make test`): every target in Fuzz/Targets for FUZZ_SECONDS (default 60)
## on its committed corpus in Fuzz/corpus; see docs/reliability.md.
fuzz: deps
	scripts/fuzz.sh
