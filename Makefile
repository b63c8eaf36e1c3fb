# dbio — build, test and run. GNU make, pkg-config, C11.
#   make            build ./dbio
#   make run        install missing packages, build, run the default suite
#   make test       install missing packages, build, run every test
#   make SAN=1 ...  the same with AddressSanitizer + UndefinedBehaviorSanitizer
#   make SAN=thread ...  the same with ThreadSanitizer (build-tsan, ./dbio-tsan)
#   make test BATS="run fio-flow"  the unit tests and only these tests/cli files
#   make test BATS_SKIP="fio-pacing"  every tests/cli file but these (said in the output)
#   make test BATS_SKIPPED_OUT=FILE  also write the tests that skipped to FILE,
#                   a line "NAME.bats<TAB>test name" each
#   make test BATS_LIST=FILE  only the tests FILE names, in that form (CI runs
#                   under the full build's sanitizers the tests its build
#                   without libraries skipped: .ci/run)
#   make test TEST_JOBS=1  the tests/cli files one at a time (4 run at once by
#                   default; a file marked "# serial:" runs alone: tests/run-all)
#   make test TEST_PROG=dbio-min-san  the tests/cli files run that binary of
#                   the build (CI runs the minimal build's first, then the
#                   full build's on what it skipped: .ci/run)
#   make test TEST_UNITS=no  the tests/cli files without the unit tests
#   make fuzz       build the libFuzzer targets of tests/fuzz (clang, ASan + UBSan)
#                   and run each for FUZZ_SECONDS (60) from its seed corpus
#                   (make -j2 fuzz: two at a time)
#   make check-layers, check-size  the house rules: includes point down the layers,
#                   no file over 800 lines, no function over 120
#   make docs       regenerate docs/options.md, docs/dbio.1 (its job keys and each
#                   command's options, scripts/man-page) and the options part of
#                   docs/result.schema.json from the option tables,
#                   docs/fio-keys.md from them and src/plan/fio_keys.c, and
#                   the table of metrics in docs/compare.md from the registry,
#                   the table of docs/counters.md from the counter registry
#   make WITHOUT="gdbm lmdb" ...
#                   leave optional libraries out (gdbm lmdb sqlite3 liburing libaio libxxhash libcrypto libpq fuse3 rocksdb leveldb);
#                   each is also left out when its development package is missing
#   make dbio-min   a build without every optional library (tests use it)
#   make MPI=1      ./dbio-mpi in build-mpi: the same dbio linked with Open MPI
#                   (libopenmpi-dev), to run under mpirun (docs/mpi.md); without
#                   MPI=1 nothing links MPI. make test builds it as well when
#                   Open MPI's pkg-config file (ompi-c) is there.

VERSION := 0.1.0
PKGS    := jansson inih blkid
CC      ?= cc
# The build of each sanitizer has a directory and binaries of its own:
# SAN=1 (or any other value) -san, SAN=thread -tsan, SAN=fuzz -fuzz.
SANSUFFIX := $(if $(SAN),$(if $(filter thread,$(SAN)),-tsan,$(if $(filter fuzz,$(SAN)),-fuzz,-san)))
MPISUFFIX := $(if $(MPI),-mpi)
BUILD   ?= build$(MPISUFFIX)$(SANSUFFIX)
PROG    ?= dbio$(MPISUFFIX)$(SANSUFFIX)

# Optional libraries: the engine, kv backend or workload each brings is built
# in when its development package is installed and not named in WITHOUT; a
# job asking for a left-out one is refused with the package's name.
OPTIONAL    := gdbm lmdb sqlite3 liburing libaio libxxhash libcrypto libpq fuse3 rocksdb leveldb
WITHOUT     ?=
$(foreach w,$(WITHOUT),$(if $(filter $(w),$(OPTIONAL)),,$(error WITHOUT: '$(w)' is not an optional library; expected some of: $(OPTIONAL))))
lib_gdbm    := $(shell test -f /usr/include/gdbm.h && echo -lgdbm)
lib_lmdb    := $(shell pkg-config --libs lmdb 2>/dev/null)
lib_sqlite3 := $(shell pkg-config --libs sqlite3 2>/dev/null)
lib_liburing := $(shell pkg-config --libs liburing 2>/dev/null)
lib_libaio  := $(shell test -f /usr/include/libaio.h && echo -laio)
lib_libxxhash := $(shell pkg-config --libs libxxhash 2>/dev/null)
lib_libcrypto := $(shell pkg-config --libs libcrypto 2>/dev/null)
lib_libpq   := $(shell pkg-config --libs libpq 2>/dev/null)
lib_fuse3   := $(shell pkg-config --libs fuse3 2>/dev/null)
lib_rocksdb := $(shell test -f /usr/include/rocksdb/c.h && echo -lrocksdb)
lib_leveldb := $(shell test -f /usr/include/leveldb/c.h && echo -lleveldb)
WITH        := $(foreach l,$(filter-out $(WITHOUT),$(OPTIONAL)),$(if $(lib_$(l)),$(l)))

# CFLAGS given on the command line (make CFLAGS=-O0) replace -O2 -g only:
# the house's flags and a sanitizer's are added to them either way.
CFLAGS  ?= -O2 -g
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter \
           $(if $(findstring clang,$(CC)),,-Wno-format-truncation) \
           -Isrc -DDBIO_VERSION='"$(VERSION)"' -pthread -MMD -MP
ifeq ($(SAN),thread)
override CFLAGS += -fsanitize=thread -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=thread
else ifeq ($(SAN),fuzz)
override CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
else ifneq ($(SAN),)
override CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
override LDFLAGS += -fsanitize=address,undefined
endif

# make run and make test install every package first (scripts/install-deps).
HAVE_PKGS := $(shell pkg-config --exists $(PKGS) cmocka sqlite3 lmdb liburing libxxhash libcrypto libpq 2>/dev/null && test -f /usr/include/gdbm.h && test -f /usr/include/libaio.h && test -f /usr/include/rocksdb/c.h && test -f /usr/include/leveldb/c.h && command -v bats >/dev/null && echo yes)
override CFLAGS += $(shell pkg-config --cflags $(PKGS) 2>/dev/null) $(foreach l,$(WITH),-DDBIO_HAVE_$(shell echo $(l) | tr a-z A-Z))
override CFLAGS += $(if $(filter libpq,$(WITH)),$(shell pkg-config --cflags libpq 2>/dev/null))
override CFLAGS += $(if $(filter fuse3,$(WITH)),$(shell pkg-config --cflags fuse3 2>/dev/null))
LIBS    := $(shell pkg-config --libs $(PKGS) 2>/dev/null) $(foreach l,$(WITH),$(lib_$(l))) -lm
# MPI=1: Open MPI's flags, and DBIO_HAVE_MPI for src/mpi/ and --version.
HAVE_MPI := $(shell pkg-config --exists ompi-c 2>/dev/null && echo yes)
ifneq ($(MPI),)
ifneq ($(HAVE_MPI),yes)
$(error MPI=1: Open MPI's pkg-config file ompi-c is missing: install libopenmpi-dev and openmpi-bin (scripts/install-deps))
endif
override CFLAGS += $(shell pkg-config --cflags ompi-c) -DDBIO_HAVE_MPI
LIBS    += $(shell pkg-config --libs ompi-c)
endif
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

.PHONY: all deps run test unit cli docs check-docs format check-format check-layers check-size check-loops clean fuzz
all: $(PROG)

deps:
	@[ "$(HAVE_PKGS)" = yes ] || scripts/install-deps

$(PROG): $(BUILD)/main.o $(BUILD)/libdbio.a $(BUILD)/flags
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BUILD)/main.o $(BUILD)/libdbio.a $(LIBS)

# The same sources with every optional library left out, in a build
# directory of its own (the inner make builds PROG=dbio-min).
ifeq ($(filter dbio-min%,$(PROG)),)
.PHONY: dbio-min dbio-min-san dbio-min-tsan
dbio-min dbio-min-san dbio-min-tsan:
	$(MAKE) WITHOUT="$(OPTIONAL)" BUILD=build-min$(SANSUFFIX) PROG=$@ all
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

# bench/mpi-merge.c: the merge of the ranks' results timed without MPI
# (bench/mpi-gather.sh builds and runs it).
$(BUILD)/bench/%: bench/%.c $(BUILD)/libdbio.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libdbio.a $(LIBS) $(LDFLAGS)

# The fuzz targets compiled (not linked: libFuzzer is clang's) with the
# build's compiler and flags by make test, so that a change of a function
# they call fails here and not only in CI's fuzz stage.
$(BUILD)/fuzz-compiles/%.o: tests/fuzz/%.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

run: deps
	$(MAKE) all
	./dbio run

# With Open MPI installed, the MPI build too: tests/cli/mpi.bats runs it
# under mpirun (DBIO_MPI), and skips naming the package without it. Its
# build directory and binary named here: a BUILD= or PROG= given to this
# make (CI's build without libraries) must not make it overwrite them.
# Not built when BATS= names files and mpi is not among them.
MPI_PROG := $(if $(HAVE_MPI),$(if $(BATS),$(if $(filter mpi,$(BATS)),dbio-mpi$(SANSUFFIX)),dbio-mpi$(SANSUFFIX)))
# How many tests/cli files run at once: most wait on the clock, not the CPU.
TEST_JOBS ?= 4
# The binary the tests/cli files run (DBIO), one test builds: $(PROG) or
# dbio-min$(SANSUFFIX); and whether the unit tests run too.
TEST_PROG ?= $(PROG)
TEST_UNITS ?= yes
$(if $(filter $(TEST_PROG),$(PROG) dbio-min$(SANSUFFIX)),,$(error TEST_PROG=$(TEST_PROG): expected $(PROG) or dbio-min$(SANSUFFIX), the binaries make test builds))
$(if $(filter $(TEST_UNITS),yes no),,$(error TEST_UNITS=$(TEST_UNITS): expected yes or no))
test: deps
	$(MAKE) all $(UNITS) dbio-min$(SANSUFFIX) $(FUZZ_TARGETS:%=$(BUILD)/fuzz-compiles/%.o)
	$(if $(MPI_PROG),$(MAKE) MPI=1 BUILD=build-mpi$(SANSUFFIX) PROG=$(MPI_PROG) all)
	DBIO=$(CURDIR)/$(TEST_PROG) DBIO_MIN=$(CURDIR)/dbio-min$(SANSUFFIX) $(if $(MPI_PROG),DBIO_MPI=$(CURDIR)/$(MPI_PROG)) \
		BUILD=$(BUILD) BATS_FILES="$(BATS)" BATS_SKIP="$(BATS_SKIP)" BATS_LIST="$(BATS_LIST)" \
		BATS_SKIPPED_OUT="$(BATS_SKIPPED_OUT)" TEST_JOBS=$(TEST_JOBS) tests/run-all $(if $(filter yes,$(TEST_UNITS)),$(UNITS))

# libFuzzer: each target of tests/fuzz linked with the sources under
# ASan + UBSan by clang, run from its checked-in seeds
# (tests/fuzz/corpus/<target>) for FUZZ_SECONDS; what it finds new goes to
# build-fuzz/corpus, a crash to build-fuzz/crashes (and fails the run).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
fuzz:
	@command -v clang >/dev/null || { echo "make fuzz: clang not found: scripts/install-deps installs it" >&2; exit 2; }
	$(MAKE) SAN=fuzz CC=clang fuzz-run

ifeq ($(SAN),fuzz)
.PHONY: fuzz-run
$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libdbio.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libdbio.a $(LIBS) $(LDFLAGS)

# One target per fuzzer, so that make -j2 runs two at once, each on a core
# of its own for FUZZ_SECONDS (as many CPU seconds as one at a time).
fuzz-run: $(FUZZ_TARGETS:%=fuzz-run-%)
.PHONY: $(FUZZ_TARGETS:%=fuzz-run-%)
$(FUZZ_TARGETS:%=fuzz-run-%): fuzz-run-%: $(BUILD)/fuzz/%
	@mkdir -p $(BUILD)/crashes $(BUILD)/corpus/$*
	@echo "fuzz: $* for $(FUZZ_SECONDS) s"
	@$(BUILD)/fuzz/$* -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=$(BUILD)/crashes/$*- $(BUILD)/corpus/$* tests/fuzz/corpus/$* \
		>$(BUILD)/$*.log 2>&1 || { tail -40 $(BUILD)/$*.log; echo "fuzz: $* FAILED: see $(BUILD)/crashes" >&2; exit 1; }
	@grep -h '^Done ' $(BUILD)/$*.log | sed "s/^/fuzz: $*: /"
endif

docs: all
	./dbio help options --markdown > docs/options.md
	./dbio help fio-keys --markdown > docs/fio-keys.md
	scripts/man-page ./dbio docs/dbio.1.in > $(BUILD)/dbio.1
	mv $(BUILD)/dbio.1 docs/dbio.1
	./dbio help options --schema > $(BUILD)/options.schema.json
	scripts/schema-options $(BUILD)/options.schema.json docs/result.schema.json > $(BUILD)/result.schema.json
	mv $(BUILD)/result.schema.json docs/result.schema.json
	./dbio help metrics --markdown > $(BUILD)/metrics.md
	awk -v table=$(BUILD)/metrics.md '/^<!-- end of metrics -->/ { skip = 0 } !skip { print } \
	  /^<!-- metrics: generated/ { while ((getline line < table) > 0) print line; skip = 1 }' \
	  docs/compare.md > $(BUILD)/compare.md
	mv $(BUILD)/compare.md docs/compare.md
	./dbio help counters --markdown > $(BUILD)/counters-table.md
	awk -v table=$(BUILD)/counters-table.md '/^<!-- end of counters -->/ { skip = 0 } !skip { print } \
	  /^<!-- counters: generated/ { while ((getline line < table) > 0) print line; skip = 1 }' \
	  docs/counters.md > $(BUILD)/counters.md
	mv $(BUILD)/counters.md docs/counters.md

format:
	clang-format -i $$(find src tests/unit tests/fuzz bench -name '*.[ch]')

check-format:
	clang-format --dry-run --Werror $$(find src tests/unit tests/fuzz bench -name '*.[ch]')

# Includes point down the layers of docs/architecture.md; no file over 800
# lines, no function over 120 (tests/cli/docs.bats runs both too).
check-layers:
	scripts/check-layers

check-size:
	scripts/check-size

# No two files of a room (a folder of src/) call each other, directly or
# around a circle: read from the objects of the build.
check-loops: $(OBJS)
	scripts/check-loops $(BUILD)

clean:
	rm -rf build build-san build-tsan build-fuzz build-min build-min-san build-min-tsan build-without \
		build-mpi build-mpi-san build-mpi-tsan dbio-mpi dbio-mpi-san dbio-mpi-tsan \
		dbio dbio-san dbio-tsan dbio-min dbio-min-san dbio-min-tsan dbio-without

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
