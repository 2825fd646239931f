# OpenBench and other testers build engines with `make EXE=<path>`.
EXE ?= ladya
CARGO ?= cargo

.PHONY: all native ablate clean

all:
	$(CARGO) build --release
	@if [ "$(EXE)" != "ladya" ] || [ ! -e ladya ] || [ -f ladya ]; then cp target/release/ladya "$(EXE)"; fi

# Opt-in build for the machine it is built on (not portable).
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release
	cp target/release/ladya "$(EXE)"

# The engine with one search step or evaluation term group switched off, for its SPRT: a
# copy of the tree with one switch of src/search/params.rs or src/eval/params.rs set to
# false, e.g.
#   make ablate STEP=USE_NULL_MOVE EXE=/tmp/ladya-no-null-move
ABLATE_DIR = target/ablate/$(STEP)
ablate:
	@test -n "$(STEP)" || { echo "usage: make ablate STEP=USE_... EXE=<path>"; exit 2; }
	@grep -lq "pub const $(STEP): bool = true;" src/search/params.rs src/eval/params.rs || { echo "no switch $(STEP)"; exit 2; }
	rm -rf $(ABLATE_DIR) && mkdir -p $(ABLATE_DIR)
	cp -r Cargo.toml Cargo.lock build.rs src benches tests book $(ABLATE_DIR)/
	sed -i 's/pub const $(STEP): bool = true;/pub const $(STEP): bool = false;/' $(ABLATE_DIR)/src/search/params.rs $(ABLATE_DIR)/src/eval/params.rs
	CARGO_TARGET_DIR=target/ablate/build $(CARGO) build --release --manifest-path $(ABLATE_DIR)/Cargo.toml
	cp target/ablate/build/release/ladya "$(EXE)"

clean:
	$(CARGO) clean
