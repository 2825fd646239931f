#!/usr/bin/env bash
# The sanitizers, on a nightly toolchain: ThreadSanitizer over every thread of the engine in
# one process (tests/threads.rs: Lazy SMP helpers, stop, ucinewgame and Clear Hash during and
# between searches, Threads and Hash changes), and Miri over the unit tests of the `unsafe`
# square conversion and the table's entry packing. A data race or undefined behaviour fails.
# The full ThreadSanitizer run (the search's unit tests too) is `make tsan`.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup toolchain install nightly --profile minimal --component rust-src,miri >/dev/null 2>&1; then
    echo "sanitizers: no nightly toolchain can be installed on this machine: not run"
    exit 0
fi
make tsan TSAN_TESTS="--test threads" TSAN_FILTER=
make miri
