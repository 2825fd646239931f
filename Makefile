# OpenBench and other testers build engines with `make EXE=<path>`.
EXE ?= ladya
CARGO ?= cargo

.PHONY: all native clean

all:
	$(CARGO) build --release
	@if [ "$(EXE)" != "ladya" ] || [ ! -e ladya ] || [ -f ladya ]; then cp target/release/ladya "$(EXE)"; fi

# Opt-in build for the machine it is built on (not portable).
native:
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release
	cp target/release/ladya "$(EXE)"

clean:
	$(CARGO) clean
