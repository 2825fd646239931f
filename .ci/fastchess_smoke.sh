#!/usr/bin/env bash
# CI: Ladya under the tournament manager engine testers use. Builds fastchess from
# ../shared/tools/fastchess, runs its UCI compliance test, then 40 games of Ladya against
# itself at 1+0.01 (hyper-bullet, two at once). Fails on any time forfeit, illegal move,
# disconnect or stall, or a game short of the 40.
#   .ci/fastchess_smoke.sh ENGINE
set -euo pipefail
engine="$(realpath "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
shared="$here/../../shared"
if [ ! -x "$shared/tools/fastchess/build.sh" ]; then
    # A developer without ../shared may skip it; CI may not.
    if [ "${CI:-}" = "true" ]; then
        echo "fastchess smoke test cannot run: $shared/tools/fastchess not found"
        exit 1
    fi
    echo "fastchess smoke test skipped: $shared/tools/fastchess not found"
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# fastchess writes its config.json into the working directory: keep it out of the checkout.
cd "$work"
"$shared/tools/fastchess/build.sh" "$work/fastchess" >/dev/null
"$work/fastchess" --compliance "$engine" >"$work/compliance.log" 2>&1 || {
    tail -20 "$work/compliance.log"
    echo "fastchess compliance test failed"
    exit 1
}
echo "fastchess compliance: passed"
"$work/fastchess" -engine cmd="$engine" name=ladya-a -engine cmd="$engine" name=ladya-b \
    -each tc=1+0.01 option.Hash=16 \
    -openings file="$shared/data/openings/noob_3moves_sample.epd" format=epd order=random \
    -rounds 20 -games 2 -repeat -concurrency 2 -recover \
    -pgnout file="$work/games.pgn" >"$work/match.log" 2>&1
tail -8 "$work/match.log"
games=$(grep -c '^\[Result ' "$work/games.pgn" || true)
bad=$(grep -E '^\[Termination "(time forfeit|illegal move|abandoned|unterminated)"\]' "$work/games.pgn" || true)
if [ "$games" -ne 40 ] || [ -n "$bad" ]; then
    echo "fastchess smoke test failed: $games games of 40; forfeits:"
    echo "$bad" | sort | uniq -c
    exit 1
fi
echo "fastchess: 40 games at 1+0.01, no time forfeit, illegal move or disconnect"
