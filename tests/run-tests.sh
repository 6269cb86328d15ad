#!/usr/bin/env bash
# Runs every test headless, then the model and decoder tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer, and prints one line:
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

build=${BUILD_DIR:-build}
asan=${ASAN_BUILD_DIR:-build-asan}
status=0

echo "== all tests (Xvfb) =="
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  meson test -C "$build" --print-errorlogs --num-processes 2 || status=1

echo "== model and decoder tests under ASan/UBSan =="
if [ ! -d "$asan" ]; then
  meson setup "$asan" -Dui=false -Db_sanitize=address,undefined -Db_lundef=false \
    -Dbuildtype=debugoptimized >/dev/null || status=1
fi
if meson compile -C "$asan" >/dev/null; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C "$asan" --suite model --print-errorlogs --num-processes 2 --timeout-multiplier 4 || status=1
else
  echo "ASan build failed"
  status=1
fi

python3 - "$build" "$asan" <<'PY'
import json, sys
passed = failed = skipped = 0
for d in sys.argv[1:]:
    try:
        lines = open(f"{d}/meson-logs/testlog.json").read().splitlines()
    except OSError:
        failed += 1
        continue
    for line in lines:
        r = json.loads(line)
        res = r.get("result")
        if res in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif res == "SKIP":
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
PY
exit $status
