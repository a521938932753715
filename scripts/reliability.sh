#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# The reliability checks beyond the test suite (CI runs them after it):
#   1. the gst-check suites built with AddressSanitizer + UndefinedBehaviorSanitizer
#      (build-asan/, meson's b_sanitize option);
#   2. libFuzzer on the frame layout validation (scripts/fuzz.sh);
#   3. valgrind memcheck on a subset, with the project's suppressions for
#      POCL, LLVM and the ICD loader (tests/valgrind.supp).
# Usage: scripts/reliability.sh [asan] [fuzz] [valgrind]   (default: all three)
set -uo pipefail
cd "$(dirname "$0")/.."
steps=${*:-asan fuzz valgrind}
status=0
results=build/reliability-results.txt
mkdir -p build
: > "$results"

record() {   # record NAME RC
  if [ "$2" -eq 0 ]; then echo "PASS $1" >> "$results"; else echo "FAIL $1" >> "$results"; status=1; fi
}

for step in $steps; do
  case $step in
    asan)
      # optimised (-O2 -g), as the sanitizers' authors advise: at -O0, with
      # the tests' references sanitized too, this step took about an hour
      # on a CI VM, past CI's limit (docs/reliability.md); optimised, the
      # checks still report what they are for (an 8-byte heap overflow put
      # into clhistogram on purpose was reported at once)
      # -Dtest_repeats=all: the sanitizers are there for host code (the
      # core, the elements, the error paths; the kernels run in POCL,
      # which is not instrumented), so every test case runs its documented
      # subset of sizes, radii and tunings, which reaches every kernel and
      # host path, rather than the whole matrix build/ has just checked
      # (tests/meson.build, CLFILTERS_TEST_REPEATS)
      asan_opts="-Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized -Dtest_repeats=all"
      if [ -f build-asan/build.ninja ]; then
        meson configure build-asan $asan_opts
      else
        meson setup build-asan $asan_opts
      fi
      ninja -C build-asan
      # POCL's cache of compiled kernels from build/'s suites (the same
      # sources, options and device): cold, build-asan's suites compiled
      # them all again, minutes on a CI VM (docs/reliability.md)
      if [ -d build/tests/pocl-cache ]; then
        mkdir -p build-asan/tests/pocl-cache
        cp -a build/tests/pocl-cache/. build-asan/tests/pocl-cache/
      fi
      # leaks are checked by the OpenCL layer counts and valgrind; LSan
      # would report the process-lifetime caches of GLib and POCL.
      # use_sigaltstack=0: on some hosts (seen on Linux 6.18 AMD EPYC guests)
      # ASan's own runtime aborts when a thread exits, failing to munmap its
      # alternate signal stack ("unable to unmap" in UnsetAlternateSignalStack),
      # at commits that pass elsewhere; our code is not involved
      ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_odr_violation=0:use_sigaltstack=0 \
      UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      GST_REGISTRY_FORK=no \
        meson test -C build-asan --print-errorlogs --suite check
      record asan $?
      ;;
    fuzz)
      scripts/fuzz.sh "${FUZZ_SECONDS:-60}"
      record fuzz $?
      ;;
    valgrind)
      # the suppressions cover what POCL, LLVM, the ICD loader and GLib's
      # type system keep for the life of the process
      # only the plugin under test is loaded (no system plugins, whose
      # own leaks are not ours)
      mkdir -p build/tests/no-system-plugins
      export GST_PLUGIN_SYSTEM_PATH_1_0=$PWD/build/tests/no-system-plugins
      export GST_REGISTRY_1_0=$PWD/build/tests/registry-valgrind.bin
      export GST_PLUGIN_PATH_1_0=$PWD/build/gst
      export POCL_CACHE_DIR=$PWD/build/tests/pocl-cache
      export XDG_CACHE_HOME=$PWD/build/tests/tune-cache
      export GST_CL_TUNE=off
      export GST_REGISTRY_FORK=no CK_FORK=no G_SLICE=always-malloc
      # the four runs two at a time (each is one thread of work, most of
      # it valgrind's own), each log printed when it is done
      vg_status=0
      vg_run() {   # vg_run PROGRAM [GST_CHECKS]
        local log=build/tests/valgrind-$1.log rc=0
        env ${2:+GST_CHECKS=$2} valgrind -q --error-exitcode=3 --leak-check=full \
          --errors-for-leak-kinds=definite --show-leak-kinds=definite \
          --suppressions=tests/valgrind.supp --num-callers=30 \
          "build/tests/$1" > "$log" 2>&1 || rc=$?
        echo "valgrind: $1 ${2:-(all)}: exit $rc"
        cat "$log"
        return $rc
      }
      pids=()
      vg_run check-clgaussian test_two_instances,test_short_buffer_dropped,test_properties_mid_stream & pids+=($!)
      vg_run check-badinput & pids+=($!)
      for pid in "${pids[@]}"; do wait "$pid" || vg_status=1; done
      pids=()
      vg_run check-cllaplace test_properties_mid_stream,test_properties_and_metadata & pids+=($!)
      vg_run check-clhistogram test_interval_and_eos,test_missing_channels_warning & pids+=($!)
      for pid in "${pids[@]}"; do wait "$pid" || vg_status=1; done
      record valgrind $vg_status
      ;;
  esac
done
cat "$results"
exit $status
