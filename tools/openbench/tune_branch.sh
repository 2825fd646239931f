#!/usr/bin/env bash
# Makes branch $1 from HEAD with one change, the `tune` feature on by default in Cargo.toml,
# so that a plain `cargo build --release` (OpenBench's `make`) offers the search's tunables
# as UCI options named as `ladya tunables` prints them. The work tree and the index are left
# alone: the commit is made from HEAD's tree with git's plumbing.
#
#   tools/openbench/tune_branch.sh spsa-lmr && git push origin spsa-lmr
#   ladya tunables            # paste into OpenBench's SPSA form as it is
set -euo pipefail
branch="${1:?usage: tools/openbench/tune_branch.sh BRANCH}"
cd "$(git rev-parse --show-toplevel)"

manifest="$(git show HEAD:Cargo.toml)"
grep -q '^tune = \[\]$' <<<"$manifest" || { echo "Cargo.toml has no 'tune = []' feature" >&2; exit 1; }
tuned="$(sed 's/^tune = \[\]$/default = ["tune"]\ntune = []/' <<<"$manifest")"

index="$(mktemp)"
trap 'rm -f "$index"' EXIT
export GIT_INDEX_FILE="$index"
git read-tree HEAD
blob="$(printf '%s\n' "$tuned" | git hash-object -w --stdin)"
git update-index --cacheinfo 100644,"$blob",Cargo.toml
tree="$(git write-tree)"
# A machine without a git identity (a CI runner) can still make the commit.
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-$(git config user.name || echo ladya)}"
export GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-$(git config user.email || echo ladya@localhost)}"
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}"
export GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}"
commit="$(git commit-tree "$tree" -p HEAD -m "tune: the search's tunables as UCI options by default (SPSA on OpenBench)")"
git branch -f "$branch" "$commit"
echo "branch $branch at ${commit:0:10}: HEAD with the tune feature on by default"
