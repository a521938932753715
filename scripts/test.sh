#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Sets up and builds like scripts/demo.sh, then runs the whole test suite.
# Extra arguments go to `meson test` (e.g. a test name, or --suite).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# in CI a missing OpenCL device is a failure, not a skip
if [ -n "${CI:-}" ]; then export CLFILTERS_REQUIRE_DEVICE=1; fi
meson test -C build --print-errorlogs "$@"
