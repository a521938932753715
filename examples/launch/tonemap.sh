#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
# cltonemap: HDR (PQ) video to SDR with the peak measured in every frame,
# the peaks and scene cuts printed as they come (element messages).
#
#   examples/launch/tonemap.sh [-n FRAMES] [-i FILE.p010 -s WxH] [-o OUT.png]
#                              [PROP=VALUE...]
#
# Input: a raw P010_10LE PQ file (-i, with its size -s; ffmpeg writes one
# with -pix_fmt p010le -f rawvideo), or by default a test picture made HDR
# by its tags: videotestsrc's SMPTE bars in P010_10LE with bt2100-pq
# colorimetry (its 100 % white at 10000 nits, the 75 % bars near 1000). Output:
# the window (autovideosink), or OUT.png (the last frame), or "none".
# PROP=VALUE go to cltonemap, e.g. curve=hable target-peak=203.
#
#   examples/launch/tonemap.sh                         # window, 300 frames
#   examples/launch/tonemap.sh -n 10 -o none           # the messages only
#   examples/launch/tonemap.sh -n 5 -o out.png curve=reinhard
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${CLF_NO_BUILD_TREE:-}" ] && [ -d "$root/build/gst" ]; then
  # shellcheck source=../../scripts/env.sh
  source "$root/scripts/env.sh"
fi

frames=300 input="" size=1920x1080 output=window props=()
while [ $# -gt 0 ]; do
  case $1 in
    -n) frames=$2; shift 2 ;;
    -i) input=$2; shift 2 ;;
    -s) size=$2; shift 2 ;;
    -o) output=$2; shift 2 ;;
    -h|--help) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *=*) props+=("$1"); shift ;;
    *) echo "tonemap.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
w=${size%x*}
h=${size#*x}

if [ -n "$input" ]; then
  src="filesrc location=$input blocksize=$((w * h * 3)) num-buffers=$frames ! \
rawvideoparse format=p010-10le width=$w height=$h colorimetry=bt2100-pq"
else
  src="videotestsrc num-buffers=$frames pattern=smpte ! \
video/x-raw,format=P010_10LE,width=$w,height=$h,colorimetry=bt2100-pq"
fi
case $output in
  window) sink="videoconvert ! autovideosink" ;;
  none) sink="fakesink" ;;
  *.png) sink="videoconvert ! pngenc snapshot=false ! multifilesink location=$output max-files=1" ;;
  *) echo "tonemap.sh: output window, none or a .png file" >&2; exit 2 ;;
esac

# gst-launch-1.0 -m prints every message; the cltonemap ones are the
# element messages whose structure is named cltonemap (fields described in
# docs/elements/cltonemap.md, "The message")
# shellcheck disable=SC2086
gst-launch-1.0 -m $src ! cltonemap peak-mode=dynamic post-messages=true \
  "${props[@]}" ! video/x-raw,format=NV12 ! $sink |
  awk '
    /\(element\): cltonemap,/ { n++; sub(/.*\(element\): /, ""); print; fflush(); next }
    /^ERROR|^WARNING|^Additional/ { print; fflush() }
    END { if (n == 0) { print "tonemap.sh: no cltonemap message"; exit 1 } }
  '
