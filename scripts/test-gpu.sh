#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# test-gpu.sh [-C BUILDDIR] [run-tests.py options] [TEST...]: runs the whole
# test suite on a GPU, with GST_CL_DEVICE=gpu (every element that is given
# no device takes the first GPU), on a machine where the build folder was
# copied to and GStreamer or meson may be missing (the lent GPU machine, see
# docs/reliability.md, "On a GPU machine"). Run from the project root:
#
#     scripts/test-gpu.sh                  # build/, every test, one a core
#     scripts/test-gpu.sh -j 4 lifecycle errors
#
# .gpu/env.sh (made by the GPU machine's prepare.sh: a GStreamer runtime and
# the NVIDIA ICD in OCL_ICD_VENDORS) is sourced when GStreamer is not set up
# yet. The tests run through scripts/run-tests.py, with the environment that
# `meson test` gives them (tests/meson.build), moved to where the folders
# are now, as many at a time as the host has cores (-j). A test that cannot
# run on this machine skips itself (exit 77) with its reason. A machine
# without an OpenCL GPU fails here rather than skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${GST_PLUGIN_SYSTEM_PATH_1_0:-}" ] && [ -f .gpu/env.sh ]; then
  # shellcheck disable=SC1091
  source .gpu/env.sh
fi
export GST_CL_DEVICE=${GST_CL_DEVICE:-gpu}
export CLFILTERS_REQUIRE_DEVICE=1
# the cases of the programs that allow it in one process each (a GPU
# driver's start in every forked case was most of a small case's time;
# tests/check/lib/clcheck.h, TEST_MAIN_ONE_PROCESS); 0 forks every case
export CLFILTERS_TEST_ONE_PROCESS=${CLFILTERS_TEST_ONE_PROCESS:-1}
# the variants that repeat the GPU's own path there (copying, mapped, GPU
# kernels) run their documented subsets (tests/meson.build)
export CLFILTERS_TEST_ON_GPU=1
if ! command -v python3 >/dev/null; then
  echo "test-gpu.sh: python3 is needed to run the tests (scripts/run-tests.py)" >&2
  exit 1
fi

build=build
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    -C) build=${args[i + 1]:-build} ;;
    -C*) build=${args[i]#-C} ;;
  esac
done

# The ICD loader. The leak and fault checks need the OpenCL test layer,
# which the loader loads from OPENCL_LAYERS; a loader without layer support
# leaves those checks nothing to read (the tests then fail, saying so). CUDA
# installs such a loader (its own libOpenCL.so.1, first in the linker's
# cache on the lent GPU machine, ahead of ocl-icd's). When the loader the
# tests would get does not know OPENCL_LAYERS, take the first one of the
# linker's cache that does.
reads_layers() { [ -n "$1" ] && grep -qa OPENCL_LAYERS "$(readlink -f "$1")" 2>/dev/null; }
loader=$(ldd "$build/tests/check-lifecycle" 2>/dev/null | awk '$1 == "libOpenCL.so.1" {print $3}')
if [ -n "$loader" ] && ! reads_layers "$loader"; then
  other=""
  for f in $(ldconfig -p 2>/dev/null | awk '$1 == "libOpenCL.so.1" {print $NF}'); do
    if reads_layers "$f"; then other=$f; break; fi
  done
  if [ -n "$other" ]; then
    dir=$(mktemp -d "${TMPDIR:-/tmp}/clfilters-icd-loader.XXXXXX")
    ln -s "$(readlink -f "$other")" "$dir/libOpenCL.so.1"
    export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    echo "test-gpu.sh: $loader does not load OpenCL layers: using the ICD loader $other"
    loader=$other
  else
    echo "test-gpu.sh: $loader does not load OpenCL layers, and no other ICD loader here does:" \
      "the tests that check OpenCL objects through the test layer will fail" >&2
  fi
fi
echo "test-gpu.sh: ICD loader ${loader:-(not found)}, GST_CL_DEVICE=$GST_CL_DEVICE"

# examples/launch/ reads scikit-image's photographs through CLF_PYTHON
# (default /usr/bin/python3); take the python3 of PATH where only it has them
if [ -z "${CLF_PYTHON:-}" ] && ! /usr/bin/python3 -c 'import skimage.data' 2>/dev/null &&
   python3 -c 'import skimage.data' 2>/dev/null; then
  CLF_PYTHON=$(command -v python3)
  export CLF_PYTHON
  echo "test-gpu.sh: CLF_PYTHON=$CLF_PYTHON (scikit-image's photographs for the examples)"
fi
exec python3 scripts/run-tests.py "$@"
