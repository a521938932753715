#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# test-example.sh [--modules M,...] [--photos] [--elements E,...] COMMAND [ARGS...]:
# how the test suite runs an example (examples/meson.build). Skips (exit 77,
# as meson expects, with the reason) when this machine lacks what the
# example needs:
#   --modules M,...   Python modules of /usr/bin/python3 (the Python
#                     examples: gi with GStreamer 1.0, numpy, ...);
#   --photos          scikit-image's photographs, read through CLF_PYTHON
#                     (default /usr/bin/python3; examples/launch/common.sh);
#   --elements E,...  GStreamer elements (jpegenc and avimux for the clip);
# and when there is no OpenCL device, unless CLFILTERS_REQUIRE_DEVICE is set
# (CI, scripts/test-gpu.sh): then that is a failure. Otherwise runs the
# example and passes its exit status on.
set -uo pipefail
skip() { echo "SKIP: $*" >&2; exit 77; }
python=/usr/bin/python3
while [ $# -gt 0 ]; do
  case $1 in
    --modules)
      [ -x "$python" ] || skip "$python does not exist on this machine"
      for m in ${2//,/ }; do
        "$python" -c 'import sys, importlib; importlib.import_module(sys.argv[1]); sys.argv[1] != "gi" or __import__("gi").require_version("Gst", "1.0")' "$m" \
          >/dev/null 2>&1 || skip "$python has no module $m on this machine"
      done
      shift 2 ;;
    --photos)
      p=${CLF_PYTHON:-/usr/bin/python3}
      "$p" -c 'import skimage.data' >/dev/null 2>&1 \
        || skip "$p has no scikit-image (the examples' photographs) on this machine"
      shift ;;
    --elements)
      for e in ${2//,/ }; do
        gst-inspect-1.0 --exists "$e" || skip "no GStreamer element $e on this machine"
      done
      shift 2 ;;
    *) break ;;
  esac
done
probe=$(gst-launch-1.0 videotestsrc num-buffers=1 ! clgaussian ! fakesink 2>&1)
if printf '%s' "$probe" | grep -q "No OpenCL platform is installed\|OpenCL platform(s) found but no device"; then
  if [ -n "${CLFILTERS_REQUIRE_DEVICE:-}" ]; then
    echo "No OpenCL device, and CLFILTERS_REQUIRE_DEVICE is set" >&2
    exit 1
  fi
  echo "No OpenCL device: skipping" >&2
  exit 77
fi
exec "$@"
