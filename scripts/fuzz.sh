#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Fuzzes the frame layout validation (gst/core/gstcllayout.c) with libFuzzer,
# AddressSanitizer and UndefinedBehaviorSanitizer for SECONDS (default 60).
# Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -Igst $(pkg-config --cflags gstreamer-video-1.0) \
  tests/fuzz/layout_fuzzer.c gst/core/gstcllayout.c \
  $(pkg-config --libs gstreamer-video-1.0) -o "$out/layout_fuzzer"
"$out/layout_fuzzer" -max_total_time="$seconds" -max_len=128 -print_final_stats=1 \
  -artifact_prefix="$out/" "$out/corpus" > "$out/fuzz.log" 2>&1 \
  || { tail -n 60 "$out/fuzz.log"; echo "fuzz: FAILED (input saved in $out/)"; exit 1; }
grep -E "^(Done|stat::number_of_executed_units|stat::new_units_added)" "$out/fuzz.log"
echo "fuzz: no invalid layout accepted in $seconds s"
