# OpenBench and other testers build engines with `make -j EXE=<name> [EVALFILE=<path>]`:
# `<name>` (`<name>.exe` on Windows) is left beside this Makefile, built with the network
# EVALFILE names embedded instead of nets/default.nnue (nothing in the tree changes), into
# $(CARGO_TARGET_DIR) when that is set.
EXE ?= ladya
CARGO ?= cargo

ifeq ($(OS),Windows_NT)
    EXT := .exe
endif
TARGET_DIR := $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)
BUILT := $(TARGET_DIR)/release/ladya$(EXT)
OUT := $(patsubst %$(EXT),%,$(EXE))$(EXT)
ifneq ($(strip $(EVALFILE)),)
    export LADYA_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: all native ablate sprt sprt-resume tune-branch miri tsan clean

all:
	$(CARGO) build --release
	@if [ "$(OUT)" != "ladya" ] || [ ! -e ladya ] || [ -f ladya ]; then cp "$(BUILT)" "$(OUT)"; fi

# Opt-in build for the machine it is built on (not portable).
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release
	cp "$(BUILT)" "$(OUT)"

# SPSA on OpenBench: a branch whose default build offers the search's tunables as UCI
# options (the `tune` feature on by default), made from HEAD without touching the work
# tree; push it and name it in OpenBench's SPSA form, e.g.
#   make tune-branch BRANCH=spsa-lmr
BRANCH ?= spsa
tune-branch:
	tools/openbench/tune_branch.sh "$(BRANCH)"

# The engine with one search step or evaluation term group switched off, for its SPRT: a
# copy of the tree with one switch of src/search/params/mod.rs or src/eval/params.rs set to
# false, e.g.
#   make ablate STEP=USE_NULL_MOVE EXE=/tmp/ladya-no-null-move
ABLATE_DIR = target/ablate/$(STEP)
ablate:
	@test -n "$(STEP)" || { echo "usage: make ablate STEP=USE_... EXE=<path>"; exit 2; }
	@grep -lq "pub const $(STEP): bool = true;" src/search/params/mod.rs src/eval/params.rs || { echo "no switch $(STEP)"; exit 2; }
	rm -rf $(ABLATE_DIR) && mkdir -p $(ABLATE_DIR)
	cp -r Cargo.toml Cargo.lock build.rs src benches tests book assets vendor $(ABLATE_DIR)/
	mkdir -p $(ABLATE_DIR)/nets && cp nets/default.nnue $(ABLATE_DIR)/nets/
	sed -i 's/pub const $(STEP): bool = true;/pub const $(STEP): bool = false;/' $(ABLATE_DIR)/src/search/params/mod.rs $(ABLATE_DIR)/src/eval/params.rs
	CARGO_TARGET_DIR=target/ablate/build $(CARGO) build --release --manifest-path $(ABLATE_DIR)/Cargo.toml
	cp target/ablate/build/release/ladya "$(EXE)"

# The SPRT of one switch, as logged in the step comments: the full engine (engine 1)
# against the build without the step, on the UHO openings, e.g.
#   make sprt STEP=USE_KILLERS
#   make sprt STEP=USE_KING_SAFETY SPRT_TC=8+0.08 SPRT_GAMES=600
# A simplification (is the step worth keeping?) swaps the bounds: SPRT_BOUNDS="-5 0" with
# SPRT_SWAP=1 puts the build without the step first. Games are played by fastchess (the one
# tools/runner.py finds: on PATH, $$FASTCHESS, or built once from ../shared/tools/fastchess),
# on OPENINGS (any EPD book).
# A screen before the clock: SPRT_NODES=10000 plays at a fixed number of nodes a move instead
# of SPRT_TC, with decided games adjudicated (as tools/spsa.py's games), about ten times the
# games a minute of 8+0.08. It sees what a change does to the tree, not to the speed: measure
# that beside it, and let the clock decide.
#   make sprt STEP=USE_THREAT_HISTORY SPRT_NODES=10000 SPRT_GAMES=800
SHARED ?= ../shared
OPENINGS ?= $(SHARED)/data/openings/uho_4060_v4_sample.epd
SPRT_TC ?= 2+0.02
SPRT_GAMES ?= 200
SPRT_BOUNDS ?= 0 5
SPRT_CONCURRENCY ?= 2
SPRT_SEED ?= 7
SPRT_NODES ?=
SPRT_LIMIT = $(if $(SPRT_NODES),tc=100+1 nodes=$(SPRT_NODES),tc=$(SPRT_TC))
SPRT_ADJUDICATION = $(if $(SPRT_NODES),-resign movecount=3 score=600 twosided=true -draw movenumber=34 movecount=8 score=20)
SPRT_DIR = target/sprt
SPRT_FULL = $(abspath $(SPRT_DIR)/ladya-full)
SPRT_WITHOUT = $(abspath $(SPRT_DIR)/ladya-no-$(STEP))
SPRT_FIRST = $(if $(SPRT_SWAP),cmd=$(SPRT_WITHOUT) name=no-$(STEP),cmd=$(SPRT_FULL) name=full)
SPRT_SECOND = $(if $(SPRT_SWAP),cmd=$(SPRT_FULL) name=full,cmd=$(SPRT_WITHOUT) name=no-$(STEP))
sprt:
	@test -n "$(STEP)" || { echo "usage: make sprt STEP=USE_... [SPRT_TC=...]"; exit 2; }
	mkdir -p $(SPRT_DIR)
	$(MAKE) all EXE=$(SPRT_FULL)
	$(MAKE) ablate STEP=$(STEP) EXE=$(SPRT_WITHOUT)
	fastchess="$$(python3 tools/runner.py)" && "$$fastchess" \
	    -engine $(SPRT_FIRST) -engine $(SPRT_SECOND) -each $(SPRT_LIMIT) option.Hash=16 $(SPRT_ADJUDICATION) \
	    -openings file=$(abspath $(OPENINGS)) format=epd order=random -srand $(SPRT_SEED) \
	    -rounds $$(( $(SPRT_GAMES) / 2 )) -games 2 -repeat -concurrency $(SPRT_CONCURRENCY) \
	    -sprt elo0=$(word 1,$(SPRT_BOUNDS)) elo1=$(word 2,$(SPRT_BOUNDS)) alpha=0.05 beta=0.05 model=normalized \
	    -pgnout file=$(SPRT_DIR)/$(STEP).pgn -config outname=$(SPRT_DIR)/$(STEP).json \
	    | tee $(SPRT_DIR)/$(STEP).log

# An SPRT that was stopped (Ctrl-C, a reboot) plays on from fastchess's saved state.
sprt-resume:
	@test -f "$(SPRT_DIR)/$(STEP).json" || { echo "no saved SPRT $(SPRT_DIR)/$(STEP).json"; exit 2; }
	fastchess="$$(python3 tools/runner.py)" && "$$fastchess" -config file=$(SPRT_DIR)/$(STEP).json \
	    | tee -a $(SPRT_DIR)/$(STEP).log

# Miri (nightly) over the unit tests of the table's entry packing and the packed records,
# which run through the `unsafe` square conversion: undefined behaviour fails them. About a
# minute after the first setup; the megabyte-table test is skipped under Miri (hours).
miri:
	rustup toolchain install nightly --profile minimal --component miri,rust-src
	CARGO_TARGET_DIR=target/miri $(CARGO) +nightly miri test --lib -- data::packed data::filter search::tt

# ThreadSanitizer (nightly, the standard library rebuilt instrumented) over every thread of
# the engine in one process (tests/threads.rs: the UCI reader, the engine and search threads,
# Lazy SMP helpers, `stop`, `ucinewgame` and `Clear Hash` during and between searches,
# Threads and Hash changes) and the unit tests of the table and the thread pool. A data race
# fails the run (halt_on_error).
# CI runs the short form, tests/threads.rs alone: make tsan TSAN_TESTS="--test threads" TSAN_FILTER=
TSAN_TARGET ?= x86_64-unknown-linux-gnu
TSAN_TESTS ?= --test threads --lib
TSAN_FILTER ?= search:: every_thread
tsan:
	rustup toolchain install nightly --profile minimal --component rust-src
	RUSTFLAGS="-Zsanitizer=thread" TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
	    CARGO_TARGET_DIR=target/tsan $(CARGO) +nightly test -Zbuild-std --release \
	    --target $(TSAN_TARGET) $(TSAN_TESTS) -- --test-threads=1 $(TSAN_FILTER)

clean:
	$(CARGO) clean
