#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Runs every example headless, for a few frames each: the gst-launch scripts
# of examples/launch/, the C program and the Python programs. No camera and
# no window needed: the input is a photograph (or a clip made from
# photographs), the output PNG files, clips and text.
#
#   examples/run-all.sh [OUTDIR]       (default build/examples-output)
#
# Builds first (ninja -C build; run scripts/setup.sh once on a fresh
# machine). Each example's output is shown and kept in OUTDIR/NAME.log;
# the pictures and clips are in OUTDIR. Exits non-zero if any failed.
# The same examples run in the test suite: meson test -C build --suite examples
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:-build/examples-output}

if [ ! -f build/build.ninja ]; then
  echo "run-all: no build/ yet: run scripts/setup.sh first" >&2
  exit 1
fi
ninja -C build >/dev/null || { echo "run-all: the build failed (ninja -C build)" >&2; exit 1; }
source scripts/env.sh
mkdir -p "$out"
py=/usr/bin/python3
passed=0 failed=0 failures=()

run() {   # run NAME COMMAND...
  local name=$1; shift
  echo
  echo "==== $name: $*"
  if "$@" 2>&1 | tee "$out/$name.log"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); failures+=("$name")
    echo "==== $name FAILED (log: $out/$name.log)"
  fi
}

run blur              examples/launch/blur.sh --headless -o "$out/blur.png"
run sharpen           examples/launch/sharpen.sh --headless -o "$out/sharpen.png"
run edges             examples/launch/edges.sh --headless -o "$out/edges.png"
run chain             examples/launch/chain.sh --headless -n 10
run histogram-messages examples/launch/histogram-messages.sh --headless -n 3
run device-memory     examples/launch/device-memory.sh --headless -n 10
run make-clip         examples/launch/make-clip.sh "$out/clip.webm"
run clip-blur         examples/launch/blur.sh --headless -n 0 -i "$out/clip.webm" -o "$out/clip-blurred.webm"
run histogram-print   build/examples/histogram-print -n 5
run histogram-plot    $py examples/python/histogram-plot.py --output-dir "$out/histogram-plot"
run auto-exposure     $py examples/python/auto-exposure.py --check --output-dir "$out/auto-exposure"
run device-context    $py examples/python/device-context.py --device cpu --check
run histogram-meta    $py examples/python/histogram-meta.py --check
run histogram-meta-10 $py examples/python/histogram-meta.py --check --format P010_10LE --bins 1024

echo
echo "run-all: pictures and clips in $out/:"
(cd "$out" && ls -d -- *.png *.webm histogram-plot/*.png auto-exposure/*.png 2>/dev/null | sed 's/^/  /')
[ "$failed" -eq 0 ] || echo "run-all: failed: ${failures[*]}"
echo "run-all: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
