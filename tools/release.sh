#!/usr/bin/env bash
# The release archives: Ladya with its network embedded for Linux x86-64 (static, musl),
# Windows x86-64 and Linux aarch64 (static, musl: Raspberry Pi, ARM servers, Android GUIs),
# each with the README, the licence (and the vendored prober's), and SHA256SUMS over the
# archives.
#   tools/release.sh [OUT]          # default OUT: target/dist
# Installs the cross linkers (Debian's packages) and Rust targets it lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/dist}"
version="$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)"

if ! command -v x86_64-w64-mingw32-gcc >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        gcc-mingw-w64-x86-64 gcc-aarch64-linux-gnu >/dev/null
fi
rustup target add x86_64-unknown-linux-musl x86_64-pc-windows-gnu aarch64-unknown-linux-musl >/dev/null 2>&1
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_LINKER=aarch64-linux-gnu-gcc

rm -rf "$out" && mkdir -p "$out"
# target triple, archive name, binary name
for spec in x86_64-unknown-linux-musl:linux-x86_64:ladya \
            x86_64-pc-windows-gnu:windows-x86_64:ladya.exe \
            aarch64-unknown-linux-musl:linux-aarch64:ladya; do
    IFS=: read -r triple name binary <<<"$spec"
    cargo build --release --target "$triple"
    built="target/$triple/release/$binary"
    if [[ "$triple" == *musl ]] && readelf -l "$built" | grep -q INTERP; then
        echo "$built is not a static binary"; exit 1
    fi
    stage="$out/ladya-$version-$name"
    mkdir -p "$stage"
    cp "$built" README.md LICENSE "$stage/"
    # The tablebase prober is compiled in from vendor/ (MIT): its notice goes along.
    cp vendor/pyrrhic-rs/LICENSE "$stage/LICENSE-pyrrhic-rs"
    if [[ "$triple" == *windows* ]]; then
        (cd "$out" && python3 -m zipfile -c "ladya-$version-$name.zip" "ladya-$version-$name")
    else
        tar -C "$out" -czf "$out/ladya-$version-$name.tar.gz" "ladya-$version-$name"
    fi
    rm -rf "$stage"
done
(cd "$out" && sha256sum ladya-* >SHA256SUMS)
ls -l "$out"
cat "$out/SHA256SUMS"
