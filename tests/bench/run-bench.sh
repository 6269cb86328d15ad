#!/usr/bin/env bash
# Runs every benchmark in the release build given as $1.
set -euo pipefail
build=${1:-build-bench}
for b in "$build"/tests/bench/bench-*; do
  [ -f "$b" ] && [ -x "$b" ] || continue
  echo "== $(basename "$b") =="
  "$b"
done
