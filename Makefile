# stanzaq — build, test, install.
#
#   make demo      install what is missing, build, and run stanzaq on an example
#   make check     the unit and command-line tests (the latter run the release
#                  binary, the one users run); TESTS=REGEX: only those that match
#   make test      make check, then the fuzz targets' regression inputs and
#                  FUZZ_QUICK_RUNS (default 2000) runs of each from seed 1:
#                  what CI runs, with more runs
#   make fuzz      each fuzz target for FUZZ_SECONDS (default 60) seconds
#   make install   the binary (stripped), the man pages and the shell completions
#                  (bash, zsh, fish) under $(DESTDIR)$(PREFIX)
#   make install-debug   the same with the binary's symbols kept
#   make deb       a Debian package of the release binary, stanzaq_VERSION-1_ARCH.deb
#                  here: apt install ./stanzaq_*.deb (make deb-lint: lintian on it)

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MANDIR   = $(DESTDIR)$(PREFIX)/share/man
RELEASE  = .build/release/stanzaq
# Where each shell looks for the completions of installed programs.
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# The binary install-files installs (the release build by default; the tests
# install the one they test), and how it is stripped.
BINARY  ?= $(RELEASE)
STRIP   ?= strip
INSTALL_STRIP ?= -s --strip-program=$(STRIP)

# System packages (Debian names): the C libraries stanzaq links (libzstd, which
# it loads when a zstd input comes, needs no header), and the tools its tests
# and benchmarks use (prosody and lua5.4: the differential test runs Prosody's
# own util.stanza; xz-utils, zstd and bzip2 compress the inputs of the tests of
# compressed input).
BUILD_PACKAGES = pkg-config libxml2-dev libedit-dev libssl-dev zlib1g-dev liblzma-dev libbz2-dev libicu-dev
TEST_PACKAGES  = mandoc man-db jq prosody lua5.4 bash-completion zsh fish parallel dpkg-dev xz-utils zstd bzip2
# make deb: dpkg-shlibdeps (dpkg-dev) computes Depends; make deb-lint: lintian.
DEB_PACKAGES   = dpkg-dev
BENCH_PACKAGES = hyperfine xmlstarlet libxml2-utils time ripgrep

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps test-deps bench-deps deb-deps deb deb-lint build demo check test bench install install-debug install-files uninstall clean fuzz fuzz-quick fuzz-build fuzz-seeds fixtures

all: build

# Installs only the packages that are missing, so a second run costs nothing.
define install_missing
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install_missing,$(BUILD_PACKAGES))

test-deps: deps
	$(call install_missing,$(TEST_PACKAGES))

bench-deps: deps
	$(call install_missing,$(BENCH_PACKAGES))

deb-deps: deps
	$(call install_missing,$(DEB_PACKAGES))

build: deps
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --product stanzaq

demo: build
	@echo '$$ stanzaq '\''body#'\'' examples/capture.xml'
	@$(RELEASE) 'body#' examples/capture.xml
	@echo
	@echo '$$ stanzaq -e /@from -e /@type -e '\''body#'\'' examples/capture.xml'
	@$(RELEASE) -e /@from -e /@type -e 'body#' examples/capture.xml
	@echo
	@echo '$$ stanzaq '\''{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int'\'' examples/http-upload-disco.xml'
	@$(RELEASE) '{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int' examples/http-upload-disco.xml

# The command-line tests run the release binary (STANZAQ_BINARY): what users
# run, and several times faster than the debug one on the costly cases, which
# keeps the hang guards of the tests far from what a run costs.
#
# The command-line tests run in a process of their own: Linux reports a child's
# peak memory (ru_maxrss) as at least the peak of the process that spawned it,
# and the library's tests, run inside the test process, take it to 160 MiB; the
# command-line tests check that a child stays under 200 MiB.
#
# TESTS=REGEX runs only the tests whose names match (swift test's --filter):
# `make check TESTS=LogParallel` after a change in a log format.
TESTS ?=
check: test-deps build
	$(SWIFT) build --build-tests
	STANZAQ_BINARY="$(CURDIR)/$(RELEASE)" $(SWIFT) test --skip-build --skip StanzaqCLITests $(if $(TESTS),--filter '$(TESTS)')
	STANZAQ_BINARY="$(CURDIR)/$(RELEASE)" $(SWIFT) test --skip-build --filter 'StanzaqCLITests\.$(if $(TESTS),.*($(TESTS)))'

test: check
	$(MAKE) fuzz-quick

# Fuzzing with the toolchain's libFuzzer and AddressSanitizer. The library
# sources (StanzaXML, StanzaLogs, StanzaQuery, StanzaqKit) are compiled once, with the
# sanitizers, into one module, StanzaFuzz (a static library; -enable-testing
# lets each target reach what the library keeps internal); each target is one
# entry file of Fuzz/ linked to it. (SwiftPM would want a `main` for the fuzzers
# in every build.) Seeds come from the tests, the documentation, the examples
# and the shared corpus ($(SHARED), beside the repository as on CI); what the
# fuzzers find stays in .build-fuzz/.
SWIFTC             ?= swiftc
SHARED             ?= ../shared
FUZZ_SECONDS       ?= 60
FUZZ_DIR            = .build-fuzz
FUZZ_JOBS          ?= $(shell nproc)
# StanzaqKit too: the log fuzzer searches as the command line does with threads.
LIBRARY_SOURCES     = $(shell find Sources/StanzaXML Sources/StanzaLogs Sources/StanzaQuery Sources/StanzaqKit -name '*.swift' | sort)
FUZZ_SANITIZE       = -O -g -sanitize=fuzzer,address -package-name stanzaq
FUZZ_INCLUDES       = -I Sources/CLibXML2 -I Sources/CICU/include -I Sources/CCrypto/include -I Sources/CZlib -I Sources/CLzma \
	-I Sources/CBzip2 -I Sources/CZstd/include -I Sources/CByteSearch/include \
	$(patsubst -I%,-Xcc -I%,$(shell pkg-config --cflags-only-I libxml-2.0 icu-i18n))
FUZZ_LIBRARY        = $(FUZZ_DIR)/lib/libStanzaFuzz.a

# The C of Sources/CICU (ICU's regular expressions), Sources/CCrypto
# (SHA-256), Sources/CZstd (libzstd, loaded) and Sources/CByteSearch (the
# searches not inlined from its header), compiled with the fuzzers' sanitizers.
FUZZ_C_OBJECTS = $(FUZZ_DIR)/CICU.o $(FUZZ_DIR)/CCrypto.o $(FUZZ_DIR)/CZstd.o $(FUZZ_DIR)/CByteSearch.o
$(FUZZ_DIR)/CICU.o: Sources/CICU/CICU.c Sources/CICU/include/CICU.h
	@mkdir -p $(FUZZ_DIR)
	clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CICU/include $(shell pkg-config --cflags icu-uc) -c $< -o $@

$(FUZZ_DIR)/CCrypto.o: Sources/CCrypto/CCrypto.c Sources/CCrypto/include/CCrypto.h
	@mkdir -p $(FUZZ_DIR)
	clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CCrypto/include -c $< -o $@

$(FUZZ_DIR)/CZstd.o: Sources/CZstd/CZstd.c Sources/CZstd/include/CZstd.h
	@mkdir -p $(FUZZ_DIR)
	clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CZstd/include -c $< -o $@

$(FUZZ_DIR)/CByteSearch.o: Sources/CByteSearch/CByteSearch.c Sources/CByteSearch/include/CByteSearch.h
	@mkdir -p $(FUZZ_DIR)
	clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CByteSearch/include -c $< -o $@

# The library, once for the three targets. (Made anew: an archive keeps the
# members of files since renamed or removed, whose symbols then clash.)
$(FUZZ_LIBRARY): $(LIBRARY_SOURCES) Sources/CByteSearch/include/CByteSearch.h
	@mkdir -p $(FUZZ_DIR)/lib
	@rm -f $@
	$(SWIFTC) -parse-as-library $(FUZZ_SANITIZE) -enable-testing -module-name StanzaFuzz $(FUZZ_INCLUDES) -j$(FUZZ_JOBS) \
		-emit-library -static -emit-module -emit-module-path $(FUZZ_DIR)/lib/StanzaFuzz.swiftmodule \
		$(LIBRARY_SOURCES) -o $@

# A target: its entry file, linked to the library (-module-name: the file's name).
FUZZ_LINK = $(SWIFTC) -parse-as-library $(FUZZ_SANITIZE) -use-ld=lld -module-name $(basename $(notdir $<)) $(FUZZ_INCLUDES) \
	-I $(FUZZ_DIR)/lib $< $(FUZZ_LIBRARY) $(FUZZ_C_OBJECTS) -lxml2 -licui18n -licuuc -lz -llzma -lbz2 -o $@
$(FUZZ_DIR)/query-fuzzer: Fuzz/QueryFuzzer.swift $(FUZZ_LIBRARY) $(FUZZ_C_OBJECTS)
	$(FUZZ_LINK)
$(FUZZ_DIR)/reader-fuzzer: Fuzz/ReaderFuzzer.swift $(FUZZ_LIBRARY) $(FUZZ_C_OBJECTS)
	$(FUZZ_LINK)
$(FUZZ_DIR)/log-fuzzer: Fuzz/LogFuzzer.swift $(FUZZ_LIBRARY) $(FUZZ_C_OBJECTS)
	$(FUZZ_LINK)

fuzz-build: deps $(FUZZ_DIR)/query-fuzzer $(FUZZ_DIR)/reader-fuzzer $(FUZZ_DIR)/log-fuzzer

fuzz-seeds:
	Fuzz/make-seeds.sh $(SHARED)/corpus/xep-stanzas.xml $(FUZZ_DIR)/seeds

fuzz: fuzz-build fuzz-seeds
	Fuzz/run.sh query $(FUZZ_SECONDS)
	Fuzz/run.sh reader $(FUZZ_SECONDS)
	Fuzz/run.sh log $(FUZZ_SECONDS)

# What `make test` runs: the regression inputs, then every seed and a fixed set
# of FUZZ_QUICK_RUNS mutants of them (Fuzz/mutate.py), each run once — the same
# inputs on every run and every machine, so that a red run is a bug anyone can
# reproduce, never a known one found by chance. CI runs more of them (.ci/run).
# Random fuzzing, which finds new bugs, is `make fuzz`; each finding becomes an
# input in Fuzz/regressions/TARGET and a test.
FUZZ_QUICK_RUNS ?= 2000
fuzz-quick: fuzz-build fuzz-seeds
	Fuzz/run.sh query mutants=$(FUZZ_QUICK_RUNS) --quiet
	Fuzz/run.sh reader mutants=$(FUZZ_QUICK_RUNS) --quiet
	Fuzz/run.sh log mutants=$(FUZZ_QUICK_RUNS) --quiet

# BENCH_MB (default 200) sizes the large input, BENCH_RUNS (default 5) the runs per command;
# BENCH_ONLY=startup measures start-up and binary size alone.
bench: bench-deps build
	python3 benchmarks/run.py

# The release binary is stripped (31 MB with its symbols, 16 MB without, mostly
# the static Swift runtime's); install-debug keeps them, for a debugger or a symbolicated crash.
install: build
	$(MAKE) install-files

install-debug: build
	$(MAKE) install-files INSTALL_STRIP=

# What install puts in place, from $(BINARY), without building. The completion
# scripts are generated by the binary itself (swift-argument-parser's
# --generate-completion-script), so they always match its options.
install-files:
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man7 $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR)
	install -m 755 $(INSTALL_STRIP) $(BINARY) $(BINDIR)/stanzaq
	install -m 644 man/stanzaq.1 $(MANDIR)/man1/stanzaq.1
	install -m 644 man/stanzaq-query.7 $(MANDIR)/man7/stanzaq-query.7
	$(BINARY) --generate-completion-script bash > $(BASHCOMPDIR)/stanzaq
	$(BINARY) --generate-completion-script zsh > $(ZSHCOMPDIR)/_stanzaq
	$(BINARY) --generate-completion-script fish > $(FISHCOMPDIR)/stanzaq.fish
	chmod 644 $(BASHCOMPDIR)/stanzaq $(ZSHCOMPDIR)/_stanzaq $(FISHCOMPDIR)/stanzaq.fish

# The Debian package (packaging/deb/make-deb.sh): the release binary stripped,
# the man pages gzipped, the completions where Debian's shells read them, a
# DEP-5 copyright file, Depends from dpkg-shlibdeps. It replaces any earlier
# stanzaq_*.deb here, so that `apt install ./stanzaq_*.deb` names one package.
# DEB_MAINTAINER='Name <address>' sets the maintainer (a placeholder by default).
deb: deb-deps build
	rm -f stanzaq_*.deb
	packaging/deb/make-deb.sh $(RELEASE) $(CURDIR)

deb-lint: deb
	$(call install_missing,lintian)
	lintian --fail-on error,warning --info stanzaq_*.deb

uninstall:
	rm -f $(BINDIR)/stanzaq $(MANDIR)/man1/stanzaq.1 $(MANDIR)/man7/stanzaq-query.7 \
		$(BASHCOMPDIR)/stanzaq $(ZSHCOMPDIR)/_stanzaq $(FISHCOMPDIR)/stanzaq.fish

clean:
	rm -rf .build $(FUZZ_DIR)

# The real-log fixtures (Tests/Fixtures/real-logs): records logs of real XMPP
# software (Prosody, also over BOSH and WebSocket, ejabberd, and the clients and
# libraries the README lists) in scripted sessions over loopback, with packet
# captures and the truth read from them. record.sh rewrites the folders as a
# whole, so the other runs come after.
# Needs root; not part of check, test or CI. See Tests/Fixtures/real-logs/README.md.
fixtures:
	Tests/Fixtures/real-logs/record.sh
	Tests/Fixtures/real-logs/record-profanity.sh
	Tests/Fixtures/real-logs/record-rawdebug.sh
	Tests/Fixtures/real-logs/record-finch.sh
	Tests/Fixtures/real-logs/record-web.sh
	Tests/Fixtures/real-logs/record-qxmpp.sh
	Tests/Fixtures/real-logs/record-aioxmpp.sh
	Tests/Fixtures/real-logs/record-poezio.sh
	Tests/Fixtures/real-logs/record-slixmpp-pypi.sh
	Tests/Fixtures/real-logs/record-nbxmpp-pypi.sh
	Tests/Fixtures/real-logs/record-sendxmpp.sh
	Tests/Fixtures/real-logs/record-goxmpp.sh
	Tests/Fixtures/real-logs/record-mcabber.sh
