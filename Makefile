# tiltserial: the two commands of the README, and their parts.
#   make demo            run the whole system against the emulated board
#   make test            build everything and run every test (what CI runs): the firmware and the
#                        test fixtures first (swift test builds no firmware), then the Swift tests,
#                        then a compile-only build of Benchmarks/ and Fuzz/ (nothing timed or fuzzed)
#   make install         release builds of tiltserial and tiltsim (Swift runtime linked in), the
#                        firmware, shell completions and man pages under PREFIX (/usr/local);
#                        DESTDIR is honoured. make uninstall removes exactly those files.
#   make install-check   install into a temporary DESTDIR, run the installed tools, uninstall
#                        (a release build: minutes on 2 cores, so not part of make test)
#   V=1                  the full commands instead of one line per step
SWIFT ?= swift
SWIFT_FLAGS ?=
PREFIX ?= /usr/local
DESTDIR ?=

# One line per step, as arduino-cli prints: SwiftPM's own [n/m] lines, the
# firmware's `  CC  file`, ours `  INSTALL  file`. V=1 prints every command.
V ?= 0
ifeq ($(V),1)
  Q :=
  SWIFT_VERBOSE := -v
  say := :
else
  Q := @
  SWIFT_VERBOSE :=
  say := printf '  %-9s %s\n'
endif
# A recipe's step line: $(call step,WHAT,detail) (no commas in the detail).
step = @$(say) '$(1)' '$(2)'

MAKEFLAGS += --no-print-directory

.PHONY: deps demo test build firmware firmware-test fixtures swift-test extras clean \
        release completions manpages manual-tool install uninstall install-check

deps:
	@scripts/install-deps

build: deps
	$(call step,SWIFT,build $(SWIFT_FLAGS))
	$(Q)$(SWIFT) build $(SWIFT_FLAGS) $(SWIFT_VERBOSE)

firmware: deps
	$(call step,MAKE,Hardware)
	$(Q)$(MAKE) -C Hardware
	$(Q)$(MAKE) -C Hardware DISPLAY_KIND=2

firmware-test: deps
	$(call step,MAKE,Hardware check)
	$(Q)$(MAKE) -C Hardware check

demo: deps firmware
	$(call step,SWIFT,build tiltserial tiltsim)
	$(Q)$(SWIFT) build $(SWIFT_FLAGS) $(SWIFT_VERBOSE) --product tiltserial
	$(Q)$(SWIFT) build $(SWIFT_FLAGS) $(SWIFT_VERBOSE) --product tiltsim
	$(Q)$(SWIFT) run $(SWIFT_FLAGS) --skip-build tiltserial demo $(ARGS)

# The BoardEmulator tests' own AVR programs and Arduino sketches (Tests/BoardEmulatorTests/Fixtures).
fixtures: deps
	$(call step,MAKE,test fixtures)
	$(Q)$(MAKE) -C Tests/BoardEmulatorTests/Fixtures
	$(Q)$(MAKE) -C examples

swift-test: deps firmware fixtures
	$(call step,SWIFT,build --build-tests $(SWIFT_FLAGS))
	$(Q)$(SWIFT) build $(SWIFT_FLAGS) $(SWIFT_VERBOSE) --build-tests
	$(call step,SWIFT,test)
	$(Q)scripts/test-in-scratch $(SWIFT) test $(SWIFT_FLAGS) --skip-build

# Benchmarks/ and Fuzz/ are separate packages: compiled (debug) so they cannot
# rot, never run here. The fuzzers link only with libFuzzer's runtime (no main).
extras: deps
	$(call step,SWIFT,build Benchmarks (compile only))
	$(Q)$(SWIFT) build --package-path Benchmarks $(SWIFT_VERBOSE)
	$(call step,SWIFT,build Fuzz (compile only))
	$(Q)$(SWIFT) build --package-path Fuzz $(SWIFT_VERBOSE) --sanitize fuzzer -Xswiftc -use-ld=lld

test: deps firmware-test swift-test extras

# ---- Release builds and installation (docs/usage.md, "Installing").
# A scratch path of their own, so the debug build in .build is left alone.
RELEASE_DIR := .build-release
RELEASE_BIN := $(RELEASE_DIR)/release
STAGE       := $(RELEASE_DIR)/stage
MANUAL_TOOL := $(RELEASE_DIR)/manual-tool/debug/generate-manual
TOOLS       := tiltserial tiltsim
# Every board's firmware (Hardware/boards.mk), installed as Hardware/build lays it out:
# the Uno's in share/tiltserial, another board's in share/tiltserial/BOARD.
BOARDS      := $(shell sed -n "s/^BOARDS := //p" Hardware/boards.mk)
OTHER_BOARDS := $(filter-out uno,$(BOARDS))

# The docs --help and the man pages point to (exit codes, the --json schema,
# the emulator), and every page they link to, laid out as in docs/.
DOCS        := README.md $(patsubst docs/%,%,$(wildcard docs/*.md docs/perf/*.md docs/plots/*.svg))

# Every file install writes, relative to $(DESTDIR)$(PREFIX); uninstall removes exactly these.
INSTALLED := $(addprefix bin/,$(TOOLS)) \
             share/tiltserial/tiltserial.elf \
             $(foreach board,$(OTHER_BOARDS),share/tiltserial/$(board)/tiltserial.elf) \
             $(addprefix share/bash-completion/completions/,$(TOOLS)) \
             $(addprefix share/zsh/site-functions/_,$(TOOLS)) \
             $(addsuffix .fish,$(addprefix share/fish/vendor_completions.d/,$(TOOLS))) \
             $(addsuffix .1,$(addprefix share/man/man1/,$(TOOLS))) \
             $(addprefix share/doc/tiltserial/,$(DOCS))

release: deps firmware
	$(call step,SWIFT,release build of $(TOOLS) with the Swift runtime linked in ($(RELEASE_DIR)))
	$(Q)for tool in $(TOOLS); do \
	  $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_DIR) $(SWIFT_VERBOSE) --product $$tool || exit 1; done

# ArgumentParser writes the completion scripts itself (--generate-completion-script).
completions: release
	@mkdir -p $(STAGE)/bash $(STAGE)/zsh $(STAGE)/fish
	$(Q)for tool in $(TOOLS); do \
	  $(say) GEN "$$tool completions (bash, zsh, fish)"; \
	  $(RELEASE_BIN)/$$tool --generate-completion-script bash > $(STAGE)/bash/$$tool && \
	  $(RELEASE_BIN)/$$tool --generate-completion-script zsh > $(STAGE)/zsh/_$$tool && \
	  $(RELEASE_BIN)/$$tool --generate-completion-script fish > $(STAGE)/fish/$$tool.fish || exit 1; done

# The man pages come from the same definitions, through swift-argument-parser's
# own generate-manual tool, built once (about a minute) from the package copy
# SwiftPM already resolved, with no network.
manual-tool: release
	$(call step,SWIFT,generate-manual from swift-argument-parser)
	$(Q)$(SWIFT) build --package-path $(RELEASE_DIR)/checkouts/swift-argument-parser \
	  --scratch-path $(RELEASE_DIR)/manual-tool $(SWIFT_VERBOSE) --product generate-manual

manpages: release manual-tool
	@mkdir -p $(STAGE)/man
	$(Q)for tool in $(TOOLS); do \
	  $(say) GEN "$$tool.1"; \
	  $(MANUAL_TOOL) $(RELEASE_BIN)/$$tool --output-directory $(STAGE)/man || exit 1; \
	  scripts/man-fixups $$tool $(STAGE)/man/$$tool.1 docs/usage.md || exit 1; done

install: release completions manpages
	$(Q)$(MAKE) -C Hardware boards
	$(Q)for file in $(INSTALLED); do \
	  case $$file in \
	    bin/*) source=$(RELEASE_BIN)/$${file#bin/}; mode=0755 ;; \
	    share/tiltserial/*) source=Hardware/build/$${file#share/tiltserial/}; mode=0644 ;; \
	    share/bash-completion/*) source=$(STAGE)/bash/$${file##*/}; mode=0644 ;; \
	    share/zsh/*) source=$(STAGE)/zsh/$${file##*/}; mode=0644 ;; \
	    share/fish/*) source=$(STAGE)/fish/$${file##*/}; mode=0644 ;; \
	    share/man/*) source=$(STAGE)/man/$${file##*/}; mode=0644 ;; \
	    share/doc/tiltserial/README.md) source=README.md; mode=0644 ;; \
	    share/doc/*) source=docs/$${file#share/doc/tiltserial/}; mode=0644 ;; \
	  esac; \
	  $(say) INSTALL "$(DESTDIR)$(PREFIX)/$$file"; \
	  install -D -m $$mode $$source "$(DESTDIR)$(PREFIX)/$$file" || exit 1; done

uninstall:
	$(Q)for file in $(INSTALLED); do \
	  if [ -e "$(DESTDIR)$(PREFIX)/$$file" ]; then \
	    $(say) RM "$(DESTDIR)$(PREFIX)/$$file"; \
	    rm -f "$(DESTDIR)$(PREFIX)/$$file" || exit 1; fi; done
	$(Q)for board in $(OTHER_BOARDS); do rmdir "$(DESTDIR)$(PREFIX)/share/tiltserial/$$board" 2>/dev/null || true; done
	$(Q)rmdir "$(DESTDIR)$(PREFIX)/share/tiltserial" 2>/dev/null || true
	$(Q)for folder in perf plots; do rmdir "$(DESTDIR)$(PREFIX)/share/doc/tiltserial/$$folder" 2>/dev/null || true; done
	$(Q)rmdir "$(DESTDIR)$(PREFIX)/share/doc/tiltserial" 2>/dev/null || true

install-check:
	$(Q)scripts/install-check

clean:
	rm -rf .build $(RELEASE_DIR)
	-$(MAKE) -C Hardware clean
	-$(MAKE) -C Tests/BoardEmulatorTests/Fixtures clean
