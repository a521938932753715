#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# Installs what clfilters needs on Debian/Ubuntu (through apt, with sudo when
# not root), then configures and builds it in build/. Safe to run again: it
# installs only what is missing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  # build
  meson ninja-build pkg-config gcc libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
  ocl-icd-opencl-dev opencl-headers
  # run: GStreamer, the OpenCL ICD loader and POCL (OpenCL on the CPU)
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  ocl-icd-libopencl1 pocl-opencl-icd clinfo
  # tests, demo and examples: Python bindings, NumPy, OpenCV, sample photos
  python3-gi python3-gst-1.0 python3-numpy python3-opencv python3-skimage
  # examples: pictures from Python (examples/python/)
  python3-matplotlib
  # benchmark peers (bench/bench.py): cvsmooth, cvlaplace, cvequalizehist
  # from OpenCV's GStreamer elements, videoanalyse from plugins-bad
  gstreamer1.0-opencv gstreamer1.0-plugins-bad
  # cltonemap's peer (bench/tonemap.sh): FFmpeg's zscale + tonemap recipe
  ffmpeg
  # reliability checks (scripts/reliability.sh): libFuzzer, valgrind
  clang libclang-rt-14-dev valgrind
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f build/build.ninja ]; then
  meson setup build
fi
ninja -C build
