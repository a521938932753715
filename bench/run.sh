#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# The benchmark, in one command:
#     bench/run.sh [--quick] [--sizes 1080p,4k,8k] [--repeat N] [--frames N]
#                  [--only REGEX] [--no-profile] [--output FILE] [--list]
# Builds the plugin (scripts/setup.sh), installs the peers' packages when
# missing (gstreamer1.0-opencv: cvsmooth, cvlaplace, cvequalizehist;
# gstreamer1.0-plugins-bad: videoanalyse, gaussianblur), then times our
# elements and the peers (bench/bench.py) and prints markdown tables.
#     bench/run.sh --chains [chainbench options]   chains of elements between
#                  system-memory neighbours (bench/chainbench.c)
#     --save NAME  (first argument, before --chains) also writes the report
#                  to bench/results/NAME.md (chains: NAME.txt)
# Not part of the test suite. Method: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."

save=""
if [ "${1:-}" = "--save" ]; then
  [ -n "${2:-}" ] || { echo "bench: --save needs a NAME" >&2; exit 2; }
  save="$2"
  shift 2
  mkdir -p bench/results
fi

scripts/setup.sh >&2

peers=(gstreamer1.0-opencv gstreamer1.0-plugins-bad)
missing=()
for p in "${peers[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "bench: installing ${missing[*]}" >&2
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends \
    "${missing[@]}" >&2
fi

source scripts/env.sh
if [ "${1:-}" = "--chains" ]; then
  # chains of elements between system-memory neighbours against the pinned
  # transfer and memcpy floors (bench/chainbench.c, docs/performance.md)
  shift
  if [ -n "$save" ]; then
    build/bench/chainbench "$@" | tee "bench/results/$save.txt"
    exit "${PIPESTATUS[0]}"
  fi
  exec build/bench/chainbench "$@"
fi
echo "bench: POCL_MAX_PTHREAD_COUNT=${POCL_MAX_PTHREAD_COUNT:-unset, the POCL default}, nproc $(nproc)" >&2
if [ -n "$save" ]; then
  set -- "$@" --output "bench/results/$save.md"
fi
exec /usr/bin/python3 bench/bench.py "$@"
