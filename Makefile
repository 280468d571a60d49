# The two commands: `make run` and `make test`. Everything else is a step of those.
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

CARGO ?= cargo
# `make run` builds the `demo` profile (Cargo.toml: dependencies unoptimized,
# no incremental cache) without the Kafka adapter the embedded mode never uses:
# a first run on two cores is minutes, not ten. `make run PROFILE=release` for
# an optimized build.
PROFILE ?= demo
TARGET_DIR := target/$(if $(filter dev,$(PROFILE)),debug,$(PROFILE))
WEB_SOURCES := $(shell find web/src web/index.html web/vite.config.ts web/vite-precompress.ts web/tsconfig*.json -type f 2>/dev/null)

.PHONY: help run test deps build web test-rust test-web test-e2e test-faults test-upgrade fuzz soak login-storm bench bench-smoke bench-scale lint validate-deploy fmt proto clean

help:
	@echo "make run    build everything and start w-meter (embedded mode, demo network) on http://127.0.0.1:8080"
	@echo "make test   install what the tests need, then run every test against real servers"
	@echo "make bench  measure every benchmark figure against its raw reference; appends to bench/RESULTS.md"

## run: build the dashboard and the binary, then start the embedded mode with the demo network.
run:
	$(MAKE) --no-print-directory -j2 web build
	WMETER_LOG__FORMAT=$${WMETER_LOG__FORMAT:-pretty} $(TARGET_DIR)/wmeter serve --demo

build:
	$(CARGO) build --profile $(PROFILE) -p wmeter --bin wmeter --no-default-features

web: web/dist/index.html

# The web's packages: what its build needs (`dependencies`, Vite among them)
# for `make run`, or all of them (the test and lint tools are
# `devDependencies`) for the tests. A full install serves both; docs/web.md.
web/node_modules/.installed-build: web/package.json web/package-lock.json
	cd web && npm ci --omit=dev --no-audit --no-fund
	touch $@

web/node_modules/.installed-all: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@ web/node_modules/.installed-build

web/dist/index.html: web/node_modules/.installed-build $(WEB_SOURCES)
	cd web && npm run build

## test: every suite, against real PostgreSQL and a real Kafka-protocol broker.
test: deps web/node_modules/.installed-all
	deploy/dev/test.sh all

test-rust: deps
	deploy/dev/test.sh rust

test-web: web/node_modules/.installed-all
	deploy/dev/test.sh web

test-e2e: web/node_modules/.installed-all web/dist/index.html
	deploy/dev/chromium.sh install
	deploy/dev/mosquitto.sh install
	deploy/dev/test.sh e2e

## test-faults: the fault scenarios alone (they also run in make test); docs/reliability.md.
test-faults: deps
	deploy/dev/test.sh faults

## test-upgrade: the previous commit's wmeter (built once, cached in .cache/previous) serves a database this one migrated and wrote to.
test-upgrade:
	deploy/dev/upgrade.sh

## fuzz: every cargo fuzz target for FUZZ_SECONDS each (default 10 min), keeping the corpus in .cache/fuzz.
FUZZ_SECONDS ?= 600
fuzz:
	deploy/dev/fuzz.sh install
	deploy/dev/schemathesis.sh install
	deploy/dev/fuzz.sh run $(FUZZ_SECONDS) keep

## soak: 30 min of the simulator at half the max rate with 500 SSE clients (release build, not in CI); appends its drift to bench/RESULTS.md.
soak: web/dist/index.html
	bench/soak.sh

## login-storm: 200 wrong sign-ins a second for 60 s, from one address and from many; read p99 and memory (not in CI).
login-storm: web/dist/index.html
	bench/login-storm.sh

## bench: every figure of bench/README.md against its raw reference (release build, up to 30 min); appends to bench/RESULTS.md.
bench: deps web/node_modules/.installed-all web/dist/index.html
	deploy/dev/test.sh bench

## bench-scale: the API and the seeder at 1,000,000 meters and 50,000,000 readings, SQLite and PostgreSQL (release build, hours, not in CI; WM_SCALE sets another scale, WM_SCALE_ON=sqlite or postgres one database); appends to bench/RESULTS.md.
bench-scale: deps web/node_modules/.installed-all web/dist/index.html
	deploy/dev/test.sh bench-scale

## bench-smoke: the same harness, tiny and on the debug build; part of make test.
bench-smoke: deps web/node_modules/.installed-all web/dist/index.html
	deploy/dev/test.sh bench-smoke

lint:
	deploy/dev/openssl.sh install
	deploy/dev/test.sh lint

## validate-deploy: docker-compose.yml, deploy/k8s and deploy/monitoring (promtool), validated offline, plus the self-test.
validate-deploy:
	deploy/dev/validate-deploy.sh all

## deps: install the toolchain parts and servers the tests use, when missing.
deps:
	cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
	cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
	deploy/dev/openssl.sh install
	deploy/dev/postgres.sh install
	deploy/dev/mosquitto.sh install
	deploy/dev/tansu.sh install
	deploy/dev/smtp.sh install
	deploy/dev/chromium.sh install
	deploy/dev/validate-deploy.sh install
	deploy/dev/fuzz.sh install

fmt:
	$(CARGO) fmt --all

## proto: write libs/wm-proto/src/generated anew from proto/wmeter/v1 (a test fails until it is).
proto:
	WM_PROTO_WRITE=1 $(CARGO) test -p wm-proto --test events generated

clean:
	$(CARGO) clean
	rm -rf web/dist web/node_modules .cache
