# leadline — the two commands a newcomer needs are `make run` and `make test`.
# Every target installs missing Debian packages first, so a fresh Debian 12 machine needs nothing else.

BUILD_DIR ?= build
JOBS      ?= $(shell nproc)
LISTEN    ?= 127.0.0.1:8080
DB        ?= sqlite:./data/leadline.db

DEB_PACKAGES := g++ cmake ninja-build pkg-config libboost1.81-dev libboost-json1.81-dev \
                libboost-url1.81-dev libsqlite3-dev libpq-dev libhiredis-dev libssl-dev \
                libgtest-dev libgmock-dev googletest libbenchmark-dev

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test clean format

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

$(BUILD_DIR)/build.ninja: | deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release

build: deps $(BUILD_DIR)/build.ninja
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	@mkdir -p data
	./$(BUILD_DIR)/leadline serve --listen $(LISTEN) --db $(DB) --demo

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD_DIR)
