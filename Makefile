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

.PHONY: all native ablate sprt tune-branch miri clean

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
	cp -r Cargo.toml Cargo.lock build.rs src benches tests book assets $(ABLATE_DIR)/
	mkdir -p $(ABLATE_DIR)/nets && cp nets/default.nnue $(ABLATE_DIR)/nets/
	sed -i 's/pub const $(STEP): bool = true;/pub const $(STEP): bool = false;/' $(ABLATE_DIR)/src/search/params/mod.rs $(ABLATE_DIR)/src/eval/params.rs
	CARGO_TARGET_DIR=target/ablate/build $(CARGO) build --release --manifest-path $(ABLATE_DIR)/Cargo.toml
	cp target/ablate/build/release/ladya "$(EXE)"

# The SPRT of one switch, as logged in the step comments: the full engine (engine 1)
# against the build without the step, on the UHO openings, e.g.
#   make sprt STEP=USE_KILLERS
#   make sprt STEP=USE_KING_SAFETY SPRT_TC=8+0.08 SPRT_GAMES=600
# A simplification (is the step worth keeping?) swaps the bounds: SPRT_BOUNDS="-5 0" with
# SPRT_SWAP=1 puts the build without the step first.
SHARED ?= ../shared
SPRT_TC ?= 2+0.02
SPRT_GAMES ?= 200
SPRT_BOUNDS ?= 0 5
SPRT_CONCURRENCY ?= 2
SPRT_SEED ?= 7
SPRT_DIR = target/sprt
SPRT_FULL = $(SPRT_DIR)/ladya-full
SPRT_WITHOUT = $(SPRT_DIR)/ladya-no-$(STEP)
sprt:
	@test -n "$(STEP)" || { echo "usage: make sprt STEP=USE_... [SPRT_TC=...]"; exit 2; }
	mkdir -p $(SPRT_DIR)
	$(MAKE) all EXE=$(SPRT_FULL)
	$(MAKE) ablate STEP=$(STEP) EXE=$(SPRT_WITHOUT)
	python3 $(SHARED)/tools/match.py \
	    $(if $(SPRT_SWAP),-e1 $(SPRT_WITHOUT) -n1 no-$(STEP) -e2 $(SPRT_FULL) -n2 full, \
	                      -e1 $(SPRT_FULL) -n1 full -e2 $(SPRT_WITHOUT) -n2 no-$(STEP)) \
	    --tc $(SPRT_TC) --openings $(SHARED)/data/openings/uho_4060_v4_sample.epd \
	    --shuffle --seed $(SPRT_SEED) --games $(SPRT_GAMES) \
	    --concurrency $(SPRT_CONCURRENCY) --sprt $(SPRT_BOUNDS) \
	    --pgn $(SPRT_DIR)/$(STEP).pgn | tee $(SPRT_DIR)/$(STEP).log

# Miri (nightly) over the unit tests of the table's entry packing and the packed records,
# which run through the `unsafe` square conversion: undefined behaviour fails them. About a
# minute after the first setup; the megabyte-table test is skipped under Miri (hours).
miri:
	rustup toolchain install nightly --profile minimal --component miri,rust-src
	CARGO_TARGET_DIR=target/miri $(CARGO) +nightly miri test --lib -- data::packed data::filter search::tt

clean:
	$(CARGO) clean
