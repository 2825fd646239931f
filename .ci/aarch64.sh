#!/usr/bin/env bash
# CI: Ladya for aarch64 Linux (Raspberry Pi, ARM servers, Apple-silicon Linux VMs) and as a
# static aarch64 musl binary (what Android GUIs load), cross-built and run under qemu-user:
# `bench` must count the same nodes as on x86-64 (the search is the same everywhere).
#   .ci/aarch64.sh X86_ENGINE
set -euo pipefail
engine="$(realpath "$1")"
cd "$(dirname "$0")/.."
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64 >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        gcc-aarch64-linux-gnu qemu-user >/dev/null
fi
rustup target add aarch64-unknown-linux-gnu aarch64-unknown-linux-musl >/dev/null 2>&1
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=aarch64-linux-gnu-gcc
bench_of() { "$@" bench | sed -n 's/^\([0-9]*\) nodes.*/\1/p' | tail -1; }
x86="$(bench_of "$engine")"
cargo build --release --target aarch64-unknown-linux-musl
musl=target/aarch64-unknown-linux-musl/release/ladya
if readelf -l "$musl" | grep -q INTERP; then echo "$musl is not static"; exit 1; fi
arm="$(bench_of qemu-aarch64 "$musl")"
[ "$arm" = "$x86" ] || { echo "bench on aarch64 $arm, on x86-64 $x86"; exit 1; }
echo "aarch64 (static musl, under qemu): bench $arm, the same as on x86-64"
# A search with the tablebases, through the UCI loop.
out="$({
    printf 'uci\nsetoption name SyzygyPath value ../shared/data/syzygy\nisready\n'
    printf 'position fen 8/8/8/4k3/8/8/8/4K2Q w - - 0 1\ngo depth 8\n'
    sleep 5
    echo quit
} | qemu-aarch64 "$musl")"
grep -E '^info string|^info depth 8 |^bestmove' <<<"$out"
grep -q '^info string found 70 tablebases' <<<"$out" && grep -q '^bestmove ' <<<"$out"
