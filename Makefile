# Tavoliere — plain Makefile.
#   make            build/tavoliere, build/libtavoliere.a with build/tavoliere.pc (for
#                   pkg-config) and the web UI in build/web
#                   (and build/tosfeat, the data of Toscana's fitted evaluation: docs/ai/toscana.md;
#                   build/loadgen, the server benchmark's load client: results/scaling.md)
#   make test       build and run every test (summary line: "N passed, N failed")
#   make check      the fast tier of the tests (under a minute; docs/testing.md)
#   make timing     the timing suite alone: wall-clock figures, failing only far off
#   make bench      the deterministic benchmark
#   make SAN=1 ...  the same under AddressSanitizer + UndefinedBehaviorSanitizer (in build-san/)
#   make install    PREFIX (/usr/local) and DESTDIR: bin/tavoliere, share/tavoliere/web (found by
#                   the installed program), share/tavoliere/deploy, share/doc/tavoliere, the
#                   library and its headers (docs/deploy.md)

CC      ?= cc
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
           -Wpointer-arith -Wcast-qual -Wformat=2 -Wundef -Wvla -Wno-unused-parameter
ifeq ($(SAN),1)
BUILD   := build-san
OPT     := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all -DTAV_DEBUG=1
LDSAN   := -fsanitize=address,undefined
else
BUILD   ?= build
OPT     ?= -O2 -g
LDSAN   :=
endif
CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L
CFLAGS  += $(CSTD) $(WARN) $(OPT)
LDFLAGS += $(LDSAN)
LDLIBS  += -lm -lpthread

LIB_SRC := $(wildcard src/base/*.c src/games/*.c src/search/*.c src/record/*.c src/session/*.c src/protocol/*.c)
CLI_SRC := $(wildcard src/cli/*.c src/bench/*.c)
# The server (src/server/): its own layer, linked into the program only.
SRV_SRC := $(wildcard src/server/*.c src/server/core/*.c)
SRV_PKG := libwebsockets jansson sqlite3 libsodium libpq libcurl
SRV_CFLAGS := $(shell pkg-config --cflags $(SRV_PKG))
SRV_LIBS := $(shell pkg-config --libs $(SRV_PKG))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
SRV_OBJ := $(SRV_SRC:%.c=$(BUILD)/obj/%.o)
DEPS    := $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SRV_OBJ:.o=.d) \
           $(patsubst %.c,$(BUILD)/obj/%.d,$(wildcard tests/session/*.c)) $(BUILD)/obj/tests/search/test_service.d \
           $(BUILD)/obj/tests/server/test_store.d $(BUILD)/obj/tests/server/test_core.d \
           $(BUILD)/obj/tests/server/test_tournament.d \
           $(BUILD)/obj/tests/search/test_timing.d \
           $(BUILD)/obj/tools/tosfeat.d $(BUILD)/obj/tools/loadgen.d

.PHONY: all test check timing bench clean web install
all: $(BUILD)/tavoliere $(BUILD)/libtavoliere.a $(BUILD)/tavoliere.pc $(BUILD)/libtavoliere-internal.a \
     $(BUILD)/test_session $(BUILD)/test_service \
     $(BUILD)/test_store $(BUILD)/test_core $(BUILD)/test_tournament \
     $(BUILD)/test_timing $(BUILD)/tosfeat $(BUILD)/loadgen web

# The web UI: type-checked with tsc, bundled with esbuild (node_modules from
# `npm ci`, see scripts/setup.sh) into $(BUILD)/web, which `tavoliere serve`
# serves.  Rebuilt only when a file under web/ changed.
WEB_SRC := $(shell find web -type f -not -name '*~' 2>/dev/null)
NODE_BIN := node_modules/.bin
# The engine's worker (web/src/engine/worker.ts) is a bundle of its own; the
# service worker (web/sw/sw.js, for offline play) gets a version made of the
# files it keeps, so each build that changes them is a new cache.
web: $(BUILD)/web/app.js $(BUILD)/web/sw.js

$(BUILD)/web/app.js: $(WEB_SRC)
	@test -x $(NODE_BIN)/esbuild || { echo "no $(NODE_BIN)/esbuild: run sh scripts/setup.sh (npm ci)"; exit 1; }
	$(NODE_BIN)/tsc --noEmit -p web
	@mkdir -p $(BUILD)/web
	cp web/index.html web/app.css web/static/* web/sw/manifest.webmanifest $(BUILD)/web/
	mkdir -p $(BUILD)/web/i18n && cp web/i18n/en.json web/i18n/it.json $(BUILD)/web/i18n/   # the mails' words
	$(NODE_BIN)/esbuild web/src/main.ts --bundle --format=esm --target=es2020 --minify --sourcemap \
		--log-level=warning --outfile=$(BUILD)/web/app.js
	$(NODE_BIN)/esbuild web/src/engine/worker.ts --bundle --format=iife --target=es2020 --minify \
		--log-level=warning --outfile=$(BUILD)/web/engine-worker.js

$(BUILD)/web/sw.js: web/sw/sw.js $(BUILD)/web/app.js $(if $(filter 1,$(WASM_OK)),$(BUILD)/web/tavoliere.wasm)
	v=$$(cat $(BUILD)/web/app.js $(BUILD)/web/app.css $(BUILD)/web/index.html $(BUILD)/web/engine-worker.js \
		$$(test -f $(BUILD)/web/tavoliere.wasm && echo $(BUILD)/web/tavoliere.wasm) web/sw/sw.js | cksum | cut -d' ' -f1) && \
	sed "s/@VERSION@/$$v/" web/sw/sw.js >$@

# The library for the browser (issue 37; docs/wasm.md): the same sources
# compiled for wasm32-wasi by Debian's clang, lld and wasi-libc (no prebuilt
# toolchain; scripts/setup.sh installs them), single-threaded
# (TAV_NO_THREADS: wasi-libc has no threads, the search service then runs a
# search on the calling thread), as a reactor module exporting the small
# surface of src/wasm/tavwasm.c.  The page loads it from $(BUILD)/web.
# Without the toolchain the page is built without it (and its tests say so).
WASM_CC    ?= clang
WASM_SYSLIB := /usr/lib/wasm32-wasi/libc.a
WASM_OK    := $(shell command -v $(WASM_CC) >/dev/null 2>&1 && command -v wasm-ld >/dev/null 2>&1 && \
                test -f $(WASM_SYSLIB) && echo 1)
WASM_FLAGS := --target=wasm32-wasi $(CSTD) $(WARN) -O3 -DTAV_NO_THREADS -Iinclude -Isrc \
              -D_POSIX_C_SOURCE=200809L
WASM_SRC   := $(LIB_SRC) src/wasm/tavwasm.c src/bench/bench.c
WASM_OBJ   := $(WASM_SRC:%.c=$(BUILD)/wasm/%.o)
DEPS       += $(WASM_OBJ:.o=.d)
ifeq ($(WASM_OK),1)
web: $(BUILD)/web/tavoliere.wasm
endif

$(BUILD)/web/tavoliere.wasm: $(WASM_OBJ)
	@mkdir -p $(@D)
	$(WASM_CC) --target=wasm32-wasi -mexec-model=reactor -O3 -Wl,-z,stack-size=8388608 \
		-Wl,--strip-debug -o $@ $^

$(BUILD)/wasm/%.o: %.c
	@mkdir -p $(@D)
	$(WASM_CC) $(WASM_FLAGS) -MMD -MP -c $< -o $@

# Two archives of the same objects.  libtavoliere.a is the public library:
# its objects are linked into one, and every global symbol but the public API
# (tav_*, declared in include/) is made local, so internals (tavi_*) cannot
# clash with a user's symbols or be called from outside.  The program and the
# internal tests link libtavoliere-internal.a, which keeps them global.
$(BUILD)/libtavoliere-internal.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/libtavoliere.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ $(BUILD)/obj/tavoliere-all.o $(BUILD)/obj/tavoliere.o
	$(LD) -r -o $(BUILD)/obj/tavoliere-all.o $^
	objcopy --wildcard --keep-global-symbol='tav_*' $(BUILD)/obj/tavoliere-all.o $(BUILD)/obj/tavoliere.o
	ar rcs $@ $(BUILD)/obj/tavoliere.o

# pkg-config's description of the public library as built here: its headers
# (include/) and the archive, with the libraries it needs (and the
# sanitizers' runtime in the SAN build).  The version is tavoliere.h's.
#   PKG_CONFIG_PATH=build pkg-config --cflags --libs tavoliere
TAV_VERSION := $(shell sed -n 's/^\#define TAV_VERSION "\(.*\)"$$/\1/p' include/tavoliere.h)
$(BUILD)/tavoliere.pc: include/tavoliere.h Makefile
	@mkdir -p $(@D)
	printf '%s\n' 'includedir=$(CURDIR)/include' 'libdir=$(abspath $(BUILD))' '' \
		'Name: tavoliere' \
		'Description: Tavoliere: four board games, sessions, records and computer players (C11)' \
		'Version: $(TAV_VERSION)' 'Cflags: -I$${includedir}' \
		'Libs: $(strip -L$${libdir} -ltavoliere -lm -lpthread $(LDSAN))' >$@

# The program also seals hidden deals in saved records (src/cli/seal.c: libsodium) and
# links the server (src/server/: libwebsockets, jansson, SQLite, libpq, libsodium).
$(BUILD)/tavoliere: $(CLI_OBJ) $(SRV_OBJ) $(BUILD)/libtavoliere-internal.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(SRV_OBJ) $(BUILD)/libtavoliere-internal.a $(SRV_LIBS) $(shell pkg-config --libs libcurl) $(LDLIBS)

$(SRV_OBJ): CPPFLAGS += $(SRV_CFLAGS)
# `tavoliere bot` (src/cli/bot.c) is a client: libwebsockets, jansson, libcurl.
BOT_PKG := libwebsockets jansson libcurl
$(BUILD)/obj/src/cli/bot.o: CPPFLAGS += $(shell pkg-config --cflags $(BOT_PKG))
$(BUILD)/obj/tests/server/test_store.o: CPPFLAGS += $(shell pkg-config --cflags libpq)

# The server's core alone (src/server/core/: no libwebsockets, no JSON) and
# its C tests: the storage conformance suite and the core's own tests, which
# link SQLite, libpq (PostgreSQL) and libsodium only.
CORE_OBJ := $(filter $(BUILD)/obj/src/server/core/%,$(SRV_OBJ))
CORE_LIBS := $(shell pkg-config --libs sqlite3 libsodium libpq libcurl)
$(BUILD)/test_store: $(BUILD)/obj/tests/server/test_store.o $(BUILD)/obj/src/server/core/store.o \
                     $(filter $(BUILD)/obj/src/server/core/store_sqlite%,$(SRV_OBJ)) \
                     $(filter $(BUILD)/obj/src/server/core/store_pg%,$(SRV_OBJ))
	$(CC) $(LDFLAGS) -o $@ $^ $(CORE_LIBS) $(LDLIBS)

$(BUILD)/test_core: $(BUILD)/obj/tests/server/test_core.o $(CORE_OBJ) $(BUILD)/libtavoliere-internal.a
	$(CC) $(LDFLAGS) -o $@ $< $(CORE_OBJ) $(BUILD)/libtavoliere-internal.a $(CORE_LIBS) $(LDLIBS)

# The tournaments' rules alone (pure: no store, no library).
$(BUILD)/test_tournament: $(BUILD)/obj/tests/server/test_tournament.o $(BUILD)/obj/src/server/core/tournament.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Test programs over the public library API (tests/*/test_*.c).
# The session API's tests: a runner (test_session.c) and a file per topic.
TSESSION_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/session/*.c))
$(BUILD)/test_session: $(TSESSION_OBJ) $(BUILD)/libtavoliere.a
	$(CC) $(LDFLAGS) -o $@ $(TSESSION_OBJ) $(BUILD)/libtavoliere.a $(LDLIBS)

$(BUILD)/test_service: $(BUILD)/obj/tests/search/test_service.o $(BUILD)/libtavoliere-internal.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libtavoliere-internal.a $(LDLIBS)

$(BUILD)/test_timing: $(BUILD)/obj/tests/search/test_timing.o $(BUILD)/libtavoliere-internal.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libtavoliere-internal.a $(LDLIBS)

# Research tools over the internal library (tools/*.c).
$(BUILD)/tosfeat: $(BUILD)/obj/tools/tosfeat.o $(BUILD)/libtavoliere-internal.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libtavoliere-internal.a $(LDLIBS)

# The benchmark's load client (scripts/bench_server.mjs --client c): a
# program of its own, over jansson only.
$(BUILD)/obj/tools/loadgen.o: CFLAGS += $(shell pkg-config --cflags jansson)
$(BUILD)/loadgen: $(BUILD)/obj/tools/loadgen.o
	$(CC) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs jansson)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

# The tests in tiers (tests/run.sh, docs/testing.md): `test` runs every
# suite, `check` the fast tier, `timing` the timing suite alone.
test: all
	BUILD=$(BUILD) SELFTEST_ARGS="$(SELFTEST_ARGS)" sh tests/run.sh

check: all
	BUILD=$(BUILD) TIER=check sh tests/run.sh

timing: all
	BUILD=$(BUILD) TIER=timing sh tests/run.sh

bench: all
	$(BUILD)/tavoliere bench

# The program, the page (found by the installed program as
# ../share/tavoliere/web), the deployment files, the documents, and the
# public library with its headers and pkg-config file.
PREFIX  ?= /usr/local
DESTDIR ?=
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/tavoliere/web \
		$(DESTDIR)$(PREFIX)/share/tavoliere/deploy/systemd $(DESTDIR)$(PREFIX)/share/doc/tavoliere \
		$(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 755 $(BUILD)/tavoliere $(DESTDIR)$(PREFIX)/bin/tavoliere
	cp -R $(BUILD)/web/. $(DESTDIR)$(PREFIX)/share/tavoliere/web/
	rm -rf $(DESTDIR)$(PREFIX)/share/tavoliere/web/screenshots
	find $(DESTDIR)$(PREFIX)/share/tavoliere/web -type d -exec chmod 755 {} +
	find $(DESTDIR)$(PREFIX)/share/tavoliere/web -type f -exec chmod 644 {} +
	install -m 644 deploy/nginx.conf $(DESTDIR)$(PREFIX)/share/tavoliere/deploy/
	install -m 644 deploy/systemd/* $(DESTDIR)$(PREFIX)/share/tavoliere/deploy/systemd/
	install -m 644 README.md ARCHITECTURE.md $(DESTDIR)$(PREFIX)/share/doc/tavoliere/
	cp -R docs/. $(DESTDIR)$(PREFIX)/share/doc/tavoliere/
	install -m 644 include/*.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libtavoliere.a $(DESTDIR)$(PREFIX)/lib/
	printf '%s\n' 'prefix=$(PREFIX)' 'includedir=$${prefix}/include' 'libdir=$${prefix}/lib' '' \
		'Name: tavoliere' \
		'Description: Tavoliere: four board games, sessions, records and computer players (C11)' \
		'Version: $(TAV_VERSION)' 'Cflags: -I$${includedir}' \
		'Libs: -L$${libdir} -ltavoliere -lm -lpthread' >$(DESTDIR)$(PREFIX)/lib/pkgconfig/tavoliere.pc

clean:
	rm -rf build build-san

-include $(DEPS)
