# dbio — build, test and run. GNU make, pkg-config, C11.
#   make            build ./dbio
#   make run        install missing packages, build, run the default suite
#   make test       install missing packages, build, run every test
#   make SAN=1 ...  the same with AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-layers, check-size  the house rules: includes point down the layers,
#                   no file over 800 lines, no function over 120
#   make docs       regenerate docs/options.md, docs/dbio.1 and the options part of
#                   docs/result.schema.json from the option tables, and
#                   docs/fio-keys.md from them and src/plan/fio_keys.c
#   make WITHOUT="gdbm lmdb" ...
#                   leave optional libraries out (gdbm lmdb sqlite3 liburing libaio libxxhash libcrypto);
#                   each is also left out when its development package is missing
#   make dbio-min   a build without every optional library (tests use it)

VERSION := 0.1.0
PKGS    := jansson inih blkid
CC      ?= cc
BUILD   ?= build$(if $(SAN),-san)
PROG    ?= dbio$(if $(SAN),-san)

# Optional libraries: the engine, kv backend or workload each brings is built
# in when its development package is installed and not named in WITHOUT; a
# job asking for a left-out one is refused with the package's name.
OPTIONAL    := gdbm lmdb sqlite3 liburing libaio libxxhash libcrypto
WITHOUT     ?=
$(foreach w,$(WITHOUT),$(if $(filter $(w),$(OPTIONAL)),,$(error WITHOUT: '$(w)' is not an optional library; expected some of: $(OPTIONAL))))
lib_gdbm    := $(shell test -f /usr/include/gdbm.h && echo -lgdbm)
lib_lmdb    := $(shell pkg-config --libs lmdb 2>/dev/null)
lib_sqlite3 := $(shell pkg-config --libs sqlite3 2>/dev/null)
lib_liburing := $(shell pkg-config --libs liburing 2>/dev/null)
lib_libaio  := $(shell test -f /usr/include/libaio.h && echo -laio)
lib_libxxhash := $(shell pkg-config --libs libxxhash 2>/dev/null)
lib_libcrypto := $(shell pkg-config --libs libcrypto 2>/dev/null)
WITH        := $(foreach l,$(filter-out $(WITHOUT),$(OPTIONAL)),$(if $(lib_$(l)),$(l)))

CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wno-format-truncation \
           -Isrc -DDBIO_VERSION='"$(VERSION)"' -pthread -MMD -MP
ifneq ($(SAN),)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

# make run and make test install every package first (scripts/install-deps).
HAVE_PKGS := $(shell pkg-config --exists $(PKGS) cmocka sqlite3 lmdb liburing libxxhash libcrypto 2>/dev/null && test -f /usr/include/gdbm.h && test -f /usr/include/libaio.h && command -v bats >/dev/null && echo yes)
CFLAGS  += $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(foreach l,$(WITH),-DDBIO_HAVE_$(shell echo $(l) | tr a-z A-Z))
LIBS    := $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(foreach l,$(WITH),$(lib_$(l))) -lm
CMOCKA  := $(shell pkg-config --cflags --libs cmocka 2>/dev/null)

# Objects depend on $(BUILD)/flags, rewritten whenever the compiler, flags
# or libraries change (WITHOUT=, a -dev package installed or removed), so a
# build never mixes objects made for another set of libraries.
FLAGS_NOW := $(CC) $(CFLAGS) $(LDFLAGS) $(LIBS)
ifneq ($(FLAGS_NOW),$(file <$(BUILD)/flags))
$(shell mkdir -p $(BUILD))
$(file >$(BUILD)/flags,$(FLAGS_NOW))
endif

SRCS    := $(filter-out src/main.c,$(shell find src -name '*.c' | sort))
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/default_suite.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNITS   := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps run test unit cli docs check-docs format check-format check-layers check-size clean
all: $(PROG)

deps:
	@[ "$(HAVE_PKGS)" = yes ] || scripts/install-deps

$(PROG): $(BUILD)/main.o $(BUILD)/libdbio.a $(BUILD)/flags
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/main.o $(BUILD)/libdbio.a $(LIBS)

# The same sources with every optional library left out, in a build
# directory of its own (the inner make builds PROG=dbio-min).
ifeq ($(filter dbio-min%,$(PROG)),)
.PHONY: dbio-min dbio-min-san
dbio-min dbio-min-san:
	$(MAKE) WITHOUT="$(OPTIONAL)" BUILD=build-min$(if $(SAN),-san) PROG=$@ all
endif

$(BUILD)/libdbio.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: src/%.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The default suite is jobs/default.fio, compiled in as a C string.
$(BUILD)/default_suite.c: jobs/default.fio
	@mkdir -p $(dir $@)
	{ echo 'const char cmd_run_default_suite[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/default_suite.o: $(BUILD)/default_suite.c $(BUILD)/flags
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libdbio.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libdbio.a $(LIBS) $(CMOCKA) $(LDFLAGS)

run: deps
	$(MAKE) all
	./dbio run

test: deps
	$(MAKE) all $(UNITS) dbio-min$(if $(SAN),-san)
	DBIO=$(CURDIR)/$(PROG) DBIO_MIN=$(CURDIR)/dbio-min$(if $(SAN),-san) BUILD=$(BUILD) tests/run-all $(UNITS)

docs: all
	./dbio help options --markdown > docs/options.md
	./dbio help fio-keys --markdown > docs/fio-keys.md
	./dbio help options --man > $(BUILD)/options.man
	sed -e '/@OPTIONS@/r $(BUILD)/options.man' -e '/@OPTIONS@/d' docs/dbio.1.in > docs/dbio.1
	./dbio help options --schema > $(BUILD)/options.schema.json
	scripts/schema-options $(BUILD)/options.schema.json docs/result.schema.json > $(BUILD)/result.schema.json
	mv $(BUILD)/result.schema.json docs/result.schema.json

format:
	clang-format -i $$(find src tests/unit bench -name '*.[ch]')

check-format:
	clang-format --dry-run --Werror $$(find src tests/unit bench -name '*.[ch]')

# Includes point down the layers of docs/architecture.md; no file over 800
# lines, no function over 120 (tests/cli/docs.bats runs both too).
check-layers:
	scripts/check-layers

check-size:
	scripts/check-size

clean:
	rm -rf build build-san build-min build-min-san build-without dbio dbio-san dbio-min dbio-min-san dbio-without

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
