# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac: plain GNU make, no configure step. `make help` lists the targets.
#
#   lib/*.c            -> $(BUILD)/libfbac.a          (pure code, links libyaml)
#   src/<prog>/*.c     -> $(BUILD)/<prog>             (one program per directory)
#   src/common/*.c     -> linked into every program   (optional)
#   tests/unit/test-*.c-> $(BUILD)/tests/test-*       (TAP, see tests/unit/tap.h)
#   tests/fuzz/fuzz-*.c-> $(BUILD)/fuzz/fuzz-*        (libFuzzer, built with clang)
#
# Options: SANITIZE=1 (ASan+UBSan build in build-san/, with DEBUG=1),
# DEBUG=1 (internal checks: the supervisor answers each call once), WERROR=0, V=1,
# STATIC_DEPS=0 (link libyaml, libseccomp and libcap dynamically),
# PREFIX, BINDIR, DATADIR, MANDIR, SYSCONFDIR, DESTDIR (staging only),
# CC, CLANG, PKG_CONFIG, CPPFLAGS/CFLAGS/LDFLAGS/LDLIBS (appended after ours).

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

VERSION := 0.1.0

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
SYSCONFDIR ?= /etc
# DESTDIR is only ever a staging prefix for `make install`; never set it here.

PKG_CONFIG ?= pkg-config
CLANG ?= clang
INSTALL ?= install
AR ?= ar

SANITIZE ?= 0
# Internal checks that abort (src/fbac-run/call.h: every notification is
# answered exactly once); on in the sanitizer build, so make SANITIZE=1
# check runs every suite with them.
DEBUG ?= $(SANITIZE)
WERROR ?= 1
STATIC_DEPS ?= 1

# The build directory; objects of different flavours never mix. Only a
# command-line BUILD= overrides it (an environment variable named BUILD is
# too common to trust).
ifneq ($(origin BUILD),command line)
ifeq ($(SANITIZE),1)
BUILD := build-san
else
BUILD := build
endif
endif

ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-7s %s\n' $(1) $(2);
endif

# ---------------------------------------------------------------- deps
# pkg-config modules. libfbac.a needs LIB_DEPS, so everything linking it
# does too; a program's extra modules go in <prog>_DEPS.
LIB_DEPS := yaml-0.1
fbac_DEPS :=
fbac-run_DEPS := libseccomp libcap
DEPS := $(LIB_DEPS) libseccomp libcap

# Programs take the three small libraries in statically: fbac-run starts
# on every command a user confines, and loading and binding them (-z now)
# cost it 0.3 ms a start, measured (CONTRIBUTING.md says what this means
# for security updates). glibc stays dynamic.
ifeq ($(STATIC_DEPS),1)
static_libs = -Wl,-Bstatic $(1) -Wl,-Bdynamic
else
static_libs = $(1)
endif

# $(call pkg,--cflags|--libs,MODULES): pkg-config output, or stop with a
# message naming what is missing. Expanded lazily, in recipes only, so
# `make clean` works on a machine without the libraries.
pkg = $(if $(strip $(2)),$(call pkg_or_die,$(2),$(shell $(PKG_CONFIG) $(1) $(2) 2>/dev/null || echo PKG-CONFIG-FAILED)))
pkg_or_die = $(if $(filter PKG-CONFIG-FAILED,$(2)),$(error $(PKG_CONFIG) cannot find '$(1)': run .ci/install-deps as root, see CONTRIBUTING.md),$(2))

# ---------------------------------------------------------------- flags
# Probe once for flags that not every compiler/architecture has.
cc-option = $(shell $(CC) -Werror $(1) -c -x c /dev/null -o /dev/null >/dev/null 2>&1 && echo $(1))

WARNINGS := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wimplicit-fallthrough -Wvla
HARDENING := -fstack-protector-strong -fPIE \
	$(call cc-option,-fstack-clash-protection) \
	$(call cc-option,-fcf-protection)

ifeq ($(SANITIZE),1)
# Sanitizer interceptors want unfortified libc calls.
FORTIFY :=
SANITIZER_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
else
FORTIFY := -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3
SANITIZER_FLAGS :=
endif

ifeq ($(WERROR),1)
WERROR_FLAGS := -Werror
else
WERROR_FLAGS :=
endif

DEFINES = -DFBAC_DATADIR='"$(DATADIR)/fbac"' \
	$(if $(filter 1,$(DEBUG)),-DFBAC_DEBUG) \
	-DFBAC_SYSCONFDIR='"$(SYSCONFDIR)/fbac"' \
	-DFBAC_BINDIR='"$(BINDIR)"' \
	-DFBAC_VERSION='"$(VERSION)"'

# Project flags come first so that the user's CPPFLAGS/CFLAGS/LDFLAGS win.
# Our headers are found with -iquote, never -I, so <...> includes mean system
# headers. Still, no header of ours may be named like a system one: gcc's
# syslimits.h does include_next <limits.h> through the quote chain too
# (hence lib/fbac-limits.h; argp.h includes <limits.h>).
FBAC_CPPFLAGS = -D_GNU_SOURCE $(FORTIFY) $(DEFINES) -iquote lib
FBAC_CFLAGS = -std=gnu11 -O2 -g $(WARNINGS) $(WERROR_FLAGS) $(HARDENING) \
	$(SANITIZER_FLAGS)
FBAC_LDFLAGS = -pie -Wl,-z,relro,-z,now,-z,noexecstack -Wl,--as-needed \
	$(SANITIZER_FLAGS)

ALL_CPPFLAGS = $(FBAC_CPPFLAGS) $(CPPFLAGS)
ALL_CFLAGS = $(FBAC_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(FBAC_LDFLAGS) $(LDFLAGS)

# Fuzzers: clang compiles lib/*.c itself (never the gcc libfbac.a). No
# -Werror here: the gcc build is the warning gate.
FUZZ_SANITIZE := address,undefined
FUZZ_CPPFLAGS = -D_GNU_SOURCE $(DEFINES) -iquote lib \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZ_CFLAGS = -std=gnu11 -O1 -g -fno-omit-frame-pointer \
	-fno-sanitize-recover=all $(WARNINGS)
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 15
FUZZ_ARGS := -max_len=65536 -timeout=10 -rss_limit_mb=2048

# ---------------------------------------------------------------- sources
LIB_SRCS := $(sort $(wildcard lib/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIBFBAC := $(BUILD)/libfbac.a

COMMON_SRCS := $(sort $(wildcard src/common/*.c))
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/%.o)

# Every directory src/<prog>/ with at least one .c file is a program.
PROGRAM_DIRS := $(filter-out common,$(patsubst src/%/,%,$(wildcard src/*/)))
PROGRAMS := $(sort $(foreach p,$(PROGRAM_DIRS),$(if $(wildcard src/$(p)/*.c),$(p))))
PROGRAM_BINS := $(PROGRAMS:%=$(BUILD)/%)

UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))

FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz-%.c,%,$(FUZZ_SRCS))
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz-%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)
FUZZ_OBJS := $(FUZZ_SRCS:%.c=$(BUILD)/fuzz/obj/%.o)

# man/fbac-functionalities.7 is made from the library by `fbac list --man`
# (see "docs" below) and checked in, so that it is there to read and to
# install without a build; tests/man.bats fails when it is out of date.
GENERATED_MAN := man/fbac-functionalities.7
MAN_PAGES := $(sort $(wildcard man/*.1 man/*.5 man/*.7) $(GENERATED_MAN))

# ---------------------------------------------------------------- flags stamp
# Objects depend on a file holding the flags they were built with, so a
# change of PREFIX, SANITIZE, CFLAGS, ... rebuilds them (git's GIT-CFLAGS).
FLAGS_STAMP := $(BUILD)/.flags
BUILD_FLAGS = $(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LDLIBS) \
	static=$(STATIC_DEPS) \
	| $(CLANG) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS)
NO_BUILD_GOALS := clean help uninstall lint-man lint-docs lint-size lint-graph \
	lint-format lint-clang
ifneq ($(filter-out $(NO_BUILD_GOALS),$(or $(MAKECMDGOALS),all)),)
OLD_BUILD_FLAGS := $(file <$(FLAGS_STAMP))
ifneq ($(strip $(OLD_BUILD_FLAGS)),$(strip $(BUILD_FLAGS)))
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_STAMP),$(BUILD_FLAGS))
endif
endif

# ---------------------------------------------------------------- rules
.PHONY: all help check check-unit check-bats demo bench test-progs fuzz fuzz-smoke fuzz-build \
	install uninstall lint lint-man lint-docs lint-size lint-graph lint-format lint-clang clean

all: $(LIBFBAC) $(PROGRAM_BINS) $(GENERATED_MAN)

$(FLAGS_STAMP):
	@mkdir -p $(@D)
	$(file >$@,$(BUILD_FLAGS))

# The pkg-config modules an object is compiled against; programs override.
PKG_MODULES = $(LIB_DEPS)

$(LIB_OBJS) $(COMMON_OBJS) $(UNIT_OBJS): $(BUILD)/%.o: %.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(EXTRA_CPPFLAGS) $(call pkg,--cflags,$(PKG_MODULES)) \
		$(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(COMMON_OBJS): private EXTRA_CPPFLAGS = -iquote src/common
$(UNIT_OBJS): private EXTRA_CPPFLAGS = -iquote tests/unit

$(LIBFBAC): $(LIB_OBJS)
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

# $(call link,OUTPUT,OBJECTS,MODULES)
define link
	$(call say,LINK,$(1))
	@mkdir -p $(dir $(1))
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $(1) $(2) \
		$(call static_libs,$(call pkg,--libs --static,$(3))) $(LDLIBS)
endef

# One set of rules per program directory.
define program_rules
$(1)_OBJS := $$(patsubst %.c,$$(BUILD)/%.o,$$(sort $$(wildcard src/$(1)/*.c)))
$$($(1)_OBJS): private PKG_MODULES = $$(LIB_DEPS) $$($(1)_DEPS)
$$($(1)_OBJS): private EXTRA_CPPFLAGS = -iquote src/$(1) -iquote src/common
$$($(1)_OBJS): $$(BUILD)/%.o: %.c $$(FLAGS_STAMP)
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(ALL_CPPFLAGS) $$(EXTRA_CPPFLAGS) \
		$$(call pkg,--cflags,$$(PKG_MODULES)) \
		$$(ALL_CFLAGS) -MMD -MP -c -o $$@ $$<
$$(BUILD)/$(1): $$($(1)_OBJS) $$(COMMON_OBJS) $$(LIBFBAC) $$(FLAGS_STAMP)
	$$(call link,$$@,$$($(1)_OBJS) $$(COMMON_OBJS) $$(LIBFBAC),$$(LIB_DEPS) $$($(1)_DEPS))
endef
$(foreach p,$(PROGRAMS),$(eval $(call program_rules,$(p))))

$(BUILD)/tests/test-%: $(BUILD)/tests/unit/test-%.o $(LIBFBAC) $(FLAGS_STAMP)
	$(call link,$@,$< $(LIBFBAC),$(LIB_DEPS))

# ---------------------------------------------------------------- fuzzing
$(FUZZ_LIB_OBJS) $(FUZZ_OBJS): $(BUILD)/fuzz/obj/%.o: %.c $(FLAGS_STAMP)
	$(call say,CLANG,$@)
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(FUZZ_CPPFLAGS) $(call pkg,--cflags,$(LIB_DEPS)) \
		$(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SANITIZE) \
		-MMD -MP -c -o $@ $<

$(BUILD)/fuzz/fuzz-%: $(BUILD)/fuzz/obj/tests/fuzz/fuzz-%.o $(FUZZ_LIB_OBJS)
	$(call say,LINK,$@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SANITIZE) -o $@ $^ \
		$(call pkg,--libs,$(LIB_DEPS))

fuzz-build: $(FUZZ_BINS)

# ---------------------------------------------------------------- test programs
# tests/progs/*.c: small real programs the bats suites run under fbac-run
# (escape attempts, load generators). Plain C with pthreads, no libfbac.
# Never sanitized, even with SANITIZE=1: they are the confined programs,
# and a sanitizer's runtime reading /proc at exit is not what they test.
PROG_SRCS := $(sort $(wildcard tests/progs/*.c))
PROG_BINS := $(patsubst tests/progs/%.c,$(BUILD)/tests/progs/%,$(PROG_SRCS))
PROG_CFLAGS = -std=gnu11 -O2 -g $(WARNINGS) $(WERROR_FLAGS) $(HARDENING)

$(BUILD)/tests/progs/%: tests/progs/%.c $(FLAGS_STAMP) Makefile
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -D_GNU_SOURCE $(CPPFLAGS) $(PROG_CFLAGS) $(CFLAGS) -pie \
		$(LDFLAGS) -MMD -MP -o $@ $< -lpthread $(LDLIBS)

test-progs: $(PROG_BINS)

# ---------------------------------------------------------------- benchmarks
# bench/bench-*.c are C programs linked with libfbac; bench/*.sh are
# scripts. `make bench` runs them all and prints figures (no pass/fail).
BENCH_SRCS := $(sort $(wildcard bench/bench-*.c))
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/%.o)

$(BENCH_OBJS): $(BUILD)/%.o: %.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CPPFLAGS) $(call pkg,--cflags,$(LIB_DEPS)) \
		$(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/bench/bench-%: $(BUILD)/bench/bench-%.o $(LIBFBAC) $(FLAGS_STAMP)
	$(call link,$@,$< $(LIBFBAC),$(LIB_DEPS))

# bench-notify-floor, bench-emulate-floor and bench-startup-floor are run
# by bench/bench-run.sh, next to fbac-run (the measured bounds);
# bench-interleave is a tool: bench-interleave N CMD -- CMD ... (see it).
BENCH_BY_SCRIPT := %/bench-notify-floor %/bench-emulate-floor %/bench-startup-floor \
	%/bench-interleave
bench: all $(BENCH_BINS)
	@for b in $(filter-out $(BENCH_BY_SCRIPT),$(BENCH_BINS)); do \
		echo "== $$b"; $$b profiles; done
	@for s in $(sort $(wildcard bench/*.sh)); do echo "== $$s"; \
		FBAC_BUILD=$(abspath $(BUILD)) bash $$s; done

# $(call fuzz_run,SECONDS,LOG): run every fuzzer on a throw-away corpus
# seeded from tests/fuzz/corpus/<name>/, profiles/ and tests/fixtures/
# (the source tree is never written). LOG=1 keeps libFuzzer's chatter in
# $(BUILD)/fuzz/<name>.log and shows its tail on failure. Findings land
# in $(BUILD)/fuzz/artifacts/ and fail the target.
define fuzz_run
	@if [ -z "$(FUZZ_NAMES)" ]; then echo "fuzz: no tests/fuzz/fuzz-*.c"; exit 0; fi; \
	art="$(abspath $(BUILD))/fuzz/artifacts"; mkdir -p "$$art"; \
	for name in $(FUZZ_NAMES); do \
		work=$$(mktemp -d "$${TMPDIR:-/tmp}/fbac-fuzz-$$name.XXXXXX"); \
		if [ -d tests/fuzz/corpus/$$name ]; then \
			find tests/fuzz/corpus/$$name -type f -exec cp -t "$$work" {} +; \
		fi; \
		while IFS= read -r -d '' f; do \
			cp "$$f" "$$work/seed-$${f//\//_}"; \
		done < <(find profiles tests/fixtures -type f -name '*.yaml' -print0 2>/dev/null); \
		dict=; [ ! -f tests/fuzz/fuzz-$$name.dict ] || dict=-dict=tests/fuzz/fuzz-$$name.dict; \
		echo "fuzz: fuzz-$$name for $(1)s on $$(ls "$$work" | wc -l) seeds"; \
		rc=0; \
		if [ "$(2)" = 1 ]; then \
			$(BUILD)/fuzz/fuzz-$$name $(FUZZ_ARGS) -max_total_time=$(1) \
				-artifact_prefix="$$art/$$name-" $$dict "$$work" \
				>$(BUILD)/fuzz/$$name.log 2>&1 || rc=$$?; \
		else \
			$(BUILD)/fuzz/fuzz-$$name $(FUZZ_ARGS) -max_total_time=$(1) \
				-artifact_prefix="$$art/$$name-" $$dict "$$work" || rc=$$?; \
		fi; \
		rm -rf "$$work"; \
		if [ $$rc -ne 0 ]; then \
			[ "$(2)" != 1 ] || tail -n 60 $(BUILD)/fuzz/$$name.log; \
			echo "fuzz: fuzz-$$name FAILED (exit $$rc); findings in $$art/"; \
			echo "fuzz: reproduce with $(BUILD)/fuzz/fuzz-$$name FILE"; \
			exit 1; \
		fi; \
		[ "$(2)" != 1 ] || grep -E '^(stat::number_of_executed_units|Done )' $(BUILD)/fuzz/$$name.log | tail -n 1 || true; \
	done
endef

fuzz: $(FUZZ_BINS)
	$(call fuzz_run,$(FUZZ_SECONDS),0)

# The short run `make check` does. Without clang/libFuzzer it is skipped,
# unless FBAC_MUST_WORK=1 (CI), where that is a failure.
fuzz-smoke:
	@mkdir -p $(BUILD)/fuzz; \
	probe='int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n); int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n; }'; \
	if ! echo "$$probe" | $(CLANG) -fsanitize=fuzzer -x c - -o $(BUILD)/fuzz/.probe >/dev/null 2>&1; then \
		if [ "$${FBAC_MUST_WORK:-0}" = 1 ]; then \
			echo "fuzz-smoke: '$(CLANG) -fsanitize=fuzzer' does not work (FBAC_MUST_WORK=1)" >&2; exit 1; \
		fi; \
		echo "fuzz-smoke: skipped: '$(CLANG) -fsanitize=fuzzer' does not work (run .ci/install-deps)"; exit 0; \
	fi; \
	$(MAKE) --no-print-directory fuzz-smoke-run

.PHONY: fuzz-smoke-run
fuzz-smoke-run: $(FUZZ_BINS)
	$(call fuzz_run,$(FUZZ_SMOKE_SECONDS),1)

# ---------------------------------------------------------------- tests
# Tests find the binaries through FBAC_BUILD (see tests/helpers.bash).
TEST_ENV = FBAC_BUILD="$(abspath $(BUILD))"

check: lint all $(UNIT_BINS) $(PROG_BINS)
	$(TEST_ENV) tests/run-all
	$(MAKE) --no-print-directory fuzz-smoke

check-unit: $(UNIT_BINS)
	$(TEST_ENV) tests/run-all --unit

check-bats: all $(PROG_BINS)
	$(TEST_ENV) tests/run-all --bats

# What `make demo` and `make check` need; when any is missing, demo runs
# .ci/install-deps first (a second run does no apt work).
DEMO_COMMANDS := cc make $(PKG_CONFIG) $(CLANG) bats groff setpriv

demo:
	@missing=; \
	for c in $(DEMO_COMMANDS); do command -v "$$c" >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	if command -v $(PKG_CONFIG) >/dev/null 2>&1; then \
		for m in $(DEPS); do $(PKG_CONFIG) --exists "$$m" || missing="$$missing $$m"; done; \
	fi; \
	if [ -n "$$missing" ]; then \
		echo "demo: missing:$$missing; running .ci/install-deps"; \
		.ci/install-deps; \
	fi
	$(MAKE) --no-print-directory all
	$(TEST_ENV) tests/demo.sh

# ---------------------------------------------------------------- docs
# The page of the library, made by the fbac just built: again when a
# profile changes, or is added or removed (its directory changes), or when
# fbac does. Only the library layer is printed; the user's layer is kept
# out so that a broken one cannot stop the build. The page is replaced
# only once it is whole: a broken profile fails the build, with its
# file:line:col, and leaves the old page in place.
PROFILE_INPUTS := $(shell find profiles \( -type d -o -name '*.yaml' \) 2>/dev/null | LC_ALL=C sort)

$(GENERATED_MAN): $(BUILD)/fbac $(PROFILE_INPUTS)
	$(call say,GEN,$@)
	$(Q)env -u FBAC_ADMIN_DIR FBAC_DATADIR=profiles \
		FBAC_USER_DIR="$(abspath $(BUILD))/no-user-layer" \
		$(BUILD)/fbac list --man >$@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)mv -f $@.tmp $@

# groff is what man(1) renders with; mandoc -Tlint is stricter when present.
lint-man:
	@if [ -z "$(MAN_PAGES)" ]; then echo "lint-man: no man pages in man/"; exit 0; fi; \
	rc=0; \
	out=$$(groff -t -mandoc -ww -z $(MAN_PAGES) 2>&1) || rc=1; \
	if [ -n "$$out" ]; then echo "$$out"; rc=1; fi; \
	if command -v mandoc >/dev/null 2>&1; then \
		mandoc -Tlint -Wwarning $(MAN_PAGES) || rc=1; \
	fi; \
	if [ $$rc -ne 0 ]; then echo "lint-man: FAILED"; exit 1; fi; \
	echo "lint-man: $(words $(MAN_PAGES)) pages ok"

# docs/architecture.md's module map names every file of lib/ and src/, and
# only files that exist; every function a lib/ header declares has a comment.
lint-docs:
	@tests/lint-docs

# What `make check` runs before the tests, and CONTRIBUTING.md's rules that a
# program can check: the module map, the man pages, the size of files and
# functions (tests/lint-size, with its ratchet tests/lint-size.allow), the
# layers of src/fbac-run (tests/lint-graph: no include or call cycle, the
# handlers call only down), the format of the C lines a branch changes
# (tests/lint-format, .clang-format), and a build with clang, -Werror and
# DEBUG=1, in its own tree (gcc's -Werror build is the tree the tests run,
# unless WERROR=0).
lint: lint-docs lint-man lint-size lint-graph lint-format lint-clang

lint-size:
	@tests/lint-size

lint-graph:
	@tests/lint-graph

lint-format:
	@tests/lint-format

# Everything C that make check compiles with CC: the programs, the unit tests
# (run too) and the test programs. Not `all`: the generated man page is the
# gcc build's to write (make -j check builds both at once).
CLANG_BUILD := build-clang
CLANG_GOALS = $(patsubst $(BUILD)/%,$(CLANG_BUILD)/%,$(LIBFBAC) $(PROGRAM_BINS))

lint-clang:
	@mkdir -p $(CLANG_BUILD)
	@$(MAKE) --no-print-directory CC=$(CLANG) BUILD=$(CLANG_BUILD) \
		SANITIZE=0 DEBUG=1 WERROR=1 $(CLANG_GOALS) check-unit test-progs >$(CLANG_BUILD)/lint.log 2>&1 || \
		{ grep -E 'error|warning|failed|not ok' $(CLANG_BUILD)/lint.log | head -n 40; \
		  echo "lint-clang: FAILED (CC=$(CLANG) -Werror; the whole log: $(CLANG_BUILD)/lint.log)"; exit 1; }
	@echo "lint-clang: $(CLANG) -Werror DEBUG=1 build and unit tests ok in $(CLANG_BUILD)/"

# ---------------------------------------------------------------- install
install: all
	@for p in $(PROGRAMS); do \
		echo "  INSTALL $(DESTDIR)$(BINDIR)/$$p"; \
		$(INSTALL) -Dm0755 $(BUILD)/$$p "$(DESTDIR)$(BINDIR)/$$p"; \
	done; \
	for m in $(MAN_PAGES); do \
		d="$(DESTDIR)$(MANDIR)/man$${m##*.}"; \
		echo "  INSTALL $$d/$${m##*/}"; \
		$(INSTALL) -Dm0644 "$$m" "$$d/$${m##*/}"; \
	done; \
	if [ -d profiles ]; then \
		echo "  INSTALL $(DESTDIR)$(DATADIR)/fbac/"; \
		while IFS= read -r -d '' f; do \
			$(INSTALL) -Dm0644 "$$f" "$(DESTDIR)$(DATADIR)/fbac/$${f#profiles/}"; \
		done < <(find profiles -type f -print0); \
	fi

uninstall:
	@for p in $(PROGRAMS); do rm -f "$(DESTDIR)$(BINDIR)/$$p"; done; \
	for m in $(MAN_PAGES); do rm -f "$(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/}"; done; \
	if [ -d profiles ]; then \
		while IFS= read -r -d '' f; do \
			rm -f "$(DESTDIR)$(DATADIR)/fbac/$${f#profiles/}"; \
		done < <(find profiles -type f -print0); \
	fi; \
	if [ -d "$(DESTDIR)$(DATADIR)/fbac" ]; then \
		find "$(DESTDIR)$(DATADIR)/fbac" -depth -type d -empty -delete; \
	fi

# ---------------------------------------------------------------- misc
clean:
	rm -rf build build-san $(CLANG_BUILD) \
		$(filter-out build build-san,$(BUILD))

help:
	@echo "targets:"
	@echo "  all          libfbac.a and the programs ($(or $(PROGRAMS),none yet)) in $(BUILD)/"
	@echo "  check        lint, build, run tests/run-all (unit + bats), then fuzz-smoke"
	@echo "  check-unit   build and run the TAP unit tests only"
	@echo "  check-bats   build and run the bats suites only"
	@echo "  demo         install missing dependencies, build, run tests/demo.sh"
	@echo "  bench        build and run bench/ (prints figures, no pass/fail)"
	@echo "  fuzz         run every fuzzer for FUZZ_SECONDS (default 60)"
	@echo "  fuzz-smoke   the $(FUZZ_SMOKE_SECONDS)-second fuzz run of make check"
	@echo "  lint         lint-docs, lint-man, lint-size, lint-graph, lint-format and lint-clang (run first by check)"
	@echo "  lint-docs    docs/architecture.md names every source file; lib/ headers document each function"
	@echo "  lint-man     check man/*.[157] with groff (and mandoc when installed)"
	@echo "  lint-size    at most 600 lines a C file, 120 a function (ratchet: tests/lint-size.allow)"
	@echo "  lint-graph   src/fbac-run: no include or call cycle, handlers call only down"
	@echo "  lint-format  the C lines changed since the merge base with main keep to .clang-format"
	@echo "  lint-clang   build and unit-test with $(CLANG) -Werror in $(CLANG_BUILD)/"
	@echo "  install      to DESTDIR+PREFIX; uninstall removes the same files"
	@echo "  clean        remove build/, build-san/ and $(CLANG_BUILD)/"
	@echo "options: SANITIZE=1 WERROR=0 STATIC_DEPS=0 V=1 PREFIX= DESTDIR= FUZZ_SECONDS="

-include $(LIB_OBJS:.o=.d) $(COMMON_OBJS:.o=.d) $(UNIT_OBJS:.o=.d) \
	$(foreach p,$(PROGRAMS),$($(p)_OBJS:.o=.d)) \
	$(FUZZ_LIB_OBJS:.o=.d) $(FUZZ_OBJS:.o=.d) $(PROG_BINS:=.d) $(BENCH_OBJS:.o=.d)
