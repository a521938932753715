#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# The main job: set up, build, and blur a real photograph with clgaussian.
# Leaves demo-output/*.png to look at and prints the OpenCL device used.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh

photo=$(/usr/bin/python3 -c 'import skimage.data, os; print(os.path.join(os.path.dirname(skimage.data.__file__), "astronaut.png"))')
out=demo-output
mkdir -p "$out"

run() {   # run NAME FILTER...: photo -> 1920x1080 RGBA -> filter -> PNG
  local name=$1; shift
  gst-launch-1.0 -v filesrc location="$photo" ! pngdec ! videoconvert ! \
    videoscale ! video/x-raw,format=RGBA,width=1920,height=1080,pixel-aspect-ratio=1/1 ! "$@" ! \
    videoconvert ! pngenc ! filesink location="$out/$name.png" > "$out/$name.log" 2>&1 \
    || { cat "$out/$name.log"; exit 1; }
  local dev
  dev=$(sed -n 's/.*device-name = //p' "$out/$name.log" | head -n 1)
  echo "demo: $out/$name.png  (${*}${dev:+ on OpenCL device: $dev})"
}

run original identity
run blur-3x3 clgaussian
run blur-sigma4 clgaussian sigma=4
run blur-sigma4-image clgaussian sigma=4 storage=image
echo "demo: done; open the PNG files in $out/ to compare."
