#!/usr/bin/env bash
# `make bench`: loads as users meet them, then the in-process benchmarks.
#
#   tests/bench/run-bench.sh RELEASE_BUILD [DEFAULT_BUILD]
#
# First every input shape is loaded by a fresh `kymo-cli info` process of
# the default build (what `make run` gives) and of the release build beside
# it: median wall time of RUNS runs against `cksum` of the same bytes in the
# same run (a ratio), the peak RSS of the process (/usr/bin/time), and how
# much slower the default build is than the release one. Then the full
# zoom-out `render` of the ATF session, less its `info`. Then every bench-*
# executable of the release build (bench-render: the first frame after load
# and each step of a 10-step zoom-in over 10 M spans).
#
# Environment: KYMO_BENCH_RUNS (default 3), KYMO_BENCH_DIR (keep the
# generated inputs there and reuse them), KYMO_SAMPLES_DIR (the samples the
# dial9, WTF and Tonbandgerät shapes are made of; default ../shared/samples),
# KYMO_BENCH_QUICK=1 (smaller inputs).
set -euo pipefail
release=${1:-build-bench}
default=${2:-build}
runs=${KYMO_BENCH_RUNS:-3}
samples=${KYMO_SAMPLES_DIR:-$(dirname "$0")/../../../shared/samples}
quick=${KYMO_BENCH_QUICK:-0}

if [ -n "${KYMO_BENCH_DIR:-}" ]; then
  dir=$KYMO_BENCH_DIR
  mkdir -p "$dir"
else
  dir=$(mktemp -d "${TMPDIR:-/tmp}/kymo-bench-XXXXXX")
  trap 'rm -rf "$dir"' EXIT
fi

gen=$release/tests/bench/kymo-bench-gen
[ -x "$gen" ] || gen=$default/tests/bench/kymo-bench-gen

# Median of the numbers on standard input.
median () {
  sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Wall seconds and peak KiB of one run of "$@", as "SECONDS KIB".
time_once () {
  /usr/bin/time -o "$dir/.time" -f '%e %M' "$@" >/dev/null 2>&1 || true
  tail -n 1 "$dir/.time"
}

# cksum of every file under the paths, in one process.
cksum_all () {
  find "$@" -type f -print0 | sort -z | xargs -0 cat | cksum >/dev/null
}

# measure LABEL SPANS PATH...: one line per build.
measure () {
  local label=$1 spans=$2
  shift 2
  local bytes c_med
  bytes=$(find "$@" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  c_med=$(for _ in $(seq "$runs"); do
            s=$(date +%s.%N); cksum_all "$@"; e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
          done | median)
  local t_default="" t_release=""
  for b in "$default" "$release"; do
    local cli=$b/src/cli/kymo-cli t_med m_med
    [ -x "$cli" ] || continue
    local times=() peaks=()
    for _ in $(seq "$runs"); do
      read -r t m < <(time_once "$cli" info "$@")
      times+=("$t"); peaks+=("$m")
    done
    t_med=$(printf '%s\n' "${times[@]}" | median)
    m_med=$(printf '%s\n' "${peaks[@]}" | median)
    awk -v l="$label" -v b="$(basename "$b")" -v t="$t_med" -v c="$c_med" -v m="$m_med" \
        -v bytes="$bytes" -v spans="$spans" 'BEGIN {
      per = spans > 0 ? sprintf("%6.1f B/span beyond the input", (m * 1024 - bytes) / spans) : "";
      printf "  %-44s %-12s %7.3f s  %6.2f× cksum  %7.0f MB/s  peak %6.0f MiB %s\n",
             l, b, t, (c > 0 ? t / c : 0), bytes / 1e6 / (t > 0 ? t : 1), m / 1024, per }'
    if [ "$b" = "$default" ]; then t_default=$t_med; else t_release=$t_med; fi
  done
  gap "$t_default" "$t_release"
}

# gap DEFAULT_SECONDS RELEASE_SECONDS: how much slower the default build is
# (kept under 10 %).
gap () {
  [ -n "$1" ] && [ -n "$2" ] && [ "$default" != "$release" ] || return 0
  awk -v d="$1" -v r="$2" 'BEGIN { if (r > 0) printf "  %-44s %+6.1f %% (default against release)\n", "", (d - r) / r * 100 }'
}

# seconds of one run of "$@" (output thrown away)
seconds_once () {
  local s e
  s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}

# measure_folder LABEL DIR RAW_BYTES: kymo-cli info of a folder of gzip
# files, default threads and --threads 1, against zcat of the same files
# and cksum of the same bytes, each timed in every run (medians).
measure_folder () {
  local label=$1 folder=$2 raw=$3 files
  files=$(find "$folder" -type f | sort -V | tr '\n' ' ')
  for b in "$default" "$release"; do
    local cli=$b/src/cli/kymo-cli
    [ -x "$cli" ] || continue
    for threads in 0 1; do
      local z=() c=() t=() m=() opt=()
      [ "$threads" = 1 ] && opt=(--threads 1)
      for _ in $(seq "$runs"); do
        # shellcheck disable=SC2086
        z+=("$(seconds_once sh -c "zcat $files")")
        c+=("$(seconds_once cksum_all "$folder")")
        read -r tt mm < <(time_once "$cli" info "${opt[@]}" "$folder")
        t+=("$tt"); m+=("$mm")
      done
      awk -v l="$label" -v b="$(basename "$b")" -v th="$([ "$threads" = 1 ] && echo "--threads 1" || echo "all threads")" \
          -v t="$(printf '%s\n' "${t[@]}" | median)" -v z="$(printf '%s\n' "${z[@]}" | median)" \
          -v c="$(printf '%s\n' "${c[@]}" | median)" -v m="$(printf '%s\n' "${m[@]}" | median)" -v raw="$raw" 'BEGIN {
        printf "  %-44s %-12s %-12s %7.3f s  %5.2f× zcat (%.3f s)  %6.2f× cksum  %5.0f MB/s inflated  peak %5.0f MiB\n",
               l, b, th, t, (z > 0 ? t / z : 0), z, (c > 0 ? t / c : 0), raw / 1e6 / (t > 0 ? t : 1), m / 1024 }'
    done
  done
}

echo "== whole kymo-cli processes (median of $runs; cksum of the same bytes in the same run) =="

# ATF: 8 threads, with and without a symbol table; one thread; flat; deep
# with exceptions.
events=1250000
[ "$quick" = 1 ] && events=125000
atf () {
  local name=$1 threads=$2 per=$3 symbols=$4 depth=$5 exc=${6:-0}
  [ -d "$dir/$name" ] || "$gen" atf "$dir/$name/pid_1" "$threads" "$per" "$symbols" "$depth" "$exc"
}
atf atf-8-sym 8 $events 1 12
atf atf-8-nosym 8 $events 0 12
atf atf-1-nosym 1 $((events * 2)) 0 12
atf atf-8-flat 8 $events 0 1
atf atf-4-deep-exc 4 $events 1 60 101
measure "ATF 8 threads, symbols" $((events * 4)) "$dir/atf-8-sym"
measure "ATF 8 threads, no symbol table" $((events * 4)) "$dir/atf-8-nosym"
measure "ATF 1 thread, no symbol table" $((events)) "$dir/atf-1-nosym"
measure "ATF 8 threads, flat, no symbol table" $((events * 4)) "$dir/atf-8-flat"
measure "ATF 4 threads, 60 deep, exceptions" 0 "$dir/atf-4-deep-exc"

# dial9 shaped like the real files: the samples' segments (per-thread
# batches overlapping in time, symbol tables, pooled stacks) repeated.
if [ -d "$samples/dial9" ]; then
  reps=40
  [ "$quick" = 1 ] && reps=4
  if [ ! -f "$dir/dial9.bin" ]; then
    for _ in $(seq $reps); do
      for f in "$samples"/dial9/2026-03-19-*/demo-trace.bin "$samples"/dial9/2026-04-15-*/demo-trace.bin \
               "$samples"/dial9/head-*/demo-trace.bin; do
        [ -f "$f" ] || continue
        if [ "$(head -c 2 "$f" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then zcat < "$f"; else cat "$f"; fi
      done
    done > "$dir/dial9.bin"
    gzip -1 -c "$dir/dial9.bin" > "$dir/dial9.bin.gz"
  fi
  measure "dial9 samples' segments repeated" 0 "$dir/dial9.bin"
  measure "dial9 the same, gzip" 0 "$dir/dial9.bin.gz"

  # The same records as a writer that rotates leaves them: a folder of 100
  # gzip files cut at segment headers (trace.0.bin.gz …), timed against
  # zcat of the same files and cksum of the same bytes, run by run.
  n_files=100
  [ "$quick" = 1 ] && n_files=40
  if [ ! -d "$dir/dial9-folder" ]; then
    python3 "$(dirname "$0")/dial9-split-folder.py" "$dir/dial9.bin" "$dir/dial9-folder" $n_files
    find "$dir/dial9-folder" -name 'trace.*.bin' -print0 | xargs -0 -n 5 -P "$(nproc)" gzip -6 -n
  fi
  measure_folder "dial9 folder, $n_files gzip segments" "$dir/dial9-folder" "$(stat -c %s "$dir/dial9.bin")"
fi

# WTF legacy and chunked, RTC, Tonbandgerät on two cores.
if [ -d "$samples/wtf" ]; then
  measure "WTF legacy (sample)" 0 "$samples/wtf/blk-client.wtf-trace"
  measure "WTF chunked (sample)" 0 "$samples/wtf/generated-cpp-bindings/tmp_threaded_torture_test_streamed.wtf-trace"
fi
# RTC with many streams: a 48-channel recorder (the sample has five).
rtc_mb=200
[ "$quick" = 1 ] && rtc_mb=20
[ -f "$dir/rtc-48.rtc" ] || "$gen" rtc "$dir/rtc-48.rtc" 48 $rtc_mb
measure "RTC 48 streams (generated)" 0 "$dir/rtc-48.rtc"
if [ -d "$samples/rtc" ]; then
  [ -f "$dir/rtc.rtc" ] || for _ in $(seq 10); do cat "$samples/rtc/generated-writer-lib/default.rtc"; done > "$dir/rtc.rtc"
  measure "RTC sample Units repeated" 0 "$dir/rtc.rtc"
fi
if [ -d "$samples/tonbandgeraet" ]; then
  if [ ! -f "$dir/core0.tband" ]; then
    for _ in $(seq 300); do cat "$samples/tonbandgeraet/log.derived.bin"; done > "$dir/core0.tband"
    cp "$dir/core0.tband" "$dir/core1.tband"
  fi
  measure "Tonbandgerät, two cores" 0 "$dir/core0.tband" "$dir/core1.tband"
fi

# First frame: render at full zoom-out, less the load alone (the frame,
# rasterising it and writing the PNG: what `render` adds to `info`). Runs
# alternate render and info so that a busy spell of the machine hits both.
echo "== first full zoom-out frame of the ATF session: render minus info (median of $runs) =="
for b in "$default" "$release"; do
  cli=$b/src/cli/kymo-cli
  [ -x "$cli" ] || continue
  rs=() is=()
  for _ in $(seq "$runs"); do
    rs+=("$(time_once "$cli" render "$dir/atf-8-nosym" -o "$dir/frame.png" --width 1920 | cut -d' ' -f1)")
    is+=("$(time_once "$cli" info "$dir/atf-8-nosym" | cut -d' ' -f1)")
  done
  r=$(printf '%s\n' "${rs[@]}" | median)
  i=$(printf '%s\n' "${is[@]}" | median)
  awk -v b="$(basename "$b")" -v r="$r" -v i="$i" 'BEGIN { printf "  %-12s render %.3f s, info %.3f s: %.0f ms for the frame (target ≤ 50 ms, aim ≤ 16 ms)\n", b, r, i, (r - i) * 1000 }'
done
echo "  (the frame alone, and each step of a 10-step zoom-in after it: bench-render below)"

echo "== in-process benchmarks ($release) =="
for b in "$release"/tests/bench/bench-*; do
  [ -f "$b" ] && [ -x "$b" ] || continue
  echo "== $(basename "$b") =="
  "$b"
done
