# coordinatord — two commands: `make run` and `make test`.
SWIFT ?= swift
DATABASE ?= ./data/coordinatord.sqlite
PORT ?= 8080
PREFIX ?= /usr/local
# Debian packages the build needs, and those only the tests and the benchmark need; installed when missing.
DEB_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev libsodium-dev libpq-dev liblz4-dev libgoogle-perftools-dev
TEST_PACKAGES := chromium chromium-driver postgresql nginx-light
# Pinned: unpinned, pip took the newest openapi-spec-validator (0.9) and fell back to an
# openapi-core (0.14) that cannot import it; 0.23.1 brings the validator it works with.
OPENAPI_CORE := 0.23.1
# The Python generator the typed-client check uses (the version a client team reported on).
OPENAPI_PYTHON_CLIENT := 0.29.1
BENCH_PACKAGES := wrk postgresql

.PHONY: all deps test-deps build release run test generated-client python-client docs bench install clean

all: build

## deps: install missing Debian packages (apt-get as root; otherwise print the command and stop)
deps:
	@scripts/apt-ensure $(DEB_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: build and serve on localhost:$(PORT) with ./data/coordinatord.sqlite
run: build
	.build/debug/coordinatord serve --port $(PORT) --database $(DATABASE)

## test-deps: what only the tests need (Chromium for the browser test, the OpenAPI validators)
test-deps:
	@scripts/apt-ensure $(TEST_PACKAGES)
	@python3 -c "import yaml, openapi_spec_validator, selenium; from openapi_core import Config, OpenAPI" 2>/dev/null \
	  || python3 -m pip install -q pyyaml "openapi-core==$(OPENAPI_CORE)" openapi-spec-validator selenium
	@command -v openapi-python-client >/dev/null && openapi-python-client --version | grep -q "$(OPENAPI_PYTHON_CLIENT)" \
	  || python3 -m pip install -q "openapi-python-client==$(OPENAPI_PYTHON_CLIENT)"

# Apps built on the platform, each its own package depending on this one by path. Examples/Greeter
# (the guide's code) is built, tested and served by GuideTests, from a copy outside the repository.
EXAMPLES := Examples/Shop

# The generated-client check: a Swift client generated from the sample app's served document.
GENERATED := Tests/GeneratedClient
VALIDATE := python3 $(GENERATED)/scripts/validate-exchanges.py

# At most this many tests at once (Swift Testing's option, experimental in Swift 6.3). Unbounded,
# the suite started ~220 servers at once on two cores (load average 73-105), where any process
# that must run in time (a lock holder, Chromium drawing a page) waits behind all of them. With
# 16 the suite without the guide's build took 137 s at a load average of at most 22, against
# 140 s unbounded.
TEST_WIDTH ?= 16

## test: build and run every test (unit, integration against the real binary; GuideTests builds the guide's package outside the repository), the examples', and the generated client's; then the documentation, warnings refused
test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --experimental-maximum-parallelization-width $(TEST_WIDTH)
	@for example in $(EXAMPLES); do \
	  echo "== $$example"; \
	  rm -f $(CURDIR)/$$example/.build/exchanges.jsonl; \
	  (cd $$example && $(SWIFT) build --build-tests \
	    && OPENAPI_EXCHANGE_LOG=$(CURDIR)/$$example/.build/exchanges.jsonl $(SWIFT) test --skip-build) || exit 1; \
	done
	Examples/Shop/.build/debug/shop openapi > Examples/Shop/.build/openapi.yaml
	$(VALIDATE) Examples/Shop/.build/openapi.yaml Examples/Shop/.build/exchanges.jsonl
	@$(MAKE) --no-print-directory generated-client
	@$(MAKE) --no-print-directory python-client
	@$(MAKE) --no-print-directory docs

## generated-client: generate a Swift client from the sample app's document (swift-openapi-generator), walk the README journey with it against the real server, and validate every exchange strictly (openapi-core)
generated-client:
	.build/debug/coordinatord openapi > $(GENERATED)/Sources/SampleClient/openapi.yaml
	rm -f $(GENERATED)/.build/exchanges.jsonl
	cd $(GENERATED) && $(SWIFT) build --build-tests \
	  && OPENAPI_SERVER_BINARY=$(CURDIR)/.build/debug/coordinatord \
	     OPENAPI_EXCHANGE_LOG=$(CURDIR)/$(GENERATED)/.build/exchanges.jsonl $(SWIFT) test --skip-build
	$(VALIDATE) $(GENERATED)/Sources/SampleClient/openapi.yaml $(GENERATED)/.build/exchanges.jsonl

## python-client: generate Python clients from the sample app's and the Shop's documents (openapi-python-client) and walk each journey with them against the real binaries, every problem typed and every exchange validated strictly (the Shop's binary comes from `make test`'s Examples step)
PYTHON_CLIENT := Tests/GeneratedClient/.build/python
python-client:
	rm -rf $(PYTHON_CLIENT) && mkdir -p $(PYTHON_CLIENT)
	.build/debug/coordinatord openapi > $(PYTHON_CLIENT)/openapi.yaml
	cd $(PYTHON_CLIENT) && openapi-python-client generate --path openapi.yaml --output-path sample_client --meta none
	OPENAPI_EXCHANGE_LOG=$(CURDIR)/$(PYTHON_CLIENT)/sample.jsonl \
	  python3 $(GENERATED)/python/journey.py $(CURDIR)/.build/debug/coordinatord $(CURDIR)/$(PYTHON_CLIENT)/sample_client
	$(VALIDATE) $(PYTHON_CLIENT)/openapi.yaml $(PYTHON_CLIENT)/sample.jsonl
	Examples/Shop/.build/debug/shop openapi > $(PYTHON_CLIENT)/shop.yaml
	cd $(PYTHON_CLIENT) && openapi-python-client generate --path shop.yaml --output-path shop_client --meta none
	OPENAPI_EXCHANGE_LOG=$(CURDIR)/$(PYTHON_CLIENT)/shop.jsonl \
	  python3 $(GENERATED)/python/shop_journey.py $(CURDIR)/Examples/Shop/.build/debug/shop $(CURDIR)/$(PYTHON_CLIENT)/shop_client
	$(VALIDATE) $(PYTHON_CLIENT)/shop.yaml $(PYTHON_CLIENT)/shop.jsonl

## docs: the public modules' DocC documentation (swift-docc-plugin) in .build/docs, one archive each; any DocC warning fails it
DOCS_TARGETS := Navigation CoordinatorApp CoordinatorServer CoordinatorFlowTesting CoordinatorTesting CoordinatorClient
docs: deps
	@mkdir -p .build/docs  # swift-docc-plugin moves each archive there, and fails when the folder is missing
	@for target in $(DOCS_TARGETS); do \
	  $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target $$target \
	    --output-path .build/docs/$$target.doccarchive --disable-indexing --warnings-as-errors || exit 1; \
	done
	@echo "DocC archives in .build/docs (preview one: swift package --disable-sandbox preview-documentation --target Navigation)"

## bench: release build, then the benchmark table, SQLite and PostgreSQL (bench/run.py; options: make bench BENCH_ARGS="--seconds 20" or "--only postgresql" or "--only peer"; the peer, bench/peer, is built here only)
bench: release
	@scripts/apt-ensure $(BENCH_PACKAGES)
	$(SWIFT) build -c release --package-path bench/peer --scratch-path .build/peer
	python3 bench/run.py $(BENCH_ARGS)

## install: the release binary (its migrations, web client and OpenAPI document are built into it) and the systemd unit under $(PREFIX)
install: release
	install -D -m 0755 .build/release/coordinatord $(DESTDIR)$(PREFIX)/bin/coordinatord
	install -D -m 0644 deploy/coordinatord.service $(DESTDIR)/etc/systemd/system/coordinatord.service

clean:
	rm -rf .build $(GENERATED)/.build
