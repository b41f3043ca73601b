# coordinatord — two commands: `make run` and `make test`.
SWIFT ?= swift
DATABASE ?= ./data/coordinatord.sqlite
PORT ?= 8080
PREFIX ?= /usr/local
# Debian packages the build and the tests need; installed when missing.
DEB_PACKAGES := pkg-config libmicrohttpd-dev libsqlite3-dev libsodium-dev

.PHONY: all deps test-deps build release run test bench install clean

all: build

## deps: install missing Debian packages (apt-get as root; otherwise print the command and stop)
deps:
	@missing=""; \
	for package in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	  else \
	    echo "Missing Debian packages:$$missing"; \
	    echo "Install them with: sudo apt-get update && sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## run: build and serve on localhost:$(PORT) with ./data/coordinatord.sqlite
run: build
	.build/debug/coordinatord serve --port $(PORT) --database $(DATABASE)

## test-deps: what only the tests need (the OpenAPI validator)
test-deps:
	@python3 -c "import yaml, openapi_spec_validator" 2>/dev/null || python3 -m pip install -q pyyaml openapi-spec-validator

## test: build and run every test (unit, integration against the real binary)
test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## install: the release binary, its migrations and the systemd unit under $(PREFIX)
install: release
	install -D -m 0755 .build/release/coordinatord $(DESTDIR)$(PREFIX)/bin/coordinatord
	install -d $(DESTDIR)$(PREFIX)/share/coordinatord/migrations
	install -m 0644 migrations/*.sql $(DESTDIR)$(PREFIX)/share/coordinatord/migrations/
	install -D -m 0644 api/openapi.yaml $(DESTDIR)$(PREFIX)/share/coordinatord/api/openapi.yaml
	install -D -m 0644 deploy/coordinatord.service $(DESTDIR)/etc/systemd/system/coordinatord.service

clean:
	rm -rf .build
