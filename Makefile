# The two commands of the quick start: `make run` and `make test`. Each installs what it needs first.
SHELL := /bin/bash
SWIFT ?= swift
VENV := .venv
DATA ?= saessak-data
HOST ?= 127.0.0.1
PORT ?= 8080
# Optimised builds carry the Swift runtime inside (what the Debian package needs, and the same for `make run` and the
# benchmarks: a module compiled for one way of linking cannot be linked the other way).
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib

.PHONY: run test bench fuzz deps venv package

deps:
	@scripts/install-deps.sh

venv: $(VENV)/.installed

$(VENV)/.installed: blackbox/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r blackbox/requirements.txt
	touch $@

## Build an optimised server and run it on ./saessak-data (created on first run).
run: deps
	$(RELEASE_BUILD) --product saessak
	.build/release/saessak serve --data $(DATA) --host $(HOST) --port $(PORT)

# Which black-box modules run again on PostgreSQL and with photos in object storage is said by each module's pytest
# marker (`engine`, `photos`; blackbox/pytest.ini): everything but the browser, calendar-oracle, schema and SQLite-file
# crash tests depends on the engine; every module that stores, serves, backs up or imports photos on the photo store.

## Every test, in two stages side by side once the debug build is made (each stage's output printed whole when it ends):
##   test-sqlite  the Swift test targets (the store suites on SQLite and on a throwaway PostgreSQL cluster, object
##                storage on a throwaway S3-compatible store), then the black-box tests of the built binary (API, CLI,
##                crash safety, the browser) on SQLite and the photo folder, then the Debian package installed into a
##                debootstrapped bookworm, then the several-servers test on PostgreSQL and object storage together,
##                then the Swift test targets again pinned to one core;
##   test-more    the package's own build, then the engine-dependent black-box modules on PostgreSQL, then the photo
##                modules with photos in object storage.
## The package holds a debug build with the Swift runtime inside, in .build/static (a module compiled for one way of
## linking cannot be linked the other way): `test-more` builds it first, and `test-sqlite`'s own build of it waits for
## that one (SwiftPM's lock) or finds it done. The black-box passes run their modules on two pytest-xdist workers each
## (a module stays on one worker, the longest modules first): a test mostly waits on the server it started.
## docs/reliability.md, "How long make test takes", has the times. When something fails, the last thing printed is what
## failed (scripts/report-failures.sh: each failed test's report and where make stopped a stage), because CI keeps only
## the end of the output; test-artefacts/make-test.log keeps all of it.
ARTEFACTS := $(CURDIR)/test-artefacts
test: deps venv
	$(SWIFT) build --build-tests
	@mkdir -p $(ARTEFACTS) && rm -f $(ARTEFACTS)/failures.txt $(ARTEFACTS)/make-test.log
	@set -o pipefail; SAESSAK_FAILURES=$(ARTEFACTS)/failures.txt \
		$(MAKE) --no-print-directory -j2 --output-sync=target test-sqlite test-more 2>&1 | tee $(ARTEFACTS)/make-test.log \
		|| scripts/report-failures.sh $(ARTEFACTS)

BIN_PATH = $$($(SWIFT) build --show-bin-path)/saessak
# The program the package test packages (blackbox/test_package.py reads it from .build/static/debug/saessak).
STATIC_BUILD = $(SWIFT) build --product saessak --static-swift-stdlib --scratch-path .build/static
PYTEST = $(VENV)/bin/python -m pytest -q --durations=12
PYTEST_WORKERS = $(PYTEST) -n 2 --dist loadfile

# The generated round trips draw 20 families on SQLite and 6 on each further engine and store (the same generator,
# fewer draws: 10 took 5½ minutes of a PostgreSQL worker); ROUNDTRIP_EXAMPLES set in the environment sets them all.
.PHONY: test-sqlite test-more
test-sqlite:
	SAESSAK_TEST_PYTHON=$(VENV)/bin/python SAESSAK_TEST_BCRYPT_COST=4 scripts/with-postgres.sh scripts/with-object-store.sh $(SWIFT) test --skip-build
	SAESSAK_BIN="$(BIN_PATH)" scripts/with-postgres.sh $(PYTEST_WORKERS) -m "not package" blackbox
	$(STATIC_BUILD)
	SAESSAK_BIN="$(BIN_PATH)" $(PYTEST) -m package blackbox
	SAESSAK_BIN="$(BIN_PATH)" SAESSAK_BLACKBOX_ENGINE=postgres SAESSAK_BLACKBOX_PHOTOS=s3 \
		scripts/with-postgres.sh scripts/with-object-store.sh $(PYTEST) blackbox/test_multi_server.py
	# The Swift suite again on one core, as a one-vCPU home server runs: a task pool of one thread stands still if
	# anything blocks it (issue 66); about three minutes, at the end of the
	# shorter stage.
	SAESSAK_TEST_PYTHON=$(VENV)/bin/python SAESSAK_TEST_BCRYPT_COST=4 taskset -c 0 scripts/with-postgres.sh scripts/with-object-store.sh \
		$(SWIFT) test --skip-build

test-more:
	$(STATIC_BUILD)
	SAESSAK_BIN="$(BIN_PATH)" SAESSAK_BLACKBOX_ENGINE=postgres ROUNDTRIP_EXAMPLES=$${ROUNDTRIP_EXAMPLES:-6} scripts/with-postgres.sh \
		$(PYTEST_WORKERS) -m engine blackbox
	SAESSAK_BIN="$(BIN_PATH)" SAESSAK_BLACKBOX_PHOTOS=s3 ROUNDTRIP_EXAMPLES=$${ROUNDTRIP_EXAMPLES:-6} scripts/with-object-store.sh \
		$(PYTEST_WORKERS) -m photos blackbox

## One piece of the suite, for working on it (after `make test` has installed what it needs once):
##   make swift-test FILTER=StoreTests.SharingStoreTests     a Swift suite or test, on SQLite and PostgreSQL
##   make blackbox-test MODULE=test_sessions ENGINE=postgres PHOTOS=s3     one black-box module (ENGINE=sqlite and
##                                                            PHOTOS=folder when left out), against the debug build
.PHONY: swift-test blackbox-test
FILTER ?=
MODULE ?=
ENGINE ?= sqlite
PHOTOS ?= folder
swift-test:
	$(SWIFT) build --build-tests
	SAESSAK_TEST_PYTHON=$(VENV)/bin/python SAESSAK_TEST_BCRYPT_COST=4 scripts/with-postgres.sh scripts/with-object-store.sh \
		$(SWIFT) test --skip-build $(if $(FILTER),--filter '$(FILTER)')

blackbox-test:
	$(SWIFT) build --product saessak
	$(if $(filter test_package,$(MODULE)),$(STATIC_BUILD))
	SAESSAK_BIN="$(BIN_PATH)" SAESSAK_BLACKBOX_ENGINE=$(ENGINE) SAESSAK_BLACKBOX_PHOTOS=$(PHOTOS) \
		scripts/with-postgres.sh $(if $(filter s3,$(PHOTOS)),scripts/with-object-store.sh) $(PYTEST) \
		blackbox/$(MODULE).py

## The Debian package of an optimised build with the Swift runtime linked in: saessak_VERSION_ARCH.deb in dist/
## (docs/deploy.md, "The package"). `make test` installs one into a debootstrapped bookworm (blackbox/test_package.py).
package: deps
	$(RELEASE_BUILD) --product saessak
	scripts/build-deb.sh .build/release/saessak dist

## Benchmarks (never part of `make test`): one table, with ratios against references measured in the same run.
bench: deps venv
	$(RELEASE_BUILD) --product saessak
	$(RELEASE_BUILD) --product calendar-benchmark
	$(RELEASE_BUILD) --product photo-benchmark
	$(RELEASE_BUILD) --product search-benchmark
	$(RELEASE_BUILD) --product place-benchmark
	$(VENV)/bin/python scripts/bench.py --bin .build/release/saessak --calendar-bin .build/release/calendar-benchmark \
		--photo-bin .build/release/photo-benchmark --search-bin .build/release/search-benchmark \
		--place-bin .build/release/place-benchmark

## Coverage-guided fuzzing (never part of `make test`): every target in Fuzz/Targets for FUZZ_SECONDS (default 60)
## on its committed corpus in Fuzz/corpus; see docs/reliability.md.
fuzz: deps
	scripts/fuzz.sh
