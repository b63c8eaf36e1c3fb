# dbio — build, test and run. GNU make, pkg-config, C11.
#   make            build ./dbio
#   make run        install missing packages, build, run the default suite
#   make test       install missing packages, build, run every test
#   make SAN=1 ...  the same with AddressSanitizer + UndefinedBehaviorSanitizer
#   make docs       regenerate docs/options.md and docs/dbio.1 from the option table

VERSION := 0.1.0
PKGS    := jansson inih sqlite3 lmdb blkid liburing
CC      ?= cc
BUILD   := build$(if $(SAN),-san)

CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wno-format-truncation \
           -Isrc -DDBIO_VERSION='"$(VERSION)"' -pthread -MMD -MP
ifneq ($(SAN),)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

HAVE_PKGS := $(shell pkg-config --exists $(PKGS) cmocka 2>/dev/null && test -f /usr/include/gdbm.h && test -f /usr/include/libaio.h && command -v bats >/dev/null && echo yes)
ifeq ($(HAVE_PKGS),yes)
CFLAGS  += $(shell pkg-config --cflags $(PKGS))
LIBS    := $(shell pkg-config --libs $(PKGS)) -lgdbm -laio -lm
CMOCKA  := $(shell pkg-config --cflags --libs cmocka)
endif

SRCS    := $(filter-out src/main.c,$(shell find src -name '*.c' | sort))
OBJS    := $(SRCS:src/%.c=$(BUILD)/%.o) $(BUILD)/default_suite.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNITS   := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: all deps run test unit cli docs check-docs format check-format clean
all: dbio$(if $(SAN),-san)

deps:
	@[ "$(HAVE_PKGS)" = yes ] || scripts/install-deps

dbio$(if $(SAN),-san): $(BUILD)/main.o $(BUILD)/libdbio.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libdbio.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# The default suite is jobs/default.fio, compiled in as a C string.
$(BUILD)/default_suite.c: jobs/default.fio
	@mkdir -p $(dir $@)
	{ echo 'const char cmd_run_default_suite[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/default_suite.o: $(BUILD)/default_suite.c
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libdbio.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libdbio.a $(LIBS) $(CMOCKA) $(LDFLAGS)

run: deps
	$(MAKE) all
	./dbio run

test: deps
	$(MAKE) all $(UNITS)
	DBIO=$(CURDIR)/dbio$(if $(SAN),-san) BUILD=$(BUILD) tests/run-all $(UNITS)

docs: all
	./dbio help options --markdown > docs/options.md
	./dbio help options --man > $(BUILD)/options.man
	sed -e '/@OPTIONS@/r $(BUILD)/options.man' -e '/@OPTIONS@/d' docs/dbio.1.in > docs/dbio.1

format:
	clang-format -i $$(find src tests/unit bench -name '*.[ch]')

check-format:
	clang-format --dry-run --Werror $$(find src tests/unit bench -name '*.[ch]')

clean:
	rm -rf build build-san dbio dbio-san

-include $(shell find build build-san -name '*.d' 2>/dev/null)
