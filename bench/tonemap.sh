#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# cltonemap against what a user does today on the CPU (issue 35): FFmpeg's
# zscale + tonemap recipe, on the same P010 PQ frames in the same run.
#
#   bench/tonemap.sh [WIDTHxHEIGHT] [FRAMES]      (default 1920x1080 60)
#
# Each tool reads the same raw P010_10LE file; its time for the frames is
# its run minus a run that only reads and discards them (so start-up and
# the file read cancel out), divided by the number of frames. cltonemap
# also reports its three kernels' time (profiling=true, kernel-ns), with a
# fixed and a dynamic peak. Not a test; needs ffmpeg (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export GST_CL_TUNE=${GST_CL_TUNE:-off}

size=${1:-1920x1080}
n=${2:-60}
w=${size%x*}
h=${size#*x}
frame=$((w * h * 3))
raw=$(mktemp --suffix=.p010)
trap 'rm -f "$raw"' EXIT

gst-launch-1.0 -q videotestsrc num-buffers="$n" pattern=smpte ! \
  video/x-raw,format=P010_10LE,width="$w",height="$h" ! \
  filesink location="$raw"

# seconds a command takes
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

parse="filesrc location=$raw blocksize=$frame ! rawvideoparse \
format=p010-10le width=$w height=$h colorimetry=bt2100-pq"
ff_in=(-hide_banner -loglevel error -f rawvideo -pix_fmt p010le -s "$size"
  -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc -i "$raw")
recipe="zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,\
tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=nv12"

# shellcheck disable=SC2086
gst_read=$(seconds gst-launch-1.0 $parse ! fakesink)
ff_read=$(seconds ffmpeg "${ff_in[@]}" -f null -)
ff=$(seconds ffmpeg "${ff_in[@]}" -vf "$recipe" -f null -)
printf '%s, %d frames, %d CPU cores, OpenCL device %s\n' "$size" "$n" \
  "$(nproc)" "${GST_CL_DEVICE:-(default)}"
printf '%-34s %8.2f ms/frame\n' "ffmpeg zscale+tonemap=hable (CPU)" \
  "$(echo "($ff - $ff_read) * 1000 / $n" | bc -l)"
for mode in fixed dynamic; do
  # shellcheck disable=SC2086
  t=$(seconds gst-launch-1.0 $parse ! cltonemap peak-mode=$mode curve=hable ! \
    video/x-raw,format=NV12 ! fakesink)
  # shellcheck disable=SC2086
  k=$(gst-launch-1.0 -m $parse ! cltonemap peak-mode=$mode curve=hable \
    profiling=true ! video/x-raw,format=NV12 ! fakesink 2>&1 |
    sed -n 's/.*cl-profile.*kernel-ns=(guint64)\([0-9]*\).*/\1/p' | tail -1)
  printf '%-34s %8.2f ms/frame (kernels %.2f ms)\n' "cltonemap peak-mode=$mode" \
    "$(echo "($t - $gst_read) * 1000 / $n" | bc -l)" \
    "$(echo "${k:-0} / 1000000" | bc -l)"
done
