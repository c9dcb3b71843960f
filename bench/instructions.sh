#!/bin/bash
# Instruction counts of the engine at two or more revisions, for A/B comparisons on a busy machine
# (CPU time is inflated by other load; retired instructions are not). Needs valgrind.
#
#   bench/instructions.sh FILE REV [REV...]      REV: a git revision, or WORK for the working tree
#
# Each revision's src/ is bundled with esbuild (no tsx under valgrind) and run once under
# `valgrind --tool=cachegrind --cache-sim=no node --single-threaded` (synchronous JIT and GC, so
# the count is repeatable to ~0.1 %). Counts include node's start-up: also run an empty input
# (e.g. a one-line folded file) and subtract. They include JIT compilation, and they do not see
# cache misses: a change that only saves memory traffic shows no gain here; confirm with CPU time.
set -euo pipefail
file=$(realpath "$1"); shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
for rev in "$@"; do
  if [ "$rev" = WORK ]; then src=$root; else
    src=$tmp/src-$rev; mkdir -p "$src"; git -C "$root" archive "$rev" src | tar -x -C "$src"; ln -s "$root/node_modules" "$src/node_modules"
  fi
  sed "s#'../src/#'$src/src/#g" "$root/bench/instructions-entry.ts" > "$tmp/entry-$rev.ts"
  (cd "$root" && npx esbuild "$tmp/entry-$rev.ts" --bundle --platform=node --format=esm --outfile="$tmp/$rev.mjs" --log-level=warning)
done
for rev in "$@"; do
  (valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null node --single-threaded "$tmp/$rev.mjs" "$file" 2>&1 \
    | grep -E 'I\s+refs|^\{' | tr '\n' ' ' | sed "s/^/$rev /"; echo) &
done
wait
rm -rf "$tmp"
