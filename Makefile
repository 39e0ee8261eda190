# leadline — the two commands a newcomer needs are `make run` and `make test`.
# Every target installs missing Debian packages first, so a fresh Debian 12 machine needs nothing else.

BUILD_DIR ?= build
JOBS      ?= $(shell nproc)
LISTEN    ?= 127.0.0.1:8080
DB        ?= sqlite:./data/leadline.db

DEB_PACKAGES := g++ cmake ninja-build pkg-config libboost1.81-dev libboost-json1.81-dev \
                libboost-url1.81-dev libboost-program-options1.81-dev libboost-context1.81-dev libsqlite3-dev libpq-dev \
                libhiredis-dev libssl-dev libgtest-dev postgresql redis-server clang-14 \
                libclang-rt-14-dev libtomlplusplus-dev ccache mold libcurl4-openssl-dev \
                libsodium-dev

# Installing needs root: as another user the Makefile runs apt-get through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# apt-get that waits (up to 10 minutes) for another package manager's lock, such as that of
# unattended-upgrades on a fresh machine, instead of failing at once.
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive $(CURDIR)/tools/apt-get-waiting.sh

.PHONY: deps build build-binary run test clean format

# Installs those of the Debian packages $(1) that are missing (one apt-get for all of them).
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq $$missing; \
	fi
endef

# The Debian packages, then Node.js (when the machine has none) and the npm tooling of tools/
# (pinned by its lockfile): the build embeds Redoc's bundle from it for the /docs page.
deps:
	$(call install_missing,$(DEB_PACKAGES))
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "installing: nodejs npm"; \
	  $(APT_GET) update -qq && $(APT_GET) install -y -qq nodejs npm; }
	@[ tools/node_modules/.package-lock.json -nt tools/package-lock.json ] || \
	  (cd tools && npm ci --no-audit --no-fund --loglevel=error)

# What only the tests need beyond that: Debian's Chromium, which the reference page's browser
# test drives through playwright-core.
TEST_DEB_PACKAGES := chromium

.PHONY: test-deps
test-deps: deps tools/bin/promtool
	$(call install_missing,$(TEST_DEB_PACKAGES))

# promtool (the operations tests run `promtool check metrics`) from Debian's prometheus package,
# unpacked here rather than installed: installing would also set up and start a Prometheus server.
tools/bin/promtool:
	@rm -rf tools/bin/deb && mkdir -p tools/bin/deb
	cd tools/bin/deb && { apt-get download prometheus 2>/dev/null || \
	  { $(APT_GET) update -qq && apt-get download prometheus; }; }
	dpkg-deb -x tools/bin/deb/prometheus_*.deb tools/bin/deb/root
	cp tools/bin/deb/root/usr/bin/promtool $@ && rm -rf tools/bin/deb

$(BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release

# The optimised `leadline` binary alone, with what it embeds (migrations, the OpenAPI document,
# Redoc's bundle): all that `make run` needs, at a fraction of the whole build.
build-binary: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS) --target leadline

# Everything the tree builds: the binary, its man page, every test suite and the soak driver,
# which is what `make test` runs.
build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build-binary
	@mkdir -p data
	./$(BUILD_DIR)/leadline serve --listen $(LISTEN) --db $(DB) --demo

# The whole suite (recording every response the black-box suites receive), the OpenAPI lint,
# the check of those responses against docs/openapi.yaml, then every fuzz target's corpus,
# regressions and a short fuzz run.
#
# The suite's black-box tests spend much of their time waiting on the servers they start, so
# the fuzz targets are built meanwhile, at the lowest CPU priority: they take only the cycles the
# tests leave idle (a cold `make test` on 2 cores: about a minute and a half less).
CONTRACT_DIR := $(BUILD_DIR)/contract
FUZZ_BUILD_DIR     ?= build-fuzz
FUZZ_SECONDS       ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_JOBS          ?= 2
FUZZ_BUILD_LOG := $(BUILD_DIR)/fuzz-build.log

test: build test-deps $(FUZZ_BUILD_DIR)/build.ninja
	rm -rf $(CONTRACT_DIR) && mkdir -p $(CONTRACT_DIR)
	@nice -n 19 cmake --build $(FUZZ_BUILD_DIR) -j $(FUZZ_JOBS) --target fuzzers \
	  > $(FUZZ_BUILD_LOG) 2>&1 & fuzz_build=$$!; \
	status=0; \
	( cd $(BUILD_DIR) && LEADLINE_CONTRACT_LOG_DIR=$(CURDIR)/$(CONTRACT_DIR) \
	  ctest --output-on-failure -j $(JOBS) ) || status=$$?; \
	if ! wait $$fuzz_build; then echo "building the fuzz targets failed:"; cat $(FUZZ_BUILD_LOG); \
	  exit 1; fi; \
	exit $$status
	$(MAKE) --no-print-directory openapi-lint
	cat $(CONTRACT_DIR)/*.jsonl | node tools/openapi/check-responses.mjs --spec docs/openapi.yaml -
	$(MAKE) --no-print-directory fuzz-smoke

# Node.js tooling (tools/package.json, pinned by its lockfile): OpenAPI lint, contract check,
# Redoc, playwright-core. `deps` installs it; the name stays for those who know it.
.PHONY: tools-deps openapi-lint
tools-deps: deps

# docs/openapi.json (what the server embeds and serves) must be the bundle of docs/openapi.yaml;
# `make openapi-json` regenerates it after an edit of the YAML.
openapi-lint: tools-deps
	cd tools && npx --no-install redocly lint ../docs/openapi.yaml --config redocly.yaml
	cd tools && npx --no-install redocly bundle ../docs/openapi.yaml --ext json \
	  -o $(CURDIR)/$(BUILD_DIR)/openapi.bundled.json >/dev/null
	@cmp -s docs/openapi.json $(BUILD_DIR)/openapi.bundled.json || { \
	  echo "docs/openapi.json is not the bundle of docs/openapi.yaml: run make openapi-json"; exit 1; }
	cd tools && sh openapi/selftest.sh

.PHONY: openapi-json
openapi-json: tools-deps
	cd tools && npx --no-install redocly bundle ../docs/openapi.yaml --ext json -o ../docs/openapi.json

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)

# --- Reliability (RELIABILITY.md): sanitizer suites, crash durability, soak. ---
# The sanitizer builds live in their own directories and run the whole ctest suite; any report
# aborts the process that made it (test binary or the `leadline` it started), so the test fails.

ASAN_DIR     ?= build-asan
TSAN_DIR     ?= build-tsan
ROUNDS       ?= 20
SOAK_SECONDS ?= 600

# GCC 12's -Wmaybe-uninitialized misfires on instrumented code inside libstdc++ <regex> and
# boost::optional (as GCC's manual warns for sanitizers), so the sanitizer builds turn it off.
SAN_SUPP     := $(CURDIR)/tools/sanitizers
comma        := ,
# -O1 as the sanitizer manuals advise; -g1 keeps file:line in reports at a fraction of -g's
# compile time, which keeps the CI sanitizer run short. Asserts stay on.
SAN_OPT      := -O1 -g1
ASAN_CXX     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined \
                -Wno-maybe-uninitialized
# GCC 12 warns (-Wtsan) that ThreadSanitizer does not model atomic_thread_fence, which Asio's
# fenced blocks use; with warnings as errors that would stop the build in Boost's headers.
TSAN_CXX     := -fsanitize=thread -fno-omit-frame-pointer -Wno-maybe-uninitialized -Wno-tsan
ASAN_ENV     := ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:print_stacktrace=1:detect_stack_use_after_return=1:strict_init_order=1 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
TSAN_ENV     := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$(SAN_SUPP)/tsan.supp

.PHONY: test-asan test-tsan crash-test soak

# $(call sanitizer_suite,BUILD_DIR,COMPILE_FLAGS,LINK_FLAGS,ENVIRONMENT): configure, build and run
# every test (narrowed by SAN_TESTS_EXCLUDE, a ctest -E regex, when set).
define sanitizer_suite
	cmake -S . -B $(1) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$(SAN_OPT)" -DCMAKE_CXX_FLAGS="$(2)" \
	  -DCMAKE_EXE_LINKER_FLAGS="$(3)" -DCMAKE_SHARED_LINKER_FLAGS="$(3)"
	cmake --build $(1) -j $(JOBS)
	cd $(1) && $(4) ctest --output-on-failure -j $(JOBS) $(if $(SAN_TESTS_EXCLUDE),-E '$(SAN_TESTS_EXCLUDE)')
endef

test-asan: test-deps
	$(call sanitizer_suite,$(ASAN_DIR),$(ASAN_CXX),-fsanitize=address$(comma)undefined,$(ASAN_ENV))

test-tsan: test-deps
	$(call sanitizer_suite,$(TSAN_DIR),$(TSAN_CXX),-fsanitize=thread,$(TSAN_ENV))

# SIGKILL-and-restart rounds against the real server (`make test` runs 3 of them).
crash-test: build
	cd $(BUILD_DIR) && ROUNDS=$(ROUNDS) ctest --output-on-failure -R '^durability\.'

# Mixed load against a Release `leadline serve` for SOAK_SECONDS; fails on any non-429 error
# or on more than 5% RSS growth after the warm-up.
soak: build
	cmake --build $(BUILD_DIR) -j $(JOBS) --target soak_driver
	tools/soak/run_soak.sh $(BUILD_DIR) $(SOAK_SECONDS)

# --- fuzzing: libFuzzer targets in fuzz/, built with clang-14 in their own build dir ---
# (FUZZ_BUILD_DIR, FUZZ_SECONDS, FUZZ_SMOKE_SECONDS, FUZZ_JOBS: at the top, as `test` needs them.)

.PHONY: fuzz-build fuzz fuzz-smoke

$(FUZZ_BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(FUZZ_BUILD_DIR) -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DLEADLINE_FUZZ=ON \
	  -DLEADLINE_BUILD_TESTS=OFF

fuzz-build: deps $(FUZZ_BUILD_DIR)/build.ninja
	cmake --build $(FUZZ_BUILD_DIR) -j $(FUZZ_JOBS) --target fuzzers

# FUZZ_SECONDS per target, each on a scratch copy of its seed corpus, FUZZ_JOBS at a time.
fuzz: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh long $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS)

# Seed corpus + regressions replayed, then FUZZ_SMOKE_SECONDS per target.
fuzz-smoke: fuzz-build
	FUZZ_JOBS=$(FUZZ_JOBS) fuzz/run.sh smoke $(FUZZ_BUILD_DIR) $(FUZZ_SMOKE_SECONDS)

# --- benchmarks (BENCHMARKS.md) ---
# `make bench`: a Release build in its own directory, a deterministic dataset (100k leads, 100k
# contacts, 20k conversations x 10 messages), then every scenario with wrk against leadline (SQLite,
# then PostgreSQL) and against nginx serving the very same bytes. Not part of `make test`.
# Tables: $(BENCH_DIR)/results/*.md; raw wrk output: $(BENCH_DIR)/results/raw/.
#   make bench BENCH_SECONDS=10    seconds per scenario and server (default 10)
#   make bench-large               1,000,000 leads
#   make bench-growth              list/search/stage/deep-cursor/tag filters at 10k, 100k, 1M (both backends)
#   make bench BENCH_ARGS='--backends sqlite'   (more knobs: see the header of bench/run.sh)
#   make bench-webhooks            only the webhook/event measurements (bench/webhooks.sh), which
#                                  `make bench` runs after bench/run.sh
#   make bench-idempotency         only POST /leads with an Idempotency-Key vs without
#                                  (bench/idempotency.sh), which `make bench` runs last
BENCH_DIR          ?= build-bench
BENCH_SECONDS      ?= 10
BENCH_JOBS         ?= $(JOBS)
BENCH_ARGS         ?=
# The tree before events and webhooks, built into $(BENCH_DIR)/before/ for bench/webhooks.sh's
# side-by-side write comparison (git archive of that commit, target leadline only).
BENCH_BEFORE_COMMIT ?= b4da6e3
BENCH_BEFORE_DIR    := $(BENCH_DIR)/before
# What the benchmark needs beyond the build and test packages (DEB_PACKAGES, which bring
# postgresql): the load generator, the static-file baseline, curl for the set-up requests and
# Google Benchmark for bench/micro.
BENCH_DEB_PACKAGES := wrk nginx curl libbenchmark-dev

.PHONY: bench-deps bench-build bench-before-build bench bench-large bench-growth bench-webhooks \
	bench-idempotency

bench-deps:
	$(call install_missing,$(BENCH_DEB_PACKAGES))

# The product's Release build without tests, plus the bench tools (bench/CMakeLists.txt) as a
# separate small CMake project, so the root CMakeLists.txt stays as it is.
bench-build: deps bench-deps
	cmake -S . -B $(BENCH_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release -DLEADLINE_BUILD_TESTS=OFF
	cmake --build $(BENCH_DIR) -j $(BENCH_JOBS) --target leadline
	cmake -S bench -B $(BENCH_DIR)/tools -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BENCH_DIR)/tools -j $(BENCH_JOBS)

# Rebuilt only when BENCH_BEFORE_COMMIT changes. That tree's CMakeLists wants Redoc's bundle
# from its own tools/node_modules, which an archive has not: this tree's is passed instead.
bench-before-build: deps
	@if [ "$$(cat $(BENCH_BEFORE_DIR)/commit 2>/dev/null)" != "$(BENCH_BEFORE_COMMIT)" ] || \
	    [ ! -x $(BENCH_BEFORE_DIR)/build/leadline ]; then \
	  set -e; rm -rf $(BENCH_BEFORE_DIR); mkdir -p $(BENCH_BEFORE_DIR)/src; \
	  echo "bench: building leadline $(BENCH_BEFORE_COMMIT) (before events) in $(BENCH_BEFORE_DIR)"; \
	  git archive $(BENCH_BEFORE_COMMIT) | tar -x -C $(BENCH_BEFORE_DIR)/src; \
	  cmake -S $(BENCH_BEFORE_DIR)/src -B $(BENCH_BEFORE_DIR)/build -G Ninja \
	    -DCMAKE_BUILD_TYPE=Release -DLEADLINE_BUILD_TESTS=OFF \
	    -DLEADLINE_REDOC_BUNDLE=$(CURDIR)/tools/node_modules/redoc/bundles/redoc.standalone.js; \
	  cmake --build $(BENCH_BEFORE_DIR)/build -j $(BENCH_JOBS) --target leadline; \
	  echo $(BENCH_BEFORE_COMMIT) >$(BENCH_BEFORE_DIR)/commit; \
	fi

bench: bench-build bench-before-build
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/run.sh $(BENCH_ARGS)
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/webhooks.sh
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/idempotency.sh

bench-webhooks: bench-build bench-before-build
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/webhooks.sh

bench-idempotency: bench-build
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/idempotency.sh

bench-large: bench-build
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/run.sh --large $(BENCH_ARGS)

bench-growth: bench-build
	BENCH_BUILD=$(BENCH_DIR) BENCH_SECONDS=$(BENCH_SECONDS) bench/run.sh --growth $(BENCH_ARGS)
