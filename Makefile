# tiltserial: the two commands of the README, and their parts.
#   make demo   run the whole system against the emulated board
#   make test   build everything and run every test (what CI runs)
SWIFT ?= swift
SWIFT_FLAGS ?=

.PHONY: deps demo test build firmware firmware-test swift-test clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

firmware: deps
	$(MAKE) -C Hardware

firmware-test: deps
	$(MAKE) -C Hardware check

demo: deps firmware
	$(SWIFT) build $(SWIFT_FLAGS) --product tiltserial
	$(SWIFT) build $(SWIFT_FLAGS) --product tiltsim
	$(SWIFT) run $(SWIFT_FLAGS) --skip-build tiltserial demo $(ARGS)

swift-test: deps
	$(SWIFT) build $(SWIFT_FLAGS) --build-tests
	$(SWIFT) test $(SWIFT_FLAGS) --skip-build

test: deps firmware-test swift-test

clean:
	rm -rf .build
	-$(MAKE) -C Hardware clean
