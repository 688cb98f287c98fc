# stanzaq — build, test, install.
#
#   make demo      install what is missing, build, and run stanzaq on an example
#   make test      the whole test suite (what CI runs)
#   make install   binary and man pages under $(DESTDIR)$(PREFIX)

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MANDIR   = $(DESTDIR)$(PREFIX)/share/man
RELEASE  = .build/release/stanzaq

# System packages (Debian names): the C libraries stanzaq links, and the tools
# its tests and benchmarks use.
BUILD_PACKAGES = pkg-config libxml2-dev libedit-dev libssl-dev
TEST_PACKAGES  = mandoc man-db jq
BENCH_PACKAGES = hyperfine xmlstarlet libxml2-utils time

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps test-deps bench-deps build demo test bench install uninstall clean

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

build: deps
	$(SWIFT) build -c release --product stanzaq

demo: build
	@echo '$$ stanzaq '\''body#'\'' examples/capture.xml'
	@$(RELEASE) 'body#' examples/capture.xml
	@echo
	@echo '$$ stanzaq -e /@from -e /@type -e '\''body#'\'' examples/capture.xml'
	@$(RELEASE) -e /@from -e /@type -e 'body#' examples/capture.xml
	@echo
	@echo '$$ stanzaq '\''{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int'\'' examples/http-upload-disco.xml'
	@$(RELEASE) '{http://jabber.org/protocol/disco#info}query/\{urn:xmpp:http:upload:0}result@max-file-size\|int' examples/http-upload-disco.xml

test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: bench-deps build
	@echo "make bench: the benchmark suite is not written yet (see the performance issue)."

install: build
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man7
	install -m 755 $(RELEASE) $(BINDIR)/stanzaq
	install -m 644 man/stanzaq.1 $(MANDIR)/man1/stanzaq.1
	install -m 644 man/stanzaq-query.7 $(MANDIR)/man7/stanzaq-query.7

uninstall:
	rm -f $(BINDIR)/stanzaq $(MANDIR)/man1/stanzaq.1 $(MANDIR)/man7/stanzaq-query.7

clean:
	rm -rf .build
