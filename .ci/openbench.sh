#!/usr/bin/env bash
# CI: Ladya as an OpenBench client builds and runs it (tools/openbench/check.py says what
# OpenBench's own code checks). Builds the engine the way the client does, twice, into
# target/openbench:
#   1. `make -j EXE=ladya-ob EVALFILE=<absolute path>` with another network than the
#      shipped one: the binary is left beside the Makefile, its bench differs from the
#      shipped network's, and nothing in the tree changed;
#   2. the branch `tools/openbench/tune_branch.sh` makes, built with a plain `make`: its
#      options are the names `ladya tunables` prints (OpenBench's SPSA).
#   .ci/openbench.sh ENGINE      (ENGINE: the release build with the shipped network)
set -euo pipefail
engine="$(realpath "$1")"
cd "$(dirname "$0")/.."
openbench="../shared/tools/openbench"
if [ ! -d "$openbench" ]; then
    if [ "${CI:-}" = "true" ]; then echo "OpenBench check cannot run: $openbench not found"; exit 1; fi
    echo "OpenBench check skipped: $openbench not found"; exit 0
fi
export CARGO_TARGET_DIR="$PWD/target/openbench"
# Its own target directory keeps the EVALFILE build from replacing ENGINE; a copy of the
# release build's (cargo reuses copied artifacts) spares it every dependency's build.
if [ ! -d "$CARGO_TARGET_DIR/release" ] && [ -d target/release ]; then
    mkdir -p "$CARGO_TARGET_DIR" && cp -a target/release "$CARGO_TARGET_DIR/"
fi
in_git=false
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=true
before="$($in_git && git status --porcelain || true)"
bench_of() { "$1" bench | sed -n 's/^\([0-9]*\) nodes.*/\1/p' | tail -1; }

make -j EXE=ladya-ob EVALFILE="$PWD/nets/gen10.nnue" >/dev/null
test -x ladya-ob || { echo "make left no ladya-ob"; exit 1; }
shipped="$(bench_of "$engine")"
other="$(bench_of ./ladya-ob)"
rm -f ladya-ob
[ "$shipped" != "$other" ] || { echo "EVALFILE was not embedded (bench $other both)"; exit 1; }
if $in_git && [ "$(git status --porcelain)" != "$before" ]; then
    echo "the EVALFILE build changed the tree"; exit 1
fi
echo "make EVALFILE=nets/gen10.nnue: bench $other (shipped network: $shipped), tree unchanged"

tree="$(mktemp -d)/tune"
if $in_git; then
    branch="ci-openbench-tune-$$"
    tools/openbench/tune_branch.sh "$branch" >/dev/null
    git worktree add --quiet "$tree" "$branch"
    trap 'git worktree remove --force "$tree"; git branch -q -D "$branch"' EXIT
    make -C "$tree" -j EXE=ladya-tune >/dev/null
else  # not a git checkout: the tune build the branch would make
    cargo build --release --features tune
    mkdir -p "$tree" && cp "$CARGO_TARGET_DIR/release/ladya" "$tree/ladya-tune"
fi
python3 tools/openbench/check.py "$engine" --tune-engine "$tree/ladya-tune" --openbench "$openbench" |
    tr '\r' '\n' | grep -v '^\[\|^Generating\|^Finished\|^$'
