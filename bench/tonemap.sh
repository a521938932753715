#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# cltonemap against what a user does today on the CPU (issue 35): FFmpeg's
# zscale + tonemap recipe, on the same P010 PQ frames in the same run.
#
#   bench/tonemap.sh [WIDTHxHEIGHT] [FRAMES] [CONTENT]
#                    (default 1920x1080 120 bars; CONTENT: bars or photos)
#
# bars: videotestsrc's smpte pattern; photos: bench/hdrphotos.py's HDR
# frames of bench.py's photographs (needs python3-skimage, python3-opencv).
# Each tool reads the same raw P010_10LE file. Its time a frame is the
# difference between runs of FRAMES frames and of FRAMES / 8 (the fastest
# of three each), over the frames between (start-up, OpenCL's included, and the file's opening
# cancel out), less the same for a run that only reads and discards the
# frames. cltonemap also reports its three kernels' time (profiling=true,
# kernel-ns of the last frame), with a fixed and a dynamic peak. Not a
# test; needs ffmpeg (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
export GST_CL_TUNE=${GST_CL_TUNE:-off}

size=${1:-1920x1080}
n=${2:-120}
content=${3:-bars}
m=$((n / 8))
w=${size%x*}
h=${size#*x}
frame=$((w * h * 3))
raw=$(mktemp --suffix=.p010)
trap 'rm -f "$raw"' EXIT

if [ "$content" = photos ]; then
  /usr/bin/python3 bench/hdrphotos.py "$w" "$h" "$n" "$raw"
else
  gst-launch-1.0 -q videotestsrc num-buffers="$n" pattern=smpte ! \
    video/x-raw,format=P010_10LE,width="$w",height="$h" ! \
    filesink location="$raw"
fi

# seconds a command takes
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

# the fastest of three runs of "$@"
fastest() {
  local t best=
  for _ in 1 2 3; do
    t=$(seconds "$@")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then
      best=$t
    fi
  done
  echo "$best"
}

# the milliseconds a frame of command "$@", a function of this script that
# takes its frame count from the variable f: FRAMES against FRAMES / 8,
# each the fastest of three runs (a busy moment of the machine in one run
# would otherwise land on a frame count)
per_frame() {
  local a b
  f=$n
  a=$(fastest "$@")
  f=$m
  b=$(fastest "$@")
  echo "($a - $b) * 1000 / ($n - $m)" | bc -l
}

recipe="zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,\
tonemap=hable:desat=0,zscale=t=bt709:m=bt709:r=tv,format=nv12"

# the pipelines and FFmpeg runs of f frames (extra arguments: cltonemap's
# properties, or FFmpeg's filters); messages=1: the pipeline's messages
gst_run() {
  gst-launch-1.0 ${messages:+-m} filesrc location="$raw" blocksize="$frame" num-buffers="$f" \
    ! rawvideoparse format=p010-10le width="$w" height="$h" \
    colorimetry=bt2100-pq ! "$@" ! fakesink
}
ff_run() {
  ffmpeg -hide_banner -loglevel error -f rawvideo -pix_fmt p010le -s "$size" \
    -color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc \
    -i "$raw" -frames:v "$f" "$@" -f null -
}

gst_read=$(per_frame gst_run identity)
ff_read=$(per_frame ff_run)
ff=$(per_frame ff_run -vf "$recipe")
printf '%s %s, %d frames against %d, %d CPU cores, OpenCL device %s\n' \
  "$size" "$content" "$n" "$m" "$(nproc)" "${GST_CL_DEVICE:-(default)}"
printf '%-34s %8.2f ms/frame\n' "ffmpeg zscale+tonemap=hable (CPU)" \
  "$(echo "$ff - $ff_read" | bc -l)"
for mode in fixed dynamic; do
  t=$(per_frame gst_run cltonemap peak-mode="$mode" curve=hable ! \
    video/x-raw,format=NV12)
  f=$n
  k=$(messages=1 gst_run cltonemap peak-mode="$mode" curve=hable \
    profiling=true ! video/x-raw,format=NV12 2>&1 |
    sed -n 's/.*cl-profile.*kernel-ns=(guint64)\([0-9]*\).*/\1/p' | tail -1)
  printf '%-34s %8.2f ms/frame (kernels %.2f ms)\n' \
    "cltonemap peak-mode=$mode" "$(echo "$t - $gst_read" | bc -l)" \
    "$(echo "${k:-0} / 1000000" | bc -l)"
done
