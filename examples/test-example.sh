#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# test-example.sh COMMAND [ARGS...]: how the test suite runs an example
# (examples/meson.build). Skips (exit 77) when this machine has no OpenCL
# device, as the other tests do, unless CLFILTERS_REQUIRE_DEVICE is set (CI);
# otherwise runs the example and passes its exit status on.
set -uo pipefail
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
